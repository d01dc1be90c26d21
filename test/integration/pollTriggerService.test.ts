/**
 * Seller Platform Poll Trigger against what the reference of ListFbpiOrders leaves open (the
 * emulator's list knobs): orders first listed long after their creation time, a list newest
 * first, page tokens the service no longer accepts, a `next_token` that never ends, and Fetch
 * Test Event whatever the list order. Run as n8n runs a poll trigger (test/helpers/polls.ts).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	MAX_LISTING_PAGES,
	MAX_PAGES_PER_POLL,
	MAX_RESTARTS,
} from '../../dist/nodes/SellerPlatformPollTrigger/listing';
import { STATE_KEY, type PollState } from '../../dist/nodes/SellerPlatformPollTrigger/state';
import type { Emulator, FbpiOrderQuirks } from '../emulator';
import { chain, type ActivePoller, type TestEnvironment, type TestWorkflow } from '../helpers';
import { CREDENTIAL_ID, startFixture, type Fixture } from './fixture';

const POLL_TRIGGER = 'Seller Platform Poll Trigger';
const STATIC_KEY = `node:${POLL_TRIGGER}`;
const WORKFLOW_ID = 'poll-service';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let f: Fixture;
let emulator: Emulator;
let env: TestEnvironment;
let warehouses = 0;
let warehouse: string;
const pollers: ActivePoller[] = [];

beforeEach(async () => {
	// No rate plan at the emulator, none worth waiting for in the node: thousands of pages.
	f = await startFixture({ ratePlan: null }, { requestsPerMinute: 1_000_000 });
	({ emulator, env } = f);
	warehouse = `WH-SVC-${++warehouses}`; // no orders yet
});

afterEach(async () => {
	for (const poller of pollers.splice(0)) poller.deactivate();
	await f.close();
});

function pollWorkflow(options: INodeParameters = {}): TestWorkflow {
	return {
		id: WORKFLOW_ID,
		nodes: [
			{
				name: POLL_TRIGGER,
				type: 'sellerPlatformPollTrigger',
				parameters: {
					event: 'newFbpiOrder',
					warehouseCode: { __rl: true, mode: 'id', value: warehouse },
					options,
				},
				credentials: { sellerPlatformApi: CREDENTIAL_ID },
			},
			{ name: 'Received', type: 'testNoOp' },
		],
		connections: chain(POLL_TRIGGER, 'Received'),
	};
}

const activate = async (workflow = pollWorkflow()) => {
	const poller = await env.activatePolling(workflow);
	pollers.push(poller);
	await poller.settled();
	return poller;
};

/** The order numbers of all executions, in the order emitted. */
const emittedNrs = (...pollers: ActivePoller[]) =>
	pollers.flatMap((poller) =>
		poller.executions.flatMap((execution) =>
			execution.json('Received').map((order) => order.fbpi_order_nr as string),
		),
	);

/** The state in the activation's memory (saved or not). */
const memoryState = (poller: ActivePoller) =>
	(poller.memory()[STATIC_KEY] as IDataObject)[STATE_KEY] as PollState;

const savedState = () =>
	(env.workflowStaticData(WORKFLOW_ID)[STATIC_KEY] as IDataObject | undefined)?.[STATE_KEY] as
		PollState | undefined;

/** `count` orders created from `createdAt`, `intervalMs` apart. */
const addMany = (count: number, createdAt: number, intervalMs: number) =>
	emulator
		.addFbpiOrders({ warehouseCode: warehouse, count, createdAt, intervalMs })
		.map((order) => order.fbpi_order_nr);

/** ListFbpiOrders requests answered (not those refused for a session that expired). */
const listRequests = () =>
	emulator
		.requests()
		.filter((request) => request.operation === 'ListFbpiOrders' && request.status !== 401).length;

/**
 * Date.now moved on by `advance(ms)` while `run` runs (n8n's clock and the emulator's: one
 * Date.now), then restored.
 */
