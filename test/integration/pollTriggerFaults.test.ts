/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Seller Platform Poll Trigger against a service that misbehaves (the emulator's FBPI order
 * quirks): filters shifted or ignored, times without a zone, entries whose details cannot be
 * read, a credential of another project, a poll budget that ends during the detail reads. Each
 * order is emitted exactly once, and no entry stops the trigger. Run as n8n runs a poll trigger
 * (test/helpers/polls.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { MAX_PAGES_PER_POLL } from '../../dist/nodes/SellerPlatformPollTrigger/listing';
import {
	DETAIL_PATIENCE_MS,
	MAX_DETAIL_ATTEMPTS,
} from '../../dist/nodes/SellerPlatformPollTrigger/pending';
import {
	MAX_ENTRY_CHARS,
	MAX_PENDING,
	STATE_KEY,
	type PollState,
} from '../../dist/nodes/SellerPlatformPollTrigger/state';
import { credentialFields, type Emulator, type FbpiOrderQuirks } from '../emulator';
import {
	chain,
	type ActivePoller,
	type PollingOptions,
	type TestEnvironment,
	type TestWorkflow,
} from '../helpers';
import { CREDENTIAL_ID, startFixture, type Fixture } from './fixture';

const POLL_TRIGGER = 'Seller Platform Poll Trigger';
const STATIC_KEY = `node:${POLL_TRIGGER}`;
const WORKFLOW_ID = 'poll-faults';

let f: Fixture;
let emulator: Emulator;
let env: TestEnvironment;
let warehouses = 0;
let warehouse: string;
const pollers: ActivePoller[] = [];

beforeEach(async () => {
	f = await startFixture();
	({ emulator, env } = f);
	warehouse = `WH-FAULT-${++warehouses}`; // no orders yet
});

afterEach(async () => {
	for (const poller of pollers.splice(0)) poller.deactivate();
	await f.close();
});

function pollWorkflow(credentialId = CREDENTIAL_ID): TestWorkflow {
	return {
		id: WORKFLOW_ID,
		nodes: [
			{
				name: POLL_TRIGGER,
				type: 'sellerPlatformPollTrigger',
				parameters: {
					event: 'newFbpiOrder',
					warehouseCode: { __rl: true, mode: 'id', value: warehouse },
				},
				credentials: { sellerPlatformApi: credentialId },
			},
			{ name: 'Received', type: 'testNoOp' },
		],
		connections: chain(POLL_TRIGGER, 'Received'),
	};
}

const activate = async (workflow = pollWorkflow(), options?: PollingOptions) => {
	const poller = await env.activatePolling(workflow, options);
	pollers.push(poller);
	await poller.settled();
	return poller;
};

/** Orders added to the warehouse (of a project: default the emulator's), created at the times. */
const addOrders = (times: number[], projectCode?: string) =>
	emulator
		.addFbpiOrders({
			projectCode,
			warehouseCode: warehouse,
			orders: times.map((createdAt) => ({ createdAt })),
		})
		.map((order) => order.fbpi_order_nr);

/** The order numbers each execution started with. */
const started = (poller: ActivePoller) =>
	poller.executions.map((execution) =>
		execution.json('Received').map((order) => order.fbpi_order_nr as string),
	);

const savedState = () =>
	(env.workflowStaticData(WORKFLOW_ID)[STATIC_KEY] as IDataObject | undefined)?.[STATE_KEY] as
		PollState | undefined;

/** The state in the activation's memory (saved or not). */
const memoryState = (poller: ActivePoller) =>
	(poller.memory()[STATIC_KEY] as IDataObject)[STATE_KEY] as PollState;

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

const detailReads = (orderNr: string) =>
	emulator
		.requests()
		.filter((r) => r.operation === 'GetFbpiOrder' && r.path.includes(`/${orderNr}/`)).length;

describe('Seller Platform Poll Trigger: a list that gives orders older than asked', () => {
	it.each<[string, FbpiOrderQuirks]>([
		['ignores created_after and created_before', { ignoreFilters: true }],
		['reads the filters an hour earlier', { filterShiftMs: 3600_000 }],
	])(
		'a service that %s: every new order once over 4 polls, none of the history',
		async (_, quirks) => {
			emulator.setFbpiOrderQuirks(quirks);
			const now = Date.now();
			addOrders([now - 2 * 24 * 3600_000, now - 50 * 60_000, now - 30 * 60_000, now - 60_000]);
			const poller = await activate();
			const made: string[][] = [];
			for (let i = 0; i < 4; i++) {
				made.push(addOrders([Date.now()]));
				await poller.poll();
			}
			expect(poller.errors).toEqual([]);
			expect(started(poller)).toEqual(made);
		},
	);
});

/**
 * The environment of the Node process itself: Jest gives a test file a copy of `process.env`,
 * and Node takes a new TZ from the real one only (at once, for every Date).
 */
const processEnv = () => (require('vm').runInThisContext('process') as NodeJS.Process).env;

describe('Seller Platform Poll Trigger: order_created_at without a zone', () => {
	it('is read as UTC whatever the time zone n8n runs in (Asia/Dubai): each order once', async () => {
		emulator.setFbpiOrderQuirks({ zonelessTimes: true });
		const real = processEnv();
		const zone = real.TZ;
		real.TZ = 'Asia/Dubai';
		try {
			expect(new Date(Date.UTC(2026, 0, 1)).getTimezoneOffset()).toBe(-240); // the zone applies
			addOrders([Date.now() - 60_000]); // history
			const poller = await activate();
			const made: string[][] = [];
			for (let i = 0; i < 3; i++) {
				made.push(addOrders([Date.now()]));
				await poller.poll();
			}
			expect(poller.errors).toEqual([]);
			expect(started(poller)).toEqual(made);
			// Remembered at the times they were created (whole seconds: the zoneless form has none).
			const seen = memoryState(poller).seen;
			for (const nr of made.flat()) {
				const created = Date.parse(emulator.fbpiOrder(nr)!.order_created_at);
				expect(seen[nr]).toBe(Math.floor(created / 1000) * 1000);
			}
		} finally {
			if (zone === undefined) delete real.TZ;
			else real.TZ = zone;
		}
	});
});

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

const MINUTE = 60_000;

describe('Seller Platform Poll Trigger: an entry whose details cannot be read', () => {
	it('the other orders are emitted in the same poll; it is retried, then emitted as listed and marked (polls 10 minutes apart); one readable again in time is emitted whole', async () => {
		await withClock(async (advance) => {
			const poller = await activate();
			const now = Date.now();
			const [bad, healed, good] = addOrders([now - 3000, now - 2000, now - 1000]);
			emulator.setFbpiOrderQuirks({ listWithoutItems: true, unreadable: [bad, healed] });
			await poller.poll();
			advance(10 * MINUTE);
			expect(poller.errors).toEqual([]);
			expect(started(poller)).toEqual([[good]]);
			expect(poller.executions[0].json(POLL_TRIGGER)).toEqual([emulator.fbpiOrder(good)]);
			const pending = savedState()!.pending;
			expect(Object.keys(pending).sort()).toEqual([bad, healed].sort());
			expect(pending[bad]).toMatchObject({ attempts: 1, order: { fbpi_order_nr: bad } });

			// The list service catches up for one of them; another order comes.
			emulator.setFbpiOrderQuirks({ listWithoutItems: true, unreadable: [bad] });
			const [later] = addOrders([Date.now()]);
			await poller.poll();
			advance(10 * MINUTE);
			expect(started(poller)[1]).toEqual([healed, later]);
			expect(poller.executions[1].json(POLL_TRIGGER)[0]).toEqual(emulator.fbpiOrder(healed));

			for (let poll = 3; poll <= MAX_DETAIL_ATTEMPTS; poll++) {
				await poller.poll();
				advance(10 * MINUTE);
			}
			expect(started(poller)[2]).toEqual([bad]);
			const [marked] = poller.executions[2].json(POLL_TRIGGER);
			expect(marked).not.toHaveProperty('items'); // as listed
			expect(marked).toMatchObject({
				fbpi_order_nr: bad,
				warehouse_code: warehouse,
				detailsUnavailable: {
					attempts: MAX_DETAIL_ATTEMPTS,
					message: expect.stringContaining('not found'),
				},
			});
			const warnings = env.logger.entries.filter(
				(entry) => entry.level === 'warn' && entry.message.includes(bad),
			);
			expect(warnings).toHaveLength(1);
			expect(warnings[0].message).toMatch(/detailsUnavailable/);

			await poller.poll();
			await poller.poll();
			expect(started(poller).flat()).toEqual([good, healed, later, bad]);
			expect(poller.errors).toEqual([]);
			expect(detailReads(bad)).toBe(MAX_DETAIL_ATTEMPTS);
			expect(memoryState(poller).pending).toEqual({});
		});
	});
});

describe('Seller Platform Poll Trigger: GetFbpiOrder out of service for a while', () => {
	afterEach(() => emulator.clearFaults());

	it('an outage of 3 polls a minute apart (503) sends no order without its items: once GetFbpiOrder answers again, it is emitted whole', async () => {
		await withClock(async (advance) => {
			const poller = await activate();
			emulator.setFbpiOrderQuirks({ listWithoutItems: true });
			const [nr] = addOrders([Date.now() - 1000]);
			emulator.injectFaults({ count: 1000, operation: 'GetFbpiOrder', status: 503 });
			for (let poll = 0; poll < MAX_DETAIL_ATTEMPTS; poll++) {
				await poller.poll();
				advance(MINUTE);
			}
			expect(poller.emitted).toEqual([]);
			expect(memoryState(poller).pending[nr]).toMatchObject({ attempts: MAX_DETAIL_ATTEMPTS });
			emulator.clearFaults();
			await poller.poll();
			expect(poller.errors).toEqual([]);
			expect(started(poller)).toEqual([[nr]]);
			expect(poller.executions[0].json(POLL_TRIGGER)).toEqual([emulator.fbpiOrder(nr)]);
		});
	}, 60_000);

	it('a long outage: emitted as listed, marked, once 3 polls failed AND 15 minutes passed since the first (kept in the state)', async () => {
		await withClock(async (advance) => {
			const poller = await activate();
			emulator.setFbpiOrderQuirks({ listWithoutItems: true });
			const [nr] = addOrders([Date.now() - 1000]);
			emulator.injectFaults({ count: 1000, operation: 'GetFbpiOrder', status: 503 });
			await poller.poll();
			const since = memoryState(poller).pending[nr].since!;
			expect(since).toBeLessThanOrEqual(Date.now());
			// 15 minutes, but 2 failed polls: still pending.
			advance(DETAIL_PATIENCE_MS + MINUTE);
			await poller.poll();
			expect(poller.emitted).toEqual([]);
			expect(memoryState(poller).pending[nr]).toMatchObject({ attempts: 2, since });
			advance(MINUTE);
			await poller.poll();
			expect(poller.errors).toEqual([]);
			expect(started(poller)).toEqual([[nr]]);
			const [marked] = poller.executions[0].json(POLL_TRIGGER);
			expect(marked).not.toHaveProperty('items');
			expect(marked).toMatchObject({ detailsUnavailable: { attempts: MAX_DETAIL_ATTEMPTS } });
			expect(memoryState(poller).pending).toEqual({});
		});
	}, 60_000);

	it('two polls that overlap, both failing to read it, count as one failed poll', async () => {
		await withClock(async (advance) => {
			const poller = await activate();
			const [nr] = addOrders([Date.now() - 1000]);
			emulator.setFbpiOrderQuirks({ listWithoutItems: true, unreadable: [nr] });
			await poller.poll();
			expect(memoryState(poller).pending[nr]).toMatchObject({ attempts: 1 });
			advance(DETAIL_PATIENCE_MS + MINUTE);
			// Each answer takes 200 ms: each poll takes its work (listing) before the other settles.
			emulator.setLatency(200);
			await Promise.all([poller.poll(), poller.poll()]);
			emulator.setLatency(0);
			expect(poller.errors).toEqual([]);
			expect(poller.emitted).toEqual([]);
			expect(memoryState(poller).pending[nr]).toMatchObject({ attempts: 2 });
			await poller.poll();
			expect(started(poller)).toEqual([[nr]]);
			expect(poller.executions[0].json(POLL_TRIGGER)[0]).toMatchObject({
				detailsUnavailable: { attempts: MAX_DETAIL_ATTEMPTS },
			});
		});
	}, 60_000);
});

describe('Seller Platform Poll Trigger: a service that ignores the page size', () => {
	it('one page with more new orders than can wait for their details: none is emitted without a read; the rest is listed again from that page, each order once, whole', async () => {
		// Thousands of requests: no pacing of a plan.
		await f.close();
		f = await startFixture({ ratePlan: null }, { requestsPerMinute: 1_000_000 });
		({ emulator, env } = f);
		const poller = await activate();
		const count = MAX_PENDING + 100;
		const made = emulator
			.addFbpiOrders({
				warehouseCode: warehouse,
				count,
				createdAt: Date.now() - 5 * MINUTE,
				intervalMs: 100,
			})
			.map((order) => order.fbpi_order_nr);
		const quirks = { listWithoutItems: true, pageSize: 10 * count };
		emulator.setFbpiOrderQuirks({ ...quirks, unreadable: made });
		await poller.poll();
		expect(poller.errors).toEqual([]);
		expect(poller.emitted).toEqual([]); // none beyond the room emitted marked, unread
		expect(Object.keys(memoryState(poller).pending)).toHaveLength(MAX_PENDING);

		emulator.setFbpiOrderQuirks(quirks);
		for (let polls = 0; started(poller).flat().length < count && polls < 5; polls++)
			await poller.poll();
		expect(poller.errors).toEqual([]);
		expect(started(poller).flat()).toEqual(made);
		for (const execution of poller.executions)
			for (const order of execution.json(POLL_TRIGGER)) expect(order.items).toHaveLength(1);
		expect(memoryState(poller).pending).toEqual({});
	}, 120_000);
});

describe('Seller Platform Poll Trigger: list entries and their fbpi_order_nr', () => {
	it('a number is the order of its decimal string, emitted once; entries naming no order are skipped with one warning a poll', async () => {
		const poller = await activate();
		const entry = (nr: unknown) => ({
			fbpi_order_nr: nr,
			warehouse_code: warehouse,
			order_created_at: new Date(Date.now() - 1000).toISOString(),
			items: [],
		});
		const { fbpi_order_nr: _, ...unnumbered } = entry(undefined);
		const orders = [entry(98765432101), entry(''), entry(null), unnumbered, 'NAEORD-1'];
		emulator.injectFaults({
			count: 1000,
			operation: 'ListFbpiOrders',
			answer: { set: { orders, next_token: '' } },
		});
		try {
			await poller.poll();
			await poller.poll();
		} finally {
			emulator.clearFaults();
		}
		expect(poller.errors).toEqual([]);
		expect(started(poller)).toEqual([['98765432101']]);
		const warnings = env.logger.entries.filter(
			(e) => e.level === 'warn' && e.message.includes('without an fbpi_order_nr'),
		);
		expect(warnings.map((e) => e.message)).toEqual([
			expect.stringContaining('4 entries'),
			expect.stringContaining('4 entries'),
		]);
	});
});

describe('Seller Platform Poll Trigger: GetFbpiOrder answers another order', () => {
	it('the answer is not taken for the listed order: it is read again on the next poll and emitted once, whole, under its own number', async () => {
		const poller = await activate();
		emulator.setFbpiOrderQuirks({ listWithoutItems: true });
		const [nr] = addOrders([Date.now() - 1000]);
		emulator.injectFaults({
			count: 1,
			operation: 'GetFbpiOrder',
			answer: { set: { fbpi_order_nr: 'NAEORD-SOMEONE-ELSES' } },
		});
		await poller.poll();
		expect(poller.emitted).toEqual([]);
		expect(memoryState(poller).pending[nr]).toMatchObject({ attempts: 1 });
		await poller.poll();
		await poller.poll();
		expect(poller.errors).toEqual([]);
		expect(started(poller)).toEqual([[nr]]);
		expect(poller.executions[0].json(POLL_TRIGGER)).toEqual([emulator.fbpiOrder(nr)]);

		// The same number in another case is this order: emitted whole at once.
		const [other] = addOrders([Date.now() - 1000]);
		emulator.injectFaults({
			count: 1,
			operation: 'GetFbpiOrder',
			answer: { set: { fbpi_order_nr: ` ${other.toLowerCase()}` } },
		});
		await poller.poll();
		expect(started(poller)).toEqual([[nr], [` ${other.toLowerCase()}`]]);
		expect(poller.executions[1].json(POLL_TRIGGER)[0].items).toHaveLength(1);
	});
});

describe('Seller Platform Poll Trigger: an order the service lists again and again', () => {
	it('with an order_created_at it cannot read, in every answer (filters ignored): emitted once, also once the lookback has passed', async () => {
		// Time passes 10 minutes between polls: n8n's clock and the emulator's (one Date.now).
		const realNow = Date.now;
		let passed = 0;
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + passed);
		try {
			const poller = await activate();
			const odd = {
				fbpi_order_nr: `NAEORD-ODD-${warehouses}`,
				warehouse_code: warehouse,
				order_created_at: '',
				items: [],
			};
			emulator.injectFaults({
				count: 1000,
				operation: 'ListFbpiOrders',
				answer: { set: { orders: [odd], next_token: '' } },
			});
			for (let poll = 0; poll < 5; poll++) {
				await poller.poll();
				passed += 10 * 60_000;
			}
			expect(poller.errors).toEqual([]);
			expect(started(poller)).toEqual([[odd.fbpi_order_nr]]);
		} finally {
			clock.mockRestore();
			emulator.clearFaults();
		}
	});
});

