/**
 * Seller Platform Trigger: a new delivery that may have run before n8n stopped comes marked
 * `possibleDuplicate: true` (nodes/SellerPlatformTrigger/resent.ts), run as the n8n app runs it
 * (test/helpers/webhooks.ts) against the real emulator. n8n started again is a new life
 * (`startNewLifeForTests`, with how long ago it began).
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

// The package as the kit runs it (from dist/, as n8n loads it).
import {
	pendingRecords,
	recentDeliveries,
} from '../../dist/nodes/SellerPlatformTrigger/deliveries';
import { DELIVERY_HEADER } from '../../dist/nodes/SellerPlatformTrigger/registration';
import { CLOCK_SKEW_MS, UNDATED_MARK_MS } from '../../dist/nodes/SellerPlatformTrigger/resent';
import { startNewLifeForTests, thisLife } from '../../dist/nodes/shared';
import { SEEDED_DESTINATIONS, type Emulator } from '../emulator';
import { type ActiveWorkflow, type TestEnvironment } from '../helpers';
import { startFixture, type Fixture } from './fixture';
import {
	Activations,
	expectResendDropped,
	expectSecondDeliveryDropped,
	ORDER_SYNC,
	TRIGGER,
	triggerWorkflow,
} from './triggerFixture';

const LIVE = SEEDED_DESTINATIONS.active;
const HOUR = 60 * 60_000;

let f: Fixture;
let emulator: Emulator;
let env: TestEnvironment;
const activations = new Activations();

beforeEach(async () => {
	startNewLifeForTests(HOUR); // n8n running for an hour, unless a test says otherwise
	f = await startFixture();
	({ emulator, env } = f);
});

afterEach(async () => {
	await activations.closeAll();
	await env.close();
	await f.close();
});

/** n8n killed and started again: this life's memory gone, a new life begun `agoMs` ago. */
function restart(agoMs = 0) {
	recentDeliveries.clear();
	pendingRecords.clear();
	startNewLifeForTests(agoMs);
}

const secret = () =>
	emulator.destinations().find((d) => d.destination_code === LIVE)!.credentials[DELIVERY_HEADER];

let sent = 0;

/** A delivery sent by hand with the destination's secret; `metadata` beside a fresh message_id. */
async function post(handle: ActiveWorkflow, metadata: IDataObject) {
	const body = {
		event_schema_version: '1.0',
		event_type: ORDER_SYNC,
		metadata: { message_id: `resend-${++sent}`, project_code: emulator.projectCode, ...metadata },
		payload: { order_nr: `FBPI-${sent}` },
	};
	const response = await fetch(handle.webhookUrl, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', [DELIVERY_HEADER]: secret() },
		body: JSON.stringify(body),
	});
	return { status: response.status, answer: (await response.json()) as IDataObject, body };
}

/** Posts a delivery, waits for its execution, and returns the trigger's output item. */
async function run(handle: ActiveWorkflow, metadata: IDataObject) {
	const count = handle.executions.length + 1;
	const { status, answer, body } = await post(handle, metadata);
	expect([status, answer]).toEqual([200, { received: true }]);
	const executions = await handle.waitForExecutions(count);
	const [item] = executions[count - 1].json(TRIGGER);
	const { possibleDuplicate, ...rest } = item;
	expect(rest).toEqual(body); // the delivery as it came, beside the mark
	return possibleDuplicate;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Posts a delivery whose body has its own top-level `possibleDuplicate`; the trigger's item. */
async function runWithOwnField(handle: ActiveWorkflow, publishedAt: string, own: unknown) {
	const count = handle.executions.length + 1;
	const rest = {
		event_schema_version: '1.0',
		event_type: ORDER_SYNC,
		metadata: {
			message_id: `own-mark-${++sent}`,
			project_code: emulator.projectCode,
			published_at: publishedAt,
		},
		payload: { order_nr: `FBPI-${sent}` },
	};
	const response = await fetch(handle.webhookUrl, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', [DELIVERY_HEADER]: secret() },
		body: JSON.stringify({ ...rest, possibleDuplicate: own }),
	});
	expect(response.status).toBe(200);
	const executions = await handle.waitForExecutions(count);
	return { item: executions[count - 1].json(TRIGGER)[0], rest };
}

