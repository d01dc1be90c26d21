/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Every wait has a total deadline: a login or an API answer that trickles its body one byte at a
 * time (which no idle time-out ends) fails with a time-out error within its deadline and its
 * connection is closed; a login that never answers fails the run within 60 s by default; a stop
 * ends the wait at once; and the same process goes on working afterwards.
 */
// The kit runs the package as n8n loads it, from dist/: tune the instance it runs.
import { LOGIN_POLICY } from '../../dist/nodes/shared/auth/login';
import { RETRY_POLICY } from '../../dist/nodes/shared/pacing/waits';
import { bulkPoItems, GET_PO, startFixture, workflowWithItems, type Fixture } from './fixture';

let f: Fixture;
const defaults = { login: LOGIN_POLICY.timeoutMs, request: RETRY_POLICY.requestTimeoutMs };
afterEach(async () => {
	LOGIN_POLICY.timeoutMs = defaults.login;
	RETRY_POLICY.requestTimeoutMs = defaults.request;
	await f?.close();
});

const requestsOf = (operation: string) =>
	f.emulator.requests().filter((r) => r.operation === operation);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * Room for a loaded machine beyond a deadline or a stop (CI runs the n8n installs beside the
 * tests): idle, a run ends within 0.35 s of it. A missed deadline or stop waits 12 s or more
 * (each test says how long).
 */
const LOADED_MS = 3000;

/** When the client closed the connection of the first `operation` request (the emulator notes it a moment later). */
async function closedAt(operation: string): Promise<number | undefined> {
	for (let i = 0; i < 50 && requestsOf(operation)[0]?.clientClosedAt === undefined; i++)
		await pause(20);
	return requestsOf(operation)[0]?.clientClosedAt;
}

/** Ordinary work after the fault, in the same process: a run that succeeds. */
async function expectOrdinaryRun(items = 3) {
	const result = await f.env.runWorkflow(workflowWithItems(bulkPoItems(items, 100), GET_PO));
	expect(result.status).toBe('success');
	expect(result.json('Seller Platform').map((po) => po.po_nr)).toEqual(
		bulkPoItems(items, 100).map((item) => item.po),
	);
}

describe('a trickling answer', () => {
	it('fails a login whose answer trickles with a time-out error within its deadline, and closes it', async () => {
		f = await startFixture({ ratePlan: null });
		LOGIN_POLICY.timeoutMs = 1000;
		// A byte every 0.25 s (so no idle time-out ever fires), of a login answer padded to about
		// 70 bytes: about 18 s in all.
		f.emulator.injectFaults({
			count: 1,
			trickleMs: 250,
			answer: { set: { padding: 'x'.repeat(60) } },
			operation: 'Login',
		});
		const started = Date.now();
		const result = await f.env.runWorkflow(
			workflowWithItems(bulkPoItems(3), GET_PO, { continueOnFail: true }),
		);
		const elapsed = Date.now() - started;
		for (const item of result.json('Seller Platform')) {
			expect(item.error).toBe(
				`The Seller Platform login at ${f.emulator.baseUrl} timed out: no complete answer within 1 s`,
			);
		}
		expect(elapsed).toBeLessThan(1000 + LOADED_MS);
		const [login] = requestsOf('Login');
		expect(requestsOf('Login')).toHaveLength(1);
		expect(login.status).toBe(200);
		// The connection was closed at the deadline, not left to trickle on.
		expect((await closedAt('Login'))! - login.at).toBeLessThan(1000 + LOADED_MS);
		expect(requestsOf('GetPurchaseOrder')).toHaveLength(0);
		expect(JSON.stringify(result.run)).not.toContain(
			f.emulator.credential.private_key.slice(40, 80),
		);
		await expectOrdinaryRun();
	});

	it('fails an API request whose answer trickles with a time-out error within its deadline, without repeating it', async () => {
		f = await startFixture({ ratePlan: null });
		RETRY_POLICY.requestTimeoutMs = 1000;
		// A byte every 0.1 s of an answer of about 300 bytes: about 30 s in all.
		f.emulator.injectFaults({ count: 1, trickleMs: 100, operation: 'GetPurchaseOrder' });
		const started = Date.now();
		const result = await f.env.runWorkflow(
			workflowWithItems(bulkPoItems(1), GET_PO, { continueOnFail: true }),
		);
		const elapsed = Date.now() - started;
		const [item] = result.json('Seller Platform');
		expect(item.error).toBe(
			'The Seller Platform API timed out: no complete answer to GetPurchaseOrder within 1 s',
		);
		expect(item.details).toMatchObject({
			description: expect.stringContaining('is not repeated after a time-out'),
		});
		expect(elapsed).toBeLessThan(1000 + LOADED_MS);
		// A read is repeatable, but not after a time-out: the wait stays within the deadline.
		const [get] = requestsOf('GetPurchaseOrder');
		expect(requestsOf('GetPurchaseOrder')).toHaveLength(1);
		expect(get.status).toBe(200);
		// The connection was closed at the deadline (n8n had put the execution's own signal on it).
		expect((await closedAt('GetPurchaseOrder'))! - get.at).toBeLessThan(1000 + LOADED_MS);
		await expectOrdinaryRun();
	});
});

