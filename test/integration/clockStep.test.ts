/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Pacing measures elapsed time (common/clock.ts): when the machine's wall clock steps (a time
 * server's correction, a VM resumed from a snapshot, a clock set by hand), the next runs still go
 * at the plan, neither stalled nor in a burst.
 *
 * The emulator runs in a process of its own (test/bench/emulator.ts), on its own clock, as a real
 * gateway does: only this process's wall clock steps (`Date.now` replaced; Jest's fake timers
 * would fake `performance` too). Its plan is the credential's Requests per Minute, 120 (2 a
 * second, at most 20 in any 10 s), counted in fixed 10 s windows too (`strict`), so any burst
 * above the plan is answered 429.
 */
import { startBenchEmulator, type BenchEmulator } from '../bench/emulator';
import { credentialFields } from '../emulator';
import { createTestEnvironment, type TestEnvironment } from '../helpers';
import { bulkPoItems, CREDENTIAL_ID, GET_PO, workflowWithItems } from './fixture';

const PER_MINUTE = 120;
const HOUR = 3_600_000;

let emulator: BenchEmulator;
let env: TestEnvironment;
let next = 1;

beforeEach(async () => {
	emulator = await startBenchEmulator(
		{ ratePlan: { limit: PER_MINUTE, windowMs: 60_000, model: 'strict' } },
		'separate-process',
	);
	env = createTestEnvironment();
	env.addCredential(
		CREDENTIAL_ID,
		'sellerPlatformApi',
		credentialFields(emulator, { requestsPerMinute: PER_MINUTE }),
	);
});
afterEach(async () => await emulator?.close());

/** Steps this process's wall clock by `ms` for the rest of the test (or until set back). */
const realNow = Date.now;
const stepWallClock = (ms: number) => {
	const before = Date.now;
	Date.now = () => before() + ms;
};
afterEach(() => (Date.now = realNow));

/**
 * A run of Purchase Order → Get for `items` items; its time in ms (measured on the monotonic
 * clock: the wall clock is the one stepped). A run held longer than 20 s is stopped: a stall.
 */
async function run(items: number): Promise<number> {
	const started = performance.now();
	const execution = await env.startExecution(
		workflowWithItems(bulkPoItems(items, next), GET_PO, { continueOnFail: true }),
	);
	next += items;
	const stall = setTimeout(() => execution.cancel(), 20_000);
	try {
		const result = await execution.finished;
		const outputs = result.outputs('Seller Platform').map((item) => item.json);
		expect(outputs).toHaveLength(items);
		expect(outputs.flatMap((json) => (json.error === undefined ? [] : [json.error]))).toEqual([]);
	} finally {
		clearTimeout(stall);
	}
	return performance.now() - started;
}

/** The most GetPurchaseOrder requests the emulator received in any `windowMs`, and its 429s. */
async function atTheGateway(windowMs: number) {
	const arrivals = (await emulator.arrivals('GetPurchaseOrder'))
		.map((a) => a.at)
		.sort((a, b) => a - b);
	let most = 0;
	for (let first = 0, last = 0; last < arrivals.length; last++) {
		while (arrivals[last] - arrivals[first] >= windowMs) first++;
		most = Math.max(most, last - first + 1);
	}
	return { most, refused: (await emulator.stats()).statuses['429'] ?? 0 };
}

// 2 a second: 8 requests are 7 spacings of at least 0.45 s apart, about 3.5 s.
const AT_THE_PLAN = { min: 2_500, max: 8_000 };

describe('a wall clock that steps', () => {
	it('steps back an hour mid-run: the next runs go at the plan', async () => {
		expect(await run(8)).toBeLessThan(AT_THE_PLAN.max);
		stepWallClock(-HOUR);
		for (let i = 0; i < 2; i++) {
			const elapsed = await run(8);
			expect(elapsed).toBeGreaterThan(AT_THE_PLAN.min);
			expect(elapsed).toBeLessThan(AT_THE_PLAN.max);
		}
		const gateway = await atTheGateway(10_000);
		expect(gateway.refused).toBe(0);
		expect(gateway.most).toBeLessThanOrEqual(PER_MINUTE / 6);
	}, 60_000);

	it('steps forward 5 hours for a few runs and back: no burst above the plan, then the plan again', async () => {
		// 20 requests: the plan's 10 s window is full when the clock steps.
		await run(20);
		stepWallClock(5 * HOUR);
		// The window's requests still count: these wait for them to leave it, 2 a second.
		const ahead = await run(20);
		expect(ahead).toBeGreaterThan(7_000);
		await run(4);
		Date.now = realNow;
		const back = await run(8);
		expect(back).toBeGreaterThan(AT_THE_PLAN.min);
		expect(back).toBeLessThan(AT_THE_PLAN.max);
		// The emulator's own count: never more than the plan's 20 in any 10 s, none refused.
		const gateway = await atTheGateway(10_000);
		expect(gateway.refused).toBe(0);
		expect(gateway.most).toBeLessThanOrEqual(PER_MINUTE / 6);
	}, 90_000);
});