describe('Seller Platform Poll Trigger: a huge list entry whose details cannot be read', () => {
	it('is not kept pending beyond the bound of an entry (static data stays small): emitted once at once, marked, the others as usual', async () => {
		const poller = await activate();
		const huge = `N${'9'.repeat(100_000)}`; // an odd number: 100,000 characters
		emulator.addFbpiOrders({
			warehouseCode: warehouse,
			orders: [{ fbpiOrderNr: huge, createdAt: Date.now() - 2000 }],
		});
		const [good] = addOrders([Date.now() - 1000]);
		emulator.setFbpiOrderQuirks({ listWithoutItems: true, unreadable: [huge] });
		await poller.poll();
		// Kept pending, it would hold its 100,000 characters in the static data (up to 2,000 such).
		expect(JSON.stringify(memoryState(poller)).length).toBeLessThan(MAX_ENTRY_CHARS + 1000);
		expect(JSON.stringify(savedState()).length).toBeLessThan(MAX_ENTRY_CHARS + 1000);
		for (let poll = 1; poll < MAX_DETAIL_ATTEMPTS + 1; poll++) await poller.poll();

		expect(poller.errors).toEqual([]);
		expect(started(poller)).toEqual([[huge, good]]);
		const [marked] = poller.executions[0].json(POLL_TRIGGER);
		expect(marked).toMatchObject({ fbpi_order_nr: huge, detailsUnavailable: { attempts: 1 } });
		expect(String((marked.detailsUnavailable as IDataObject).message)).toContain('HTTP 431'); // its path is too long
	});
});

