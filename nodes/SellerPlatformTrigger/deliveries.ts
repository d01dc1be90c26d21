/**
 * What the trigger keeps about deliveries: a bounded key per delivery, remembered in this process
 * (nodes/api/state.ts `recentDeliveries`, the first line of the de-duplication) and in the node's
 * static data (the registration record's `seen`, the second); and a registration record whose lists
 * are repaired when the saved data has another shape (a string or an object where a list belongs),
 * so that no delivery fails on it.
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import {
	MAX_PENDING_RECORDS,
	MAX_REMEMBERED_DELIVERIES,
	pendingRecords,
	recentDeliveries,
} from '../api/state';
import type { Registration } from './registration';

/** No delivery key is longer: longer message ids are hashed. */
export const MAX_DELIVERY_KEY_LENGTH = 128;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The delivery key: `id:<metadata.message_id>` (hashed when long), else a hash of the body. */
export function deliveryKey(delivery: IDataObject): string {
	const metadata = delivery.metadata;
	const id =
		metadata && typeof metadata === 'object' ? (metadata as IDataObject).message_id : undefined;
	if (typeof id !== 'string' || !id) return `sha256:${sha256(JSON.stringify(delivery))}`;
	const key = `id:${id}`;
	return key.length <= MAX_DELIVERY_KEY_LENGTH ? key : `id-sha256:${sha256(id)}`;
}

/**
 * Whether the trigger node `trigger` (`triggerId`) received the delivery `key` before: n8n does
 * not save static data that `webhook()` changed when an execution starts, so the process's memory
 * of deliveries is the first line, the static data record the second.
 */
export function receivedBefore(trigger: string, key: string, record: Registration): boolean {
	return (
		recentDeliveries.get(trigger)?.includes(key) === true || record.seen?.includes(key) === true
	);
}

/** Adds `key` at the end of `list`, keeping the newest `MAX_REMEMBERED_DELIVERIES`. */
function rememberKey(list: string[] | undefined, key: string): string[] {
	return [...(list ?? []).filter((k) => k !== key), key].slice(-MAX_REMEMBERED_DELIVERIES);
}

/** Both lists' keys, oldest first, the newest `MAX_REMEMBERED_DELIVERIES` kept. */
function mergeKeys(saved: string[] | undefined, known: string[]): string[] {
	const merged = new Set([...(saved ?? []), ...known]);
	return [...merged].slice(-MAX_REMEMBERED_DELIVERIES);
}

/**
 * Remembers the delivery `key` of the trigger node `trigger` in this process, and writes every key
 * it remembers into `record` (the delivery's static data) and into the records of the latest
 * deliveries before it. n8n reads the static data from its database for each delivery and saves it
 * after: of concurrent deliveries, the last save wins. So every delivery of this process whose save
 * may still be to come gets every key this process knows: no key is lost to a later save.
 */
export function rememberDelivery(trigger: string, key: string, record: Registration): void {
	const known = rememberKey(recentDeliveries.get(trigger), key);
	recentDeliveries.set(trigger, known);
	const records = [...(pendingRecords.get(trigger) ?? []), record].slice(-MAX_PENDING_RECORDS);
	pendingRecords.set(trigger, records);
	for (const pending of records) pending.seen = mergeKeys(pending.seen, known);
}

/** A new registration starts with no remembered deliveries. */
export function forgetDeliveries(trigger: string): void {
	recentDeliveries.delete(trigger);
	pendingRecords.delete(trigger);
}

/** The strings of a list as saved: a list, a comma-separated text, or an object's values. */
function stringList(value: unknown): string[] {
	const entries =
		typeof value === 'string'
			? value.split(/[\s,]+/)
			: Array.isArray(value)
				? value
				: value && typeof value === 'object'
					? Object.values(value)
					: [];
	return entries.filter((entry): entry is string => typeof entry === 'string' && entry !== '');
}

/**
 * Puts the record's lists back in shape, in place (static data is saved as changed): `events` a
 * list of event types, `seen` a list of at most `MAX_REMEMBERED_DELIVERIES` bounded keys.
 */
export function repairRecord(record: Registration): Registration {
	if (!Array.isArray(record.events) || record.events.some((e) => typeof e !== 'string')) {
		record.events = stringList(record.events);
	}
	const seen: unknown = record.seen;
	const valid = (key: unknown) => typeof key === 'string' && key.length <= MAX_DELIVERY_KEY_LENGTH;
	if (seen !== undefined && (!Array.isArray(seen) || !seen.every(valid))) {
		record.seen = stringList(seen).filter(valid).slice(-MAX_REMEMBERED_DELIVERIES);
	}
	return record;
}
