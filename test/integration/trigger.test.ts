/**
 * Seller Platform Trigger, run the way the n8n app runs a webhook trigger (test/helpers/webhooks.ts):
 * activation (`checkExists` → `create`), deliveries to its webhook URL through `webhook()`,
 * deactivation (`delete`), the editor's "listen for test event", against the real emulator, whose
 * deliveries go to the in-process webhook listener.
 */
import type { IDataObject } from 'n8n-workflow';

// The package as the kit runs it (from dist/, as n8n loads it).
import { MAX_DELIVERY_KEY_LENGTH } from '../../dist/nodes/SellerPlatformTrigger/deliveries';
import {
	DELIVERY_HEADER,
	type Registration,
} from '../../dist/nodes/SellerPlatformTrigger/registration';
import {
	SEEDED_DESTINATIONS,
	type DeliveryRecord,
	type Emulator,
	type RequestLogEntry,
} from '../emulator';
import { startNewLifeForTests } from '../../dist/nodes/shared';
import { chain, type TestEnvironment, type TestWorkflow } from '../helpers';
// fixture.ts also holds every Seller Platform output to its output schema.
import { CREDENTIAL_ID, startFixture, type Fixture } from './fixture';
import {
	Activations,
	expectSecondDeliveryDropped,
	ORDER_SYNC,
	STATIC_KEY,
	TRIGGER,
	triggerWorkflow,
} from './triggerFixture';

const PO_SYNC = 'FBPO::PO_SYNC';
const ORDER_CREATED = 'FBPI::ORDER_CREATED';
const DESTINATION = SEEDED_DESTINATIONS.active;

let f: Fixture;
let emulator: Emulator;
let env: TestEnvironment;
const activations = new Activations();

beforeEach(async () => {
	// n8n running for an hour: a new delivery of an event published now comes unmarked (resent.ts;
	// triggerResend.test.ts covers the marks).
	startNewLifeForTests(60 * 60_000);
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

const updateDestinationRequests = (): RequestLogEntry[] =>
	emulator.requests().filter((r) => r.operation === 'UpdateDestination');

const destination = (code: string = DESTINATION) => {
	const found = emulator.destinations().find((d) => d.destination_code === code);
	if (!found) throw new Error(`destination ${code} is gone`);
	return found;
};

const registrationOf = (staticData: IDataObject): Registration | undefined =>
	(staticData[STATIC_KEY] as IDataObject | undefined)?.registration as Registration | undefined;

/** Publishes an event through the emulator and waits until its deliveries have settled. */
async function publish(
	eventType: string,
	payload: IDataObject,
	duplicate = false,
): Promise<DeliveryRecord[]> {
	const { message_id } = emulator.publishEvent({ event_type: eventType, payload }, { duplicate });
	return await emulator.waitForDeliveries({ messageId: message_id, count: duplicate ? 2 : 1 });
}

/** A delivery sent by hand (for what the emulator never sends: wrong secrets, no message_id). */
async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', ...headers },
		body: JSON.stringify(body),
	});
	const text = await response.text();
	return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

const envelope = (eventType: string, payload: IDataObject, metadata: IDataObject = {}) => ({
	event_schema_version: '1.0',
	event_type: eventType,
	metadata: {
		published_at: new Date().toISOString(),
		project_code: emulator.projectCode,
		...metadata,
	},
	payload,
});

