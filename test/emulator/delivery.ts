/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Event notifications, sent the way the real service sends them (see api-field-notes.md, Events):
 *
 * - An event is published in a project: CreateSandboxOrder (`FBPI::ORDER_SYNC`), a barcode import
 *   with `config.is_notification_required` reaching its final status
 *   (`CATALOG::BARCODE_IMPORT_COMPLETED`), or `publishEvent` / `POST /__control/events` (any type).
 * - It gets a fresh `message_id` and the published envelope
 *   `{ event_schema_version, event_type, metadata: { message_id, destination_id, published_at,
 *   project_code }, payload }`; each destination's deliveries carry its own `destination_id` (the
 *   emulator's destination_code: the reference does not say what noon puts there).
 *   `event_schema_version` is the text "1.0" by default; noon has been seen sending the number 1
 *   too: `setEventSchemaVersion(1)` (option `eventSchemaVersion`, control route
 *   `PUT /__control/events/schema-version`) switches the form for the events published after.
 * - One delivery is planned per ACTIVE destination of the project with an ACTIVE subscription to
 *   the event type, capturing the destination's url and headers at that moment: Content-Type,
 *   User-Agent and every header of its `credentials` (real values).
 * - A delivery is a POST of the envelope to the url, asynchronous (the API answer that raised the
 *   event never waits for it). Any answer but 2xx (401/403 included), a connection error, or no
 *   answer within `timeoutMs` is a failed attempt, retried `retries` times after `backoffMs`,
 *   doubling each time up to `backoffMaxMs`. Every attempt is recorded.
 * - At-least-once: `redeliver(messageId)` sends the same envelope (same message_id and body) again
 *   to the destinations the event was first planned for, as a new delivery marked `duplicate`.
 * - Only loopback urls (127.0.0.0/8, localhost, [::1]) are contacted unless `external` is set:
 *   other destinations (such as the seeded `https://hooks.example.com/...`) get a delivery record
 *   with outcome `skipped`, so tests and benchmarks never reach out to the internet.
 *
 * Deliveries are outgoing: they never pass the API pipeline, so they count neither in the rate
 * plan nor in the request log.
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

import { ApiError, invalidArgument } from './errors';
import { EVENT_TYPE_PATTERN, type DestinationState } from './state/destinations';

export const EVENT_SCHEMA_VERSION = '1.0';
/** The two forms of the schema version noon is documented to send. */
export const EVENT_SCHEMA_VERSIONS = ['1.0', 1] as const;
export type EventSchemaVersion = (typeof EVENT_SCHEMA_VERSIONS)[number];
/** User-Agent of every delivery. */
export const DELIVERY_USER_AGENT = 'noon-event-notifications/1.0';

/** Sent by CreateSandboxOrder; payload `{ order_nr }`. */
export const ORDER_SYNC_EVENT = 'FBPI::ORDER_SYNC';
/** Purchase order sync; payload `{ po_nr }` (published through `publishEvent`). */
export const PO_SYNC_EVENT = 'FBPO::PO_SYNC';
/**
 * Sent when a barcode import with `config.is_notification_required` reaches its final status;
 * payload `{ import_reference, client_reference, import_status, report }`. The real name is not
 * documented: this is the emulator's.
 */
export const BARCODE_IMPORT_COMPLETED_EVENT = 'CATALOG::BARCODE_IMPORT_COMPLETED';

export const EVENT_TYPES = {
	orderSync: ORDER_SYNC_EVENT,
	poSync: PO_SYNC_EVENT,
	barcodeImportCompleted: BARCODE_IMPORT_COMPLETED_EVENT,
} as const;

export const DEFAULT_DELIVERY_RETRIES = 3;
export const DEFAULT_DELIVERY_BACKOFF_MS = 200;
export const DEFAULT_DELIVERY_TIMEOUT_MS = 5000;
/** Default time `waitForDeliveries` waits before rejecting. */
export const DEFAULT_WAIT_TIMEOUT_MS = 10_000;

/** Headers the emulator sets itself; a credentials header of one of these names is not sent. */
const FRAMING_HEADERS = new Set(['content-length', 'host', 'transfer-encoding', 'connection']);