async function withClock(run: (advance: (ms: number) => void) => Promise<void>) {
	const realNow = Date.now;
	let passed = 0;
	const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + passed);
	try {
		await run((ms) => void (passed += ms));
	} finally {
		clock.mockRestore();
	}
}

const expectOnce = (emitted: string[], expected: string[]) => {
	expect(emitted.length).toBe(new Set(emitted).size);
	expect([...emitted].sort()).toEqual([...expected].sort());
};

describe('Seller Platform Poll Trigger: orders listed late', () => {
	it.each<[string, FbpiOrderQuirks]>([
		['oldest first', {}],
		['newest first', { listOrder: 'newest' }],
	])(
		'listed %s: an order first listed 30 minutes or 2 hours after its creation is emitted once (default 24 hours), one listed 2 days late is not',
		async (_, quirks) => {
			emulator.setFbpiOrderQuirks(quirks);
			await withClock(async (advance) => {
				const poller = await activate();
				const t0 = Date.now();
				const orders = (createdAt: number, listedFrom: number) =>
					emulator
						.addFbpiOrders({ warehouseCode: warehouse, orders: [{ createdAt, listedFrom }] })
						.map((order) => order.fbpi_order_nr);
				const [twoHours] = orders(t0 + 30 * MINUTE, t0 + 150 * MINUTE);
				const [thirty] = orders(t0 + 60 * MINUTE, t0 + 90 * MINUTE);
				const [onTime] = orders(t0 + 120 * MINUTE, t0 + 120 * MINUTE);
				const [twoDays] = orders(t0 + 40 * MINUTE, t0 + 40 * MINUTE + 48 * HOUR);
				// Polls 10 minutes apart for 2 days and 4 hours (an hour apart after the first 4 hours).
				for (let at = 10 * MINUTE; at <= 52 * HOUR; at += at < 4 * HOUR ? 10 * MINUTE : HOUR) {
					advance(t0 + at - Date.now());
					await poller.poll();
				}
				expect(poller.errors).toEqual([]);
				expectOnce(emittedNrs(poller), [twoHours, thirty, onTime]);
				expect(emittedNrs(poller)).not.toContain(twoDays);
				// Remembered over the lateness covered only.
				const state = memoryState(poller);
				expect(state.floor).toBeGreaterThan(t0 + 40 * MINUTE);
			});
		},
		120_000,
	);

	/**
	 * 3,000 orders (60 pages) created 1 to 6 minutes after the activation, emitted by polls 10 to
	 * 27 minutes in; `pollAt(minutes)` polls then.
	 */
	async function sweepSetUp(advance: (ms: number) => void) {
		const poller = await activate();
		const t0 = Date.now();
		const pollAt = async (minutes: number) => {
			advance(t0 + minutes * MINUTE - Date.now());
			await poller.poll();
		};
		const many = addMany(3000, t0 + MINUTE, 100);
		for (const minutes of [10, 11, 25, 26, 27]) await pollAt(minutes);
		expectOnce(emittedNrs(poller), many);
		expect(memoryState(poller).sweep).toBeUndefined();
		return { poller, t0, pollAt, many };
	}

	/** ListFbpiOrders requests of sweeps (the only windows with an end here) answered. */
	const sweepPages = () =>
		emulator
			.requests()
			.filter((r) => r.operation === 'ListFbpiOrders' && r.status !== 401)
			.filter((r) => (r.body as IDataObject).created_before !== undefined).length;

	it('a sweep longer than a poll reads goes on over the next polls, 40 pages each, and never delays a new order', async () => {
		await withClock(async (advance) => {
			const { poller, t0, pollAt, many } = await sweepSetUp(advance);
			// 31 minutes in, the sweep is due: it lists the 3,000 again, 40 pages a poll.
			expect(sweepPages()).toBe(0);
			const [fresh] = addMany(1, t0 + 30 * MINUTE, 0);
			await pollAt(31);
			expect(sweepPages()).toBe(MAX_PAGES_PER_POLL);
			expect(memoryState(poller).sweep?.token).toBeTruthy();
			// The new order of the short window is not delayed by the sweep.
			expect(emittedNrs(poller).slice(-1)).toEqual([fresh]);
			await pollAt(32);
			expect(sweepPages()).toBe(60); // 3,000 orders, 50 a page
			expect(memoryState(poller).sweep).toBeUndefined();
			expect(poller.errors).toEqual([]);
			expectOnce(emittedNrs(poller), [...many, fresh]);
		});
	}, 120_000);

	it("a sweep's saved token the service refuses: its slice is listed again from its start, the poll succeeds", async () => {
		await withClock(async (advance) => {
			const { poller, pollAt, many } = await sweepSetUp(advance);
			await pollAt(31);
			expect(memoryState(poller).sweep?.token).toBeTruthy();
			emulator.expireFbpiOrderTokens();
			await pollAt(32);
			expect(poller.errors).toEqual([]);
			// The refused request, then 39 pages from the start again (40 requests a poll).
			expect(sweepPages()).toBe(2 * MAX_PAGES_PER_POLL);
			await pollAt(33);
			expect(sweepPages()).toBe(2 * MAX_PAGES_PER_POLL + 21);
			expect(memoryState(poller).sweep).toBeUndefined();
			expect(poller.errors).toEqual([]);
			expectOnce(emittedNrs(poller), many);
		});
	}, 120_000);

	it('"Catch Orders Listed Late Up To (Hours)" 0: only the 15 minutes each poll looks back, no sweep', async () => {
		await withClock(async (advance) => {
			const poller = await activate(pollWorkflow({ lateListingHours: 0 }));
			const t0 = Date.now();
			const [late] = emulator
				.addFbpiOrders({
					warehouseCode: warehouse,
					orders: [{ createdAt: t0 + 10 * MINUTE, listedFrom: t0 + 40 * MINUTE }],
				})
				.map((order) => order.fbpi_order_nr);
			for (let i = 1; i <= 12; i++) {
				advance(10 * MINUTE);
				await poller.poll();
			}
			expect(poller.errors).toEqual([]);
			expect(emittedNrs(poller)).not.toContain(late);
			// One window a poll: 12 polls and the activation.
			expect(listRequests()).toBe(13);
			expect(savedState()?.sweep).toBeUndefined();
		});
	});

	it('a value of another type is refused naming the option, before anything is sent', async () => {
		await env.ready();
		await expect(env.activatePolling(pollWorkflow({ lateListingHours: true }))).rejects.toThrow(
			'The option "Catch Orders Listed Late Up To (Hours)" (lateListingHours) must be a number, got true',
		);
		await expect(env.activatePolling(pollWorkflow({ lateListingHours: 200 }))).rejects.toThrow(
			'must be at most 168, got 200',
		);
		expect(listRequests()).toBe(0);
	});
});