describe('Seller Platform Trigger: activation', () => {
	it('takes over the destination: its URL is the webhook URL, active, chosen events, one random secret header', async () => {
		const workflow = triggerWorkflow({ events: [ORDER_SYNC], customEvents: ORDER_CREATED });
		const handle = await activate(workflow);

		expect(handle.webhookUrl).toMatch(
			/^http:\/\/127\.0\.0\.1:\d+\/webhook\/[0-9a-f-]{36}\/webhook$/,
		);
		const updates = updateDestinationRequests();
		expect(updates).toHaveLength(1);
		expect(updates[0].path).toContain(`/https-destination/${DESTINATION}/update`);
		const body = updates[0].body as {
			url: string;
			is_active: boolean;
			credentials: { values: Record<string, string> };
			event_types: Array<{ event_type: string; is_active: boolean }>;
		};
		expect(body.url).toBe(handle.webhookUrl);
		expect(body.is_active).toBe(true);
		expect(body.event_types).toEqual([
			{ event_type: ORDER_CREATED, is_active: true },
			{ event_type: ORDER_SYNC, is_active: true },
		]);
		expect(Object.keys(body.credentials.values)).toEqual([DELIVERY_HEADER]);
		const secret = body.credentials.values[DELIVERY_HEADER];
		expect(secret).toMatch(/^[0-9a-f]{64}$/); // 32 random bytes

		const state = destination();
		expect(state.url).toBe(handle.webhookUrl);
		expect(state.is_active).toBe(true);
		expect(state.credentials).toEqual({ [DELIVERY_HEADER]: secret });
		expect(state.event_types).toEqual(
			expect.arrayContaining([
				{ event_type: ORDER_SYNC, is_active: true },
				{ event_type: ORDER_CREATED, is_active: true },
			]),
		);

		// Saved with the workflow, as the app saves static data after activation.
		expect(registrationOf(handle.staticData())).toEqual({
			destinationCode: DESTINATION,
			webhookUrl: handle.webhookUrl,
			events: [ORDER_CREATED, ORDER_SYNC],
			secret,
			seen: [],
			since: expect.any(Number), // when it took the destination: the newest registration owns it
		});
		expect(env.workflowStaticData('trigger-workflow')).toEqual(handle.staticData());
	});

	it('a second activation check with the same parameters finds the registration and sends nothing; other events do not', async () => {
		const workflow = triggerWorkflow();
		await activate(workflow);
		emulator.clearRequests();

		await expect(env.runWebhookMethod(workflow, 'checkExists')).resolves.toBe(true);
		await expect(
			env.runWebhookMethod(triggerWorkflow({ events: [PO_SYNC] }), 'checkExists'),
		).resolves.toBe(false);
		await expect(
			env.runWebhookMethod(triggerWorkflow({ customEvents: ORDER_CREATED }), 'checkExists'),
		).resolves.toBe(false);
		await expect(
			env.runWebhookMethod(
				triggerWorkflow({ destinationCode: SEEDED_DESTINATIONS.inactive }),
				'checkExists',
			),
		).resolves.toBe(false);
		expect(emulator.requests()).toEqual([]);
	});

	it('keeps its secret across a re-registration within the grace period (publishing a new version)', async () => {
		const workflow = triggerWorkflow();
		const first = await activate(workflow);
		const firstSecret = destination().credentials[DELIVERY_HEADER];
		await first.deactivate();
		await activate(workflow);
		expect(destination().credentials[DELIVERY_HEADER]).toBe(firstSecret);
	});

	it('gets a new secret on an activation after the grace period', async () => {
		const workflow = triggerWorkflow({ options: { secretGraceMinutes: 0 } });
		const first = await activate(workflow);
		const firstSecret = destination().credentials[DELIVERY_HEADER];
		await first.deactivate();
		await activate(workflow);
		const secondSecret = destination().credentials[DELIVERY_HEADER];
		expect(secondSecret).toMatch(/^[0-9a-f]{64}$/);
		expect(secondSecret).not.toBe(firstSecret);
	});

	it('refuses to activate with no event type, without calling the service', async () => {
		await expect(activate(triggerWorkflow({ events: [], customEvents: '' }))).rejects.toThrow(
			'Choose at least one event type',
		);
		await expect(activate(triggerWorkflow({ customEvents: 'not-an-event' }))).rejects.toThrow(
			'must have the form NAMESPACE::EVENT_NAME',
		);
		expect(updateDestinationRequests()).toEqual([]);
	});
});

