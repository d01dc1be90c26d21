/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Field checks shared by the operation handlers. Every failure is an INVALID_ARGUMENT whose
 * message names the field by its JSON path (`items.data[3].barcode`), so users and tests can tell
 * at once what to fix.
 *
 * Like grpc-gateway, a JSON `null` counts as an absent field.
 */
import { isIP } from 'node:net';

import { invalidArgument } from './errors';

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

const describe = (value: unknown): string =>
	value === null
		? 'null'
		: Array.isArray(value)
			? 'an array'
			: typeof value === 'object'
				? 'an object'
				: `${typeof value} ${JSON.stringify(value)}`;

/** A string field that may be absent; undefined when absent or null. */
export function optionalString(
	object: JsonObject,
	field: string,
	path = field,
): string | undefined {
	const value = object[field];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string')
		throw invalidArgument(`${path} must be a string, got ${describe(value)}`);
	return value;
}

/** A string field that must be present and non-empty. */
export function requiredString(object: JsonObject, field: string, path = field): string {
	const value = optionalString(object, field, path);
	if (value === undefined || value === '') throw invalidArgument(`${path} is required`);
	return value;
}

export function optionalBoolean(
	object: JsonObject,
	field: string,
	path = field,
): boolean | undefined {
	const value = object[field];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'boolean')
		throw invalidArgument(`${path} must be a boolean (true or false), got ${describe(value)}`);
	return value;
}

export function optionalArray(
	object: JsonObject,
	field: string,
	path = field,
): unknown[] | undefined {
	const value = object[field];
	if (value === undefined || value === null) return undefined;
	if (!Array.isArray(value))
		throw invalidArgument(`${path} must be a list, got ${describe(value)}`);
	return value;
}

export function optionalObject(
	object: JsonObject,
	field: string,
	path = field,
): JsonObject | undefined {
	const value = object[field];
	if (value === undefined || value === null) return undefined;
	if (!isObject(value)) throw invalidArgument(`${path} must be an object, got ${describe(value)}`);
	return value;
}

/** An element of a list that must be an object. */
export function objectAt(value: unknown, path: string): JsonObject {
	if (!isObject(value)) throw invalidArgument(`${path} must be an object, got ${describe(value)}`);
	return value;
}

/**
 * An IPv4 or IPv6 address in canonical form (IPv6 compressed and lower-cased, as Node reports a
 * peer's address), or undefined when it is not an address.
 */
export function canonicalIp(text: string): string | undefined {
	const version = isIP(text);
	if (version === 4) return text;
	if (version === 6) {
		try {
			return new URL(`http://[${text}]/`).hostname.slice(1, -1);
		} catch {
			return undefined;
		}
	}
	return undefined;
}

const ISO_WITH_OFFSET =
	/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)$/;

/**
 * Milliseconds since the epoch of an ISO 8601 date-time that carries a UTC offset (`Z`, `+04:00`,
 * `+0400`, `+04`), or undefined when the text is not one (no offset, impossible date, ...).
 */
export function parseIsoWithOffset(text: string): number | undefined {
	const m = ISO_WITH_OFFSET.exec(text);
	if (!m) return undefined;
	const [year, month, day, hour, minute, second] = m.slice(1, 7).map((part) => Number(part ?? 0));
	const millis = m[7] ? Number(`0.${m[7]}`) * 1000 : 0;
	if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59)
		return undefined;
	const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
	if (day > daysInMonth) return undefined;
	let offsetMinutes = 0;
	const offset = m[8];
	if (offset !== 'Z' && offset !== 'z') {
		const digits = offset.slice(1).replace(':', '');
		const hours = Number(digits.slice(0, 2));
		const minutes = Number(digits.slice(2) || 0);
		if (hours > 23 || minutes > 59) return undefined;
		offsetMinutes = (offset[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
	}
	const utc = new Date(0);
	utc.setUTCFullYear(year, month - 1, day);
	utc.setUTCHours(hour, minute, second, 0);
	return utc.getTime() + Math.floor(millis) - offsetMinutes * 60_000;
}

/** `items[2].status`-style path of a list element's field. */
export const at = (list: string, index: number, field?: string): string =>
	field === undefined ? `${list}[${index}]` : `${list}[${index}].${field}`;
