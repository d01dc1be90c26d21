/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * One n8n, many users: what the adversarial review of the co-tenant rules found (a flushed proven
 * set, a redirect taken for proof, an unproven credential using up the plan, a full limiter
 * registry, the absolute-form request line), each a test that failed before its fix.
 */
import { createHash } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

// The kit runs the package as n8n loads it, from dist/: these are the instances it runs.
import { loginFingerprint } from '../../dist/nodes/shared/auth/login';
import { isProven, MAX_PROVEN_IDENTITIES, noteProven } from '../../dist/nodes/shared/auth/proven';
import { requestsPerMinuteField } from '../../dist/nodes/shared/credential/fields';
import { rateScope } from '../../dist/nodes/shared/gateway/url';
import { limiters, MAX_LIMITERS } from '../../dist/nodes/shared/pacing/limiters';
import { credentialFields } from '../emulator';
import {
	bulkPoItems,
	CREDENTIAL_ID,
	GET_PO,
	startFixture,
	workflowWithItems,
	type Fixture,
} from './fixture';

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

let f: Fixture | undefined;
const servers: Server[] = [];
afterEach(async () => {
	for (const server of servers.splice(0)) {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	}
	await f?.close();
	f = undefined;
});

/**
 * A co-tenant's busy limiters: `count` (rate scope, endpoint, plan) keys that each started a
 * request in the last minute, as `count` / 60 credentials (Base URL paths of one server of its
 * own, any key: nothing need be proven) running every endpoint once a minute would leave. A
 * limiter with a start in its window is "in use" (`PlanLimiter.idle`), so none is dropped.
 */
async function coTenantBusyLimiters(count: number) {
	for (let i = 0; i < count; i++) {
		const scope = digest(`http://127.0.0.1:9/p${i}\u0000PRJ-CO-TENANT`);
		const limiter = limiters.get(scope, 'GetPurchaseOrder', 60);
		(await limiter.acquire()).finished(undefined, 'answered');
	}
}

const runVictim = async (items: number) => {
	const workflow = workflowWithItems(bulkPoItems(items), GET_PO, { continueOnFail: true });
	const result = await f!.env.runWorkflow(workflow);
	return result.outputs('Seller Platform').map((item) => item.json);
};
const sentToGateway = () =>
	f!.emulator.requests().filter((r) => r.operation === 'GetPurchaseOrder').length;

describe("a co-tenant's logins at its own server never push a gateway identity out of the proven set", () => {
	it('the victim stays proven after MAX_PROVEN_IDENTITIES logins at a server of the co-tenant', () => {
		const victim: ICredentialDataDecryptedObject = {
			gateway: 'custom',
			baseUrl: 'https://api.noon.partners',
			keyId: 'victim-key',
			privateKey: 'victim-private-key',
			projectCode: 'PRJ-VICTIM',
		};
		const identity = loginFingerprint(victim);
		noteProven(identity, true); // the victim's login succeeded at the real gateway
		// The co-tenant's server logs anyone in: each made-up key id is one successful login
		// (session.ts sharedLogin notes each as proven), each a distinct identity.
		for (let i = 0; i < MAX_PROVEN_IDENTITIES; i++) {
			noteProven(loginFingerprint({ ...victim, baseUrl: 'http://127.0.0.1:9', keyId: `k${i}` }));
		}
		// Unproven, the victim's next real 429 neither pauses its other runs nor cuts their share
		// (pacing/paced.ts noteFailure): they keep sending into the gateway's 429s.
		expect(isProven(identity)).toBe(true);
	});
});

/**
 * The gateway as another implementation may run it, in front of the emulator: a request without a
 * session it knows is redirected to a sign-in page (302) instead of answered 401. Everything else
 * passes through (a plain-http request names its whole address: only its path is forwarded).
 */
async function redirectingGateway(upstream: string, originFormOnly = false) {
	const up = new URL(upstream);
	const server = createServer((req, res) => {
		// A server that reads the request line's target as a path (as many small servers and
		// routers do) answers an absolute-form request line 400.
		if (originFormOnly && !(req.url ?? '').startsWith('/')) {
			req.resume();
			res
				.writeHead(400, { 'Content-Type': 'application/json' })
				.end('{"message":"bad request target"}');
			return;
		}
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const target = new URL(req.url ?? '/', 'http://gateway');
			const forward = httpRequest(
				{
					host: up.hostname,
					port: up.port,
					method: req.method,
					path: `${target.pathname}${target.search}`,
					headers: { ...req.headers, host: up.host },
				},
				(answer) => {
					if (answer.statusCode === 401 && !originFormOnly) {
						answer.resume();
						res.writeHead(302, { Location: '/sign-in' }).end();
						return;
					}
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
				},
			);
			forward.on('error', () => res.writeHead(502).end());
			forward.end(Buffer.concat(chunks));
		});
	});
	servers.push(server);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('only a success proves an identity', () => {
	it("a made-up session redirected to a sign-in page, then answered 429: the victim's run is not held up", async () => {
		f = await startFixture({ ratePlan: null });
		const baseUrl = await redirectingGateway(f.emulator.baseUrl);
		f.env.addCredential(
			CREDENTIAL_ID,
			'sellerPlatformApi',
			credentialFields(f.emulator, { baseUrl }),
		);
		// The co-tenant: the victim's Base URL and Project Code (no secret), a key the gateway does
		// not know, a stored session nobody obtained (so n8n sends the request without logging in).
		f.env.addCredential(
			'made-up',
			'sellerPlatformApi',
			credentialFields(f.emulator, {
				baseUrl,
				keyId: 'made-up-key',
				sessionCookie: '_npsid=made-up; _npgw=made-up',
			}),
		);
		const runAs = async (name: string, items: number) => {
			const workflow = workflowWithItems(bulkPoItems(items), GET_PO, { continueOnFail: true });
			workflow.nodes[1].credentials = { sellerPlatformApi: name };
			const result = await f!.env.runWorkflow(workflow);
			return result.outputs('Seller Platform').map((item) => item.json);
		};
		expect((await runAs(CREDENTIAL_ID, 1))[0].error).toBeUndefined(); // the victim works

		// The made-up session is redirected (302: below 400, so "proven"), then answered 429.
		expect(String((await runAs('made-up', 1))[0].error)).not.toBe('undefined');
		f.emulator.injectFaults({
			count: 1,
			status: 429,
			retryAfter: 3600,
			operation: 'GetPurchaseOrder',
		});
		expect(String((await runAs('made-up', 1))[0].error)).toMatch(/Retry-After 3600 s/);

		// Before the co-tenant's runs the victim's run completed; now it fails at once, sending
		// nothing ("… its Retry-After to an earlier request").
		const out = await runAs(CREDENTIAL_ID, 3);
		expect(out.map((item) => item.error)).toEqual([undefined, undefined, undefined]);
	});
});