describe('Seller Platform Trigger: webhook()', () => {
	it('a delivery with the right secret starts one execution whose trigger output is the delivery', async () => {
		const handle = await activate(triggerWorkflow());
		const [delivery] = await publish(ORDER_SYNC, { order_nr: 'FBPI-2001' });

		expect(delivery.outcome).toBe('delivered');
		expect(delivery.url).toBe(handle.webhookUrl);
		expect(delivery.headers[DELIVERY_HEADER]).toBe(destination().credentials[DELIVERY_HEADER]);
		const [execution] = await handle.waitForExecutions(1);
		expect(execution.status).toBe('success');
		expect(execution.run.mode).toBe('webhook');
		expect(execution.json(TRIGGER)).toEqual([delivery.body]);
		expect(execution.json('Received')).toEqual([delivery.body]);
		expect(execution.json(TRIGGER)[0]).toMatchObject({
			event_type: ORDER_SYNC,
			metadata: { message_id: delivery.message_id },
			payload: { order_nr: 'FBPI-2001' },
		});
		expect(handle.requests).toHaveLength(1);
		expect(handle.requests[0]).toMatchObject({
			status: 200,
			outcome: 'execution',
			responseBody: { received: true },
		});
	});

	it('n8n answers a delivery that starts the workflow, once the execution exists and the delivery is saved; refusals are the node’s own', async () => {
		const handle = await activate(triggerWorkflow());
		await publish(ORDER_SYNC, { order_nr: 'FBPI-2007' });
		const refused = await post(handle.webhookUrl, envelope(ORDER_SYNC, {}), {});
		await handle.waitForExecutions(1);

		expect(refused).toEqual({ status: 401, body: { message: 'Unauthorized' } });
		expect(handle.requests.map((r) => [r.status, r.responseBody, r.steps])).toEqual([
			// n8n 2.41's order for responseMode 'onReceived' (test/helpers/webhooks.ts): a crash
			// before the answer leaves the delivery unanswered, and the service sends it again.
			[200, { received: true }, ['execution started', 'static data saved', 'n8n answered']],
			[401, { message: 'Unauthorized' }, ['node answered', 'static data saved']],
		]);
	});

	it('a missing or wrong secret gets 401 and starts nothing', async () => {
		const handle = await activate(triggerWorkflow());
		const secret = destination().credentials[DELIVERY_HEADER];
		const body = envelope(ORDER_SYNC, { order_nr: 'FBPI-2002' }, { message_id: 'm-401' });

		const attempts: Array<Record<string, string>> = [
			{},
			{ [DELIVERY_HEADER]: 'wrong' },
			{ [DELIVERY_HEADER]: secret.replace(/.$/, (c) => (c === '0' ? '1' : '0')) },
			{ [DELIVERY_HEADER]: `${secret}0` },
			{ 'X-Webhook-Secret': secret },
		];
		for (const headers of attempts) {
			const response = await post(handle.webhookUrl, body, headers);
			expect(response).toEqual({ status: 401, body: { message: 'Unauthorized' } });
		}
		await handle.settled();
		expect(handle.executions).toHaveLength(0);
		expect(handle.requests.map((r) => r.outcome)).toEqual(Array(5).fill('noWebhookResponse'));
	});

	it('an event type the workflow did not subscribe gets 200 and starts nothing', async () => {
		// The destination keeps its seeded FBPO::PO_SYNC subscription: the service delivers it too.
		const handle = await activate(triggerWorkflow({ events: [ORDER_SYNC] }));
		const [delivery] = await publish(PO_SYNC, { po_nr: 'PO-1' });

		expect(delivery.outcome).toBe('delivered');
		expect(delivery.attempts).toEqual([expect.objectContaining({ status: 200 })]);
		await handle.settled();
		expect(handle.executions).toHaveLength(0);
		expect(handle.requests[0]).toMatchObject({
			status: 200,
			outcome: 'response',
			responseBody: { received: true, ignored: 'event type not subscribed by this workflow' },
		});
	});

	it('de-duplication off: the same delivery twice starts two executions', async () => {
		const handle = await activate(triggerWorkflow({ options: { deduplicate: false } }));
		const deliveries = await publish(ORDER_SYNC, { order_nr: 'FBPI-2003' }, true);

		expect(deliveries.map((d) => [d.duplicate, d.outcome])).toEqual([
			[false, 'delivered'],
			[true, 'delivered'],
		]);
		const executions = await handle.waitForExecutions(2);
		expect(executions.map((e) => e.json(TRIGGER)[0].metadata)).toEqual([
			deliveries[0].body.metadata,
			deliveries[0].body.metadata,
		]);
	});

	// n8n 2.41 saves the static data changed in webhook() after the execution exists, then answers;
	// the trigger also remembers deliveries in the process (triggerState.test.ts: crashes, retries).
	it('de-duplication on (default): the same delivery twice (same message_id) starts one execution', async () => {
		const handle = await activate(triggerWorkflow());
		const deliveries = await publish(ORDER_SYNC, { order_nr: 'FBPI-2004' }, true);

		expect(deliveries.map((d) => d.outcome)).toEqual(['delivered', 'delivered']);
		await handle.waitForExecutions(1);
		await expectSecondDeliveryDropped(handle);
	});

	it('de-duplication on: without message_id, the same body twice starts one execution', async () => {
		const handle = await activate(triggerWorkflow());
		const secret = destination().credentials[DELIVERY_HEADER];
		const body = envelope(ORDER_SYNC, { order_nr: 'FBPI-2005' });

		expect((await post(handle.webhookUrl, body, { [DELIVERY_HEADER]: secret })).status).toBe(200);
		expect((await post(handle.webhookUrl, body, { [DELIVERY_HEADER]: secret })).status).toBe(200);
		await handle.waitForExecutions(1);
		await handle.settled();
		expect(handle.executions).toHaveLength(1);
	});

	it('de-duplication on: the remembered deliveries are saved with the workflow', async () => {
		const handle = await activate(triggerWorkflow());
		const [delivery] = await publish(ORDER_SYNC, { order_nr: 'FBPI-2006' });
		await handle.waitForExecutions(1);
		expect(registrationOf(handle.staticData())?.seen).toEqual([
			`id:${DESTINATION.length}:${DESTINATION}/${delivery.message_id}`,
		]);
	});
});

