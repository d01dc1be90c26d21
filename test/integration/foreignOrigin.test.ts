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
	extra: Record<string, string> = {},
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
	it("n8n's HTTP Request node posting to the login endpoint: a 307 elsewhere is not followed", async () => {
		await env.runWorkflow(
			requestWorkflow(`${emulator.baseUrl}${PO_PATH}`, 'requestWithAuthentication'),
		);
		emulator.injectFaults({
			count: 1,
			operation: 'Login',
			redirect: { location: `${foreign.url}${LOGIN_PATH}`, status: 307 },
		});

		await env.runWorkflow(
			requestWorkflow(`${emulator.baseUrl}${LOGIN_PATH}`, 'requestWithAuthentication', {
				method: 'POST',
			}),
		);

		expect(logins().map((r) => r.status)).toContain(307);
		expect(foreign.received).toEqual([]);
	});

	it("the credential's Test: a 307 from the login endpoint is not followed, and the message says so", async () => {
		expect(await env.testCredential('cred-1')).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		emulator.injectFaults({
			count: 1,
			operation: 'Login',
			redirect: { location: `${foreign.url}${LOGIN_PATH}`, status: 307 },
		});

		const result = await env.testCredential('cred-1');

		expect(result).toEqual({
			status: 'Error',
			message:
				'The login at the Base URL answered with a redirect (HTTP 307), which is not followed so that the login token never leaves the Base URL: check the Base URL (its scheme, host and port)',
		});
		expect(logins().at(-1)?.status).toBe(307);
		expect(foreign.received).toEqual([]);
	});
});
