/**
 * url.ts: building request URLs, the User-Agent, the gateway and project in one spelling (the key
 * of the trigger's destinations; the rate plan's key is in rateScope.test.ts), and addresses fit
 * for a log line.
 */
import { PACKAGE_VERSION, USER_AGENT } from '../../dist/nodes/shared/common/constants';
import {
	addressForLog,
	baseUrlProblem,
	buildUrl,
	fillPath,
	gatewayScope,
	projectScope,
	joinUrl,
	normaliseBaseUrl,
} from '../../dist/nodes/shared/gateway/url';
import packageJson from '../../package.json';

describe('URL building', () => {
	it('joins base URL, prefix and path with single slashes', () => {
		expect(joinUrl('https://gw.example/', '/catplat/', '/v1/import/barcode')).toBe(
			'https://gw.example/catplat/v1/import/barcode',
		);
		expect(joinUrl('https://gw.example//', '', '/x')).toBe('https://gw.example/x');
	});

	it('puts the service prefix from the credential before the /v1/ paths only', () => {
		const prefixes = { sandboxOrderPrefix: '/fbpi', importPrefix: 'catplat' };
		expect(buildUrl('https://gw', 'CreateSandboxOrder', {}, prefixes)).toBe(
			'https://gw/fbpi/v1/sandbox-order/create',
		);
		expect(buildUrl('https://gw', 'GetImportStatus', { reference: 'R-1' }, prefixes)).toBe(
			'https://gw/catplat/v1/import/status/R-1',
		);
		expect(buildUrl('https://gw', 'GetPurchaseOrder', { po_nr: 'PO-1' }, prefixes)).toBe(
			'https://gw/fbpo/v1/po/PO-1/get',
		);
		expect(buildUrl('https://gw/', 'CreateBarcodeImport', {}, { importPrefix: '' })).toBe(
			'https://gw/v1/import/barcode',
		);
	});

	it.each([
		['../x', '/fbpo/v1/po/..%2Fx/get'],
		['a/b?c#d', '/fbpo/v1/po/a%2Fb%3Fc%23d/get'],
		['PO 1%', '/fbpo/v1/po/PO%201%25/get'],
	])('encodes the path parameter %j as one segment', (poNr, path) => {
		const url = buildUrl('https://gw', 'GetPurchaseOrder', { po_nr: poNr });
		expect(url).toBe(`https://gw${path}`);
		// The URL parser must not resolve it into another path.
		expect(new URL(url).pathname).toBe(path);
	});

	it.each(['.', '..'])('refuses the dot segment %j as a path parameter', (value) => {
		expect(() => buildUrl('https://gw', 'GetPurchaseOrder', { po_nr: value })).toThrow(
			`Path parameter "po_nr" cannot be "${value}"`,
		);
	});

	it('refuses to build a path with a missing parameter', () => {
		expect(() => fillPath('/po/{po_nr}/get', {})).toThrow('Missing path parameter "po_nr"');
	});

	it('sends a User-Agent naming the package and its version', () => {
		expect(PACKAGE_VERSION).toBe(packageJson.version);
		expect(USER_AGENT).toContain(`n8n-nodes-seller-platform/${packageJson.version}`);
	});
});

describe('the gateway and project in one spelling', () => {
	it.each([
		'https://gw.example',
		'https://gw.example/',
		' https://GW.Example:443// ',
		'HTTPS://gw.example:443',
	])('%s is https://gw.example', (spelling) => {
		expect(normaliseBaseUrl(spelling)).toBe('https://gw.example');
		expect(gatewayScope({ baseUrl: spelling, projectCode: ' PRJ1 ' })).toBe(
			'https://gw.example|PRJ1',
		);
	});

	it('keeps a path and another port; the key id stands in for a missing project', () => {
		expect(normaliseBaseUrl('http://127.0.0.1:8080/api/')).toBe('http://127.0.0.1:8080/api');
		expect(gatewayScope({ baseUrl: 'https://gw.example', projectCode: '', keyId: ' k1 ' })).toBe(
			'https://gw.example|k1',
		);
		expect(projectScope({ baseUrl: 'https://gw.example', projectCode: '', keyId: ' k1 ' })).toBe(
			'k1',
		);
		expect(projectScope({ baseUrl: 'https://sandbox.example', projectCode: ' PRJ1 ' })).toBe(
			'PRJ1',
		);
	});
});

describe('an address in a log line', () => {
	it.each([
		['https://user:secret@hooks.example/in?token=abc#x', 'https://hooks.example/in'],
		['https://hooks.example:8443/in/?sig=1', 'https://hooks.example:8443/in/'],
		['//user:secret@hooks.example/in?token=abc', '//hooks.example/in'],
		['not a url?token=abc', 'not a url'],
	])('%s is logged as %s', (address, logged) => {
		expect(addressForLog(address)).toBe(logged);
	});
});