describe('Seller Platform Trigger: deliveries as noon publishes them', () => {
	const NOON = '34.76.219.109';

	it('event_schema_version as the text "1.0" or the number 1: both start the workflow, neither is warned about', async () => {
		const handle = await activate(triggerWorkflow());
		emulator.setEventSchemaVersion(1);
		try {
			const [numeric] = await publish(ORDER_SYNC, { order_nr: 'FBPI-6001' });
			emulator.setEventSchemaVersion('1.0');
			const [text] = await publish(ORDER_SYNC, { order_nr: 'FBPI-6002' });
			const executions = await handle.waitForExecutions(2);
			expect(executions.map((e) => e.json(TRIGGER)[0].event_schema_version).sort()).toEqual([
				1,
				'1.0',
			]);
			expect([numeric.body.event_schema_version, text.body.event_schema_version]).toEqual([
				1,
				'1.0',
			]);
		} finally {
			emulator.setEventSchemaVersion('1.0');
		}
		expect(env.logger.entries.filter((e) => e.message.includes('event_schema_version'))).toEqual(
			[],
		);
	});

	it('another event_schema_version is passed on as it came (refusing would make noon give the order up), with a warning', async () => {
		const handle = await activate(triggerWorkflow());
		const secret = destination().credentials[DELIVERY_HEADER];
		const body = {
			...envelope(ORDER_SYNC, { order_nr: 'FBPI-6003' }),
			event_schema_version: '2.0',
		};
		expect((await post(handle.webhookUrl, body, { [DELIVERY_HEADER]: secret })).status).toBe(200);
		const [execution] = await handle.waitForExecutions(1);
		expect(execution.json(TRIGGER)).toEqual([body]);
		expect(env.logger.entries).toContainEqual(
			expect.objectContaining({
				level: 'warn',
				message: expect.stringContaining('event_schema_version the text "2.0"'),
			}),
		);
	});

	it('de-duplicates by metadata.message_id with metadata.destination_id: the same pair once, another destination again', async () => {
		const handle = await activate(triggerWorkflow());
		const secret = destination().credentials[DELIVERY_HEADER];
		const send = async (destination_id: string | undefined) => {
			const body = envelope(
				ORDER_SYNC,
				{ order_nr: 'FBPI-6004' },
				{ message_id: 'm-pair', destination_id },
			);
			expect((await post(handle.webhookUrl, body, { [DELIVERY_HEADER]: secret })).status).toBe(200);
		};
		for (const destination of ['DST-A', 'DST-A', 'DST-B', undefined, undefined])
			await send(destination);
		await handle.settled();
		expect(
			handle.requests.map((r) => (r.responseBody as IDataObject).ignored ?? 'started'),
		).toEqual(['started', 'duplicate delivery', 'started', 'started', 'duplicate delivery']);
		expect(registrationOf(handle.staticData())?.seen).toEqual([
			'id:5:DST-A/m-pair',
			'id:5:DST-B/m-pair',
			'id:m-pair',
		]);
	});

	it("Only Accept Noon's Sender Addresses: off by default; on, anything but noon's addresses gets 403 and starts nothing", async () => {
		// The emulator delivers from 127.0.0.1: taken while the option is off.
		const open = await activate(triggerWorkflow({}, 'senders-off'));
		await publish(ORDER_SYNC, { order_nr: 'FBPI-6101' });
		await open.waitForExecutions(1);
		await open.deactivate();

		const handle = await activate(triggerWorkflow({ options: { noonSendersOnly: true } }));
		const [refused] = await publish(ORDER_SYNC, { order_nr: 'FBPI-6102' });
		expect(refused.attempts.every((a) => a.status === 403)).toBe(true);
		const secret = destination().credentials[DELIVERY_HEADER];
		const body = (id: string) =>
			envelope(ORDER_SYNC, { order_nr: 'FBPI-6103' }, { message_id: id });
		const send = async (id: string, forwardedFor: string) =>
			(
				await post(handle.webhookUrl, body(id), {
					[DELIVERY_HEADER]: secret,
					'X-Forwarded-For': forwardedFor,
				})
			).status;

		// No N8N_PROXY_HOPS: the connecting address counts, X-Forwarded-For is no one's word.
		expect(await send('m-spoof', NOON)).toBe(403);
		// Behind one proxy (N8N_PROXY_HOPS=1): the entry that proxy appended, the rightmost.
		env.proxyHops = 1;
		expect(await send('m-1', NOON)).toBe(200);
		expect(await send('m-2', `9.9.9.9, ::ffff:${NOON}`)).toBe(200); // IPv4-mapped, as n8n on "::" sees it
		expect(await send('m-3', `${NOON}, 9.9.9.9`)).toBe(403); // the caller wrote noon's address itself
		expect(await send('m-4', '104.155.39.20')).toBe(403);
		await handle.settled();
		expect(handle.executions.map((e) => e.json(TRIGGER)[0].metadata)).toEqual([
			expect.objectContaining({ message_id: 'm-1' }),
			expect.objectContaining({ message_id: 'm-2' }),
		]);
		expect(handle.requests.filter((r) => r.status === 403).map((r) => r.responseBody)).toEqual(
			Array(handle.requests.length - 2).fill({ message: 'Forbidden' }),
		);
		expect(env.logger.entries).toContainEqual(
			expect.objectContaining({ level: 'warn', message: expect.stringContaining('"9.9.9.9"') }),
		);
	}, 30_000);
});