export interface EventEnvelope {
	event_schema_version: EventSchemaVersion;
	event_type: string;
	metadata: {
		/** Unique per event; the same for every retry and duplicate of it. */
		message_id: string;
		/**
		 * The destination a delivery is for (its destination_code); absent from the event's own
		 * envelope (`PublishedEvent.envelope`), present in every delivery's body.
		 */
		destination_id?: string;
		/** ISO 8601 publication time. */
		published_at: string;
		project_code: string;
	};
	payload: Record<string, unknown>;
}

export interface DeliveryAttempt {
	/** ISO 8601 start of the attempt. */
	at: string;
	/** HTTP status answered (only when an answer arrived). */
	status?: number;
	/** Why no answer arrived: connection error, timeout, emulator closed. */
	error?: string;
	duration_ms: number;
}

/**
 * `pending`: attempts remain; `delivered`: a 2xx answer; `failed`: every attempt failed (or the
 * emulator closed first); `skipped`: not sent, the url is not on loopback and external deliveries
 * are off.
 */
export type DeliveryOutcome = 'pending' | 'delivered' | 'failed' | 'skipped';

export interface DeliveryRecord {
	/** `DLV-000001`, ... in creation order. */
	id: string;
	message_id: string;
	event_type: string;
	project_code: string;
	destination_code: string;
	/** The destination's url when the event was published. */
	url: string;
	/** Headers sent (real values): Content-Type, User-Agent, Content-Length, credentials. */
	headers: Record<string, string>;
	/** The envelope sent, with this destination's `destination_id` (the same for every attempt and duplicate). */
	body: EventEnvelope;
	/** A forced second delivery (`redeliver`, `duplicate: true`). */
	duplicate: boolean;
	attempts: DeliveryAttempt[];
	outcome: DeliveryOutcome;
	/** ISO 8601. */
	created_at: string;
	/** ISO 8601 time the outcome became final; null while pending. */
	settled_at: string | null;
	/** ISO 8601 time of the next scheduled retry; null when none is. */
	next_attempt_at: string | null;
	/** Why the delivery was skipped or given up early. */
	note?: string;
}

/** An event as published, with the deliveries planned for it. */
export interface PublishedEvent {
	message_id: string;
	event_type: string;
	project_code: string;
	published_at: string;
	envelope: EventEnvelope;
	/** Ids of its deliveries, duplicates included. */
	delivery_ids: string[];
}

export interface PublishEventInput {
	/** `NAMESPACE::EVENT_NAME`, e.g. `FBPO::PO_SYNC`. */
	event_type: string;
	/** Default `{}`. */
	payload?: Record<string, unknown>;
	/** Default the emulator's project. An unknown project has no destinations: nothing is planned. */
	projectCode?: string;
	/** Also force a second delivery of the event to each destination (same message_id and body). */
	duplicate?: boolean;
}

export interface PublishEventOptions {
	duplicate?: boolean;
}

export interface PublishResult {
	message_id: string;
	event_type: string;
	project_code: string;
	published_at: string;
	envelope: EventEnvelope;
	/** The deliveries planned (pending, or skipped), duplicates included. */
	deliveries: DeliveryRecord[];
}

export interface DeliveryFilter {
	messageId?: string;
	destinationCode?: string;
	eventType?: string;
	projectCode?: string;
	outcome?: DeliveryOutcome;
}

export interface WaitForDeliveriesOptions extends DeliveryFilter {
	/**
	 * Resolve once at least this many deliveries match and none of the matching ones is pending.
	 * Default 1, or 0 with `messageId` (every delivery of that event settled, possibly none).
	 */
	count?: number;
	/** Reject (DEADLINE_EXCEEDED) after this long; default 10 s. */
	timeoutMs?: number;
}

export interface DispatcherOptions {
	/** Retries after the first attempt. */
	retries: number;
	/** Wait before the first retry; doubles for each further one. */
	backoffMs: number;
	/** The longest wait between two attempts (default: no limit). */
	backoffMaxMs?: number;
	/** An attempt without a complete answer after this long fails. */
	timeoutMs: number;
	/** Also send to urls outside loopback. */
	external: boolean;
	/** Settled deliveries (and events) kept, oldest dropped first. */
	logLimit: number;
	/** The form of `event_schema_version` of the events published from now on; default "1.0". */
	schemaVersion?: EventSchemaVersion;
}

interface Delivery {
	record: DeliveryRecord;
	rawBody: string;
}