describe('a login that never answers', () => {
	it('fails the run within its deadline (60 s at most by default), all attempts included, and the process goes on', async () => {
		// The default deadline is at most 60 s; the run is timed with a deadline of 1.5 s (the same
		// code reads LOGIN_POLICY at each login), so that the test does not wait the default's 30 s.
		expect(defaults.login).toBeLessThanOrEqual(60_000);
		f = await startFixture({ ratePlan: null });
		LOGIN_POLICY.timeoutMs = 1500;
		f.emulator.injectFaults({ count: 1, hang: true, operation: 'Login' });
		const started = Date.now();
		const result = await f.env.runWorkflow(workflowWithItems(bulkPoItems(5), GET_PO));
		const elapsed = Date.now() - started;
		expect(result.status).toBe('error');
		expect(result.nodeError('Seller Platform')?.message).toBe(
			`The Seller Platform login at ${f.emulator.baseUrl} timed out: no complete answer within 1.5 s`,
		);
		// Within the deadline, all attempts included: no attempt after the time-out (one login
		// request), and no wait for the default deadline (30 s) or forever.
		expect(elapsed).toBeLessThan(LOGIN_POLICY.timeoutMs + LOADED_MS);
		expect(requestsOf('Login')).toHaveLength(1);
		expect(await closedAt('Login')).toEqual(expect.any(Number));
		expect(requestsOf('GetPurchaseOrder')).toHaveLength(0);
		await expectOrdinaryRun();
	});

	it('is waited for once per run: later items fail with its error instead of logging in again', async () => {
		f = await startFixture({ ratePlan: null });
		LOGIN_POLICY.timeoutMs = 1000;
		f.emulator.injectFaults({ count: 10, hang: true, operation: 'Login' });
		const started = Date.now();
		const result = await f.env.runWorkflow(
			workflowWithItems(
				bulkPoItems(24),
				{ ...GET_PO, options: { concurrency: 2 } },
				{
					continueOnFail: true,
				},
			),
		);
		const out = result.json('Seller Platform');
		expect(out).toHaveLength(24);
		for (const item of out) expect(item.error).toMatch(/login at .* timed out/);
		expect(requestsOf('Login')).toHaveLength(1);
		// One wait in all: 12 rounds of 2 items each waiting the deadline would take 12 s.
		expect(Date.now() - started).toBeLessThan(LOGIN_POLICY.timeoutMs + LOADED_MS);
		f.emulator.clearFaults();
		await expectOrdinaryRun();
	});
});

describe('stopping the execution', () => {
	it('ends the wait for a login that never answers at once', async () => {
		f = await startFixture({ ratePlan: null });
		f.emulator.injectFaults({ count: 1, hang: true, operation: 'Login' });
		const started = await f.env.startExecution(workflowWithItems(bulkPoItems(2), GET_PO));
		while (requestsOf('Login').length < 1) await pause(20);
		const stoppedAt = Date.now();
		started.cancel();
		const result = await started.finished;
		// Not the login's deadline (30 s by default).
		expect(Date.now() - stoppedAt).toBeLessThan(LOADED_MS);
		expect(result.nodeError('Seller Platform')?.message).toBe('The execution was stopped');
		expect(requestsOf('GetPurchaseOrder')).toHaveLength(0);
		// Nobody waits for that login any more: its connection is closed, and the next run logs in afresh.
		expect((await closedAt('Login'))! - stoppedAt).toBeLessThan(LOADED_MS);
		await expectOrdinaryRun();
		expect(requestsOf('Login')).toHaveLength(2);
	});

	it('leaves a login that another execution still waits for', async () => {
		f = await startFixture({ ratePlan: null });
		// The other run joins the login within the pause (idle: within 0.05 s), and the stop comes
		// well before the login answers.
		f.emulator.injectFaults({ count: 1, delayMs: 3000, operation: 'Login' });
		const stopped = await f.env.startExecution(workflowWithItems(bulkPoItems(2), GET_PO));
		while (requestsOf('Login').length < 1) await pause(20);
		const other = f.env.runWorkflow(workflowWithItems(bulkPoItems(2, 50), GET_PO));
		await pause(1000);
		stopped.cancel();
		expect((await stopped.finished).nodeError('Seller Platform')?.message).toBe(
			'The execution was stopped',
		);
		const result = await other;
		expect(result.status).toBe('success');
		expect(result.outputs('Seller Platform')).toHaveLength(2);
		expect(requestsOf('Login')).toHaveLength(1);
		expect(requestsOf('Login')[0]).toMatchObject({ status: 200 });
	});

	it('ends a trickling API answer at once and closes its connection', async () => {
		f = await startFixture({ ratePlan: null });
		f.emulator.injectFaults({ count: 1, trickleMs: 500, operation: 'GetPurchaseOrder' });
		const started = await f.env.startExecution(workflowWithItems(bulkPoItems(1), GET_PO));
		while (requestsOf('GetPurchaseOrder').length < 1) await pause(20);
		await pause(600); // the first byte of the answer is out at 0.5 s
		const stoppedAt = Date.now();
		started.cancel();
		const result = await started.finished;
		// Not the rest of the answer (150 s) nor the request's deadline (60 s by default).
		expect(Date.now() - stoppedAt).toBeLessThan(LOADED_MS);
		expect(result.nodeError('Seller Platform')?.message).toBe('The execution was stopped');
		expect((await closedAt('GetPurchaseOrder'))! - stoppedAt).toBeLessThan(LOADED_MS);
		expect(requestsOf('GetPurchaseOrder')).toHaveLength(1);
		await expectOrdinaryRun();
	});
});