describe('Seller Platform Trigger: deactivation', () => {
	it('unsubscribes exactly its events, deactivates the destination, removes the header, clears static data', async () => {
		const handle = await activate(
			triggerWorkflow({ events: [ORDER_SYNC], customEvents: ORDER_CREATED }),
		);
		const url = handle.webhookUrl;
		emulator.clearRequests();

		await handle.deactivate();

		const updates = updateDestinationRequests();
		expect(updates).toHaveLength(1);
		expect(updates[0].path).toContain(`/https-destination/${DESTINATION}/update`);
		expect(updates[0].body).toEqual({
			is_active: false,
			credentials: { values: {} },
			event_types: [
				{ event_type: ORDER_CREATED, is_active: false },
				{ event_type: ORDER_SYNC, is_active: false },
			],
		});
		const state = destination();
		expect(state.is_active).toBe(false);
		expect(state.credentials).toEqual({});
		expect(state.event_types).toEqual(
			expect.arrayContaining([
				{ event_type: ORDER_SYNC, is_active: false },
				{ event_type: ORDER_CREATED, is_active: false },
				{ event_type: PO_SYNC, is_active: true }, // the seeded subscription it never took
			]),
		);
		expect(handle.active).toBe(false);
		expect(registrationOf(handle.staticData())).toBeUndefined();
		expect(registrationOf(env.workflowStaticData('trigger-workflow'))).toBeUndefined();
		// n8n no longer routes the URL.
		expect((await post(url, envelope(ORDER_SYNC, {}))).status).toBe(404);
	});

	it('a deactivation whose UpdateDestination fails is reported and keeps the registration', async () => {
		const handle = await activate(triggerWorkflow());
		const registration = registrationOf(handle.staticData());
		emulator.clearRequests();
		emulator.injectFaults({ count: 5, status: 500, operation: 'UpdateDestination' });

		await expect(handle.deactivate()).rejects.toThrow();

		expect(updateDestinationRequests().length).toBeGreaterThanOrEqual(1);
		expect(updateDestinationRequests().every((r) => r.status === 500)).toBe(true);
		expect(registrationOf(handle.staticData())).toEqual(registration);
		expect(handle.active).toBe(true);
		expect(destination()).toMatchObject({ is_active: true, url: handle.webhookUrl });
		expect(destination().credentials).toEqual({ [DELIVERY_HEADER]: registration!.secret });
		expect(env.logger.entries).toContainEqual(
			expect.objectContaining({
				level: 'error',
				message: expect.stringContaining('Could not remove webhooks'),
			}),
		);

		// Once the service answers again, deactivating again does it.
		emulator.clearFaults();
		await handle.deactivate();
		expect(destination()).toMatchObject({ is_active: false, credentials: {} });
		expect(registrationOf(handle.staticData())).toBeUndefined();
	}, 30_000);

	it('a destination that is gone (404) counts as done', async () => {
		const handle = await activate(triggerWorkflow());
		emulator.deleteDestination(DESTINATION);
		emulator.clearRequests();

		await handle.deactivate();

		expect(updateDestinationRequests().map((r) => r.status)).toEqual([404]);
		expect(handle.active).toBe(false);
		expect(registrationOf(handle.staticData())).toBeUndefined();
	});
});

