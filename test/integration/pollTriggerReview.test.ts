/**
 * Adversarial review of the poll trigger's crash confirmation (confirmation.ts): sequences in
 * which an order n8n may already have received comes again without `possibleDuplicate`, or an
 * order n8n never received is never emitted. Each test is a finding of the review; run as the app
 * runs a poll trigger (test/helpers/polls.ts). A "new life" is n8n started again as a new process.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	POSSIBLE_DUPLICATE,
	startNewLifeForTests,
} from '../../dist/nodes/SellerPlatformPollTrigger/confirmation';
import { STATE_KEY, type PollState } from '../../dist/nodes/SellerPlatformPollTrigger/state';
import type { Emulator } from '../emulator';
import { chain, type ActivePoller, type TestEnvironment, type TestWorkflow } from '../helpers';
import { CREDENTIAL_ID, startFixture, type Fixture } from './fixture';

const POLL_TRIGGER = 'Seller Platform Poll Trigger';
const MINUTE = 60_000;
const STATIC_KEY = `node:${POLL_TRIGGER}`;
const WORKFLOW_ID = 'review-workflow';

let f: Fixture;
let emulator: Emulator;
let env: TestEnvironment;
let warehouses = 0;
let warehouse: string;
const pollers: ActivePoller[] = [];

beforeEach(async () => {
	f = await startFixture();
	({ emulator, env } = f);
	warehouse = `WH-REVIEW-${++warehouses}`;
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

const activate = async (durableCursors = false) => {
	const poller = await env.activatePolling(workflow(), { durableCursors });
	pollers.push(poller);
	return poller;
};

/** Orders created at n8n's now plus `aheadMs` (the service's clock ahead), oldest first. */
const addOrders = (count: number, aheadMs = 0) => {
	const now = Date.now() + aheadMs;
	const orders = Array.from({ length: count }, (_, i) => ({ createdAt: now + i }));
	return emulator
		.addFbpiOrders({ warehouseCode: warehouse, orders })
		.map((order) => order.fbpi_order_nr);
};

const emitted = (poller: ActivePoller) =>
	poller.emitted.flatMap(([items]) => items.map(({ json }) => json));
const numbers = (orders: IDataObject[]) => orders.map((order) => order.fbpi_order_nr);

/** Date.now moved on by `advance(ms)` while `run` runs (n8n's clock and the emulator's). */
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

const savedState = () =>
	(env.workflowStaticData(WORKFLOW_ID)[STATIC_KEY] as IDataObject | undefined)?.[STATE_KEY] as
		PollState | undefined;

describe('Seller Platform Poll Trigger review: n8n killed, then started again', () => {
	it('the service clock 10 min ahead of n8n (within the 15 min the trigger allows), the execution created, the save lost: the orders come again marked possibleDuplicate', async () => {
		const poller = await activate();
		const before = env.workflowStaticData(WORKFLOW_ID);
		// The service stamps its orders 10 minutes ahead of n8n's clock.
		const delivered = addOrders(2, 10 * 60_000);
		await poller.poll();
		expect(numbers(emitted(poller))).toEqual(delivered);
		expect(poller.executions).toHaveLength(1);
		env.restoreStaticData(WORKFLOW_ID, before); // the save never reached the database

		startNewLifeForTests(); // n8n back a few seconds later
		const after = await poller.restart();
		pollers.push(after);
		await after.poll();
		await after.poll();

		const again = emitted(after);
		expect(numbers(again)).toEqual(delivered);
		// n8n received them before it stopped: each must carry the mark.
		for (const order of again) expect(order[POSSIBLE_DUPLICATE]).toBe(true);
	});

	it('unconfirmed orders of a life without durable cursors are emitted (marked) when n8n starts again with durable poll cursors on', async () => {
		const poller = await activate();
		const lost = addOrders(3);
		await poller.poll();
		// The state saved says emitted; the execution never existed (n8n killed in between).
		expect(Object.keys(savedState()!.unconfirmed!.orders).sort()).toEqual([...lost].sort());

		startNewLifeForTests();
		// The seller turns durable poll cursors on as n8n starts again.
		const after = await activate(true);
		await after.poll();
		await after.poll();

		const again = emitted(after);
		expect(numbers(again)).toEqual(lost);
		for (const order of again) expect(order[POSSIBLE_DUPLICATE]).toBe(true);
	});

	it('a late order a sweep emitted, the save lost: the sweep after n8n starts again reaches it after the 15-minute look-back passed: it comes again marked possibleDuplicate', async () => {
		await withClock(async (advance) => {
			const poller = await activate();
			const t0 = Date.now();
			const at = (minutes: number) => advance(t0 + minutes * MINUTE - Date.now());
			// 4,500 orders on time (90 pages), then one listed 42 minutes late.
			const bulk = emulator
				.addFbpiOrders({
					warehouseCode: warehouse,
					count: 4500,
					createdAt: t0 + MINUTE,
					intervalMs: 10,
				})
				.map((order) => order.fbpi_order_nr);
			const [late] = emulator
				.addFbpiOrders({
					warehouseCode: warehouse,
					orders: [{ createdAt: t0 + 3 * MINUTE, listedFrom: t0 + 45 * MINUTE }],
				})
				.map((order) => order.fbpi_order_nr);
			for (const minutes of [5, 6, 7]) {
				at(minutes);
				await poller.poll();
			}
			expect(numbers(emitted(poller))).toEqual(bulk);
			// The first sweep (31-33), an order on time saved at 40, a quiet hour: no save.
			for (const minutes of [31, 32, 33]) {
				at(minutes);
				await poller.poll();
			}
			at(39);
			addOrders(1);
			at(40);
			await poller.poll();
			// The second sweep reaches the late order on its third poll; n8n creates the
			// execution, the save never reaches the database.
			for (const minutes of [62, 63]) {
				at(minutes);
				await poller.poll();
			}
			const before = env.workflowStaticData(WORKFLOW_ID);
			at(64);
			await poller.poll();
			expect(numbers(emitted(poller)).slice(-1)).toEqual([late]);
			expect(poller.executions.length).toBe(poller.emitted.length);
			env.restoreStaticData(WORKFLOW_ID, before);

			// n8n back a minute later; the seller's trigger polls every 20 minutes.
			at(65);
			startNewLifeForTests();
			const after = await poller.restart();
			pollers.push(after);
			for (const minutes of [85, 105, 125]) {
				at(minutes);
				await after.poll();
			}
			expect(after.errors).toEqual([]);
			const again = emitted(after).filter((order) => order.fbpi_order_nr === late);
			expect(again).toHaveLength(1);
			// n8n received it before it stopped: it must carry the mark.
			expect(again[0][POSSIBLE_DUPLICATE]).toBe(true);
		});
	}, 180_000);

	it('durable poll cursors, a trigger polling once every 2 days: the orders created between the activation and the first scheduled poll are emitted', async () => {
		await withClock(async (advance) => {
			const poller = await activate(true);
			advance(60 * MINUTE);
			const made = addOrders(3);
			// n8n's first scheduled poll, 48 hours after the activation (a custom cron interval).
			advance(47 * 60 * MINUTE);
			await poller.poll();
			expect(poller.errors).toEqual([]);
			expect(numbers(emitted(poller))).toEqual(made);
		});
	});
});
