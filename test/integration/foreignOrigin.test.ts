/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The credential's secrets never leave the gateway's origin. Any user of a shared credential can
 * point n8n's HTTP Request node ("Predefined Credential Type") at any URL; the credential's
 * `authenticate` then runs for it. Here that request is made through n8n-core's own helpers (the
 * legacy `requestWithAuthentication` the HTTP Request node uses, and `httpRequestWithAuthentication`)
 * at a second loopback server, which must receive nothing: no login token, no session cookie.
 * Redirects must not carry the token away either: not from the credential's "Test", not from a
 * login sent through the HTTP Request node.
 */
import { createServer, type IncomingHttpHeaders } from 'http';
import type { AddressInfo } from 'net';

import { loginFingerprint } from '../../dist/nodes/shared/auth/login';
import { credentialFields, LOGIN_PATH, SEEDED_PO, startEmulator, type Emulator } from '../emulator';
import { chain, createTestEnvironment, type TestEnvironment, type TestWorkflow } from '../helpers';

interface Received {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
	body: string;
}

/** A loopback server that is not the gateway: records whatever reaches it, answers 200 `{}`. */
async function startForeignServer() {
	const received: Received[] = [];
	const server = createServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
		req.on('end', () => {
			received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end('{}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		received,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

const NODE = 'HTTP Request';
const PO_PATH = `/fbpo/v1/po/${SEEDED_PO.released}/get`;

let emulator: Emulator;
let foreign: Awaited<ReturnType<typeof startForeignServer>>;
let env: TestEnvironment;

beforeEach(async () => {
	emulator = await startEmulator();
	foreign = await startForeignServer();
	env = createTestEnvironment();
	env.addCredential('cred-1', 'sellerPlatformApi', credentialFields(emulator));
});
afterEach(async () => {
	await foreign.close();
	await emulator.close();
});

/** Manual start → a request with the credential, as n8n's HTTP Request node makes it. */
function requestWorkflow(
	url: string,
	helper: string,
	extra: Record<string, string | boolean> = {},
): TestWorkflow {
	return {
		nodes: [
			{ name: 'Items', type: 'testItems', parameters: { items: '[{}]' } },
			{
				name: NODE,
				type: 'testHttpRequest',
				parameters: { url, helper, ...extra },
				credentials: { sellerPlatformApi: 'cred-1' },
			},
		],
		connections: chain('Items', NODE),
	};
}

const logins = () => emulator.requests().filter((r) => r.operation === 'Login');
const gatewayOrigin = () => new URL(emulator.baseUrl).origin;

describe.each(['requestWithAuthentication', 'httpRequestWithAuthentication'])(
	'a request through n8n-core %s',
	(helper) => {
		it('works on the gateway; to another server it sends neither token nor cookie, and says why', async () => {
			const onGateway = await env.runWorkflow(
				requestWorkflow(`${emulator.baseUrl}${PO_PATH}`, helper),
			);
			expect(onGateway.json(NODE)[0]).toMatchObject({ po_nr: SEEDED_PO.released });
			const session = env.credentialData('cred-1').sessionCookie as string;
			expect(session).toMatch(/_npsid=/);
			expect(logins()).toHaveLength(1);

			for (const [method, path] of [
				['GET', PO_PATH],
				['POST', LOGIN_PATH],
			]) {
				const result = await env.runWorkflow(
					requestWorkflow(`${foreign.url}${path}`, helper, { method }),
				);
				const error = result.nodeError(NODE);
				expect(error?.message).toBe(
					`The Seller Platform API credential sends its session and login token only to its Base URL (${gatewayOrigin()}): this request to ${foreign.url} was not sent`,
				);
				expect(error?.description).toBe(
					`Use this credential only for requests to ${gatewayOrigin()}, or correct the Base URL of the credential. For another service, use a credential of its own.`,
				);
				expect(JSON.stringify(result.run)).not.toContain(session);
			}
			expect(foreign.received).toEqual([]);
			// Refused, not logged in again: n8n's legacy helper repeats its login after any failure.
			expect(logins()).toHaveLength(1);
			expect(env.credentialData('cred-1').sessionCookie).toBe(session);
		});
	},
);

describe('without a session yet', () => {
	it('n8n logs in at the gateway first (it runs the login before the request), then refuses the request', async () => {
		const result = await env.runWorkflow(
			requestWorkflow(`${foreign.url}${PO_PATH}`, 'requestWithAuthentication'),
		);
		expect(result.nodeError(NODE)?.message).toMatch(/only to its Base URL .* was not sent$/);
		expect(foreign.received).toEqual([]);
		expect(logins().map((r) => r.status)).toEqual([200]);
	});
});

describe('the origin is compared as URLs normalise it', () => {
	it('the gateway in another spelling (scheme case, trailing slash) is the gateway', async () => {
		env.addCredential(
			'cred-1',
			'sellerPlatformApi',
			credentialFields(emulator, { baseUrl: `${emulator.baseUrl}/` }),
		);
		const url = `${emulator.baseUrl.replace('http:', 'HTTP:')}${PO_PATH}`;
		const result = await env.runWorkflow(requestWorkflow(url, 'requestWithAuthentication'));
		expect(result.json(NODE)[0]).toMatchObject({ po_nr: SEEDED_PO.released });
	});

	it('the same server under another host name is another origin', async () => {
		const port = new URL(emulator.baseUrl).port;
		const url = `http://localhost:${port}${PO_PATH}`;
		const result = await env.runWorkflow(requestWorkflow(url, 'requestWithAuthentication'));
		expect(result.nodeError(NODE)?.message).toBe(
			`The Seller Platform API credential sends its session and login token only to its Base URL (${gatewayOrigin()}): this request to http://localhost:${port} was not sent`,
		);
		expect(emulator.requests().filter((r) => r.operation !== 'Login')).toEqual([]);
	});
});

describe('a login token never follows a redirect', () => {
	it("the credential's Test: a 307 from the login endpoint is not followed, and the message says so", async () => {
		emulator.injectFaults({
			count: 1,
			operation: 'Login',
			redirect: { location: `${foreign.url}${LOGIN_PATH}`, status: 307 },
		});

		const result = await env.testCredential('cred-1');

		expect(result.status).toBe('Error');
		expect(env.logins[0].error?.message).toBe(
			`The Seller Platform login was redirected to another origin (${foreign.url}) and was not followed`,
		);
		expect(logins().map((r) => r.status)).toEqual([307]);
		expect(foreign.received).toEqual([]);
	});
});

/**
 * A user of a shared credential must not get its login token or session through a route they
 * control: a proxy of theirs (TLS terminated there), certificate checks turned off, or the login
 * endpoint's answer shown as a full response.
 */
describe('secrets only on a straight route to the gateway', () => {
	/** A gateway that is not a loopback address (only a loopback emulator may be reached otherwise). */
	const GATEWAY = 'http://10.20.30.40:8443';
	const SESSION = '_npsid=session-of-the-test; _npgw=gateway-of-the-test';

	/** The credential on `GATEWAY`, with a session as n8n would have stored it after a login. */
	function remoteCredential(baseUrl = GATEWAY): void {
		const fields = credentialFields(emulator, { baseUrl });
		env.addCredential('cred-1', 'sellerPlatformApi', {
			...fields,
			sessionCookie: SESSION,
			sessionFingerprint: loginFingerprint({ ...fields }),
		});
	}

	describe.each(['requestWithAuthentication', 'httpRequestWithAuthentication'])('%s', (helper) => {
		it.each([
			['GET', PO_PATH],
			['POST', LOGIN_PATH],
		])(
			'through a proxy: a %s to %s is not sent, the proxy receives nothing',
			async (method, path) => {
				remoteCredential();
				const result = await env.runWorkflow(
					requestWorkflow(`${GATEWAY}${path}`, helper, { method, proxy: foreign.url }),
				);
				const route = path === LOGIN_PATH ? 'to the login endpoint' : 'through a proxy';
				expect(result.nodeError(NODE)?.message).toBe(
					`The Seller Platform API credential adds its session or login token only to requests that go straight to its Base URL: this request ${route} was not sent`,
				);
				expect(foreign.received).toEqual([]);
				expect(JSON.stringify(result.run)).not.toContain('session-of-the-test');
			},
		);

		it('with certificate checks turned off: not sent', async () => {
			remoteCredential('https://gateway.noon.partners');
			const result = await env.runWorkflow(
				requestWorkflow(`https://gateway.noon.partners${PO_PATH}`, helper, { ignoreSsl: true }),
			);
			expect(result.nodeError(NODE)?.message).toMatch(
				/this request with certificate checks turned off \(Ignore SSL Issues\) was not sent$/,
			);
		});

		it('to the login endpoint with the full response: refused, no session in the output', async () => {
			const result = await env.runWorkflow(
				requestWorkflow(`${emulator.baseUrl}${LOGIN_PATH}`, helper, {
					method: 'POST',
					fullResponse: true,
				}),
			);
			expect(result.nodeError(NODE)?.message).toMatch(
				/this request to the login endpoint was not sent$/,
			);
			// The credential's own login (n8n runs it before the request) is the only one.
			expect(logins()).toHaveLength(1);
			expect(JSON.stringify(result.run)).not.toMatch(/set-cookie|_npsid|_npgw/i);
		});

		it('a loopback emulator may be reached with certificate checks off (nothing crosses a network)', async () => {
			const result = await env.runWorkflow(
				requestWorkflow(`${emulator.baseUrl}${PO_PATH}`, helper, { ignoreSsl: true }),
			);
			expect(result.json(NODE)[0]).toMatchObject({ po_nr: SEEDED_PO.released });
		});
	});
});
