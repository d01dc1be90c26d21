/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Seller Platform Trigger: what it keeps between calls, run as the n8n app runs it
 * (test/helpers/webhooks.ts) against the real emulator:
 * - each registration (the production webhook, the "listen for test event" webhook) has its own
 *   memory of deliveries, which a new registration or a release clears;
 * - that memory is bounded and shared, not copied, by the records of the pending deliveries;
 * - static data of another shape never stops an activation or a deactivation;
 * - of two workflows on one destination, the one that took it last owns it, after a restart too.
 */
import type { IDataObject } from 'n8n-workflow';

// The package as the kit runs it (from dist/, as n8n loads it).
import {
	MAX_PENDING_RECORDS,
	pendingRecords,
	recentDeliveries,
} from '../../dist/nodes/SellerPlatformTrigger/deliveries';
import {
	destinationOwners,
	registrationClock,
} from '../../dist/nodes/SellerPlatformTrigger/owners';
import { MAX_REMEMBERED_DELIVERIES } from '../../dist/nodes/SellerPlatformTrigger/record';
import {
	DELIVERY_HEADER,
	type Registration,
} from '../../dist/nodes/SellerPlatformTrigger/registration';
import { startNewLifeForTests } from '../../dist/nodes/shared';
import { SEEDED_DESTINATIONS, type Emulator, type RequestLogEntry } from '../emulator';
import { type ActiveWorkflow, type TestEnvironment, type TestWorkflow } from '../helpers';
import { startFixture, type Fixture } from './fixture';
import {
	Activations,
	expectResendDropped,
	expectSecondDeliveryDropped,
	ORDER_SYNC,
	STATIC_KEY,
	TRIGGER,
	triggerWorkflow,
} from './triggerFixture';

const LIVE = SEEDED_DESTINATIONS.active;
const TESTING = SEEDED_DESTINATIONS.inactive;

let f: Fixture;
let emulator: Emulator;
let env: TestEnvironment;
const activations = new Activations();

beforeEach(async () => {
	startNewLifeForTests(60 * 60_000); // n8n running for an hour
	f = await startFixture();
	({ emulator, env } = f);
});

afterEach(async () => {
	await activations.closeAll();
	await env.close();
	await f.close();
});

const activate = async (workflow: TestWorkflow, mode?: 'trigger' | 'manual') =>
	await activations.activate(env, workflow, mode);

const destination = (code: string = LIVE) => {
	const found = emulator.destinations().find((d) => d.destination_code === code);
	if (!found) throw new Error(`destination ${code} is gone`);
	return found;
};

const updateDestinationRequests = (): RequestLogEntry[] =>
	emulator.requests().filter((r) => r.operation === 'UpdateDestination');

const registrationOf = (staticData: IDataObject): Registration | undefined =>
	(staticData[STATIC_KEY] as IDataObject | undefined)?.registration as Registration | undefined;

/** Changes the workflow's saved registration as given (static data of another shape). */
async function changeSavedRegistration(workflow: TestWorkflow, change: IDataObject) {
	await saveRegistration(workflow, (saved) => ({ ...(saved as IDataObject), ...change }));
}

/** Saves the workflow's registration as `replace` makes it from the saved one. */
async function saveRegistration(workflow: TestWorkflow, replace: (saved: unknown) => unknown) {
	const saved = await env.createWorkflow(workflow);
	const node = saved.staticData[STATIC_KEY] as IDataObject;
	node.registration = replace(node.registration) as IDataObject;
	saved.staticData.__dataChanged = true;
	env.saveStaticData(saved);
}

/** A delivery sent by hand with the destination's secret. */
async function post(url: string, messageId: string, code: string = LIVE) {
	const response = await fetch(url, {
		method: 'POST',
		headers: {
			'Content-Type': 'application/json',
			[DELIVERY_HEADER]: destination(code).credentials[DELIVERY_HEADER],
		},
		body: JSON.stringify({
			event_schema_version: '1.0',
			event_type: ORDER_SYNC,
			metadata: { message_id: messageId, project_code: emulator.projectCode },
			payload: { order_nr: messageId },
		}),
	});
	return (await response.json()) as IDataObject;
}

/** The in-process memory entries (state.ts) of a workflow's triggers. */
function memoryEntriesOf(workflowId: string): string[] {
	const ofWorkflow = (key: string) => key.startsWith(`${workflowId}\u0000`);
	return [...recentDeliveries.keys(), ...pendingRecords.keys()].filter(ofWorkflow);
}