describe('plain http: only for a local Base URL', () => {
	it.each([
		'http://127.0.0.1:8080',
		'http://localhost:3000/',
		'http://[::1]:9000',
		'http://10.0.0.5',
		'http://192.168.1.20:8080',
		'http://[fd00::2]',
		'http://files.localhost:8080',
		'http://LOCALHOST.:8080',
		'http://169.254.10.1',
		'https://noon-api-gateway.noon.partners',
	])('accepts %s', (baseUrl) => {
		expect(baseUrlProblem(baseUrl)).toBeUndefined();
	});

	it.each([
		['http://noon-api-gateway.noon.partners', 'noon-api-gateway.noon.partners'],
		['HTTP://Gateway.Noon.PARTNERS:8080/', 'gateway.noon.partners'],
	])('refuses %s, naming the host and why', (baseUrl, host) => {
		expect(baseUrlProblem(baseUrl)).toBe(
			`The "Base URL" field of the credential must start with https:// for ${host}: http:// would send the login token and the session in clear text, so it is accepted only for a loopback or private address or a local host name (such as a local emulator)`,
		);
	});
});

describe('the login token goes only to the gateway: which Base URL hosts are accepted', () => {
	const rule =
		'The login token, signed with the private key, names no gateway and logs in at the real one wherever it is sent: so it is sent only to a host under noon.partners (the noon and Namshi gateways, any port) or to a loopback or private address or a local host name (a local emulator, a tunnel you run).';

	it.each([
		'https://noon-api-gateway.noon.partners',
		'https://noon-sandbox-api-gateway.noon.partners/',
		'https://namshi-api-gateway.noon.partners',
		'https://NOON-API-GATEWAY.noon.partners.',
		'https://staging.gateway.noon.partners:8443/base',
		'https://noon.partners',
		'https://127.0.0.1:8443',
		'https://10.1.2.3',
	])('accepts %s', (baseUrl) => {
		expect(baseUrlProblem(baseUrl)).toBeUndefined();
	});

	it.each([
		['https://gateway.example.com', 'gateway.example.com'],
		['https://203.0.113.7', '203.0.113.7'],
		['https://[2001:db8::1]:8443', '[2001:db8::1]'],
		['https://noon.partners.evil.example', 'noon.partners.evil.example'],
		['https://evilnoon.partners', 'evilnoon.partners'],
		['https://noon-api-gateway.noon.partners@evil.example', 'evil.example'],
		['HTTP://Example.COM/', 'example.com'],
		['http://localhost.example.com', 'localhost.example.com'],
		['https://evil.example\\.noon.partners', 'evil.example'],
		// NAT64 for local use translates to any IPv4 host (here 8.8.8.8), public ones too.
		['https://[64:ff9b:1::808:808]', '[64:ff9b:1::808:808]'],
		// A single label with its final dot is a top-level domain, never a local name.
		['https://ai.', 'ai.'],
		['http://ai.:8080', 'ai.'],
		// Even with the setting for local names: a top-level domain, a public address.
		['http://ai.', 'ai.', true],
		['http://100.128.0.1', '100.128.0.1', true],
	])(
		'refuses %s, naming the host, the hosts allowed and why',
		(baseUrl, host, localNames = false) => {
			expect(baseUrlProblem(baseUrl, localNames)).toBe(
				`The "Base URL" field of the credential names ${host}, which is not a Seller Platform gateway, so nothing was sent. ${rule}`,
			);
		},
	);
});

describe('names a resolver may complete, and carrier NAT: only with the setting', () => {
	const refusal = (host: string, what: string) =>
		`The "Base URL" field of the credential names ${host}, ${what}, so nothing was sent. Use localhost or the host's IP address, or turn on "Allow Local Names and Carrier NAT" in the credential if that host is on your own network.`;
	const SEARCHED =
		'a name that the resolver may complete with its search domains, which may be public (a single label, or a name under .local, .internal, .lan or .home.arpa)';
	const SHARED =
		'a carrier-NAT address (100.64.0.0/10, which the network provider may share with its other customers)';

	it.each([
		['http://ai', 'ai', SEARCHED],
		['http://emulator:8080', 'emulator', SEARCHED],
		['https://emulator:8443', 'emulator', SEARCHED],
		['http://x.lan', 'x.lan', SEARCHED],
		['http://x.lan.', 'x.lan.', SEARCHED],
		['http://router.home.arpa', 'router.home.arpa', SEARCHED],
		['http://seller-platform.local', 'seller-platform.local', SEARCHED],
		['https://gateway.internal', 'gateway.internal', SEARCHED],
		['http://gateway.internal:8443', 'gateway.internal', SEARCHED],
		['http://100.64.1.2', '100.64.1.2', SHARED],
		['https://100.127.255.254', '100.127.255.254', SHARED],
		['http://[::ffff:100.64.1.2]', '[::ffff:6440:102]', SHARED],
	])('refuses %s by default, naming the host, the rule and the setting', (baseUrl, host, what) => {
		expect(baseUrlProblem(baseUrl)).toBe(refusal(host, what));
	});

	it.each([
		'http://ai',
		'http://emulator:8080',
		'http://x.lan',
		'http://router.home.arpa',
		'http://seller-platform.local',
		'https://gateway.internal',
		'http://100.64.1.2',
		'http://[::ffff:100.64.1.2]',
	])('accepts %s with the setting', (baseUrl) => {
		expect(baseUrlProblem(baseUrl, true)).toBeUndefined();
	});

	it('never shows more of the Base URL than its host', () => {
		const message = baseUrlProblem('http://user:pw@ai:8080/path?key=secret#frag');
		expect(message).toContain('names ai,');
		expect(message).not.toMatch(/user|pw|path|secret|frag|8080/);
	});
});
