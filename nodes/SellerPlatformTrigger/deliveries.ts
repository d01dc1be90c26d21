/**
 * What the trigger keeps about deliveries: a bounded key per delivery, remembered in this process
 * per registration (`recentDeliveries`, the first line of the de-duplication)
 * and in the node's static data (the registration record's `seen`, the second). Per delivery the
 * memory costs O(1) (a Set answers membership, one list shared by the pending records is what they
 * save); only the saved list n8n read for the delivery is looked through.
 */
import { createHash } from 'crypto';
import { sleep, type IDataObject } from 'n8n-workflow';

import { MAX_DELIVERY_KEY_LENGTH, MAX_REMEMBERED_DELIVERIES, type Registration } from './record';

export { MAX_DELIVERY_KEY_LENGTH };

export const MAX_REMEMBERED_REGISTRATIONS = 100;
export const MAX_PENDING_RECORDS = 64;

export interface RememberedKeys {
	keys: Set<string>;
	list: string[];
}

/**
 * What the trigger remembers of its deliveries in this process, per registration (`memoryKey`:
 * `<workflow id>\0<node id>\0<webhook URL>`, so a trigger's production webhook and its "listen for
 * test event" webhook are two registrations that never share or wipe each other's memory): the
 * first line of its de-duplication (static data, the registration record's `seen`, is the
 * second). `keys` answers membership in O(1); `list` holds the same keys, oldest first, and is
 * the one array every pending record's `seen` points at (no record holds a copy).
 * Bound: at most `MAX_REMEMBERED_DELIVERIES` keys per registration, and at most
 * `MAX_REMEMBERED_REGISTRATIONS` registrations (the one whose last delivery is oldest is dropped
 * beyond); an entry goes when its registration is released or registered again. Keys are at most
 * `MAX_DELIVERY_KEY_LENGTH` characters: at the bound, about 32 MB of heap (100 × 1,000 keys of
 * 128 characters, with the Set and the list), filled by whoever holds a registration's secret.
 */
export const recentDeliveries = new Map<string, RememberedKeys>();

/**
 * The static data records (`{ seen }`) of the latest deliveries per registration (same key as
 * `recentDeliveries`), whose saves by n8n may still be to come; each record's `seen` is the
 * registration's shared `list`. Bound: `MAX_PENDING_RECORDS` per registration, and the
 * registrations of `recentDeliveries` (dropped and released with them).
 */
export const pendingRecords = new Map<string, Array<{ seen?: string[] }>>();

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A metadata identifier as text: a non-empty text, or a finite number written out; else ''. */
function identifier(value: unknown): string {
	if (typeof value === 'string') return value;
	return typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
}

/**
 * The delivery key: noon's `metadata.message_id`, with `metadata.destination_id` when the delivery
 * names it (`id:<destination_id>/<message_id>`, the destination's length first so no two pairs
 * spell one key; `id:<message_id>` without it), hashed when longer than
 * `MAX_DELIVERY_KEY_LENGTH`; without a message_id, a hash of the body.
 */
export function deliveryKey(delivery: IDataObject): string {
	const metadata = delivery.metadata;
	const fields = metadata && typeof metadata === 'object' ? (metadata as IDataObject) : {};
	const id = identifier(fields.message_id);
	if (!id) return `sha256:${sha256(JSON.stringify(delivery))}`;
	const destination = identifier(fields.destination_id);
	// Without a destination_id: the keys of the versions before it (kept in saved static data).
	const named = destination ? `${destination.length}:${destination}/${id}` : id;
	const key = `id:${named}`;
	return key.length <= MAX_DELIVERY_KEY_LENGTH ? key : `id-sha256:${sha256(named)}`;
}

/**
 * The key of one registration's memory: `<trigger id>\0<webhook URL>` (registration.ts
 * `triggerId`). The production webhook and the test webhook of one trigger are two registrations.
 */
export function memoryKey(trigger: string, record: Pick<Registration, 'webhookUrl'>): string {
	return `${trigger}\u0000${record.webhookUrl}`;
}