describe('an http:// Base URL gets requests in the absolute form unless Allow Proxy is on', () => {
	it('a local gateway that takes only origin-form request lines gets the login and the request with Allow Proxy on (no proxy in the environment), as docs/credential.md says', async () => {
		f = await startFixture({ ratePlan: null });
		const baseUrl = await redirectingGateway(f.emulator.baseUrl, true);
		f.env.addCredential(
			CREDENTIAL_ID,
			'sellerPlatformApi',
			credentialFields(f.emulator, { baseUrl, allowProxy: true }),
		);
		const [out] = await runVictim(1);
		// Without it, every http:// request names its whole address (`POST http://127.0.0.1:…/…`),
		// which this server refuses (400): the limit docs/credential.md states.
		expect(out.error).toBeUndefined();
	});
});

describe("an unproven credential's requests are paced apart from the scope's plan", () => {
	it('a made-up credential running alongside leaves the victim its whole plan', async () => {
		const rpm = { requestsPerMinute: 60 };
		f = await startFixture({ ratePlan: null }, rpm);
		// The co-tenant: the victim's Base URL (its gateway, or its tunnel) and Project Code, a key
		// the gateway does not know, a made-up stored session, the victim's Requests per Minute
		// (the default, in practice). Nothing of it is ever proven here: each request is answered
		// 401 and its login refused.
		f.env.addCredential(
			'made-up',
			'sellerPlatformApi',
			credentialFields(f.emulator, {
				...rpm,
				keyId: 'made-up-key',
				sessionCookie: '_npsid=made-up; _npgw=made-up',
			}),
		);
		const hostile = workflowWithItems(bulkPoItems(20), GET_PO, { continueOnFail: true });
		hostile.nodes[1].credentials = { sellerPlatformApi: 'made-up' };
		// CO_TENANT_ALONE=1: the victim alone, the baseline (measured 5.8 s; with the co-tenant 13.9 s).
		const hostileRun = process.env.CO_TENANT_ALONE ? undefined : f.env.runWorkflow(hostile);
		await new Promise((resolve) => setTimeout(resolve, 200));

		// Alone, the victim's 6 items take about 5 s (60 per minute: one a second). With the
		// co-tenant's run, whose requests proved nothing, they share the plan: about twice as long
		// (n such runs: n + 1 times).
		const started = Date.now();
		const out = await runVictim(6);
		const took = Date.now() - started;
		expect(out.map((item) => item.error)).toEqual(Array(6).fill(undefined));
		await hostileRun;
		expect(took).toBeLessThan(8000);
	}, 90_000);
});

// Last: the co-tenant's busy limiters stay in the process's registry for a minute, and a full
// registry would change what the tests above measure.
describe('a full limiter registry keeps the limiter it hands out, and a 429 pause', () => {
	it("with MAX_LIMITERS busy limiters of a co-tenant, the victim's limiter is one object from request to request", async () => {
		f = await startFixture({ ratePlan: null });
		await coTenantBusyLimiters(MAX_LIMITERS);
		const victim = rateScope(credentialFields(f.emulator));
		const rpm = requestsPerMinuteField.default;
		// Each request (transport/request.ts apiRequest) asks the registry for its limiter: a new
		// key is added, the registry is over its bound, and the only idle limiter, the new one,
		// is dropped at once. Every request of the victim then gets a fresh limiter of its own.
		expect(limiters.get(victim, 'GetPurchaseOrder', rpm)).toBe(
			limiters.get(victim, 'GetPurchaseOrder', rpm),
		);
	});

	it("the gateway's Retry-After: 3600 to the victim is honoured by its next run", async () => {
		f = await startFixture({ ratePlan: null });
		// The co-tenant's limiters fill the registry before the victim's first run of the minute.
		await coTenantBusyLimiters(MAX_LIMITERS);
		await runVictim(1); // the victim's login succeeded here: its 429 counts for its project
		f.emulator.injectFaults({
			count: 1,
			status: 429,
			retryAfter: 3600,
			operation: 'GetPurchaseOrder',
		});
		const [refused] = await runVictim(1);
		expect(String(refused.error)).toMatch(/Retry-After 3600 s/);

		// Without the co-tenant, the next run fails at once and sends nothing ("… its Retry-After
		// to an earlier request"). With it, the run's limiter was never kept: the next run sends
		// again into the gateway's 429 (and any number of items go unpaced).
		const before = sentToGateway();
		const [next] = await runVictim(3);
		expect(String(next.error)).toMatch(/its Retry-After to an earlier request/);
		expect(sentToGateway() - before).toBe(0);
	});
});
