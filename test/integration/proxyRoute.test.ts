/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * No proxy gets the login token or the session, and each login attempt signs a token of its own.
 *
 * n8n's HTTP client (n8n-core's helpers, here n8n-core 2.40's @n8n/backend-network) sends a
 * request through the proxy its environment names (HTTP_PROXY, HTTPS_PROXY; NO_PROXY) unless the
 * request names a proxy of its own. Here HTTP_PROXY and HTTPS_PROXY name a loopback proxy that
 * records every request it gets (and forwards it to the emulator, whatever host was asked for, so
 * a route through it works), and NO_PROXY is unset: the emulator's loopback Base URL is not in it.
 * The variables are set for each test and restored after it.
 *
 * Also the host rule: a single-label name, a name under .lan (a resolver may complete either with
 * its search domains) and a carrier-NAT address are refused unless the credential allows them.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'http';
import type { AddressInfo } from 'net';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { credentialFields, LOGIN_PATH, SEEDED_PO, startEmulator, type Emulator } from '../emulator';
import { chain, createTestEnvironment, type TestEnvironment } from '../helpers';

interface Received {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
	body: string;
}

/**
 * A loopback proxy: records each plain request (its absolute target, headers and body) and
 * forwards it to the emulator; records each CONNECT (the host and port of a tunnel) and closes it.
 */
async function startRecordingProxy(emulator: Emulator) {
	const received: Received[] = [];
	const connects: string[] = [];
	const upstream = new URL(emulator.baseUrl);
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			const url = req.url ?? '/';
			received.push({ method: req.method ?? '', url, headers: req.headers, body: String(body) });
			const target = new URL(url, 'http://unknown');
			const forward = httpRequest(
				{
					host: upstream.hostname,
					port: upstream.port,
					method: req.method,
					path: `${target.pathname}${target.search}`,
					headers: req.headers,
				},
				(answer) => {
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
				},
			);
			forward.on('error', () => res.writeHead(502).end());
			forward.end(body);
		});
	});
	server.on('connect', (req, socket) => {
		connects.push(String(req.url));
		socket.destroy();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		received,
		connects,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

const PROXY_VARIABLES = [
	'HTTP_PROXY',
	'http_proxy',
	'HTTPS_PROXY',
	'https_proxy',
	'NO_PROXY',
	'no_proxy',
];

let emulator: Emulator;
let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
let env: TestEnvironment;
let saved: Record<string, string | undefined>;

beforeEach(async () => {
	emulator = await startEmulator();
	proxy = await startRecordingProxy(emulator);
	env = createTestEnvironment();
	saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]));
	for (const name of PROXY_VARIABLES) delete process.env[name];
	Object.assign(process.env, { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url });
});
afterEach(async () => {
	for (const [name, value] of Object.entries(saved)) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
	await proxy.close();
	await emulator.close();
});

function saveCredential(overrides: ICredentialDataDecryptedObject = {}): void {
	env.addCredential('cred-1', 'sellerPlatformApi', credentialFields(emulator, overrides));
}

const requestsOf = (operation: string) =>
	emulator.requests().filter((r) => r.operation === operation);

/** The `jti` claim of a login body's token. */
function jtiOf(body: unknown): string {
	const token = String((body as { token?: unknown }).token);
	return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')).jti;
}

const GET_PO = {
	name: 'Seller Platform',
	type: 'sellerPlatform',
	parameters: { resource: 'purchaseOrder', operation: 'get', poNr: SEEDED_PO.released },
	credentials: { sellerPlatformApi: 'cred-1' },
};
const runGetPo = async () =>
	await env.runWorkflow({
		nodes: [{ name: 'Items', type: 'testItems', parameters: { items: '[{}]' } }, GET_PO],
		connections: chain('Items', GET_PO.name),
	});

const HTTP_NODE = 'HTTP Request';
const runHttpRequest = async (helper: string, parameters: Record<string, unknown> = {}) =>
	await env.runWorkflow({
		nodes: [
			{ name: 'Items', type: 'testItems', parameters: { items: '[{}]' } },
			{
				name: HTTP_NODE,
				type: 'testHttpRequest',
				parameters: {
					url: `${emulator.baseUrl}/fbpo/v1/po/${SEEDED_PO.released}/get`,
					helper,
					...parameters,
				},
				credentials: { sellerPlatformApi: 'cred-1' },
			},
		],
		connections: chain('Items', HTTP_NODE),
	});

