/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Event notifications of the emulator, observed the way a seller's server sees them: a tiny
 * receiver on 127.0.0.1 gets the POSTs. Covers every row of the spec's "Destination and
 * subscription moves" table through real deliveries, credentials as headers, the two event
 * sources of the spec (sandbox orders, notified imports), published events, retries, timeouts,
 * forced duplicates, the delivery log, the control routes and close().
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
	BARCODE_IMPORT_COMPLETED_EVENT,
	DEFAULT_RATE_PLAN,
	DELIVERY_USER_AGENT,
	EVENT_SCHEMA_VERSION,
	EVENT_TYPES,
	ORDER_SYNC_EVENT,
	PO_SYNC_EVENT,
	SEEDED_DESTINATIONS,
	SEEDED_PO,
	SEEDED_WAREHOUSES,
	startEmulator,
	type DeliveryRecord,
	type Emulator,
	type EventEnvelope,
	type EventSubscription,
} from '..';
import { loggedInClient, type EmulatorClient } from '../client';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const BACKOFF_MS = 20;
const IMPORT_STEP_MS = 20;

// --- Receiver ------------------------------------------------------------------------------------

interface Received {
	path: string;
	method: string;
	headers: IncomingHttpHeaders;
	raw: string;
	body: EventEnvelope;
}

/** A seller's server: records every request; answers per path from a queue (default 200). */
class Receiver {
	readonly received: Received[] = [];
	/** Path → statuses to answer next (`'hang'`: never answer). */
	private readonly answers = new Map<string, Array<number | 'hang'>>();
	private server!: Server;
	private origin = '';
	private nextPath = 1;

	async start(): Promise<void> {
		this.server = createServer((req, res) => {
			let raw = '';
			req.setEncoding('utf8');
			req.on('data', (chunk: string) => (raw += chunk));
			req.on('end', () => {
				const path = req.url ?? '/';
				this.received.push({
					path,
					method: req.method ?? '',
					headers: req.headers,
					raw,
					body: JSON.parse(raw) as EventEnvelope,
				});
				const answer = this.answers.get(path)?.shift() ?? 200;
				if (answer === 'hang') return;
				res.statusCode = answer;
				res.end();
			});
		});
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
		this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	/** A fresh url of this receiver. */
	url(): string {
		return `${this.origin}/hook/${this.nextPath++}`;
	}

	answer(url: string, ...statuses: Array<number | 'hang'>): void {
		this.answers.set(new URL(url).pathname, statuses);
	}

	at(url: string): Received[] {
		const path = new URL(url).pathname;
		return this.received.filter((r) => r.path === path);
	}

	close(): Promise<void> {
		this.server.closeAllConnections();
		return new Promise((resolve) => this.server.close(() => resolve()));
	}
}

/** A url on loopback where nothing listens. */
async function deadUrl(): Promise<string> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return `http://127.0.0.1:${port}/gone`;
}

// --- Fixture -------------------------------------------------------------------------------------

let emulator: Emulator;
let client: EmulatorClient;
const receiver = new Receiver();
const added: string[] = [];

beforeAll(async () => {
	await receiver.start();
	emulator = await startEmulator({
		deliveryRetries: 3,
		deliveryBackoffMs: BACKOFF_MS,
		deliveryTimeoutMs: 2000,
		importStepMs: IMPORT_STEP_MS,
	});
	client = await loggedInClient(emulator.baseUrl, emulator.credential);
});

afterAll(async () => {
	await emulator.close();
	await receiver.close();
});

afterEach(() => {
	while (added.length) emulator.deleteDestination(added.pop() as string);
});

function addDestination(options: {
	isActive?: boolean;
	url?: string;
	credentials?: Record<string, string>;
	eventTypes?: EventSubscription[];
}): { code: string; url: string } {
	const url = options.url ?? receiver.url();
	const { destination_code: code } = emulator.addDestination({
		url,
		isActive: options.isActive,
		credentials: options.credentials,
		eventTypes: options.eventTypes ?? [{ event_type: PO_SYNC_EVENT, is_active: true }],
	});
	added.push(code);
	return { code, url };
}

const updateDestination = async (code: string, body: unknown) => {
	const res = await client.call(
		'POST',
		`/event-notifications/v1/destination/https-destination/${code}/update`,
		body,
	);
	expect(res.status).toBe(200);
	return res;
};

