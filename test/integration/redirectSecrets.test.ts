/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The session never follows a redirect, in any n8n configuration. With SSRF protection on
 * (`N8N_SSRF_PROTECTION_ENABLED=true`) and a proxy variable set (`HTTP_PROXY`, the loopback
 * servers in `NO_PROXY`), n8n-core follows redirects itself (@n8n/backend-network
 * `followSsrfRedirects`) and keeps the `Cookie` header across origins unless the request says
 * `sendCredentialsOnCrossOriginRedirect: false`. The HTTP Request node with this credential, sent
 * to the gateway, answered by a redirect to a second loopback server: that server must get no
 * cookie, through either n8n helper.
 *
 * The variables are set before n8n's outbound HTTP service is first made (it reads its SSRF
 * configuration then), for this test file only.
 */
import { createServer, type IncomingHttpHeaders } from 'http';
import type { AddressInfo } from 'net';

import { credentialFields, SEEDED_PO, startEmulator, type Emulator } from '../emulator';
import { chain, createTestEnvironment, type TestEnvironment } from '../helpers';

Object.assign(process.env, {
	N8N_SSRF_PROTECTION_ENABLED: 'true',
	// The emulator and the second server listen on loopback, which SSRF protection blocks.
	N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.0/8',
	// A proxy no request here uses (every server is in NO_PROXY): its variable alone makes n8n
	// follow redirects itself.
	HTTP_PROXY: 'http://127.0.0.1:9',
	NO_PROXY: '127.0.0.1,localhost',
});

/** A second loopback server, another origin: records the Cookie header of whatever reaches it. */
async function startSecondServer() {
	const received: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
	const server = createServer((req, res) => {
		received.push({ url: req.url ?? '', headers: req.headers });
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end('{"reached":"second server"}');
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
let second: Awaited<ReturnType<typeof startSecondServer>>;
let env: TestEnvironment;

beforeEach(async () => {
	emulator = await startEmulator();
	second = await startSecondServer();
	env = createTestEnvironment();
	env.addCredential('cred-1', 'sellerPlatformApi', credentialFields(emulator));
});
afterEach(async () => {
	await second.close();
	await emulator.close();
});

const run = async (helper: string) =>
	await env.runWorkflow({
		nodes: [
			{ name: 'Items', type: 'testItems', parameters: { items: '[{}]' } },
			{
				name: NODE,
				type: 'testHttpRequest',
				parameters: { url: `${emulator.baseUrl}${PO_PATH}`, helper, fullResponse: true },
				credentials: { sellerPlatformApi: 'cred-1' },
			},
		],
		connections: chain('Items', NODE),
	});

describe.each(['requestWithAuthentication', 'httpRequestWithAuthentication'])(
	'SSRF protection and HTTP_PROXY set: the HTTP Request node through n8n-core %s',
	(helper) => {
		it('with these variables set, a request to the gateway works (loopback allowed)', async () => {
			const result = await run(helper);
			expect(result.json(NODE)[0]).toMatchObject({ body: { po_nr: SEEDED_PO.released } });
		});

		it.each([302, 307])(
			'a %s from the gateway to another origin: no cookie reaches that origin',
			async (status) => {
				await run(helper); // logged in: the session is stored
				expect(env.credentialData('cred-1').sessionCookie).toMatch(/_npsid=/);
				emulator.injectFaults({
					count: 1,
					operation: 'GetPurchaseOrder',
					redirect: { location: `${second.url}/elsewhere`, status },
				});

				const result = await run(helper);

				// (n8n's legacy helper sends the request once more after any failure: to the gateway.)
				const sent = emulator.requests().filter((r) => r.operation === 'GetPurchaseOrder');
				expect(sent.slice(0, 2).map((r) => [r.status, typeof r.headers.cookie])).toEqual([
					[200, 'string'],
					[status, 'string'],
				]);
				expect(second.received.map((r) => r.headers.cookie)).toEqual([]);
				// The gateway's redirect is not followed: the legacy helper's second try (at the gateway)
				// answers, the newer helper reports the redirect status as the error.
				if (helper === 'requestWithAuthentication') {
					expect(result.json(NODE)[0]).toMatchObject({ statusCode: 200 });
				} else {
					expect(result.nodeError(NODE)?.message).toBe(`Request failed with status code ${status}`);
				}
			},
		);
	},
);
