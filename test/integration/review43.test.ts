/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Adversarial review of "one n8n, many users": each test reproduces one finding (its number in
 * the test's name) and fails on the change under review.
 */
import { createHash } from 'node:crypto';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

// The kit runs the package as n8n loads it, from dist/: these are the instances it runs.
import { loginFingerprint } from '../../dist/nodes/shared/auth/login';
import { isProven, MAX_PROVEN_IDENTITIES, noteProven } from '../../dist/nodes/shared/auth/proven';
import { requestsPerMinuteField } from '../../dist/nodes/shared/credential/fields';
import { rateScope } from '../../dist/nodes/shared/gateway/url';
import { limiters, MAX_LIMITERS } from '../../dist/nodes/shared/pacing/limiters';
import { credentialFields } from '../emulator';
import { bulkPoItems, GET_PO, startFixture, workflowWithItems, type Fixture } from './fixture';

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

let f: Fixture | undefined;
afterEach(async () => {
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

describe('finding 1: a full limiter registry leaves a new rate scope unpaced', () => {
	it("finding 1: with MAX_LIMITERS busy limiters of a co-tenant, the victim's limiter is one object from request to request", async () => {
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

	it("finding 1: the gateway's Retry-After: 3600 to the victim is honoured by its next run", async () => {
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

describe("finding 2: a co-tenant's proven identities push the victim's out of the proven set", () => {
	it('finding 2: the victim stays proven after MAX_PROVEN_IDENTITIES logins at a server of the co-tenant', () => {
		const victim: ICredentialDataDecryptedObject = {
			gateway: 'custom',
			baseUrl: 'https://api.noon.partners',
			keyId: 'victim-key',
			privateKey: 'victim-private-key',
			projectCode: 'PRJ-VICTIM',
		};
		const identity = loginFingerprint(victim);
		noteProven(identity); // the victim's login succeeded at the real gateway
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
