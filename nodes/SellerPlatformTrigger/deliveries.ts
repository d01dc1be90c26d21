/**
 * What the trigger keeps about deliveries in the node's static data: a bounded key per delivery,
 * and a registration record whose lists are repaired when the saved data has another shape (a
 * string or an object where a list belongs), so that no delivery fails on it.
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { MAX_REMEMBERED_DELIVERIES } from '../api/state';
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