/** What n8n's restart leaves of this process's state: nothing (static data stays saved). */
function restartProcess() {
	startNewLifeForTests();
	destinationOwners.clear();
	recentDeliveries.clear();
	pendingRecords.clear();
	if (registrationClock) registrationClock.last = 0;
}

describe('Seller Platform Trigger: a memory of deliveries per registration', () => {
	it('production on one destination, test listener on another: one event (one message_id) runs both', async () => {
		const live = await activate(triggerWorkflow({ destinationCode: LIVE }));
		// The editor's draft of the same workflow, pointed at another destination, as the notice says.
		const listener = await activate(triggerWorkflow({ destinationCode: TESTING }), 'manual');
		expect(destination(TESTING)).toMatchObject({ url: listener.webhookUrl, is_active: true });

		const { message_id } = emulator.publishEvent({
			event_type: ORDER_SYNC,
			payload: { order_nr: 'FBPI-7001' },
		});
		const deliveries = await emulator.waitForDeliveries({ messageId: message_id, count: 2 });
		expect(deliveries.map((d) => [d.destination_code, d.outcome]).sort()).toEqual([
			[LIVE, 'delivered'],
			[TESTING, 'delivered'],
		]);

		const [production] = await live.waitForExecutions(1);
		const [test] = await listener.waitForExecutions(1);
		expect(production.run.mode).toBe('webhook');
		expect(test.run.mode).toBe('manual');
		for (const execution of [production, test]) {
			expect(execution.json(TRIGGER)[0]).toMatchObject({ metadata: { message_id } });
		}
		expect([...live.requests, ...listener.requests].map((r) => r.responseBody)).toEqual([
			{ received: true },
			{ received: true },
		]);
		// The test webhook served its one event and was removed: its memory went with it.
		await listener.settled();
		expect(listener.active).toBe(false);
		expect(memoryEntriesOf('trigger-workflow').filter((k) => k.includes('/webhook-test/'))).toEqual(
			[],
		);
	});

	it('listening for a test event does not wipe the live webhook’s memory: a re-sent delivery is still dropped', async () => {
		const workflow = triggerWorkflow({ destinationCode: LIVE });
		const live = await activate(workflow);
		const { message_id } = emulator.publishEvent({
			event_type: ORDER_SYNC,
			payload: { order_nr: 'FBPI-7002' },
		});
		await emulator.waitForDeliveries({ messageId: message_id, count: 1 });
		await live.waitForExecutions(1);
		await live.settled();
		// The saved static data without the key, as when the save of this delivery is still to
		// come, or a concurrent delivery's save (last write wins) overwrote it: the process's
		// memory is the line that holds.
		await changeSavedRegistration(workflow, { seen: [] });

		await activate(triggerWorkflow({ destinationCode: TESTING }), 'manual');
		emulator.redeliver(message_id); // to the live destination only, as first planned
		await emulator.waitForDeliveries({ messageId: message_id, count: 2 });
		await expectSecondDeliveryDropped(live);
	});
});