describe('an answer beyond the size cap', () => {
	const BOMB = { megabytes: 128, gzip: true };
	const tooLarge = (what: string, cap = '16 MB') =>
		`The answer of the Seller Platform ${what} was larger than ${cap} (decoded), so it was not read`;
	const megabytesOf = (bytes: number) => Math.round(bytes / 1024 / 1024);

	it('fails an API answer that decodes beyond 16 MB (a gzip bomb) at once, reading no further, and the process goes on', async () => {
		f = await startFixture({ ratePlan: null });
		await expectOrdinaryRun();
		f.emulator.clearRequests();
		// 128 MiB of JSON once decoded, about 130 KB on the wire.
		f.emulator.injectFaults({ count: 1, huge: BOMB, operation: 'GetPurchaseOrder' });
		const rssBefore = process.memoryUsage().rss;
		const result = await f.env.runWorkflow(
			workflowWithItems(bulkPoItems(1), GET_PO, { continueOnFail: true }),
		);
		const grown = megabytesOf(process.memoryUsage().rss - rssBefore);
		const [item] = result.json('Seller Platform');
		expect(item.error).toBe(tooLarge('API'));
		expect(item.details).toMatchObject({
			description: expect.stringContaining('at most 16 MB of an answer (after gzip decoding)'),
		});
		// Not repeated, and its connection closed before the emulator had sent it all.
		expect(requestsOf('GetPurchaseOrder')).toHaveLength(1);
		expect(await closedAt('GetPurchaseOrder')).toEqual(expect.any(Number));
		expect(requestsOf('GetPurchaseOrder')[0].status).toBeNull();
		// At most the cap was held, never the 128 MiB decoded.
		expect(grown).toBeLessThan(100);
		await expectOrdinaryRun();
	});

	it('fails a plain answer beyond 16 MB the same way', async () => {
		f = await startFixture({ ratePlan: null });
		f.emulator.injectFaults({ count: 1, huge: { megabytes: 64 }, operation: 'GetPurchaseOrder' });
		const result = await f.env.runWorkflow(
			workflowWithItems(bulkPoItems(1), GET_PO, { continueOnFail: true }),
		);
		expect(result.json('Seller Platform')[0].error).toBe(tooLarge('API'));
		expect(await closedAt('GetPurchaseOrder')).toEqual(expect.any(Number));
		await expectOrdinaryRun();
	});

	it('drops an error body beyond 16 MB unread and keeps the answer status', async () => {
		f = await startFixture({ ratePlan: null });
		f.emulator.injectFaults({
			count: 1,
			status: 400,
			huge: BOMB,
			operation: 'GetPurchaseOrder',
		});
		const result = await f.env.runWorkflow(
			workflowWithItems(bulkPoItems(1), GET_PO, { continueOnFail: true }),
		);
		const [item] = result.json('Seller Platform');
		expect(item.error).toBe('The Seller Platform API answered HTTP 400');
		expect(await closedAt('GetPurchaseOrder')).toEqual(expect.any(Number));
		await expectOrdinaryRun();
	});

	it('fails a login whose answer decodes beyond 64 KB, reading no further', async () => {
		f = await startFixture({ ratePlan: null });
		f.emulator.injectFaults({ count: 1, huge: BOMB, operation: 'Login' });
		const result = await f.env.runWorkflow(
			workflowWithItems(bulkPoItems(2), GET_PO, { continueOnFail: true }),
		);
		for (const item of result.json('Seller Platform')) {
			expect(item.error).toBe(tooLarge('login', '64 KB'));
		}
		expect(await closedAt('Login')).toEqual(expect.any(Number));
		expect(requestsOf('GetPurchaseOrder')).toHaveLength(0);
		await expectOrdinaryRun();
	});
});
