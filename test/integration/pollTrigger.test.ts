/**
 * Seller Platform Poll Trigger, run the way the n8n app runs a poll trigger (test/helpers/polls.ts:
 * n8n-core's PollContext and PollTriggerExecutor; the first poll at activation, static data saved
 * as the app saves it), against the emulator's FBPI orders added at chosen creation times.
 */
import type { IDataObject } from 'n8n-workflow';

import { MAX_PAGES_PER_POLL } from '../../dist/nodes/SellerPlatformPollTrigger/listing';
import { SLICE_MS } from '../../dist/nodes/SellerPlatformPollTrigger/polling';
import {
	LOOKBACK_MS,
	STATE_KEY,
	type PollState,
} from '../../dist/nodes/SellerPlatformPollTrigger/state';
import type { Emulator } from '../emulator';
import { chain, type ActivePoller, type TestEnvironment, type TestWorkflow } from '../helpers';
import { CREDENTIAL_ID, startFixture, type Fixture } from './fixture';

const POLL_TRIGGER = 'Seller Platform Poll Trigger';
const STATIC_KEY = `node:${POLL_TRIGGER}`;

let f: Fixture;
let emulator: Emulator;
let env: TestEnvironment;
let warehouses = 0;
let warehouse: string;
const pollers: ActivePoller[] = [];

beforeEach(async () => {
	f = await startFixture();
	({ emulator, env } = f);
	warehouse = `WH-POLL-${++warehouses}`; // no orders yet
});

afterEach(async () => {
	for (const poller of pollers.splice(0)) poller.deactivate();
	await f.close();
});

