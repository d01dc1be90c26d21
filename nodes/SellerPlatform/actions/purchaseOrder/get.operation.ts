import { DateTime } from 'luxon';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../../shared';
import { concurrencyOption, optionsCollection } from '../options';
import { requiredPathParameter } from '../parameters';
import { perItem } from '../runner';

const show = { resource: ['purchaseOrder'], operation: ['get'] };

export const description: INodeProperties[] = [
	{
		displayName: 'PO Number',
		name: 'poNr',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. PO-1001',
		description:
			'Number of the purchase order to fetch (po_nr), for example from a FBPO::PO_SYNC event',
		displayOptions: { show },
	},
	optionsCollection(show, [concurrencyOption]),
];

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

export const plan = perItem(function (this: IExecuteFunctions, itemIndex) {
	const poNr = requiredPathParameter(this, 'poNr', 'PO Number', itemIndex);
	return {
		send: async () => {
			const record = await apiRequest.call(this, 'GetPurchaseOrder', {
				pathParams: { po_nr: poNr },
				itemIndex,
			});
			const { iso, unreadable } = readReleaseDate(record.po_release_date);
			return {
				json: { ...record, po_release_date_iso: iso } as IDataObject,
				...(unreadable ? { notes: [UNREADABLE_DATE_NOTE] } : {}),
			};
		},
	};
});
