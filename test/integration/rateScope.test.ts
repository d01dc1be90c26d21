/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * One n8n, many users: a credential can change the pacing of another's runs only where they
 * really share a quota (gateway/url.ts `rateScope`), and only with a 429 to a login identity
 * proven in this process (auth/proven.ts). A hostile co-tenant's credential carries the victim's
 * Project Code (no secret) and any key; its Base URL names a server it runs, or the victim's own
 * gateway with a made-up session.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

// The kit runs the package as n8n loads it, from dist/: these are the instances it runs.
import { LOGIN_PATH } from '../../dist/nodes/shared/common/constants';
import { requestsPerMinuteField } from '../../dist/nodes/shared/credential/fields';
import { rateScope } from '../../dist/nodes/shared/gateway/url';
import { limiters } from '../../dist/nodes/shared/pacing/limiters';
import { credentialFields } from '../emulator';
import { bulkPoItems, GET_PO, startFixture, workflowWithItems, type Fixture } from './fixture';

let f: Fixture;
const servers: Server[] = [];
afterEach(async () => {
	for (const server of servers.splice(0)) {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	}
	await f?.close();
});

/**
 * A server a co-tenant runs on this machine: it logs anyone in, and answers every other request
 * 429 with the next of `retryAfter` (seconds; the last one repeats), or 404 for `null`.
 */