describe('Seller Platform Poll Trigger: a list newest first', () => {
	it('7,500 orders in one window, newest first: every one emitted once over enough polls', async () => {
		emulator.setFbpiOrderQuirks({ listOrder: 'newest' });
		const poller = await activate();
		const now = Date.now();
		const all = addMany(7500, now - 10 * MINUTE, 70);
		for (let i = 0; i < 6; i++) await poller.poll();
		expect(poller.errors).toEqual([]);
		expectOnce(emittedNrs(poller), all);
	}, 120_000);
});

describe('Seller Platform Poll Trigger: a saved page token the service refuses', () => {
	it('is dropped and its window listed again: the next poll and the next activation from the saved state succeed; every order once', async () => {
		const poller = await activate();
		const all = addMany(2500, Date.now() - 10 * MINUTE, 100);
		await poller.poll(); // 40 pages: 2,000 emitted, the token saved with them
		expect(emittedNrs(poller)).toHaveLength(MAX_PAGES_PER_POLL * 50);
		expect(savedState()!.resume?.token).toBeTruthy();

		emulator.expireFbpiOrderTokens();
		// n8n starts again from the saved state, whose token is refused: the activation succeeds.
		const restarted = await poller.restart();
		pollers.push(restarted);
		emulator.expireFbpiOrderTokens();
		await restarted.poll(); // the token of the activation's poll is refused too
		await restarted.poll();
		await restarted.poll();
		expect(restarted.errors).toEqual([]);
		expectOnce(emittedNrs(poller, restarted), all);
	}, 120_000);
	it('tokens that never live until the next poll, in a window longer than a poll reads: the poll fails in the end, never a quiet loop', async () => {
		await withClock(async (advance) => {
			const poller = await activate();
			addMany(2500, Date.now() - 10 * MINUTE, 100); // 50 pages
			emulator.setFbpiOrderQuirks({ tokenLifetimeMs: 30_000 });
			// Each poll: the refused request, then 39 pages from the start (a few polls more: a
			// restart in the middle of a poll, sessions that expire over the hours).
			const expected = Math.ceil(
				((MAX_RESTARTS + 1) * MAX_LISTING_PAGES) / (MAX_PAGES_PER_POLL - 1),
			);
			const most = 2 * expected;
			let polls = 0;
			while (!poller.errors.length && polls < most) {
				advance(MINUTE);
				await poller.poll();
				polls++;
			}
			expect(poller.errors.map((error) => error.message)).toEqual([
				`ListFbpiOrders did not end after ${MAX_LISTING_PAGES} pages, listed ${MAX_RESTARTS + 1} times from the start (the short window)`,
			]);
			expect(polls).toBeLessThanOrEqual(expected + 8);
			expect(emittedNrs(poller)).toHaveLength(MAX_PAGES_PER_POLL * 50);
		});
	}, 300_000);
});