describe('Seller Platform Trigger: listen for test event', () => {
	it('registers the test URL, answers like the live one, and is removed after the first execution', async () => {
		const workflow = triggerWorkflow();
		const handle = await activate(workflow, 'manual');

		expect(handle.webhookUrl).toMatch(
			/^http:\/\/127\.0\.0\.1:\d+\/webhook-test\/[0-9a-f-]{36}\/webhook$/,
		);
		const [created] = updateDestinationRequests();
		const secret = (created.body as { credentials: { values: Record<string, string> } }).credentials
			.values[DELIVERY_HEADER];
		expect(created.body).toEqual({
			url: handle.webhookUrl,
			is_active: true,
			credentials: { values: { [DELIVERY_HEADER]: secret } },
			event_types: [{ event_type: ORDER_SYNC, is_active: true }],
		});
		expect(secret).toMatch(/^[0-9a-f]{64}$/);
		expect(destination()).toMatchObject({
			url: handle.webhookUrl,
			is_active: true,
			credentials: { [DELIVERY_HEADER]: secret },
		});
		// Kept with the test registration, not saved with the workflow.
		expect(registrationOf(handle.staticData())?.secret).toBe(secret);
		expect(env.workflowStaticData('trigger-workflow')).toEqual({});

		// A refused call starts nothing and leaves the test webhook listening.
		expect((await post(handle.webhookUrl, envelope(ORDER_SYNC, {}))).status).toBe(401);
		expect(handle.active).toBe(true);

		const [delivery] = await publish(ORDER_SYNC, { order_nr: 'FBPI-3001' });
		expect(delivery.outcome).toBe('delivered');
		const [execution] = await handle.waitForExecutions(1);
		expect(execution.run.mode).toBe('manual');
		expect(execution.json(TRIGGER)).toEqual([delivery.body]);

		// Like n8n, the test webhook is removed once a call has started an execution: `delete` runs.
		await handle.settled();
		expect(handle.active).toBe(false);
		const updates = updateDestinationRequests();
		expect(updates).toHaveLength(2);
		expect(updates[1].body).toEqual({
			is_active: false,
			credentials: { values: {} },
			event_types: [{ event_type: ORDER_SYNC, is_active: false }],
		});
		expect(destination()).toMatchObject({ is_active: false, credentials: {} });
		expect((await post(handle.webhookUrl, envelope(ORDER_SYNC, {}))).status).toBe(404);
		expect(env.workflowStaticData('trigger-workflow')).toEqual({});
	});

	// A destination points at one address: listening for a test event while the workflow is active
	// would re-point it at the test URL, and removing the test webhook would then deactivate it.
	// Like n8n's own single-address triggers, the trigger refuses, and the live workflow keeps working.
	it('refuses to listen for a test event while the workflow is active, and the live workflow keeps working', async () => {
		const workflow = triggerWorkflow();
		const live = await activate(workflow);
		emulator.clearRequests();

		await expect(activate(workflow, 'manual')).rejects.toThrow(
			`Destination "${DESTINATION}" is registered to this workflow's production webhook, so it cannot listen for test events now`,
		);
		expect(updateDestinationRequests()).toHaveLength(0);
		expect(destination()).toMatchObject({ url: live.webhookUrl, is_active: true });
		const [delivery] = await publish(ORDER_SYNC, { order_nr: 'FBPI-3003' });
		expect(delivery.outcome).toBe('delivered');
		await live.waitForExecutions(1, 3000);
	});
});