async function hostileServer(retryAfter: Array<number | null>) {
	const seen = { logins: 0, requests: 0 };
	const server = createServer((req, res) => {
		req.resume();
		// A plain-http request names its whole address (the credential's straight route).
		if (new URL(req.url ?? '/', 'http://hostile').pathname === LOGIN_PATH) {
			seen.logins++;
			res.writeHead(200, { 'Set-Cookie': 'hostile=1; Path=/', 'Content-Type': 'application/json' });
			res.end('{}');
			return;
		}
		const wait = retryAfter[Math.min(seen.requests++, retryAfter.length - 1)];
		if (wait === null) {
			res.writeHead(404, { 'Content-Type': 'application/json' });
			res.end('{"message":"no such order"}');
			return;
		}
		res.writeHead(429, { 'Retry-After': String(wait), 'Content-Type': 'application/json' });
		res.end('{"message":"slow down"}');
	});
	servers.push(server);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** The co-tenant's credential: the victim's Project Code, a key of its own, at `baseUrl`. */
async function hostileCredential(name: string, fields: ICredentialDataDecryptedObject) {
	const theirs = await f.emulator.addCredential({ projectCode: f.emulator.projectCode });
	f.env.addCredential(
		name,
		'sellerPlatformApi',
		credentialFields({ baseUrl: f.emulator.baseUrl, credential: theirs }, fields),
	);
}

/** A run of GetPurchaseOrder with the credential `name` (the fixture's: the victim's). */
async function run(items: number, name?: string) {
	const workflow = workflowWithItems(bulkPoItems(items), GET_PO, { continueOnFail: true });
	if (name) workflow.nodes[1].credentials = { sellerPlatformApi: name };
	const result = await f.env.runWorkflow(workflow);
	return result.outputs('Seller Platform').map((item) => item.json);
}

const victimRequests = () =>
	f.emulator.requests().filter((r) => r.operation === 'GetPurchaseOrder' && r.status === 200);

/** The victim's run completes at once, each item's request sent and answered. */
async function expectVictimUnaffected(items: number) {
	const before = victimRequests().length;
	const started = Date.now();
	const out = await run(items);
	expect(out.map((item) => item.error)).toEqual(Array(items).fill(undefined));
	expect(out.map((item) => item.po_nr)).toEqual(bulkPoItems(items).map((item) => item.po));
	// Idle about 0.1 s. Held up, the run failed at once without sending ("takes requests again at
	// … beyond this run's waiting budget") or waited out a 60 s pause.
	expect(Date.now() - started).toBeLessThan(5000);
	expect(victimRequests().length - before).toBe(items);
}

/** The victim's limiter of GetPurchaseOrder: no pause, no episode, the whole plan. */
function expectVictimPlanWhole() {
	const victim = credentialFields(f.emulator);
	const limiter = limiters.get(
		rateScope(victim),
		'GetPurchaseOrder',
		requestsPerMinuteField.default,
	);
	expect(limiter.pauseLeft()).toBe(0);
	expect(limiter.backAt()).toBe(-Infinity);
	expect(limiter.share()).toBe(1);
	expect(limiter.controller.reduced).toBe(false);
}

const BEYOND_BUDGET = /\(Retry-After 3600 s\), beyond this run's waiting budget/;

describe("a co-tenant's credential never holds up another's runs", () => {
	it('a server of its own that logs anyone in and answers 429 with Retry-After: 3600', async () => {
		f = await startFixture({ ratePlan: null });
		const hostile = await hostileServer([3600]);
		await hostileCredential('hostile', { baseUrl: hostile.url });

		const [refused] = await run(1, 'hostile');
		expect(String(refused.error)).toMatch(BEYOND_BUDGET);
		expect(hostile.seen).toEqual({ logins: 1, requests: 1 });

		// Before: the victim's run failed at once, sending nothing ("takes requests again at …
		// (its Retry-After to an earlier request: 3599 s from now), beyond this run's waiting
		// budget"): the pacing was the project's, whatever the Base URL.
		await expectVictimUnaffected(3);
		expectVictimPlanWhole();
	});

	it('a made-up session at the same gateway, never logged in here: its 429 is its run’s alone', async () => {
		f = await startFixture({ ratePlan: null });
		// The victim works: its login succeeded here.
		await expectVictimUnaffected(1);
		// Same Base URL, same project: one rate scope. A key the gateway does not know and a stored
		// session nobody obtained; the gateway answers its request 429 (before it reads the session).
		await hostileCredential('made-up', {
			keyId: 'made-up-key',
			sessionCookie: '_npsid=made-up; _npgw=made-up',
		});
		f.emulator.injectFaults({
			count: 1,
			status: 429,
			retryAfter: 3600,
			operation: 'GetPurchaseOrder',
		});
		const [refused] = await run(1, 'made-up');
		expect(String(refused.error)).toMatch(BEYOND_BUDGET);
		expect(f.emulator.requests().filter((r) => r.status === 429)).toHaveLength(1);

		// Before: the victim's next run failed at once without sending anything (one scope, and
		// every 429 paused it).
		await expectVictimUnaffected(3);
		expectVictimPlanWhole();
	});

	it('hostile runs, ordinary work, hostile again: the victim stays unaffected, the hostile scope keeps its own pause', async () => {
		f = await startFixture({ ratePlan: null });
		const hostile = await hostileServer([3600]);
		await hostileCredential('hostile', { baseUrl: hostile.url });
		// A second server of the co-tenant's: a short Retry-After (within any budget), then an answer.
		// Before, its 429 cut the project's share of the plan for every credential of the project.
		const short = await hostileServer([1, null]);
		await hostileCredential('short', { baseUrl: short.url });

		expect(String((await run(1, 'hostile'))[0].error)).toMatch(BEYOND_BUDGET);
		await expectVictimUnaffected(5);
		expect(String((await run(1, 'short'))[0].error)).toMatch(/no such order/);
		expect(short.seen).toEqual({ logins: 1, requests: 2 });
		await expectVictimUnaffected(5);
		expectVictimPlanWhole();

		// The hostile scope's own pause holds: its next run fails at once and sends nothing there.
		const [again] = await run(2, 'hostile');
		expect(String(again.error)).toMatch(/its Retry-After to an earlier request/);
		expect(hostile.seen).toEqual({ logins: 1, requests: 1 });
		await expectVictimUnaffected(5);
		expectVictimPlanWhole();
	});
});