describe('Seller Platform Trigger: a delivery that may have run before n8n stopped', () => {
	it('killed after the execution was created, before the save and the answer: the re-send after the restart is marked, the first copy not', async () => {
		const handle = await activations.activate(env, triggerWorkflow());
		handle.crashBeforeSave = () => restart(0);
		const { message_id } = emulator.publishEvent({
			event_type: ORDER_SYNC,
			payload: { order_nr: 'FBPI-8101' },
		});
		const [delivery] = await emulator.waitForDeliveries({ messageId: message_id, count: 1 });
		await handle.waitForExecutions(2);
		await handle.settled();

		expect(delivery.attempts.map((a) => a.status ?? 'no answer')).toEqual(['no answer', 200]);
		const items = handle.executions.map((e) => e.json(TRIGGER)[0]);
		expect(items.map((item) => item.metadata)).toEqual([
			delivery.body.metadata,
			delivery.body.metadata,
		]);
		expect(items.map((item) => item.possibleDuplicate)).toEqual([undefined, true]);

		// Saved now: a re-send after another restart is dropped, as before.
		restart(0);
		await expectResendDropped(emulator, handle, message_id, 2);
	});

	it('an event published after this life began (beyond the clock skew) comes unmarked, one published before it marked', async () => {
		restart(5 * 60_000); // n8n started 5 minutes ago
		const handle = await activations.activate(env, triggerWorkflow());
		const start = thisLife().startedAt;

		const { message_id } = emulator.publishEvent({
			event_type: ORDER_SYNC,
			payload: { order_nr: 'FBPI-8102' },
		});
		await emulator.waitForDeliveries({ messageId: message_id, count: 1 });
		const [published] = await handle.waitForExecutions(1);
		expect(published.json(TRIGGER)[0]).not.toHaveProperty('possibleDuplicate');

		expect(await run(handle, { published_at: iso(start + CLOCK_SKEW_MS + 1_000) })).toBe(undefined);
		expect(await run(handle, { published_at: iso(start - 1_000) })).toBe(true);
		expect(await run(handle, { published_at: iso(start - 3 * HOUR) })).toBe(true);
		// A service clock up to a minute ahead of n8n's.
		expect(await run(handle, { published_at: iso(start + CLOCK_SKEW_MS - 1_000) })).toBe(true);
		// Another offset, the same instant.
		expect(await run(handle, { published_at: '2000-01-01T04:00:00+04:00' })).toBe(true);
	});

	it('without published_at: marked only in the first 10 minutes of this life', async () => {
		const handle = await activations.activate(env, triggerWorkflow());
		restart(0);
		expect(await run(handle, {})).toBe(true);
		restart(UNDATED_MARK_MS - 60_000);
		expect(await run(handle, {})).toBe(true);
		restart(UNDATED_MARK_MS + 1_000);
		expect(await run(handle, {})).toBe(undefined);
	});

	it('a re-send the trigger has seen is dropped, never marked', async () => {
		restart(0);
		const handle = await activations.activate(env, triggerWorkflow());
		const { message_id } = emulator.publishEvent({
			event_type: ORDER_SYNC,
			payload: { order_nr: 'FBPI-8103' },
		});
		await emulator.waitForDeliveries({ messageId: message_id, count: 1 });
		await handle.waitForExecutions(1);
		await handle.settled();
		emulator.redeliver(message_id);
		await emulator.waitForDeliveries({ messageId: message_id, count: 2 });
		await expectSecondDeliveryDropped(handle);
	});

	it('limit (queue mode, several webhook processes): a re-send reaching another process, up for an hour, comes unmarked unless published before that process started', async () => {
		const handle = await activations.activate(env, triggerWorkflow());
		// The process that got the delivery was killed before its save; the service re-sends it to
		// another webhook process, up for an hour, with no memory of it: "this life" is that process's.
		restart(HOUR);
		const start = thisLife().startedAt;
		expect(await run(handle, { published_at: iso(Date.now() - 5_000) })).toBe(undefined);
		expect(await run(handle, { published_at: iso(start - 1_000) })).toBe(true);
	});

	it("possibleDuplicate is the trigger's own: a sender's top-level field is removed from an unmarked delivery, set to true on a marked one", async () => {
		const handle = await activations.activate(env, triggerWorkflow());
		const start = thisLife().startedAt;
		const fresh = await runWithOwnField(handle, iso(Date.now()), true);
		expect(fresh.item).not.toHaveProperty('possibleDuplicate');
		expect(fresh.item).toEqual(fresh.rest); // the rest as it came
		const old = await runWithOwnField(handle, iso(start - 1_000), false);
		expect(old.item).toEqual({ ...old.rest, possibleDuplicate: true });
	});

	it("possibleDuplicate is the trigger's own with Drop Duplicate Deliveries off too: a sender's field is removed", async () => {
		const handle = await activations.activate(
			env,
			triggerWorkflow({ options: { deduplicate: false } }),
		);
		const { item, rest } = await runWithOwnField(handle, iso(thisLife().startedAt - 1_000), true);
		expect(item).toEqual(rest);
	});

	it('published_at of any other JSON type never throws and counts as missing (property-based)', async () => {
		const handle = await activations.activate(env, triggerWorkflow());
		const notADate = fc.oneof(
			fc.constant(Date.now() - HOUR),
			fc.double(),
			fc.integer(),
			fc.constant(null),
			fc.boolean(),
			fc.string({ maxLength: 20 }),
			fc.constantFrom('1', '2026', '2026-11-29', 'Sun Nov 29 2026', 'yesterday', '', 'NaN'),
			fc.constantFrom('2026-13-45T99:99:99Z', `${iso(Date.now() - HOUR)} `),
			fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
			fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
			fc.constant([iso(Date.now() - HOUR)]),
			fc.constant({ published_at: iso(Date.now() - HOUR) }),
		);
		await fc.assert(
			fc.asyncProperty(notADate, fc.boolean(), async (value, young) => {
				restart(young ? 0 : UNDATED_MARK_MS + 1_000);
				const marked = await run(handle, { published_at: value as IDataObject[string] });
				expect(marked).toBe(young ? true : undefined);
			}),
			{ numRuns: 60 },
		);
	});
});
