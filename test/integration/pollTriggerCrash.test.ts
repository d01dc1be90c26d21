/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Seller Platform Poll Trigger when n8n stops between saving a poll's static data and creating its
 * execution (n8n starts both without waiting for either), run as the app runs a poll trigger
 * (test/helpers/polls.ts), with and without n8n 2.41's durable poll cursors. A "new life" is n8n
 * started again as a new process (`startNewLifeForTests`); `restart()` alone is the same process.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	POSSIBLE_DUPLICATE,
	startNewLifeForTests,
} from '../../dist/nodes/SellerPlatformPollTrigger/confirmation';
import {
	LOOKBACK_MS,
	MAX_ENTRY_CHARS,
	STATE_KEY,
	type PollState,
} from '../../dist/nodes/SellerPlatformPollTrigger/state';
import type { Emulator } from '../emulator';
import { chain, type ActivePoller, type TestEnvironment, type TestWorkflow } from '../helpers';
import { CREDENTIAL_ID, startFixture, type Fixture } from './fixture';

const POLL_TRIGGER = 'Seller Platform Poll Trigger';
const STATIC_KEY = `node:${POLL_TRIGGER}`;
const WORKFLOW_ID = 'crash-workflow';

let f: Fixture;
let emulator: Emulator;
let env: TestEnvironment;
let warehouses = 0;
let warehouse: string;
const pollers: ActivePoller[] = [];

beforeEach(async () => {
	f = await startFixture();
	({ emulator, env } = f);
	warehouse = `WH-CRASH-${++warehouses}`;
});

afterEach(async () => {
	for (const poller of pollers.splice(0)) poller.deactivate();
	await f.close();
});

const workflow = (): TestWorkflow => ({
	id: WORKFLOW_ID,
	nodes: [
		{
			name: POLL_TRIGGER,
			type: 'sellerPlatformPollTrigger',
			parameters: {
				event: 'newFbpiOrder',
				warehouseCode: { __rl: true, mode: 'id', value: warehouse },
			},
			credentials: { sellerPlatformApi: CREDENTIAL_ID },
		},
		{ name: 'Received', type: 'testNoOp' },
	],
	connections: chain(POLL_TRIGGER, 'Received'),
});

const activate = async (durableCursors = false, pollBudgetMs?: number) => {
	const poller = await env.activatePolling(workflow(), { durableCursors, pollBudgetMs });
	pollers.push(poller);
	return poller;
};

const restart = async (poller: ActivePoller) => {
	const restarted = await poller.restart();
	pollers.push(restarted);
	return restarted;
};

/** Orders created now, or `aheadMs` later (a millisecond apart, oldest first). */
const addOrders = (count: number, aheadMs = 0) => {
	const now = Date.now() + aheadMs;
	const orders = Array.from({ length: count }, (_, i) => ({ createdAt: now + i }));
	return emulator
		.addFbpiOrders({ warehouseCode: warehouse, orders })
		.map((order) => order.fbpi_order_nr);
};

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** The orders each emitting poll gave n8n. */
const emitted = (poller: ActivePoller) =>
	poller.emitted.map(([items]) => items.map(({ json }) => json));
const numbers = (orders: IDataObject[]) => orders.map((order) => order.fbpi_order_nr);

const savedState = () =>
	(env.workflowStaticData(WORKFLOW_ID)[STATIC_KEY] as IDataObject | undefined)?.[STATE_KEY] as
		PollState | undefined;

