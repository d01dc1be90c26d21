/** Purchase Order → Get: the spec's release date object read as an ISO date. */
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import type { TaskOutput } from '../runner';

/** The highest value of each part of the spec's date object; 0 means "not set". */
const DATE_PARTS = { year: 9999, month: 12, day: 31 } as const;

/**
 * One part of the date object: its number (0 when absent: proto3 JSON leaves zeros out), or
 * undefined when it is not a whole number in range (a text of digits counts as its number).
 */
function datePart(value: unknown, max: number): number | undefined {
	if (value === undefined || value === null) return 0;
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && /^\s*[+-]?\d{1,9}\s*$/.test(value)
				? Number(value)
				: NaN;
	return Number.isInteger(number) && number >= 0 && number <= max ? number : undefined;
}

const UNREADABLE = { iso: null, unreadable: true } as const;

/**
 * The spec's date object (year, month, day) read: its ISO date, or null when a part is 0 (not
 * set); `unreadable` when the service sent something else (a part not a number, out of range, a
 * day the month does not have, no object at all). Never throws, whatever it is given.
 */
export function readReleaseDate(date: unknown): { iso: string | null; unreadable: boolean } {
	if (date === undefined || date === null) return { iso: null, unreadable: false };
	if (typeof date !== 'object' || Array.isArray(date)) return UNREADABLE;
	const parts = date as Record<keyof typeof DATE_PARTS, unknown>;
	const year = datePart(parts.year, DATE_PARTS.year);
	const month = datePart(parts.month, DATE_PARTS.month);
	const day = datePart(parts.day, DATE_PARTS.day);
	if (year === undefined || month === undefined || day === undefined) return UNREADABLE;
	if (!year || !month || !day) return { iso: null, unreadable: false };
	try {
		const parsed = DateTime.fromObject({ year, month, day }, { zone: 'utc' });
		return parsed.isValid ? { iso: parsed.toISODate(), unreadable: false } : UNREADABLE;
	} catch {
		return UNREADABLE;
	}
}

/** The spec's date object as an ISO date, or null when year, month or day is 0 or invalid. */
export function releaseDateToIso(date: unknown): string | null {
	return readReleaseDate(date).iso;
}

/** The run's hint for items whose release date could not be read (hints.ts). */
export const UNREADABLE_DATE_NOTE =
	'po_release_date could not be read as a date (a part is not a whole number, is out of range, or the day is not in its month): po_release_date_iso is null, po_release_date is as the service sent it';

/** A purchase order as the output gives it: with `po_release_date_iso`, and a note when unreadable. */
export function withReleaseDate(record: IDataObject): TaskOutput {
	const { iso, unreadable } = readReleaseDate(record.po_release_date);
	return {
		json: { ...record, po_release_date_iso: iso },
		...(unreadable ? { notes: [UNREADABLE_DATE_NOTE] } : {}),
	};
}