let uniqueCounter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${++uniqueCounter}`;

/**
 * Publishes `eventType` and reports whether destination `code` got it. When it was planned, waits
 * for the delivery and checks the receiver saw exactly that message; when it was not, there is
 * no delivery record for it at all (planning is synchronous).
 */
async function publishReaches(
	code: string,
	url: string,
	eventType = PO_SYNC_EVENT,
): Promise<boolean> {
	const result = emulator.publishEvent({
		event_type: eventType,
		payload: { po_nr: SEEDED_PO.released },
	});
	const planned = result.deliveries.filter((d) => d.destination_code === code);
	if (planned.length === 0) {
		expect(emulator.deliveries({ messageId: result.message_id, destinationCode: code })).toEqual(
			[],
		);
		return false;
	}
	const [delivery] = await emulator.waitForDeliveries({
		messageId: result.message_id,
		destinationCode: code,
		timeoutMs: 5000,
	});
	expect(delivery.outcome).toBe('delivered');
	expect(
		receiver.at(url).filter((r) => r.body.metadata.message_id === result.message_id),
	).toHaveLength(1);
	return true;
}

// --- Envelope and headers ------------------------------------------------------------------------

describe('a delivery', () => {
	it('POSTs the envelope to the url with Content-Type, User-Agent and every credentials header', async () => {
		const { code, url } = addDestination({
			credentials: { 'X-Secret': 'one', 'X-Tenant': 'acme' },
		});
		const before = Date.now();
		const result = emulator.publishEvent({
			event_type: PO_SYNC_EVENT,
			payload: { po_nr: SEEDED_PO.released },
		});
		expect(result).toMatchObject({
			message_id: expect.stringMatching(UUID),
			event_type: PO_SYNC_EVENT,
			project_code: emulator.projectCode,
			published_at: expect.stringMatching(ISO),
		});
		const mine = result.deliveries.find((d) => d.destination_code === code) as DeliveryRecord;
		expect(mine).toMatchObject({ outcome: 'pending', url, attempts: [], duplicate: false });

		const [delivery] = await emulator.waitForDeliveries({
			messageId: result.message_id,
			destinationCode: code,
			timeoutMs: 5000,
		});
		const [got] = receiver.at(url);
		expect(got.method).toBe('POST');
		expect(got.headers).toMatchObject({
			'content-type': 'application/json',
			'user-agent': DELIVERY_USER_AGENT,
			'x-secret': 'one',
			'x-tenant': 'acme',
		});
		expect(got.body).toEqual({
			event_schema_version: EVENT_SCHEMA_VERSION,
			event_type: PO_SYNC_EVENT,
			metadata: {
				published_at: result.published_at,
				project_code: emulator.projectCode,
				message_id: result.message_id,
			},
			payload: { po_nr: SEEDED_PO.released },
		});
		expect(Date.parse(got.body.metadata.published_at)).toBeGreaterThanOrEqual(before - 1);
		expect(delivery).toEqual({
			id: expect.stringMatching(/^DLV-\d{6}$/),
			message_id: result.message_id,
			event_type: PO_SYNC_EVENT,
			project_code: emulator.projectCode,
			destination_code: code,
			url,
			headers: {
				'Content-Type': 'application/json',
				'User-Agent': DELIVERY_USER_AGENT,
				'Content-Length': String(Buffer.byteLength(got.raw)),
				'X-Secret': 'one',
				'X-Tenant': 'acme',
			},
			body: got.body,
			duplicate: false,
			attempts: [{ at: expect.stringMatching(ISO), status: 200, duration_ms: expect.any(Number) }],
			outcome: 'delivered',
			created_at: expect.stringMatching(ISO),
			settled_at: expect.stringMatching(ISO),
			next_attempt_at: null,
		});
	});

	it('gives every event its own message_id', async () => {
		const { code } = addDestination({});
		const a = emulator.publishEvent({
			event_type: PO_SYNC_EVENT,
			payload: { po_nr: SEEDED_PO.released },
		});
		const b = emulator.publishEvent({
			event_type: PO_SYNC_EVENT,
			payload: { po_nr: SEEDED_PO.released },
		});
		expect(a.message_id).not.toBe(b.message_id);
		const both = await emulator.waitForDeliveries({
			destinationCode: code,
			count: 2,
			timeoutMs: 5000,
		});
		expect(new Set(both.map((d) => d.message_id))).toEqual(new Set([a.message_id, b.message_id]));
	});

	it('reaches only the event’s project', async () => {
		const { code, url } = addDestination({});
		const result = emulator.publishEvent({
			event_type: PO_SYNC_EVENT,
			payload: { po_nr: SEEDED_PO.released },
			projectCode: 'PRJ999123',
		});
		expect(result.project_code).toBe('PRJ999123');
		expect(result.deliveries).toEqual([]);
		expect(emulator.deliveries({ destinationCode: code })).toEqual([]);
		expect(receiver.at(url)).toEqual([]);
	});

	it('never counts in the request log, the stats or the rate plan', async () => {
		const { code } = addDestination({});
		const requestsBefore = emulator.requests().length;
		const statsBefore = emulator.stats();
		emulator.setRatePlan({ limit: 1, windowMs: 60_000 });
		try {
			for (let i = 0; i < 3; i++)
				emulator.publishEvent({
					event_type: PO_SYNC_EVENT,
					payload: { po_nr: SEEDED_PO.released },
				});
			await emulator.waitForDeliveries({ destinationCode: code, count: 3, timeoutMs: 5000 });
			expect(emulator.requests()).toHaveLength(requestsBefore);
			expect(emulator.stats()).toEqual(statsBefore);
			// The one request the plan allows per minute is still there for the API.
			const res = await client.call('GET', `/fbpo/v1/po/${SEEDED_PO.released}/get`);
			expect(res.status).toBe(200);
		} finally {
			emulator.setRatePlan(DEFAULT_RATE_PLAN);
		}
	});

	it('records the seeded destination outside loopback as skipped, without sending anything', () => {
		const result = emulator.publishEvent({
			event_type: PO_SYNC_EVENT,
			payload: { po_nr: SEEDED_PO.released },
		});
		const seeded = result.deliveries.find((d) => d.destination_code === SEEDED_DESTINATIONS.active);
		expect(seeded).toMatchObject({
			outcome: 'skipped',
			url: expect.stringMatching(/^https:\/\/hooks\.example\.com\//),
			attempts: [],
			headers: expect.objectContaining({ 'X-Webhook-Secret': expect.any(String) }),
			note: expect.stringMatching(/not a loopback address/),
		});
		expect(result.deliveries.map((d) => d.destination_code)).not.toContain(
			SEEDED_DESTINATIONS.inactive,
		);
	});

	it('rejects an invalid event to publish', () => {
		expect(() => emulator.publishEvent({ event_type: 'po_sync' })).toThrow(/NAMESPACE::EVENT_NAME/);
		expect(() =>
			emulator.publishEvent({
				event_type: PO_SYNC_EVENT,
				payload: [] as unknown as Record<string, unknown>,
			}),
		).toThrow(/payload must be a JSON object/);
		expect(() => emulator.publishEvent({ event_type: PO_SYNC_EVENT, projectCode: '' })).toThrow(
			/projectCode/,
		);
	});
});

// --- The spec's state table, row by row -------------------------------------------------------------

describe('destination and subscription moves, observed through deliveries', () => {
	it('row 1: an inactive destination receives nothing; UpdateDestination is_active true → it receives its subscriptions', async () => {
		const { code, url } = addDestination({ isActive: false });
		expect(await publishReaches(code, url)).toBe(false);
		await updateDestination(code, { is_active: true });
		expect(await publishReaches(code, url)).toBe(true);
		expect(receiver.at(url)).toHaveLength(1);
	});

	it('row 2: is_active false → nothing delivered, subscriptions kept; reactivating delivers again', async () => {
		const { code, url } = addDestination({
			eventTypes: [
				{ event_type: PO_SYNC_EVENT, is_active: true },
				{ event_type: ORDER_SYNC_EVENT, is_active: true },
			],
		});
		expect(await publishReaches(code, url)).toBe(true);
		await updateDestination(code, { is_active: false });
		expect(emulator.destinations().find((d) => d.destination_code === code)?.event_types).toEqual([
			{ event_type: PO_SYNC_EVENT, is_active: true },
			{ event_type: ORDER_SYNC_EVENT, is_active: true },
		]);
		expect(await publishReaches(code, url)).toBe(false);
		expect(await publishReaches(code, url, ORDER_SYNC_EVENT)).toBe(false);
		await updateDestination(code, { is_active: true });
		expect(await publishReaches(code, url)).toBe(true);
		expect(await publishReaches(code, url, ORDER_SYNC_EVENT)).toBe(true);
		expect(receiver.at(url)).toHaveLength(3);
	});

	it('row 3: an event type not subscribed (absent or inactive) → an item with is_active true subscribes it', async () => {
		const { code, url } = addDestination({
			eventTypes: [{ event_type: ORDER_SYNC_EVENT, is_active: false }],
		});
		expect(await publishReaches(code, url, 'CATALOG::PRICE_CHANGED')).toBe(false);
		expect(await publishReaches(code, url, ORDER_SYNC_EVENT)).toBe(false);
		await updateDestination(code, {
			event_types: [
				{ event_type: 'CATALOG::PRICE_CHANGED', is_active: true },
				{ event_type: ORDER_SYNC_EVENT, is_active: true },
			],
		});
		expect(await publishReaches(code, url, 'CATALOG::PRICE_CHANGED')).toBe(true);
		expect(await publishReaches(code, url, ORDER_SYNC_EVENT)).toBe(true);
	});

	it('row 4: a subscribed event type → an item with is_active false unsubscribes it, the others keep arriving', async () => {
		const { code, url } = addDestination({
			eventTypes: [
				{ event_type: PO_SYNC_EVENT, is_active: true },
				{ event_type: ORDER_SYNC_EVENT, is_active: true },
			],
		});
		await updateDestination(code, {
			event_types: [{ event_type: PO_SYNC_EVENT, is_active: false }],
		});
		expect(await publishReaches(code, url)).toBe(false);
		expect(await publishReaches(code, url, ORDER_SYNC_EVENT)).toBe(true);
	});

	it('row 5: event_types omitted, empty or not listing a type → that subscription is unchanged', async () => {
		const { code, url } = addDestination({
			eventTypes: [
				{ event_type: PO_SYNC_EVENT, is_active: true },
				{ event_type: ORDER_SYNC_EVENT, is_active: false },
			],
		});
		const check = async () => {
			expect(await publishReaches(code, url)).toBe(true);
			expect(await publishReaches(code, url, ORDER_SYNC_EVENT)).toBe(false);
		};
		await check();
		await updateDestination(code, { destination_name: 'renamed' });
		await check();
		await updateDestination(code, { event_types: [] });
		await check();
		await updateDestination(code, {
			event_types: [{ event_type: 'CATALOG::OTHER', is_active: true }],
		});
		await check();
	});

	it('a new url takes effect for the next event', async () => {
		const { code, url } = addDestination({});
		const next = receiver.url();
		await updateDestination(code, { url: next });
		expect(await publishReaches(code, next)).toBe(true);
		expect(receiver.at(url)).toEqual([]);
	});
});

// --- Credentials -----------------------------------------------------------------------------------

describe('credentials headers', () => {
	const lastHeaders = async (code: string, url: string) => {
		expect(await publishReaches(code, url)).toBe(true);
		return receiver.at(url).at(-1)?.headers as IncomingHttpHeaders;
	};

	it('arrive with every delivery; omitted keeps them, new values replace them all, an empty map removes them', async () => {
		const { code, url } = addDestination({
			credentials: { 'X-Secret': 'one', 'X-Tenant': 'acme' },
		});
		expect(await lastHeaders(code, url)).toMatchObject({ 'x-secret': 'one', 'x-tenant': 'acme' });

		await updateDestination(code, { destination_name: 'no credentials field' });
		expect(await lastHeaders(code, url)).toMatchObject({ 'x-secret': 'one', 'x-tenant': 'acme' });

		await updateDestination(code, { credentials: { values: { 'X-N8n-Secret': 's3cr3t' } } });
		const replaced = await lastHeaders(code, url);
		expect(replaced['x-n8n-secret']).toBe('s3cr3t');
		expect(replaced).not.toHaveProperty('x-secret');
		expect(replaced).not.toHaveProperty('x-tenant');

		await updateDestination(code, { credentials: { values: {} } });
		const removed = await lastHeaders(code, url);
		expect(removed).not.toHaveProperty('x-n8n-secret');
		expect(removed).toMatchObject({
			'content-type': 'application/json',
			'user-agent': DELIVERY_USER_AGENT,
		});
	});

	it('may override User-Agent, but never the framing headers', async () => {
		const { code, url } = addDestination({
			credentials: {
				'user-agent': 'custom/1',
				Host: 'evil.example.com',
				Authorization: 'Bearer t',
			},
		});
		const headers = await lastHeaders(code, url);
		expect(headers['user-agent']).toBe('custom/1');
		expect(headers.authorization).toBe('Bearer t');
		expect(headers.host).toBe(new URL(url).host);
	});
});

// --- Event sources -----------------------------------------------------------------------------------

describe('event sources', () => {
	it('CreateSandboxOrder sends FBPI::ORDER_SYNC with the new order_nr; an identical replay sends nothing new', async () => {
		const { code, url } = addDestination({
			eventTypes: [{ event_type: ORDER_SYNC_EVENT, is_active: true }],
		});
		const body = {
			warehouse_code: SEEDED_WAREHOUSES.dubai,
			idempotency_key: unique('k').slice(-10),
			items: [{ status: 'MP_ITEM_STATUS_CONFIRMED' }],
		};
		const res = await client.call(
			'POST',
			`${emulator.prefixes.sandboxOrder}/v1/sandbox-order/create`,
			body,
		);
		expect(res.status).toBe(200);
		const [delivery] = await emulator.waitForDeliveries({
			destinationCode: code,
			eventType: ORDER_SYNC_EVENT,
			timeoutMs: 5000,
		});
		expect(delivery.outcome).toBe('delivered');
		expect(receiver.at(url).map((r) => r.body)).toEqual([
			{
				event_schema_version: EVENT_SCHEMA_VERSION,
				event_type: ORDER_SYNC_EVENT,
				metadata: {
					published_at: expect.stringMatching(ISO),
					project_code: emulator.projectCode,
					message_id: expect.stringMatching(UUID),
				},
				payload: { order_nr: res.body.fbpi_order_nr },
			},
		]);

		const published = emulator.publishedEvents({ eventType: ORDER_SYNC_EVENT }).length;
		const replay = await client.call(
			'POST',
			`${emulator.prefixes.sandboxOrder}/v1/sandbox-order/create`,
			body,
		);
		expect(replay.body.fbpi_order_nr).toBe(res.body.fbpi_order_nr);
		expect(emulator.publishedEvents({ eventType: ORDER_SYNC_EVENT })).toHaveLength(published);
		expect(emulator.deliveries({ destinationCode: code })).toHaveLength(1);
	});

	it('CreateSandboxOrder answers without waiting for the delivery', async () => {
		const { code, url } = addDestination({
			eventTypes: [{ event_type: ORDER_SYNC_EVENT, is_active: true }],
		});
		receiver.answer(url, 'hang');
		const started = Date.now();
		const res = await client.call(
			'POST',
			`${emulator.prefixes.sandboxOrder}/v1/sandbox-order/create`,
			{
				warehouse_code: SEEDED_WAREHOUSES.dubai,
				idempotency_key: unique('h').slice(-10),
				items: [{ status: 'MP_ITEM_STATUS_CONFIRMED' }],
			},
		);
		expect(res.status).toBe(200);
		expect(Date.now() - started).toBeLessThan(1500);
		expect(emulator.deliveries({ destinationCode: code })).toEqual([
			expect.objectContaining({ outcome: 'pending' }),
		]);
		// The hung attempt times out (2 s) and the retry gets the default 200.
		const [delivery] = await emulator.waitForDeliveries({
			destinationCode: code,
			timeoutMs: 10_000,
		});
		expect(delivery.attempts).toEqual([
			expect.objectContaining({ error: 'no complete answer within 2000 ms' }),
			expect.objectContaining({ status: 200 }),
		]);
	});

	it('a barcode import with is_notification_required sends the completion event on its final status; one without sends none', async () => {
		const { code, url } = addDestination({
			eventTypes: [{ event_type: BARCODE_IMPORT_COMPLETED_EVENT, is_active: true }],
		});
		const importPath = `${emulator.prefixes.imports}/v1/import/barcode`;
		const items = {
			data: [
				{ partner_sku: 'SKU-1', barcode: '6291041500001' },
				{ partner_sku: 'SKU-2', barcode: 'bad' },
			],
		};
		const silent = await client.call('POST', importPath, {
			items,
			client_reference: unique('silent-'),
		});
		const notified = await client.call('POST', importPath, {
			items,
			client_reference: unique('notified-'),
			config: { is_notification_required: true },
		});
		expect(notified.status).toBe(200);
		const [delivery] = await emulator.waitForDeliveries({ destinationCode: code, timeoutMs: 5000 });
		const status = await client.call(
			'GET',
			`${emulator.prefixes.imports}/v1/import/status/${notified.body.import_reference}`,
		);
		expect(status.body.import_status).toBe('IMPORT_STATUS_PARTIAL');
		expect(delivery.body).toEqual({
			event_schema_version: EVENT_SCHEMA_VERSION,
			event_type: BARCODE_IMPORT_COMPLETED_EVENT,
			metadata: {
				published_at: expect.stringMatching(ISO),
				project_code: emulator.projectCode,
				message_id: expect.stringMatching(UUID),
			},
			payload: {
				import_reference: notified.body.import_reference,
				client_reference: notified.body.client_reference,
				import_status: status.body.import_status,
				report: status.body.report,
			},
		});
		expect(Date.parse(delivery.body.metadata.published_at)).toBeGreaterThanOrEqual(
			Date.parse(status.body.completed_at),
		);
		// Well past the silent import's end: still only the one event.
		await new Promise((resolve) => setTimeout(resolve, 4 * IMPORT_STEP_MS));
		expect(receiver.at(url).map((r) => r.body.payload.import_reference)).toEqual([
			notified.body.import_reference,
		]);
		expect(
			emulator
				.publishedEvents({ eventType: BARCODE_IMPORT_COMPLETED_EVENT })
				.map((e) => e.envelope.payload.import_reference),
		).not.toContain(silent.body.import_reference);
	});

	it('publishEvent sends any event, e.g. FBPO::PO_SYNC for a seeded purchase order', async () => {
		const { code, url } = addDestination({});
		const result = emulator.publishEvent({
			event_type: EVENT_TYPES.poSync,
			payload: { po_nr: SEEDED_PO.pendingNoDate },
		});
		await emulator.waitForDeliveries({
			messageId: result.message_id,
			destinationCode: code,
			timeoutMs: 5000,
		});
		expect(receiver.at(url).map((r) => r.body.payload)).toEqual([
			{ po_nr: SEEDED_PO.pendingNoDate },
		]);
		expect(emulator.publishedEvents().find((e) => e.message_id === result.message_id)).toEqual({
			message_id: result.message_id,
			event_type: PO_SYNC_EVENT,
			project_code: emulator.projectCode,
			published_at: result.published_at,
			envelope: result.envelope,
			delivery_ids: result.deliveries.map((d) => d.id),
		});
	});
});

// --- Retries, failures, duplicates --------------------------------------------------------------------

describe('retries and duplicates', () => {
	it('retries a failed delivery with backoff: 500, 500, then 200 → 3 attempts, delivered', async () => {
		const { code, url } = addDestination({});
		receiver.answer(url, 500, 500);
		const result = emulator.publishEvent({
			event_type: PO_SYNC_EVENT,
			payload: { po_nr: SEEDED_PO.released },
		});
		const [delivery] = await emulator.waitForDeliveries({
			messageId: result.message_id,
			destinationCode: code,
			timeoutMs: 5000,
		});
		expect(delivery.outcome).toBe('delivered');
		expect(delivery.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
		const starts = delivery.attempts.map((a) => Date.parse(a.at));
		expect(starts[1] - starts[0]).toBeGreaterThanOrEqual(BACKOFF_MS - 2);
		expect(starts[2] - starts[1]).toBeGreaterThanOrEqual(2 * BACKOFF_MS - 2);
		const got = receiver.at(url);
		expect(got).toHaveLength(3);
		expect(new Set(got.map((r) => r.raw)).size).toBe(1);
		expect(got[0].body.metadata.message_id).toBe(result.message_id);
	});

	it('retries 401 and 403 answers like any failure', async () => {
		const { code, url } = addDestination({});
		receiver.answer(url, 401, 403);
		const result = emulator.publishEvent({
			event_type: PO_SYNC_EVENT,
			payload: { po_nr: SEEDED_PO.released },
		});
		const [delivery] = await emulator.waitForDeliveries({
			messageId: result.message_id,
			destinationCode: code,
			timeoutMs: 5000,
		});
		expect(delivery).toMatchObject({
			outcome: 'delivered',
			attempts: [{ status: 401 }, { status: 403 }, { status: 200 }],
		});
	});

	it('gives up after the retries when the receiver is down: 4 attempts by default, failed', async () => {
		const url = await deadUrl();
		const { code } = addDestination({ url });
		const result = emulator.publishEvent({
			event_type: PO_SYNC_EVENT,
			payload: { po_nr: SEEDED_PO.released },
		});
		const [delivery] = await emulator.waitForDeliveries({
			messageId: result.message_id,
			destinationCode: code,
			timeoutMs: 5000,
		});
		expect(delivery.outcome).toBe('failed');
		expect(delivery.attempts).toHaveLength(4);
		for (const attempt of delivery.attempts)
			expect(attempt).toEqual({
				at: expect.stringMatching(ISO),
				error: expect.stringMatching(/ECONNREFUSED/),
				duration_ms: expect.any(Number),
			});
	});

	it('fails attempts that get no answer within the timeout', async () => {
		const quick = await startEmulator({
			deliveryRetries: 1,
			deliveryBackoffMs: 5,
			deliveryTimeoutMs: 100,
		});
		try {
			const url = receiver.url();
			receiver.answer(url, 'hang', 'hang');
			const { destination_code: code } = quick.addDestination({
				url,
				eventTypes: [{ event_type: PO_SYNC_EVENT, is_active: true }],
			});
			quick.publishEvent({ event_type: PO_SYNC_EVENT, payload: { po_nr: SEEDED_PO.released } });
			const [delivery] = await quick.waitForDeliveries({ destinationCode: code, timeoutMs: 5000 });
			expect(delivery.outcome).toBe('failed');
			expect(delivery.attempts.map((a) => a.error)).toEqual([
				'no complete answer within 100 ms',
				'no complete answer within 100 ms',
			]);
			expect(receiver.at(url)).toHaveLength(2);
		} finally {
			await quick.close();
		}
	});

	it('redeliver forces a second delivery with the same message_id and body', async () => {
		const { code, url } = addDestination({});
		const result = emulator.publishEvent({
			event_type: PO_SYNC_EVENT,
			payload: { po_nr: SEEDED_PO.released },
		});
		await emulator.waitForDeliveries({
			messageId: result.message_id,
			destinationCode: code,
			timeoutMs: 5000,
		});
		const again = emulator.redeliver(result.message_id);
		expect(again.find((d) => d.destination_code === code)).toMatchObject({
			duplicate: true,
			message_id: result.message_id,
			outcome: 'pending',
		});
		const both = await emulator.waitForDeliveries({
			messageId: result.message_id,
			destinationCode: code,
			count: 2,
			timeoutMs: 5000,
		});
		expect(both.map((d) => [d.outcome, d.duplicate])).toEqual([
			['delivered', false],
			['delivered', true],
		]);
		const got = receiver.at(url);
		expect(got).toHaveLength(2);
		expect(got[1].raw).toBe(got[0].raw);
		expect(got[1].body.metadata.message_id).toBe(result.message_id);
		expect(() => emulator.redeliver('no-such-message')).toThrow(
			/no published event with message_id "no-such-message"/,
		);
	});

	it('publishEvent with duplicate: true delivers the event twice', async () => {
		const { code, url } = addDestination({});
		const result = emulator.publishEvent(
			{ event_type: PO_SYNC_EVENT, payload: { po_nr: SEEDED_PO.released } },
			{ duplicate: true },
		);
		expect(
			result.deliveries.filter((d) => d.destination_code === code).map((d) => d.duplicate),
		).toEqual([false, true]);
		await emulator.waitForDeliveries({
			messageId: result.message_id,
			destinationCode: code,
			count: 2,
			timeoutMs: 5000,
		});
		expect(receiver.at(url).map((r) => r.body.metadata.message_id)).toEqual([
			result.message_id,
			result.message_id,
		]);
	});
});

// --- Observability -----------------------------------------------------------------------------------

describe('delivery log and waiting', () => {
	it('waitForDeliveries rejects with what it saw when the deliveries do not settle in time', async () => {
		const { code, url } = addDestination({});
		receiver.answer(url, 'hang');
		emulator.publishEvent({ event_type: PO_SYNC_EVENT, payload: { po_nr: SEEDED_PO.released } });
		await expect(
			emulator.waitForDeliveries({ destinationCode: code, timeoutMs: 50 }),
		).rejects.toThrow(
			new RegExp(`timed out after 50 ms: 1 matching deliveries: DLV-\\d+ ${code} pending`),
		);
		await expect(
			emulator.waitForDeliveries({ destinationCode: 'DST-NONE', timeoutMs: 20 }),
		).rejects.toThrow(/0 matching deliveries/);
		await emulator.waitForDeliveries({ destinationCode: code, timeoutMs: 10_000 });
	});

	it('resolves at once for an event with no deliveries', async () => {
		const result = emulator.publishEvent({ event_type: 'CATALOG::NOBODY_LISTENS' });
		await expect(
			emulator.waitForDeliveries({ messageId: result.message_id, timeoutMs: 100 }),
		).resolves.toEqual([]);
	});

	it('filters by outcome, and clearDeliveries forgets settled deliveries and events', async () => {
		const { code } = addDestination({});
		const result = emulator.publishEvent({
			event_type: PO_SYNC_EVENT,
			payload: { po_nr: SEEDED_PO.released },
		});
		await emulator.waitForDeliveries({ messageId: result.message_id, timeoutMs: 5000 });
		expect(
			emulator
				.deliveries({ messageId: result.message_id, outcome: 'delivered' })
				.map((d) => d.destination_code),
		).toEqual([code]);
		expect(
			emulator
				.deliveries({ messageId: result.message_id, outcome: 'skipped' })
				.map((d) => d.destination_code),
		).toEqual([SEEDED_DESTINATIONS.active]);
		emulator.clearDeliveries();
		expect(emulator.deliveries()).toEqual([]);
		expect(emulator.publishedEvents()).toEqual([]);
		expect(() => emulator.redeliver(result.message_id)).toThrow(/or it was cleared/);
	});
});

describe('control API', () => {
	const control = async (method: string, path: string, body?: unknown) => {
		const res = await fetch(`${emulator.controlUrl}${path}`, {
			method,
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return { status: res.status, body: (await res.json()) as any };
	};

	it('publishes (optionally twice), lists events and deliveries, waits, and redelivers', async () => {
		const { code, url } = addDestination({});
		const published = await control('POST', '/events', {
			event_type: PO_SYNC_EVENT,
			payload: { po_nr: SEEDED_PO.released },
			duplicate: true,
		});
		expect(published.status).toBe(200);
		const messageId = published.body.message_id as string;
		expect(
			published.body.deliveries.filter((d: DeliveryRecord) => d.destination_code === code),
		).toHaveLength(2);

		const waited = await control('POST', '/deliveries/wait', {
			messageId,
			destinationCode: code,
			count: 2,
			timeoutMs: 5000,
		});
		expect(waited.status).toBe(200);
		expect(waited.body.map((d: DeliveryRecord) => d.outcome)).toEqual(['delivered', 'delivered']);

		const redelivered = await control('POST', `/events/${messageId}/redeliver`);
		expect(redelivered.body.find((d: DeliveryRecord) => d.destination_code === code)).toMatchObject(
			{ duplicate: true, message_id: messageId },
		);
		await emulator.waitForDeliveries({
			messageId,
			destinationCode: code,
			count: 3,
			timeoutMs: 5000,
		});
		expect(receiver.at(url)).toHaveLength(3);

		const listed = await control(
			'GET',
			`/deliveries?messageId=${messageId}&destinationCode=${code}`,
		);
		expect(listed.body).toEqual(emulator.deliveries({ messageId, destinationCode: code }));
		const events = await control('GET', `/events?eventType=${encodeURIComponent(PO_SYNC_EVENT)}`);
		expect(events.body.map((e: { message_id: string }) => e.message_id)).toContain(messageId);
	});

	it('answers errors in the API’s error body', async () => {
		expect(await control('POST', '/events', { event_type: 'nope' })).toMatchObject({
			status: 400,
			body: { status_code: 'INVALID_ARGUMENT' },
		});
		expect(await control('POST', '/events/unknown-id/redeliver')).toMatchObject({
			status: 404,
			body: { status_code: 'NOT_FOUND' },
		});
		expect(await control('GET', '/deliveries?outcome=lost')).toMatchObject({
			status: 400,
			body: { message: expect.stringMatching(/outcome must be one of/) },
		});
		expect(
			await control('POST', '/deliveries/wait', { destinationCode: 'DST-NONE', timeoutMs: 10 }),
		).toMatchObject({
			status: 504,
			body: { status_code: 'DEADLINE_EXCEEDED' },
		});
	});

	it('DELETE /deliveries clears the log', async () => {
		emulator.publishEvent({ event_type: PO_SYNC_EVENT, payload: { po_nr: SEEDED_PO.released } });
		expect((await control('DELETE', '/deliveries')).body).toEqual({ ok: true });
		expect((await control('GET', '/deliveries?outcome=skipped')).body).toEqual([]);
	});
});

// --- close() -------------------------------------------------------------------------------------------

describe('close()', () => {
	it('stops pending retries, ends pending deliveries as failed, and rejects waiters', async () => {
		const url = receiver.url();
		receiver.answer(url, 500);
		const short = await startEmulator({ deliveryBackoffMs: 60_000 });
		const { destination_code: code } = short.addDestination({
			url,
			eventTypes: [{ event_type: PO_SYNC_EVENT, is_active: true }],
		});
		short.publishEvent({ event_type: PO_SYNC_EVENT, payload: { po_nr: SEEDED_PO.released } });
		const waiting = short.waitForDeliveries({ destinationCode: code, timeoutMs: 30_000 });
		// Wait for the first attempt (500) to be recorded; the retry is a minute away.
		while (short.deliveries({ destinationCode: code })[0].attempts.length === 0)
			await new Promise((r) => setTimeout(r, 5));
		const started = Date.now();
		await short.close();
		expect(Date.now() - started).toBeLessThan(1000);
		await expect(waiting).rejects.toThrow(/closed while waiting/);
		expect(short.deliveries({ destinationCode: code })).toEqual([
			expect.objectContaining({
				outcome: 'failed',
				attempts: [expect.objectContaining({ status: 500 })],
				note: expect.stringMatching(/closed/),
			}),
		]);
		expect(() => short.publishEvent({ event_type: PO_SYNC_EVENT })).toThrow(/closed/);
		expect(receiver.at(url)).toHaveLength(1);
	});
});