/** The registration's memory, now the most recently used (the least recent dropped beyond the bound). */
function memoryOf(registration: string): RememberedKeys {
	const memory = recentDeliveries.get(registration) ?? { keys: new Set<string>(), list: [] };
	recentDeliveries.delete(registration);
	recentDeliveries.set(registration, memory);
	if (recentDeliveries.size > MAX_REMEMBERED_REGISTRATIONS) {
		forgetDeliveries(recentDeliveries.keys().next().value as string);
	}
	return memory;
}

/**
 * Adds the saved keys this process does not know (another process's, or from before a restart) as
 * older than those it knows, as many as there is room for: what the saved list and the memory
 * merged, newest `MAX_REMEMBERED_DELIVERIES` kept, would hold. Rebuilds only when there are such
 * keys and room for them.
 */
function addSavedKeys(memory: RememberedKeys, saved: readonly string[]): void {
	const room = MAX_REMEMBERED_DELIVERIES - memory.keys.size;
	if (room <= 0) return;
	const unknown = saved.filter((key) => !memory.keys.has(key));
	if (!unknown.length) return;
	memory.list = [...new Set(unknown)].slice(-room).concat(memory.list);
	memory.keys = new Set(memory.list);
}

/** Adds `key` as the newest, dropping the oldest beyond `MAX_REMEMBERED_DELIVERIES`. */
function addKey(memory: RememberedKeys, key: string): void {
	memory.keys.add(key);
	memory.list.push(key);
	while (memory.list.length > MAX_REMEMBERED_DELIVERIES) {
		memory.keys.delete(memory.list.shift() as string);
	}
}

/**
 * Whether the delivery `key` is new to the registration `registration` (`memoryKey`); if so,
 * remembers it. n8n reads the static data from its database for each delivery and saves it after
 * (n8n 2.x: once the delivery's execution exists, before answering; 1.x: before answering, while
 * it creates the execution): of concurrent deliveries, the last save wins. So every delivery of
 * this process whose save may still be to come (the latest `MAX_PENDING_RECORDS`) has, as its
 * `seen`, the one list of every key this process knows for the registration: no key is lost to a
 * later save, and no record holds a copy. A re-send while this process still handles the first
 * is dropped here; after a crash before the save, the key is neither saved nor remembered, and the
 * re-send runs (marked `possibleDuplicate`: resent.ts).
 */
export function firstDelivery(registration: string, key: string, record: Registration): boolean {
	const memory = memoryOf(registration);
	const saved = record.seen ?? [];
	if (memory.keys.has(key) || saved.includes(key)) return false;
	addSavedKeys(memory, saved);
	addKey(memory, key);
	const records = pendingRecords.get(registration) ?? [];
	records.push(record);
	if (records.length > MAX_PENDING_RECORDS) records.shift();
	pendingRecords.set(registration, records);
	for (const pending of records) if (pending.seen !== memory.list) pending.seen = memory.list;
	return true;
}

/** Forgets the registration's deliveries (a new registration, a release, beyond the bound). */
export function forgetDeliveries(registration: string): void {
	recentDeliveries.delete(registration);
	pendingRecords.delete(registration);
}

/**
 * When the record is marked changed again after webhook() returns (ms): more than once, so a
 * slower or faster way of n8n to the execution still finds the mark set before its save; a mark
 * after the save changes nothing (n8n builds a new Workflow for the next delivery).
 */
const MARK_AGAIN_AFTER_MS = [0, 5, 50];

/**
 * Marks the delivery's record changed once more, a moment after webhook() returns. n8n 2.41
 * clears the "static data changed" mark of the delivery's workflow when it starts the execution
 * (`WorkflowRunner.run` builds a second `Workflow` on the same static data object, and n8n-workflow's
 * `ObservableObject.create` sets the mark to false), so its save after the execution, before the
 * answer, would write nothing. The mark set again after timers of 0, 5 and 50 ms (by then n8n is waiting on its
 * database to create the execution) makes that save write the delivery's key. n8n 1.x
 * saves before starting the execution and needs none of it.
 */
export function markChangedAfterStart(record: Registration): void {
	for (const ms of MARK_AGAIN_AFTER_MS) {
		void sleep(ms).then(() => {
			// Setting a property of static data marks it changed (n8n's ObservableObject).
			record.seen = record.seen ?? [];
		});
	}
}
