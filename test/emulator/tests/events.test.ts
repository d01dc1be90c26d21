/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Event notifications of the emulator, observed the way a seller's server sees them: a tiny
 * receiver on 127.0.0.1 gets the POSTs. Only what the trigger's tests (test/integration/trigger*,
 * which receive real deliveries in n8n) do not reach: project isolation, skipped external urls,
 * framing headers, the import completion event, retries and time-outs, the delivery log, close().
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
	BARCODE_IMPORT_COMPLETED_EVENT,
	DEFAULT_RATE_PLAN,
	EVENT_SCHEMA_VERSION,
	ORDER_SYNC_EVENT,
	PO_SYNC_EVENT,
	SEEDED_DESTINATIONS,
	SEEDED_PO,
	SEEDED_WAREHOUSES,
	startEmulator,
	type Emulator,
	type EventEnvelope,
	type EventSubscription,
} from '..';
import { loggedInClient, type EmulatorClient } from '../client';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const BACKOFF_MS = 20;
const IMPORT_STEP_MS = 20;

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

let uniqueCounter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${++uniqueCounter}`;

describe('a delivery', () => {
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

	it('carries the published envelope: each destination its own destination_id, one message_id, the version in the form set (control route)', async () => {
		const first = addDestination({});
		const second = addDestination({});
		const setVersion = (version: unknown) =>
			fetch(`${emulator.controlUrl}/events/schema-version`, {
				method: 'PUT',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ version }),
			});
		try {
			for (const version of ['1.0', 1] as const) {
				expect((await setVersion(version)).status).toBe(200);
				const { message_id } = emulator.publishEvent({ event_type: PO_SYNC_EVENT, payload: {} });
				await emulator.waitForDeliveries({ messageId: message_id, count: 2, timeoutMs: 5000 });
				for (const { code, url } of [first, second]) {
					const [received] = receiver
						.at(url)
						.filter((r) => r.body.metadata.message_id === message_id);
					expect(Object.keys(received.body.metadata)).toEqual([
						'message_id',
						'destination_id',
						'published_at',
						'project_code',
					]);
					expect(received.body).toMatchObject({
						event_schema_version: version,
						metadata: { destination_id: code },
					});
					expect(received.raw).toContain(`"event_schema_version":${JSON.stringify(version)}`);
				}
			}
			expect((await setVersion('1')).status).toBe(400);
		} finally {
			emulator.setEventSchemaVersion('1.0');
		}
	});

	it('rejects an invalid event to publish', () => {
		expect(() => emulator.publishEvent({ event_type: 'po_sync' })).toThrow(/NAMESPACE::EVENT_NAME/);
		const payload = [] as unknown as Record<string, unknown>;
		expect(() => emulator.publishEvent({ event_type: PO_SYNC_EVENT, payload })).toThrow(
			/payload must be a JSON object/,
		);
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
});

describe('credentials headers', () => {
	const lastHeaders = async (code: string, url: string) => {
		emulator.publishEvent({ event_type: PO_SYNC_EVENT, payload: { po_nr: SEEDED_PO.released } });
		await emulator.waitForDeliveries({ destinationCode: code, timeoutMs: 5000 });
		return receiver.at(url).at(-1)?.headers as IncomingHttpHeaders;
	};

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

describe('event sources', () => {
	it('CreateSandboxOrder answers without waiting for the delivery', async () => {
		const { code, url } = addDestination({
			eventTypes: [{ event_type: ORDER_SYNC_EVENT, is_active: true }],
		});
		receiver.answer(url, 'hang');
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
		// Answered while the first attempt still hangs (it ends at its 2 s time-out), whatever
		// the machine's load: no attempt has ended yet.
		expect(emulator.deliveries({ destinationCode: code })).toEqual([
			expect.objectContaining({ outcome: 'pending', attempts: [] }),
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
				message_id: expect.stringMatching(UUID),
				destination_id: code,
				published_at: expect.stringMatching(ISO),
				project_code: emulator.projectCode,
			},
			payload: {
				import_reference: notified.body.import_reference,
				client_reference: notified.body.client_reference,
				import_status: status.body.import_status,
				report: status.body.report,
			},
		});
		// The silent import, started first, has ended too (its event would have been published
		// before the notified one's): still only the one event, and one delivery.
		const silentStatus = await client.call(
			'GET',
			`${emulator.prefixes.imports}/v1/import/status/${silent.body.import_reference}`,
		);
		expect(silentStatus.body.completed_at).not.toBe('');
		expect(
			emulator
				.publishedEvents({ eventType: BARCODE_IMPORT_COMPLETED_EVENT })
				.map((event) => event.envelope.payload.import_reference),
		).toEqual([notified.body.import_reference]);
		expect(emulator.deliveries({ destinationCode: code })).toHaveLength(1);
		expect(receiver.at(url).map((r) => r.body.payload.import_reference)).toEqual([
			notified.body.import_reference,
		]);
	});
});

describe('retries', () => {
	it('retries a failed delivery (401 like any failure) with backoff: 401, 500, then 200 → 3 attempts, delivered', async () => {
		const { code, url } = addDestination({});
		receiver.answer(url, 401, 500);
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
		expect(delivery.attempts.map((a) => a.status)).toEqual([401, 500, 200]);
		const starts = delivery.attempts.map((a) => Date.parse(a.at));
		expect(starts[1] - starts[0]).toBeGreaterThanOrEqual(BACKOFF_MS - 2);
		expect(starts[2] - starts[1]).toBeGreaterThanOrEqual(2 * BACKOFF_MS - 2);
		const got = receiver.at(url);
		expect(got).toHaveLength(3);
		expect(new Set(got.map((r) => r.raw)).size).toBe(1);
		expect(got[0].body.metadata.message_id).toBe(result.message_id);
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

	it('stops doubling the wait at deliveryBackoffMaxMs: 5 attempts 40, 80, 100, 100 ms apart', async () => {
		const capped = await startEmulator({
			deliveryRetries: 4,
			deliveryBackoffMs: 40,
			deliveryBackoffMaxMs: 100,
		});
		try {
			const { destination_code: code } = capped.addDestination({
				url: await deadUrl(),
				eventTypes: [{ event_type: PO_SYNC_EVENT, is_active: true }],
			});
			capped.publishEvent({ event_type: PO_SYNC_EVENT, payload: { po_nr: SEEDED_PO.released } });
			const [delivery] = await capped.waitForDeliveries({ destinationCode: code, timeoutMs: 5000 });
			const starts = delivery.attempts.map((a) => Date.parse(a.at));
			const gaps = starts.slice(1).map((start, i) => start - starts[i]);
			// Without the cap the last two waits would be 160 and 320 ms.
			expect(gaps).toHaveLength(4);
			expect(gaps[0]).toBeGreaterThanOrEqual(38);
			expect(gaps[1]).toBeGreaterThanOrEqual(78);
			for (const gap of gaps.slice(2)) expect(gap).toBeGreaterThanOrEqual(98);
			for (const gap of gaps.slice(2)) expect(gap).toBeLessThan(150);
		} finally {
			await capped.close();
		}
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
});

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
		const { message_id: messageId } = emulator.publishEvent({ event_type: 'CATALOG::NOBODY' });
		await expect(emulator.waitForDeliveries({ messageId, timeoutMs: 100 })).resolves.toEqual([]);
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
		// Idle: a few ms; waiting for the retry would take a minute.
		expect(Date.now() - started).toBeLessThan(3000);
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