describe('Seller Platform Trigger: n8n answers once the execution exists, then a retry is', () => {
	const keyOf = (messageId: string) => `id:${LIVE.length}:${LIVE}/${messageId}`;
	const savedSeen = () => registrationOf(env.workflowStaticData('trigger-workflow'))?.seen ?? [];

	it('run once more when n8n was killed after starting the execution, before saving and answering', async () => {
		const handle = await activate(triggerWorkflow());
		handle.crashBeforeSave = restartProcess;
		const { message_id } = emulator.publishEvent({
			event_type: ORDER_SYNC,
			payload: { order_nr: 'FBPI-7101' },
		});
		// The service got no answer and sends the delivery again (200 ms later), to the n8n
		// started again: the delivery's key was never saved, and the process's memory is gone.
		const [delivery] = await emulator.waitForDeliveries({ messageId: message_id, count: 1 });
		await handle.waitForExecutions(2);
		await handle.settled();

		expect(delivery.attempts.map((a) => a.status ?? 'no answer')).toEqual(['no answer', 200]);
		expect(handle.requests.map((r) => [r.responseBody, r.steps])).toEqual([
			[undefined, ['execution started', 'crashed']],
			[{ received: true }, ['execution started', 'static data saved', 'n8n answered']],
		]);
		expect(handle.executions.map((e) => e.json(TRIGGER)[0].metadata)).toEqual([
			delivery.body.metadata,
			delivery.body.metadata,
		]);
		expect(savedSeen()).toEqual([keyOf(message_id)]);

		// Saved now: another re-send, after another restart, is dropped.
		restartProcess();
		await expectResendDropped(emulator, handle, message_id, 2);
	});

	it('dropped when it comes while this process still handles the first (execution started, nothing saved yet)', async () => {
		const handle = await activate(triggerWorkflow());
		let release = () => {};
		handle.holdBeforeSave = new Promise<void>((resolve) => (release = resolve));
		const { message_id } = emulator.publishEvent({
			event_type: ORDER_SYNC,
			payload: { order_nr: 'FBPI-7102' },
		});
		const first = await waitForStep(handle, 'execution started');

		emulator.redeliver(message_id);
		const answered = await waitForStep(handle, 'n8n answered');
		expect(answered).not.toBe(first);
		expect(answered.responseBody).toEqual({ received: true, ignored: 'duplicate delivery' });
		// Nothing saved yet: the process's memory dropped it.
		expect(savedSeen()).toEqual([]);

		release();
		const deliveries = await emulator.waitForDeliveries({ messageId: message_id, count: 2 });
		await handle.settled();
		expect(deliveries.map((d) => [d.duplicate, d.attempts.map((a) => a.status)])).toEqual([
			[false, [200]],
			[true, [200]],
		]);
		expect(first.responseBody).toEqual({ received: true });
		expect(handle.executions).toHaveLength(1);
		expect(savedSeen()).toEqual([keyOf(message_id)]);
	});
});