describe('HTTP_PROXY set, an http:// loopback Base URL not in NO_PROXY', () => {
	it("the node's login and requests go straight to the Base URL: the proxy gets nothing", async () => {
		saveCredential();
		const result = await runGetPo();

		expect(result.json('Seller Platform')[0]).toMatchObject({ po_nr: SEEDED_PO.released });
		expect(proxy.received).toEqual([]);
		expect(requestsOf('Login').map((r) => r.status)).toEqual([200]);
		expect(requestsOf('GetPurchaseOrder')[0].headers.cookie).toMatch(/_npsid=/);
	});

	it("the credential's Test goes straight to the Base URL: the proxy gets nothing", async () => {
		saveCredential();
		expect(await env.testCredential('cred-1')).toMatchObject({ status: 'OK' });
		expect(proxy.received).toEqual([]);
		expect(requestsOf('Login')).toHaveLength(1);
	});

	it.each(['requestWithAuthentication', 'httpRequestWithAuthentication'])(
		'the HTTP Request node through n8n-core %s: the session goes straight to the Base URL',
		async (helper) => {
			saveCredential();
			const result = await runHttpRequest(helper);

			expect(result.json(HTTP_NODE)[0]).toMatchObject({ po_nr: SEEDED_PO.released });
			expect(proxy.received).toEqual([]);
			expect(requestsOf('GetPurchaseOrder')[0].headers.cookie).toMatch(/_npsid=/);
		},
	);

	it('with "Allow Proxy" on, the login and the requests go through the proxy', async () => {
		saveCredential({ gateway: 'custom', allowProxy: true });
		const result = await runGetPo();

		expect(result.json('Seller Platform')[0]).toMatchObject({ po_nr: SEEDED_PO.released });
		const paths = proxy.received.map((r) => new URL(r.url).pathname);
		expect(paths[0]).toBe(LOGIN_PATH);
		expect(proxy.received[0].body).toMatch(/"token":"eyJ/);
		expect(paths).toContain(`/fbpo/v1/po/${SEEDED_PO.released}/get`);
	});

	it.each(['requestWithAuthentication', 'httpRequestWithAuthentication'])(
		'with "Allow Proxy" on, the HTTP Request node\'s own Proxy option is used (%s)',
		async (helper) => {
			delete process.env.HTTP_PROXY;
			saveCredential({ gateway: 'custom', allowProxy: true });
			const result = await runHttpRequest(helper, { proxy: proxy.url });

			expect(result.json(HTTP_NODE)[0]).toMatchObject({ po_nr: SEEDED_PO.released });
			expect(proxy.received.map((r) => r.headers.cookie)).toEqual([
				expect.stringMatching(/_npsid=/),
			]);
		},
	);
});

describe('HTTPS_PROXY set, an https:// Base URL', () => {
	it('n8n reaches it only through a tunnel (CONNECT): the proxy never reads a request', async () => {
		// Nothing answers TLS here: the login fails, after the proxy was asked for a tunnel only.
		const baseUrl = 'https://127.0.0.1:9';
		saveCredential({ gateway: 'custom', baseUrl });
		const result = await env.testCredential('cred-1');

		expect(result.status).toBe('Error');
		expect(proxy.connects.length).toBeGreaterThan(0);
		expect(new Set(proxy.connects)).toEqual(new Set(['127.0.0.1:9']));
		expect(proxy.received).toEqual([]);
	});
});

describe('a login token is sent once', () => {
	it('a 503, then a 200: the second attempt sends a token of its own (another jti)', async () => {
		saveCredential();
		emulator.injectFaults({ count: 1, status: 503, operation: 'Login' });
		expect(await env.testCredential('cred-1')).toMatchObject({ status: 'OK' });

		const logins = requestsOf('Login');
		expect(logins.map((r) => r.status)).toEqual([503, 200]);
		const [first, second] = logins.map((r) => jtiOf(r.body));
		expect(first).toMatch(/^[0-9a-f-]{36}$/);
		expect(second).not.toBe(first);
	});
});

describe('hosts a resolver may complete, and carrier NAT', () => {
	const rule = (host: string, what: string) =>
		`The "Base URL" field of the credential names ${host}, ${what}, so nothing was sent. Use localhost or the host's IP address, or turn on "Allow Local Names and Carrier NAT" in the credential if that host is on your own network.`;
	const SEARCHED =
		'a name that the resolver may complete with its search domains, which may be public (a single label, or a name under .local, .internal, .lan or .home.arpa)';
	const SHARED =
		'a carrier-NAT address (100.64.0.0/10, which the network provider may share with its other customers)';

	it.each([
		['http://ai', 'ai', SEARCHED],
		['http://x.lan:8080', 'x.lan', SEARCHED],
		['http://100.64.1.2', '100.64.1.2', SHARED],
	])('%s is refused before anything is sent, naming the setting', async (baseUrl, host, what) => {
		saveCredential({ gateway: 'custom', baseUrl });
		const result = await env.testCredential('cred-1');

		expect(result).toEqual({ status: 'Error', message: rule(host, what) });
		expect(proxy.received).toEqual([]);
		expect(emulator.requests()).toEqual([]);
	});

	// Allowed: the login reaches the host (through the proxy the credential also allows, which
	// plays that host here: no resolver or carrier network is needed).
	it.each(['http://ai', 'http://x.lan:8080', 'http://100.64.1.2'])(
		'%s is allowed with "Allow Local Names and Carrier NAT" on',
		async (baseUrl) => {
			saveCredential({ gateway: 'custom', baseUrl, allowLocalNames: true, allowProxy: true });
			expect(await env.testCredential('cred-1')).toMatchObject({ status: 'OK' });
			expect(new URL(proxy.received[0].url).origin).toBe(new URL(baseUrl).origin);
			expect(requestsOf('Login').map((r) => r.status)).toEqual([200]);
		},
	);

	it.each(['127.0.0.1', 'localhost'])('%s keeps working without the setting', async (host) => {
		const baseUrl = emulator.baseUrl.replace('127.0.0.1', host);
		saveCredential({ gateway: 'custom', baseUrl });
		expect(await env.testCredential('cred-1')).toMatchObject({ status: 'OK' });
		expect(proxy.received).toEqual([]);
	});
});