describe('Seller Platform Trigger: the whole loop in-process', () => {
	it('a sandbox order created by one workflow reaches the trigger of another, which fetches its customer', async () => {
		const triggerFlow: TestWorkflow = {
			id: 'orders-in',
			nodes: [
				{
					name: TRIGGER,
					type: 'sellerPlatformTrigger',
					parameters: { destinationCode: DESTINATION, events: [ORDER_SYNC] },
					credentials: { sellerPlatformApi: CREDENTIAL_ID },
				},
				{
					name: 'Get Customer',
					type: 'sellerPlatform',
					parameters: {
						resource: 'fbpiOrder',
						operation: 'getCustomerData',
						fbpiOrderNr: '={{ $json.payload.order_nr }}',
					},
					credentials: { sellerPlatformApi: CREDENTIAL_ID },
				},
			],
			connections: chain(TRIGGER, 'Get Customer'),
		};
		const handle = await activate(triggerFlow);

		const created = await env.runWorkflow(
			{
				id: 'orders-out',
				nodes: [
					{ name: 'Start', type: 'testItems', parameters: { items: '[{}]' } },
					{
						name: 'Create Sandbox Order',
						type: 'sellerPlatform',
						parameters: {
							resource: 'fbpiOrder',
							operation: 'createSandbox',
							warehouseCode: 'WH-DXB-01',
							items: { item: [{ status: 'MP_ITEM_STATUS_CONFIRMED', partnerSku: 'SKU-1' }] },
						},
						credentials: { sellerPlatformApi: CREDENTIAL_ID },
					},
				],
				connections: chain('Start', 'Create Sandbox Order'),
			},
			{ mode: 'trigger' },
		);
		expect(created.status).toBe('success');
		const orderNr = created.json('Create Sandbox Order')[0].fbpi_order_nr as string;
		expect(orderNr).toBeTruthy();

		const [execution] = await handle.waitForExecutions(1);
		expect(execution.status).toBe('success');
		expect(execution.json(TRIGGER)[0]).toMatchObject({
			event_type: ORDER_SYNC,
			payload: { order_nr: orderNr },
		});
		const order = emulator.sandboxOrders().find((o) => o.fbpi_order_nr === orderNr)!;
		const [customer] = execution.json('Get Customer');
		expect(customer).toMatchObject(order.customer as unknown as IDataObject);
		expect(customer.first_name).toEqual(expect.any(String));

		const [delivery] = emulator.deliveries({ eventType: ORDER_SYNC });
		expect(delivery).toMatchObject({
			url: handle.webhookUrl,
			outcome: 'delivered',
			destination_code: DESTINATION,
		});
	});
});

describe('Seller Platform Trigger: owning the destination carefully', () => {
	it('refuses test listening while another workflow owns the destination in production', async () => {
		const live = await activate(triggerWorkflow({}, 'live-workflow'));
		await expect(activate(triggerWorkflow({}, 'draft-workflow'), 'manual')).rejects.toThrow(
			`Destination "${DESTINATION}" is registered to the production webhook of another active workflow, so it cannot listen for test events now`,
		);
		expect(updateDestinationRequests()).toHaveLength(1);
		expect(destination()).toMatchObject({ url: live.webhookUrl, is_active: true });
	});

	it('a release never touches a destination another workflow has taken since; the takeover is logged', async () => {
		const first = await activate(triggerWorkflow({}, 'first-workflow'));
		const second = await activate(triggerWorkflow({}, 'second-workflow'));
		expect(destination().url).toBe(second.webhookUrl);
		expect(env.logger.entries).toContainEqual(
			expect.objectContaining({
				level: 'warn',
				message: `Seller Platform Trigger takes over destination "${DESTINATION}" from another workflow (it pointed at ${first.webhookUrl})`,
			}),
		);
		expect(env.logger.entries).toContainEqual(
			expect.objectContaining({
				level: 'info',
				message: `Seller Platform Trigger took over destination "${DESTINATION}"; where it pointed before is not known (the API has no read of a destination)`,
			}),
		);
		const secret = destination().credentials[DELIVERY_HEADER];

		await first.deactivate();
		expect(updateDestinationRequests()).toHaveLength(2);
		expect(destination()).toMatchObject({ url: second.webhookUrl, is_active: true });
		expect(destination().credentials[DELIVERY_HEADER]).toBe(secret);
		await publish(ORDER_SYNC, { order_nr: 'FBPI-3001' });
		await second.waitForExecutions(1);
	});

	it('concurrent deliveries keep every delivery they saw in the saved static data', async () => {
		const handle = await activate(triggerWorkflow());
		const secret = destination().credentials[DELIVERY_HEADER];
		const bodies = Array.from({ length: 10 }, (_, i) => ({
			...envelope(ORDER_SYNC, { order_nr: `FBPI-40${i}` }),
			metadata: { message_id: `concurrent-${i}` },
		}));
		const answers = await Promise.all(
			bodies.map((body) => post(handle.webhookUrl, body, { [DELIVERY_HEADER]: secret })),
		);
		expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
		await handle.waitForExecutions(10);
		await handle.settled();
		const seen = registrationOf(env.workflowStaticData('trigger-workflow'))?.seen ?? [];
		expect([...seen].sort()).toEqual(bodies.map((_, i) => `id:concurrent-${i}`).sort());
	});

	it('answers 400 to a delivery whose body is not a JSON object, and starts nothing', async () => {
		const handle = await activate(triggerWorkflow());
		const secret = destination().credentials[DELIVERY_HEADER];
		for (const body of [[1, 2], 'text', 42]) {
			const answer = await post(handle.webhookUrl, body, { [DELIVERY_HEADER]: secret });
			expect(answer).toEqual({
				status: 400,
				body: { message: 'The delivery must be a JSON object' },
			});
		}
		await handle.settled();
		expect(handle.executions).toHaveLength(0);
	});
});