/** The first call of the handle that has reached `step`. */
async function waitForStep(handle: ActiveWorkflow, step: string) {
	for (let tries = 0; tries < 500; tries++) {
		const call = handle.requests.find((r) => r.steps.includes(step));
		if (call) return call;
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	throw new Error(`no call reached "${step}"`);
}

describe('Seller Platform Trigger: the memory of deliveries is bounded and not copied', () => {
	it('the pending records share one list of at most 1,000 keys, the newest', async () => {
		const workflow = triggerWorkflow({}, 'memory-workflow');
		const handle = await activate(workflow);
		const old = Array.from({ length: MAX_REMEMBERED_DELIVERIES }, (_, i) => `id:old-${i}`);
		await changeSavedRegistration(workflow, { seen: old });

		const count = MAX_PENDING_RECORDS + 6;
		for (let i = 0; i < count; i++) {
			expect(await post(handle.webhookUrl, `m-${i}`)).toEqual({ received: true });
		}
		await handle.waitForExecutions(count);
		await handle.settled();

		const records = [...pendingRecords.entries()]
			.filter(([key]) => key.startsWith('memory-workflow\u0000'))
			.flatMap(([, list]) => list);
		expect(records).toHaveLength(MAX_PENDING_RECORDS);
		// One list, not one copy per record (64 copies of 1,000 keys before).
		const lists = new Set(records.map((record) => record.seen));
		expect(lists.size).toBe(1);
		const stored = [...lists].reduce((sum, list) => sum + (list?.length ?? 0), 0);
		expect(stored).toBe(MAX_REMEMBERED_DELIVERIES);

		// The newest 1,000 are kept, in the process and in the saved static data.
		const seen = registrationOf(env.workflowStaticData('memory-workflow'))?.seen ?? [];
		expect(seen).toHaveLength(MAX_REMEMBERED_DELIVERIES);
		expect(seen[0]).toBe(`id:old-${count}`);
		expect(seen[seen.length - 1]).toBe(`id:m-${count - 1}`);
		expect(await post(handle.webhookUrl, 'old-500')).toEqual({
			received: true,
			ignored: 'duplicate delivery',
		});
		expect(await post(handle.webhookUrl, 'm-0')).toEqual({
			received: true,
			ignored: 'duplicate delivery',
		});
	});

	it('deactivating releases the memory of the registration, also when another workflow has taken the destination', async () => {
		const workflow = triggerWorkflow({}, 'released-workflow');
		const handle = await activate(workflow);
		expect(await post(handle.webhookUrl, 'm-1')).toEqual({ received: true });
		await handle.waitForExecutions(1);
		await handle.settled();
		expect(memoryEntriesOf('released-workflow')).toHaveLength(2); // keys and pending records

		await handle.deactivate();
		expect(memoryEntriesOf('released-workflow')).toEqual([]);

		// Taken over by another workflow meanwhile: the release leaves the destination, and the
		// memory goes all the same.
		const again = await activate(workflow);
		expect(await post(again.webhookUrl, 'm-1')).toEqual({ received: true });
		await again.waitForExecutions(1);
		await activate(triggerWorkflow({}, 'other-workflow'));
		await again.settled();
		expect(memoryEntriesOf('released-workflow')).toHaveLength(2);
		await again.deactivate();
		expect(destination().is_active).toBe(true);
		expect(memoryEntriesOf('released-workflow')).toEqual([]);
	});
});

describe('Seller Platform Trigger: static data of another shape, on every path', () => {
	it.each([
		['events: a text', { events: ORDER_SYNC }],
		['events: an object', { events: { 0: ORDER_SYNC } }],
		['events: a list with a number', { events: [ORDER_SYNC, 7] }],
		['seen: a number', { seen: 42 }],
		['secret: a number', { secret: 12345 }],
		['webhookUrl: a number', { webhookUrl: 7 }],
		['since: a text', { since: 'yesterday' }],
	])(
		'%s: activation and deactivation work, and the destination is released',
		async (_name, change) => {
			const workflow = triggerWorkflow();
			const first = await activate(workflow);
			await changeSavedRegistration(workflow, change);

			// Activation on the saved static data, as after a restart: checkExists, create if false.
			first.close();
			const handle = await activate(workflow);
			const { message_id } = emulator.publishEvent({
				event_type: ORDER_SYNC,
				payload: { order_nr: 'FBPI-7003' },
			});
			await emulator.waitForDeliveries({ messageId: message_id, count: 1 });
			const [execution] = await handle.waitForExecutions(1);
			expect(execution.json(TRIGGER)[0]).toMatchObject({ metadata: { message_id } });

			// Deactivation on the same kind of static data.
			await changeSavedRegistration(workflow, change);
			emulator.clearRequests();
			await handle.deactivate();
			expect(updateDestinationRequests()).toHaveLength(1);
			expect(destination()).toMatchObject({ is_active: false, credentials: {} });
			expect(registrationOf(env.workflowStaticData('trigger-workflow'))).toBeUndefined();
		},
	);
});

describe('Seller Platform Trigger: a saved registration of another shape as a whole', () => {
	it.each([
		['a text', 'DST-1001'],
		['a list', [{ destinationCode: 'DST-1001' }]],
		['a number', 42],
		['an object whose destination code is an object', { destinationCode: { code: 'DST-1001' } }],
	])('%s: deactivation still releases the destination', async (_name, value) => {
		const workflow = triggerWorkflow();
		const handle = await activate(workflow);
		await saveRegistration(workflow, () => value);
		emulator.clearRequests();

		await handle.deactivate();

		expect(updateDestinationRequests()).toHaveLength(1);
		expect(destination()).toMatchObject({ is_active: false, credentials: {} });
		expect(registrationOf(env.workflowStaticData('trigger-workflow'))).toBeUndefined();
	});
});

describe('Seller Platform Trigger: the owner of a destination, before and after a restart', () => {
	it.each([
		['A, then B', ['A', 'B']],
		['B, then A', ['B', 'A']],
	])(
		'B took the destination after A; after a restart (checkExists %s) deactivating A leaves it to B',
		async (_order, order) => {
			const a = triggerWorkflow({}, 'workflow-a');
			const b = triggerWorkflow({}, 'workflow-b');
			const first = await activate(a);
			const second = await activate(b);
			expect(destination().url).toBe(second.webhookUrl);

			restartProcess();
			for (const name of order) {
				await expect(env.runWebhookMethod(name === 'A' ? a : b, 'checkExists')).resolves.toBe(true);
			}
			emulator.clearRequests();

			await first.deactivate();
			expect(updateDestinationRequests()).toEqual([]);
			expect(destination()).toMatchObject({ url: second.webhookUrl, is_active: true });
			const { message_id } = emulator.publishEvent({
				event_type: ORDER_SYNC,
				payload: { order_nr: 'FBPI-7004' },
			});
			await emulator.waitForDeliveries({ messageId: message_id, count: 1 });
			await second.waitForExecutions(1);

			await second.deactivate();
			expect(destination()).toMatchObject({ is_active: false, credentials: {} });
		},
	);
});