function pollWorkflow(parameters: IDataObject = {}, id = 'poll-workflow'): TestWorkflow {
	return {
		id,
		nodes: [
			{
				name: POLL_TRIGGER,
				type: 'sellerPlatformPollTrigger',
				parameters: {
					event: 'newFbpiOrder',
					warehouseCode: { __rl: true, mode: 'id', value: warehouse },
					...parameters,
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
	return poller;
};

/** Orders added to the warehouse, created at the given times (ms). */
const addOrders = (...times: number[]) =>
	emulator
		.addFbpiOrders({ warehouseCode: warehouse, orders: times.map((createdAt) => ({ createdAt })) })
		.map((order) => order.fbpi_order_nr);

/** The order numbers each execution started with. */
const started = (poller: ActivePoller) =>
	poller.executions.map((execution) =>
		execution.json('Received').map((order) => order.fbpi_order_nr as string),
	);

const savedState = (id = 'poll-workflow') =>
	(env.workflowStaticData(id)[STATIC_KEY] as IDataObject | undefined)?.[STATE_KEY] as
		PollState | undefined;

const listRequests = () =>
	emulator.requests().filter((request) => request.operation === 'ListFbpiOrders');

const second = (ms: number) => Math.floor(ms / 1000) * 1000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('Seller Platform Poll Trigger: activation', () => {
	it('the first activation emits nothing for the orders already there (old, recent, or stamped ahead by a skewed clock) and remembers where it stands', async () => {
		const now = Date.now();
		const history = addOrders(now - 2 * 24 * 3600_000, now - 60_000, now + 5 * 60_000);
		const poller = await activate();
		await poller.poll();
		const polledBy = Date.now();

		expect(poller.emitted).toEqual([]);
		expect(poller.executions).toEqual([]);
		const state = savedState()!;
		expect(state.warehouseCode).toBe(warehouse);
		// Created more than LOOKBACK_MS before the activation: history, even if listed later.
		expect(state.floor).toBe(state.readUpTo - LOOKBACK_MS - 1);
		expect(state.readUpTo).toBe(second(state.readUpTo));
		// The second of a poll, however long the polls took.
		expect(state.readUpTo).toBeGreaterThanOrEqual(second(now));
		expect(state.readUpTo).toBeLessThanOrEqual(polledBy);
		// The two in reach of the next window are remembered, the old one is not needed.
		expect(Object.keys(state.seen).sort()).toEqual(history.slice(1).sort());
		// The activation listed from the overlap back, without an end (orders ahead of n8n's clock).
		expect(listRequests()[0].body).toEqual({
			warehouse_code: warehouse,
			created_after: iso(state.readUpTo - LOOKBACK_MS),
		});

		// An order that turns up afterwards (created a minute ago: late, or a clock behind) is new.
		const [late] = addOrders(now - 60_000);
		await poller.poll();
		expect(started(poller)).toEqual([[late]]);
		expect(poller.executions[0].run.mode).toBe('trigger');
		expect(poller.executions[0].json(POLL_TRIGGER)[0]).toEqual(
			emulator.fbpiOrder(late) as unknown as IDataObject,
		);
	});

	it('Fetch Test Event returns the most recent order and touches no state', async () => {
		const now = Date.now();
		const [, newest] = addOrders(now - 3 * 24 * 3600_000, now - 2 * 24 * 3600_000);
		addOrders(now - 5 * 24 * 3600_000);
		const result = await env.runWorkflow(pollWorkflow(), { mode: 'manual' });
		expect(result.status).toBe('success');
		expect(result.json(POLL_TRIGGER)).toEqual([emulator.fbpiOrder(newest)]);
		expect(env.workflowStaticData('poll-workflow')).toEqual({});

		warehouse = 'WH-POLL-EMPTY';
		const empty = await env.runWorkflow(pollWorkflow(), { mode: 'manual' });
		expect(empty.error?.message).toBe('No FBPI order in warehouse "WH-POLL-EMPTY" yet');
	});
});

describe('Seller Platform Poll Trigger: each order exactly once', () => {
	it('3 polls over overlapping windows, orders at the window edges, a restart between two polls: each order once', async () => {
		const poller = await activate();
		const r0 = savedState()!.readUpTo;
		const start = r0 - LOOKBACK_MS; // created_after of the next window (inclusive)

		// At the start edge, at the previous readUpTo, and ahead of n8n's clock.
		const first = addOrders(start, r0, Date.now() + 120_000);
		await poller.poll();
		// The next window (it overlaps the last one whole), two more at its edges. Its start is that
		// of the last one only while no second turned since the activation: taken from the state.
		const second_ = addOrders(savedState()!.readUpTo - LOOKBACK_MS, second(Date.now()));
		await poller.poll();
		await poller.poll(); // nothing new: returns null, saves nothing
		const third = addOrders(savedState()!.readUpTo - LOOKBACK_MS);

		// n8n starts again: a new context from the saved static data; its activation polls at once.
		const restarted = await poller.restart();
		pollers.push(restarted);
		await restarted.poll();

		const emitted = [...started(poller), ...started(restarted)];
		expect(emitted).toEqual([first, second_.sort(), third]);
		expect(emitted.flat()).toHaveLength(new Set(emitted.flat()).size);
		// Every window started LOOKBACK_MS before the readUpTo of its time, inclusive.
		for (const request of listRequests()) {
			const { created_after, created_before } = request.body as IDataObject;
			expect(Date.parse(created_after as string)).toBeGreaterThanOrEqual(start);
			expect(created_before).toBeUndefined();
		}
		expect(listRequests().length).toBeGreaterThanOrEqual(5);
	});

	it('a workflow reactivated later catches up once, an hour of creation time per window', async () => {
		const first = await activate();
		first.deactivate();
		// As if it had been off for five hours: its saved readUpTo is five hours back.
		const workflow = await env.createWorkflow(pollWorkflow());
		const node = workflow.staticData[STATIC_KEY] as IDataObject;
		const state = node[STATE_KEY] as PollState;
		state.readUpTo -= 5 * 3600_000;
		state.sweptAt -= 5 * 3600_000;
		state.floor = state.readUpTo - LOOKBACK_MS - 1;
		state.seen = {};
		workflow.staticData.__dataChanged = true;
		env.saveStaticData(workflow);
		const now = Date.now();
		addOrders(state.readUpTo - LOOKBACK_MS - 1000); // before the first window: read before
		const whileOff = addOrders(now - 4 * 3600_000, now - 2 * 3600_000 - 1, now - 60_000);
		emulator.clearRequests();

		const again = await activate();
		await again.poll();
		expect(started(again)).toEqual([whileOff]);
		const windows = listRequests().map((r) => r.body as IDataObject);
		expect(windows[0].created_after).toBe(iso(state.readUpTo - LOOKBACK_MS));
		expect(windows[0].created_before).toBe(iso(state.readUpTo - LOOKBACK_MS + SLICE_MS));
		expect(windows[1].created_after).toBe(windows[0].created_before);
		// 5 h 15 min back: five closed hours, then a window without an end (then the later poll's),
		// and the sweep due since the last one (5 hours ago): from the floor to the short window.
		expect(windows).toHaveLength(8);
		expect(windows.slice(0, 5).every((w) => w.created_before !== undefined)).toBe(true);
		expect(windows[5].created_before).toBeUndefined();
		const readUpTo = savedState()!.readUpTo;
		expect(windows[7]).toMatchObject({
			created_after: windows[0].created_after,
			created_before: iso(readUpTo - LOOKBACK_MS),
		});
	});

	it('more orders than one poll reads: the next poll goes on from the token, every order once; static data stays bounded', async () => {
		const poller = await activate();
		const perPoll = MAX_PAGES_PER_POLL * 50;
		const count = 2 * perPoll + 500;
		const now = Date.now();
		emulator.addFbpiOrders({
			warehouseCode: warehouse,
			count,
			createdAt: now - 10 * 60_000,
			intervalMs: Math.floor((10 * 60_000) / count),
		});
		const polls = Math.ceil(count / perPoll) + 1;
		for (let i = 0; i < polls; i++) await poller.poll();

		const all = started(poller).flat();
		expect(all).toHaveLength(count);
		expect(new Set(all).size).toBe(count);
		expect(started(poller)[0]).toHaveLength(perPoll);
		// The state: every order of the lateness covered remembered, about 35 characters each.
		const memory = (poller.memory()[STATIC_KEY] as IDataObject)[STATE_KEY] as PollState;
		expect(Object.keys(memory.seen)).toHaveLength(count);
		expect(JSON.stringify(memory).length).toBeLessThan(count * 40 + 1000);
		// The same window read again over the next polls: nothing again.
		for (let i = 0; i < polls; i++) await poller.poll();
		expect(started(poller).flat()).toHaveLength(count);
	}, 120_000);
});