describe('Seller Platform Poll Trigger: n8n stopped between the save and the execution', () => {
	it('the state saved, the execution lost: after n8n starts again, the orders come again once, marked possibleDuplicate, in the shape of FBPI Order → Get', async () => {
		const poller = await activate();
		const lost = addOrders(3);
		await poller.poll();
		expect(numbers(emitted(poller)[0])).toEqual(lost);
		// The saved state has them as emitted (and unconfirmed); the execution never existed.
		expect(Object.keys(savedState()!.seen)).toEqual(expect.arrayContaining(lost));
		expect(Object.keys(savedState()!.unconfirmed!.orders).sort()).toEqual([...lost].sort());

		startNewLifeForTests();
		const after = await restart(poller);
		// Stamped more than the 15 minutes a service clock may run ahead after n8n started again.
		const later = addOrders(1, LOOKBACK_MS + 1000);
		await after.poll();
		await after.poll();

		const [again, fresh, ...none] = emitted(after);
		expect(none).toEqual([]);
		expect(again).toEqual(
			lost.map((nr) => ({
				...(emulator.fbpiOrder(nr) as unknown as IDataObject),
				[POSSIBLE_DUPLICATE]: true,
			})),
		);
		// Created (by the service's clock) over 15 minutes after n8n started again: not marked.
		expect(fresh).toEqual([emulator.fbpiOrder(later[0]) as unknown as IDataObject]);
	});

	it('an order too large to keep whole (over MAX_ENTRY_CHARS) is read again with FBPI Order → Get after n8n starts again', async () => {
		const poller = await activate();
		const items = Array.from({ length: 30 }, (_, i) => ({ partnerSku: `SKU-LARGE-${i}` }));
		const [large] = emulator
			.addFbpiOrders({ warehouseCode: warehouse, orders: [{ createdAt: Date.now(), items }] })
			.map((order) => order.fbpi_order_nr);
		expect(JSON.stringify(emulator.fbpiOrder(large)).length).toBeGreaterThan(MAX_ENTRY_CHARS);
		await poller.poll();
		expect(savedState()!.unconfirmed!.orders[large].order).toEqual({
			fbpi_order_nr: large,
			order_created_at: emulator.fbpiOrder(large)!.order_created_at,
		});

		startNewLifeForTests();
		const reads = () =>
			emulator.requests().filter((request) => request.operation === 'GetFbpiOrder').length;
		const readBefore = reads();
		const after = await restart(poller);
		expect(reads()).toBe(readBefore + 1);
		expect(emitted(after)).toEqual([
			[{ ...(emulator.fbpiOrder(large) as unknown as IDataObject), [POSSIBLE_DUPLICATE]: true }],
		]);
	});

	it('in the same n8n life, the next poll confirms what the last one emitted: no repeat, no mark, also across a re-activation', async () => {
		const poller = await activate();
		const first = addOrders(2);
		await poller.poll();
		expect(Object.keys(savedState()!.unconfirmed!.orders).sort()).toEqual([...first].sort());

		const again = await restart(poller); // same process: n8n has created that execution
		const second = addOrders(1);
		await again.poll();
		await again.poll();

		expect(emitted(poller).map(numbers)).toEqual([first]);
		expect(emitted(again).map(numbers)).toEqual([second]);
		expect(JSON.stringify(emitted(again))).not.toContain(POSSIBLE_DUPLICATE);
		// Confirmed: only the last emitting poll's order is left unconfirmed.
		expect(Object.keys(savedState()!.unconfirmed!.orders)).toEqual(second);
	});

	it('the execution created, the save lost: after n8n starts again, the orders listed again come marked possibleDuplicate', async () => {
		const poller = await activate();
		const before = env.workflowStaticData(WORKFLOW_ID);
		const delivered = addOrders(2);
		await poller.poll();
		expect(poller.executions).toHaveLength(1);
		env.restoreStaticData(WORKFLOW_ID, before); // the save never reached the database

		startNewLifeForTests();
		const after = await restart(poller);
		// Stamped more than the 15 minutes a service clock may run ahead after n8n started again.
		const later = addOrders(1, LOOKBACK_MS + 1000);
		await after.poll();
		await after.poll();

		const [again, fresh, ...none] = emitted(after);
		expect(none).toEqual([]);
		expect(numbers(again)).toEqual(delivered);
		for (const order of again) expect(order[POSSIBLE_DUPLICATE]).toBe(true);
		expect(fresh).toEqual([emulator.fbpiOrder(later[0]) as unknown as IDataObject]);
	});
});