interface StoredEvent {
	event: PublishedEvent;
}

interface Waiter {
	options: WaitForDeliveriesOptions;
	count: number;
	resolve(deliveries: DeliveryRecord[]): void;
	reject(error: Error): void;
	timer: NodeJS.Timeout;
}

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

/** True for http(s) urls on 127.0.0.0/8, localhost or [::1]. */
export function isLoopbackUrl(url: string): boolean {
	let host: string;
	try {
		host = new URL(url).hostname.toLowerCase();
	} catch {
		return false;
	}
	return LOOPBACK_HOSTS.has(host) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function describeError(error: unknown): string {
	const err = error as NodeJS.ErrnoException;
	const message = err?.message ?? String(error);
	return err?.code && !message.includes(err.code) ? `${err.code}: ${message}` : message;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Base headers, then the credentials (which win, names compared case-insensitively). */
function deliveryHeaders(
	credentials: Record<string, string>,
	rawBody: string,
): Record<string, string> {
	const headers: Record<string, string> = {
		'Content-Type': 'application/json',
		'User-Agent': DELIVERY_USER_AGENT,
		'Content-Length': String(Buffer.byteLength(rawBody)),
	};
	for (const [name, value] of Object.entries(credentials)) {
		if (FRAMING_HEADERS.has(name.toLowerCase())) continue;
		for (const existing of Object.keys(headers))
			if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
		headers[name] = value;
	}
	return headers;
}

function matches(record: DeliveryRecord, filter: DeliveryFilter): boolean {
	return (
		(filter.messageId === undefined || record.message_id === filter.messageId) &&
		(filter.destinationCode === undefined || record.destination_code === filter.destinationCode) &&
		(filter.eventType === undefined || record.event_type === filter.eventType) &&
		(filter.projectCode === undefined || record.project_code === filter.projectCode) &&
		(filter.outcome === undefined || record.outcome === filter.outcome)
	);
}

/** The body of a delivery to one destination: the envelope with its `destination_id`. */
function deliveryBody(envelope: EventEnvelope, destinationCode: string): string {
	const { message_id, ...rest } = envelope.metadata;
	return JSON.stringify({
		...envelope,
		metadata: { message_id, destination_id: destinationCode, ...rest },
	});
}

/** "1.0" or 1, the forms noon sends; anything else is refused. */
export function checkSchemaVersion(version: unknown): EventSchemaVersion {
	if (!EVENT_SCHEMA_VERSIONS.includes(version as EventSchemaVersion)) {
		throw invalidArgument(
			`the event schema version must be the text "1.0" or the number 1, got ${JSON.stringify(version ?? null)}`,
		);
	}
	return version as EventSchemaVersion;
}

const OUTCOMES: readonly DeliveryOutcome[] = ['pending', 'delivered', 'failed', 'skipped'];

/** Validates a filter given by a caller (in-process or control API). */
export function checkDeliveryFilter(filter: unknown): DeliveryFilter {
	if (filter === undefined || filter === null) return {};
	if (!isPlainObject(filter)) throw invalidArgument('the delivery filter must be an object');
	const checked: DeliveryFilter = {};
	for (const key of ['messageId', 'destinationCode', 'eventType', 'projectCode'] as const) {
		const value = filter[key];
		if (value === undefined || value === null) continue;
		if (typeof value !== 'string' || value === '')
			throw invalidArgument(`${key} must be a non-empty string`);
		checked[key] = value;
	}
	if (filter.outcome !== undefined && filter.outcome !== null) {
		if (!OUTCOMES.includes(filter.outcome as DeliveryOutcome)) {
			throw invalidArgument(
				`outcome must be one of ${OUTCOMES.join(', ')}, got ${JSON.stringify(filter.outcome)}`,
			);
		}
		checked.outcome = filter.outcome as DeliveryOutcome;
	}
	return checked;
}

export class EventDispatcher {
	/** By id, in creation order. */
	private readonly deliveries = new Map<string, Delivery>();
	/** By message id, in publication order. */
	private readonly events = new Map<string, StoredEvent>();
	private readonly timers = new Set<NodeJS.Timeout>();
	private readonly inFlight = new Set<ClientRequest>();
	private readonly waiters = new Set<Waiter>();
	private nextId = 1;
	private closed = false;

	private schemaVersion: EventSchemaVersion;

	constructor(private readonly options: DispatcherOptions) {
		this.schemaVersion = checkSchemaVersion(options.schemaVersion ?? EVENT_SCHEMA_VERSION);
	}

	/** The form of `event_schema_version` of the events published from now on: "1.0" or 1. */
	setSchemaVersion(version: unknown): void {
		this.schemaVersion = checkSchemaVersion(version);
	}

	/**
	 * Publishes an event to `destinations` (all of the event's project; the eligible ones are
	 * picked here). Plans the deliveries and starts them in the background.
	 */
	publish(input: PublishEventInput, destinations: DestinationState[], now: number): PublishResult {
		if (this.closed)
			throw new ApiError(
				'FAILED_PRECONDITION',
				'the emulator is closed: no more events are published',
			);
		const eventType = input.event_type;
		const projectCode = input.projectCode as string;
		const envelope: EventEnvelope = {
			event_schema_version: this.schemaVersion,
			event_type: eventType,
			metadata: {
				message_id: randomUUID(),
				published_at: new Date(now).toISOString(),
				project_code: projectCode,
			},
			payload: JSON.parse(JSON.stringify(input.payload ?? {})) as Record<string, unknown>,
		};
		const stored: StoredEvent = {
			event: {
				message_id: envelope.metadata.message_id,
				event_type: eventType,
				project_code: projectCode,
				published_at: envelope.metadata.published_at,
				envelope,
				delivery_ids: [],
			},
		};
		this.events.set(stored.event.message_id, stored);
		const planned: Delivery[] = [];
		for (const destination of destinations) {
			if (destination.project_code !== projectCode || !destination.is_active) continue;
			if (!destination.event_types.some((s) => s.event_type === eventType && s.is_active)) continue;
			const rawBody = deliveryBody(envelope, destination.destination_code);
			planned.push(
				this.plan(
					stored,
					destination.destination_code,
					destination.url,
					deliveryHeaders(destination.credentials, rawBody),
					false,
					now,
					rawBody,
				),
			);
		}
		if (input.duplicate) planned.push(...this.duplicates(stored, now));
		this.trim();
		this.notify();
		return {
			message_id: stored.event.message_id,
			event_type: eventType,
			project_code: projectCode,
			published_at: stored.event.published_at,
			envelope: structuredClone(envelope),
			deliveries: planned.map((d) => structuredClone(d.record)),
		};
	}

	/** Sends the event again, as it was sent, to every destination it was first planned for. */
	redeliver(messageId: string, now: number): DeliveryRecord[] {
		if (this.closed)
			throw new ApiError(
				'FAILED_PRECONDITION',
				'the emulator is closed: nothing is delivered any more',
			);
		const stored = this.events.get(messageId);
		if (!stored)
			throw new ApiError(
				'NOT_FOUND',
				`no published event with message_id ${JSON.stringify(messageId)} (or it was cleared)`,
			);
		const planned = this.duplicates(stored, now);
		this.notify();
		return planned.map((d) => structuredClone(d.record));
	}

	private duplicates(stored: StoredEvent, now: number): Delivery[] {
		const originals = stored.event.delivery_ids
			.map((id) => this.deliveries.get(id)?.record)
			.filter((record): record is DeliveryRecord => record !== undefined && !record.duplicate);
		return originals.map((original) =>
			this.plan(
				stored,
				original.destination_code,
				original.url,
				{ ...original.headers },
				true,
				now,
				JSON.stringify(original.body),
			),
		);
	}

	private plan(
		stored: StoredEvent,
		destinationCode: string,
		url: string,
		headers: Record<string, string>,
		duplicate: boolean,
		now: number,
		rawBody: string,
	): Delivery {
		const { event } = stored;
		const external = !isLoopbackUrl(url);
		const skipped = external && !this.options.external;
		const record: DeliveryRecord = {
			id: `DLV-${String(this.nextId++).padStart(6, '0')}`,
			message_id: event.message_id,
			event_type: event.event_type,
			project_code: event.project_code,
			destination_code: destinationCode,
			url,
			headers,
			body: JSON.parse(rawBody) as EventEnvelope,
			duplicate,
			attempts: [],
			outcome: skipped ? 'skipped' : 'pending',
			created_at: new Date(now).toISOString(),
			settled_at: skipped ? new Date(now).toISOString() : null,
			next_attempt_at: skipped ? null : new Date(now).toISOString(),
		};
		if (skipped) {
			record.note = `not sent: ${url} is not a loopback address and external deliveries are off (option externalDeliveries)`;
		}
		const delivery: Delivery = { record, rawBody };
		this.deliveries.set(record.id, delivery);
		event.delivery_ids.push(record.id);
		if (!skipped) this.schedule(delivery, 0);
		return delivery;
	}

	private schedule(delivery: Delivery, delayMs: number): void {
		delivery.record.next_attempt_at = new Date(Date.now() + delayMs).toISOString();
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			void this.attempt(delivery);
		}, delayMs);
		timer.unref();
		this.timers.add(timer);
	}

	private async attempt(delivery: Delivery): Promise<void> {
		if (this.closed) return;
		const { record } = delivery;
		record.next_attempt_at = null;
		const startedAt = Date.now();
		const result = await this.send(delivery);
		if (this.closed) return;
		record.attempts.push({
			at: new Date(startedAt).toISOString(),
			...result,
			duration_ms: Date.now() - startedAt,
		});
		if (result.status !== undefined && result.status >= 200 && result.status < 300) {
			this.settle(delivery, 'delivered');
		} else if (record.attempts.length <= this.options.retries) {
			const doubled = this.options.backoffMs * 2 ** (record.attempts.length - 1);
			this.schedule(delivery, Math.min(doubled, this.options.backoffMaxMs ?? Infinity));
		} else {
			this.settle(delivery, 'failed');
		}
	}

	/** One POST of the envelope; resolves with the status answered or the reason none was. */
	private send(delivery: Delivery): Promise<{ status?: number; error?: string }> {
		const { url, headers } = delivery.record;
		const timeoutMs = this.options.timeoutMs;
		return new Promise((resolve) => {
			let request: ClientRequest | undefined;
			let done = false;
			const timer = setTimeout(() => {
				finish({ error: `no complete answer within ${timeoutMs} ms` });
				request?.destroy();
			}, timeoutMs);
			timer.unref();
			const finish = (result: { status?: number; error?: string }): void => {
				if (done) return;
				done = true;
				clearTimeout(timer);
				if (request) this.inFlight.delete(request);
				resolve(result);
			};
			try {
				const target = new URL(url);
				const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
				request = send(
					target,
					{ method: 'POST', headers, agent: false },
					(res: IncomingMessage) => {
						res.on('data', () => undefined);
						res.on('end', () => finish({ status: res.statusCode ?? 0 }));
						res.on('error', (error) => finish({ error: describeError(error) }));
						res.on('aborted', () => finish({ error: 'the answer was cut off' }));
					},
				);
			} catch (error) {
				finish({ error: describeError(error) });
				return;
			}
			this.inFlight.add(request);
			request.on('error', (error) => finish({ error: describeError(error) }));
			request.end(delivery.rawBody);
		});
	}

	private settle(delivery: Delivery, outcome: 'delivered' | 'failed', note?: string): void {
		delivery.record.outcome = outcome;
		delivery.record.settled_at = new Date().toISOString();
		delivery.record.next_attempt_at = null;
		if (note !== undefined) delivery.record.note = note;
		this.trim();
		this.notify();
	}

	/** Drops the oldest settled deliveries and oldest events beyond the log limit. */
	private trim(): void {
		const limit = this.options.logLimit;
		if (this.deliveries.size > limit) {
			for (const [id, delivery] of this.deliveries) {
				if (this.deliveries.size <= limit) break;
				if (delivery.record.outcome !== 'pending') this.deliveries.delete(id);
			}
		}
		while (this.events.size > limit) this.events.delete(this.events.keys().next().value as string);
	}

	list(filter: DeliveryFilter = {}): DeliveryRecord[] {
		const records: DeliveryRecord[] = [];
		for (const { record } of this.deliveries.values())
			if (matches(record, filter)) records.push(structuredClone(record));
		return records;
	}

	publishedEvents(filter: { projectCode?: string; eventType?: string } = {}): PublishedEvent[] {
		const events: PublishedEvent[] = [];
		for (const { event } of this.events.values()) {
			if (filter.projectCode !== undefined && event.project_code !== filter.projectCode) continue;
			if (filter.eventType !== undefined && event.event_type !== filter.eventType) continue;
			events.push(structuredClone(event));
		}
		return events;
	}

	/** Forgets settled deliveries and every published event; pending deliveries stay listed. */
	clear(): void {
		for (const [id, delivery] of this.deliveries)
			if (delivery.record.outcome !== 'pending') this.deliveries.delete(id);
		this.events.clear();
	}

	waitFor(options: WaitForDeliveriesOptions = {}): Promise<DeliveryRecord[]> {
		const filter = checkDeliveryFilter(options);
		const count = options.count ?? (filter.messageId === undefined ? 1 : 0);
		if (!Number.isInteger(count) || count < 0)
			throw invalidArgument('count must be a whole number >= 0');
		const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
		if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs < 0) {
			throw invalidArgument('timeoutMs must be a number >= 0');
		}
		if (this.closed)
			return Promise.reject(new ApiError('FAILED_PRECONDITION', 'the emulator is closed'));
		return new Promise((resolve, reject) => {
			const waiter: Waiter = {
				options: filter,
				count,
				resolve,
				reject,
				timer: setTimeout(() => {
					this.waiters.delete(waiter);
					const seen = this.list(filter);
					const outcomes = seen.map(
						(d) => `${d.id} ${d.destination_code} ${d.outcome} (${d.attempts.length} attempts)`,
					);
					reject(
						new ApiError(
							'DEADLINE_EXCEEDED',
							`waitForDeliveries(${JSON.stringify({ ...filter, count })}) timed out after ${timeoutMs} ms: ` +
								`${seen.length} matching deliveries${outcomes.length ? `: ${outcomes.join('; ')}` : ''}`,
						),
					);
				}, timeoutMs),
			};
			this.waiters.add(waiter);
			this.check(waiter);
		});
	}

	private notify(): void {
		for (const waiter of [...this.waiters]) this.check(waiter);
	}

	private check(waiter: Waiter): void {
		const found = this.list(waiter.options);
		if (found.length < waiter.count || found.some((d) => d.outcome === 'pending')) return;
		clearTimeout(waiter.timer);
		this.waiters.delete(waiter);
		waiter.resolve(found);
	}

	/** Stops every retry and in-flight attempt (pending deliveries end `failed`) and rejects waiters. */
	close(): void {
		if (this.closed) return;
		this.closed = true;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		for (const request of this.inFlight) request.destroy();
		this.inFlight.clear();
		const now = new Date().toISOString();
		for (const { record } of this.deliveries.values()) {
			if (record.outcome !== 'pending') continue;
			record.outcome = 'failed';
			record.settled_at = now;
			record.next_attempt_at = null;
			record.note = 'given up: the emulator was closed before the delivery settled';
		}
		for (const waiter of this.waiters) {
			clearTimeout(waiter.timer);
			waiter.reject(
				new ApiError('FAILED_PRECONDITION', 'the emulator was closed while waiting for deliveries'),
			);
		}
		this.waiters.clear();
	}
}

