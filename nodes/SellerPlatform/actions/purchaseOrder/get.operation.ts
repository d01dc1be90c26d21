import { DateTime } from 'luxon';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../../api/request';
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

/** The spec's date object as an ISO date, or null when year, month or day is 0 or invalid. */
export function releaseDateToIso(date: unknown): string | null {
	if (!date || typeof date !== 'object') return null;
	const { year, month, day } = date as { year?: number; month?: number; day?: number };
	if (!year || !month || !day) return null;
	const parsed = DateTime.fromObject({ year, month, day }, { zone: 'utc' });
	return parsed.isValid ? parsed.toISODate() : null;
}

export const plan = perItem(function (this: IExecuteFunctions, itemIndex) {
	const poNr = requiredPathParameter(this, 'poNr', 'PO Number', itemIndex);
	return {
		send: async () => {
			const record = await apiRequest.call(this, 'GetPurchaseOrder', {
				pathParams: { po_nr: poNr },
				itemIndex,
			});
			return {
				json: {
					...record,
					po_release_date_iso: releaseDateToIso(record.po_release_date),
				} as IDataObject,
			};
		},
	};
});