describe('Seller Platform Poll Trigger: the order stream', () => {
	it('a workflow switched to a credential of another project: no failure, none of that project’s history, then its new orders', async () => {
		const first = await activate();
		// More orders than one poll lists: the saved state holds a next_token of this project.
		emulator.addFbpiOrders({
			warehouseCode: warehouse,
			count: MAX_PAGES_PER_POLL * 50 + 50,
			createdAt: Date.now() - 5 * 60_000,
			intervalMs: 100,
		});
		await first.poll();
		expect(savedState()!.resume?.token).toBeTruthy();
		first.deactivate();

		const projectCode = 'PRJ-POLL-OTHER';
		const credential = await emulator.addCredential({ projectCode });
		env.addCredential(
			'cred-other',
			'sellerPlatformApi',
			credentialFields({ baseUrl: emulator.baseUrl, credential }),
		);
		const now = Date.now();
		addOrders([now - 10 * 60_000, now - 60_000], projectCode); // its history
		const second = await activate(pollWorkflow('cred-other'));
		await second.poll();
		expect(second.errors).toEqual([]);
		expect(second.emitted).toEqual([]);

		const fresh = addOrders([Date.now()], projectCode);
		addOrders([Date.now()]); // the first project's: not this stream's
		await second.poll();
		await second.poll();
		expect(second.errors).toEqual([]);
		expect(started(second)).toEqual([fresh]);
	}, 60_000);

	it('a state saved by the previous version (no stream) is adopted: the orders created since its last poll are emitted once', async () => {
		const readUpTo = Math.floor(Date.now() / 1000) * 1000 - 5 * 60_000;
		const [known] = addOrders([readUpTo - 60_000]);
		// As the previous version saved it: no stream, no pending.
		const workflow = await env.createWorkflow(pollWorkflow());
		workflow.staticData[STATIC_KEY] = {
			[STATE_KEY]: {
				warehouseCode: warehouse,
				readUpTo,
				floor: 0,
				seen: { [known]: Date.parse(emulator.fbpiOrder(known)!.order_created_at) },
			},
		};
		workflow.staticData.__dataChanged = true;
		env.saveStaticData(workflow);
		const missed = addOrders([readUpTo + 60_000, Date.now() - 1000]);

		const poller = await activate();
		await poller.poll();
		expect(poller.errors).toEqual([]);
		expect(started(poller)).toEqual([missed]);
		expect(savedState()!.stream).toMatch(/^sha256:[0-9a-f]{64}$/);
	});
});