describe('Seller Platform Poll Trigger: a listing that never ends', () => {
	it(`fails the poll visibly after ${MAX_RESTARTS} restarts of ${MAX_LISTING_PAGES} pages, then starts that window again`, async () => {
		const poller = await activate();
		const orders = addMany(3, Date.now() - MINUTE, 1000);
		emulator.setFbpiOrderQuirks({ endlessTokens: true });
		const pollsPerListing = MAX_LISTING_PAGES / MAX_PAGES_PER_POLL;
		const failingPoll = (MAX_RESTARTS + 1) * pollsPerListing;
		for (let i = 1; i < failingPoll; i++) await poller.poll();
		expect(poller.errors).toEqual([]);
		await poller.poll();
		expect(poller.errors).toHaveLength(1);
		expect(poller.errors[0].message).toBe(
			`ListFbpiOrders did not end after ${MAX_LISTING_PAGES} pages, listed ${MAX_RESTARTS + 1} times from the start (the short window)`,
		);
		expect(poller.errors[0].constructor.name).toBe('NodeApiError');
		// The next poll lists that window again from its start (no error until as many pages).
		const before = listRequests();
		await poller.poll();
		expect(poller.errors).toHaveLength(1);
		expect(listRequests() - before).toBe(MAX_PAGES_PER_POLL);
		expectOnce(emittedNrs(poller), orders);
	}, 300_000);
});

describe('Seller Platform Poll Trigger: Fetch Test Event', () => {
	it.each<[string, FbpiOrderQuirks]>([
		['oldest first', {}],
		['newest first', { listOrder: 'newest' }],
	])('2,500 orders in the last hour, listed %s: gives the newest', async (_, quirks) => {
		emulator.setFbpiOrderQuirks(quirks);
		const now = Date.now();
		const all = addMany(2500, now - 60 * MINUTE, 1350); // up to 3.75 minutes ago
		const result = await env.runWorkflow(pollWorkflow(), { mode: 'manual' });
		expect(result.status).toBe('success');
		expect(result.json(POLL_TRIGGER)).toEqual([emulator.fbpiOrder(all[all.length - 1])]);
	});
});