describe('Seller Platform Trigger: what a delivery becomes, and what it leaves in static data', () => {
	/** The workflow's saved registration, changed as given (static data of an unexpected shape). */
	async function corruptRegistration(workflow: TestWorkflow, change: IDataObject) {
		const saved = await env.createWorkflow(workflow);
		const node = saved.staticData[STATIC_KEY] as IDataObject;
		node.registration = { ...(node.registration as IDataObject), ...change };
		saved.staticData.__dataChanged = true;
		env.saveStaticData(saved);
	}

	it('starts the workflow with the delivery as it came, top-level json and binary keys included', async () => {
		const handle = await activate(triggerWorkflow());
		const secret = destination().credentials[DELIVERY_HEADER];
		const body = {
			...envelope(ORDER_SYNC, { order_nr: 'FBPI-5001' }, { message_id: 'm-json' }),
			json: { order_nr: 'NOT-THE-ORDER' },
			binary: { data: { data: 'aGk=', mimeType: 'text/plain', fileName: 'x.txt' } },
		};
		expect((await post(handle.webhookUrl, body, { [DELIVERY_HEADER]: secret })).status).toBe(200);
		const [execution] = await handle.waitForExecutions(1);
		expect(execution.json(TRIGGER)).toEqual([body]);
		expect(execution.outputs(TRIGGER)[0].binary).toBeUndefined();
	});

	it('keeps a bounded key for a very long message_id, and still drops its second delivery', async () => {
		const handle = await activate(triggerWorkflow());
		const secret = destination().credentials[DELIVERY_HEADER];
		const body = envelope(
			ORDER_SYNC,
			{ order_nr: 'FBPI-5002' },
			{ message_id: 'm'.repeat(100_000) },
		);
		for (let i = 0; i < 2; i++) {
			expect((await post(handle.webhookUrl, body, { [DELIVERY_HEADER]: secret })).status).toBe(200);
		}
		await handle.waitForExecutions(1);
		await expectSecondDeliveryDropped(handle);
		const seen = registrationOf(handle.staticData())?.seen ?? [];
		expect(seen).toHaveLength(1);
		expect(seen[0].length).toBeLessThanOrEqual(MAX_DELIVERY_KEY_LENGTH);
	});

	it.each([
		['seen: a text that contains the key', { seen: 'old-id:m-repair-old' }],
		['seen: an object', { seen: { 0: 'id:elsewhere' } }],
		['seen: a number', { seen: 42 }],
		['events: an object', { events: { 0: ORDER_SYNC } }],
		['events: a text', { events: ORDER_SYNC }],
	])('repairs static data of another shape (%s) and takes the delivery', async (_name, change) => {
		const workflow = triggerWorkflow();
		const handle = await activate(workflow);
		const secret = destination().credentials[DELIVERY_HEADER];
		await corruptRegistration(workflow, change);
		const body = envelope(ORDER_SYNC, { order_nr: 'FBPI-5003' }, { message_id: 'm-repair' });
		expect(await post(handle.webhookUrl, body, { [DELIVERY_HEADER]: secret })).toEqual({
			status: 200,
			body: { received: true },
		});
		const [execution] = await handle.waitForExecutions(1);
		expect(execution.json(TRIGGER)).toEqual([body]);
		const repaired = registrationOf(handle.staticData());
		expect(repaired?.events).toEqual([ORDER_SYNC]);
		expect(repaired?.seen).toEqual(expect.arrayContaining(['id:m-repair']));
		expect(repaired?.seen?.every((key) => typeof key === 'string')).toBe(true);
	});
});