describe('Seller Platform Poll Trigger: n8n 2.41 durable poll cursors', () => {
	it('the orders created before the first scheduled poll are emitted; no unconfirmed set, no repeat and no mark after n8n starts again', async () => {
		const poller = await activate(true);
		// n8n commits no cursor of the poll at activation.
		expect(poller.storedCursor()).toEqual({});
		const first = addOrders(3);
		await poller.poll();
		expect(emitted(poller).map(numbers)).toEqual([first]);

		const cursor = poller.storedCursor()![STATE_KEY] as unknown as PollState;
		expect(Object.keys(cursor.seen)).toEqual(expect.arrayContaining(first));
		expect(cursor.unconfirmed).toBeUndefined();

		startNewLifeForTests();
		const after = await restart(poller);
		const second = addOrders(1);
		await after.poll();
		await after.poll();
		expect(emitted(after).map(numbers)).toEqual([second]);
		expect(JSON.stringify(emitted(after))).not.toContain(POSSIBLE_DUPLICATE);
		// The stream's start in the global static data is dropped once the cursor went past it.
		expect(env.workflowStaticData(WORKFLOW_ID).global ?? {}).toEqual({});
	});
	it('two polls of the scheduler at once (a lapsed one beside the current one): each order once, unmarked', async () => {
		const poller = await activate(true);
		await poller.poll();
		const orders = addOrders(4);
		await poller.pollsAtOnce(2);
		expect(emitted(poller).map(numbers)).toEqual([orders]);
		expect(JSON.stringify(emitted(poller))).not.toContain(POSSIBLE_DUPLICATE);
		// The poll that ran stored its cursor: the next one goes on from there.
		const later = addOrders(1);
		await poller.poll();
		expect(emitted(poller).map(numbers)).toEqual([orders, later]);
	});

	it('a poll whose cursor was read before another poll stored its own: what that one emitted comes again, marked', async () => {
		const poller = await activate(true);
		await poller.poll();
		const orders = addOrders(3);
		await poller.pollAfterStaleRead();
		const [first, again] = emitted(poller);
		expect(numbers(first)).toEqual(orders);
		expect(first.some((order) => POSSIBLE_DUPLICATE in order)).toBe(false);
		expect(numbers(again)).toEqual(orders);
		expect(again.every((order) => order[POSSIBLE_DUPLICATE] === true)).toBe(true);
	});
	it('a poll still running past its poll budget (n8n has given up on it) does not keep the next poll from emitting', async () => {
		// n8n 2.41: a poll budget of 36 s, a poll timeout of 45 s; a listing that waits out 429s may
		// outlive both. Scaled down.
		const poller = await activate(true, 1000);
		await poller.poll();
		const orders = addOrders(2);
		emulator.injectFaults({ count: 1, operation: 'ListFbpiOrders', delayMs: 4000 });
		const abandoned = poller.poll();
		await sleep(2000);
		await poller.poll();
		expect(emitted(poller).map(numbers)).toEqual([orders]);
		await abandoned;
	});

	it('a poll whose result n8n dropped (the workflow deactivated meanwhile): the next poll emits those orders, marked (the stated limit)', async () => {
		const poller = await activate(true);
		await poller.poll();
		const orders = addOrders(3);
		emulator.injectFaults({ count: 1, operation: 'ListFbpiOrders', delayMs: 1500 });
		const dropped = poller.poll();
		await sleep(500);
		poller.deactivate();
		await dropped;
		expect(emitted(poller)).toEqual([]);
		poller.active = true;
		await poller.poll();
		expect(emitted(poller).map(numbers)).toEqual([orders]);
		expect(emitted(poller)[0].every((order) => order[POSSIBLE_DUPLICATE] === true)).toBe(true);
	});
});