/** Validates `publishEvent` input (in-process or control API); fills in the project. */
export function checkPublishInput(
	input: unknown,
	defaultProject: string,
): PublishEventInput & { projectCode: string } {
	if (!isPlainObject(input))
		throw invalidArgument(
			'the event must be an object { event_type, payload?, projectCode?, duplicate? }',
		);
	const eventType = input.event_type;
	if (typeof eventType !== 'string' || !EVENT_TYPE_PATTERN.test(eventType)) {
		throw invalidArgument(
			`event_type ${JSON.stringify(eventType ?? null)} must have the form NAMESPACE::EVENT_NAME (upper-case letters, digits, _), e.g. FBPO::PO_SYNC`,
		);
	}
	const payload = input.payload ?? {};
	if (!isPlainObject(payload)) throw invalidArgument('payload must be a JSON object');
	try {
		JSON.stringify(payload);
	} catch (error) {
		throw invalidArgument(`payload cannot be sent as JSON: ${describeError(error)}`);
	}
	const projectCode = input.projectCode ?? defaultProject;
	if (typeof projectCode !== 'string' || projectCode === '')
		throw invalidArgument('projectCode must be a non-empty string');
	if (input.duplicate !== undefined && typeof input.duplicate !== 'boolean')
		throw invalidArgument('duplicate must be a boolean');
	return { event_type: eventType, payload, projectCode, duplicate: input.duplicate === true };
}