describe('Seller Platform Poll Trigger: the poll budget', () => {
	it("a poll told to wait beyond its part of n8n's poll budget fails at once, saying so; the next poll emits the orders", async () => {
		// n8n 2.41 gives a poll 36 s and drops what a longer one found; scaled down to 4 s (2 s of
		// waiting), against a Retry-After of 3 s.
		const poller = await activate(pollWorkflow(), { pollBudgetMs: 4000 });
		const made = addOrders([Date.now() - 2000, Date.now() - 1000]);
		emulator.injectFaults({ count: 1, operation: 'ListFbpiOrders', status: 429, retryAfter: 3 });
		const began = Date.now();
		await poller.poll();
		expect(Date.now() - began).toBeLessThan(2000);
		expect(started(poller)).toEqual([]);
		expect(poller.errors.map((e) => e.message)).toEqual([
			expect.stringMatching(/takes requests again at .* beyond this poll's waiting budget$/),
		]);
		expect((poller.errors[0] as { description?: string }).description).toMatch(
			/^This poll may wait 2 s in all \(2 s left\); the next poll tries again\.$/,
		);
		await sleep(3000);
		await poller.poll();
		expect(started(poller)).toEqual([made]);
	});

	it('a poll whose budget ends during the detail reads: the next poll reads the rest first; every order once, in creation order', async () => {
		// 200 ms of a 400 ms budget for listing and reading; each answer takes 50 ms or more.
		const poller = await activate(pollWorkflow(), { pollBudgetMs: 400 });
		emulator.setFbpiOrderQuirks({ listWithoutItems: true });
		const count = 40;
		const made = emulator
			.addFbpiOrders({
				warehouseCode: warehouse,
				count,
				createdAt: Date.now() - 60_000,
				intervalMs: 100,
			})
			.map((order) => order.fbpi_order_nr);
		emulator.setLatency(50);
		for (let polls = 0; started(poller).flat().length < count && polls < count; polls++)
			await poller.poll();
		emulator.setLatency(0);
		await poller.poll();

		expect(poller.errors).toEqual([]);
		expect(poller.executions.length).toBeGreaterThan(1); // the first poll did not read them all
		expect(started(poller).flat()).toEqual(made);
		for (const execution of poller.executions)
			for (const order of execution.json(POLL_TRIGGER)) expect(order.items).toHaveLength(1);
		expect(made.map(detailReads)).toEqual(made.map(() => 1));
		expect(memoryState(poller).pending).toEqual({});
	}, 60_000);
});
