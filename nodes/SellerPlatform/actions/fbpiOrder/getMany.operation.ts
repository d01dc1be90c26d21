/**
 * FBPI Order → Get Many: the orders of one warehouse (ListFbpiOrders), optionally created within
 * a time range, every page followed (shapes/list.ts). The range's ends are n8n date-time values,
 * sent in the service's format (UTC, to the second: `YYYY-MM-DDTHH:MM:SSZ`).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { named, propertyIn, quotedName, shown, warehouseCodeProperty } from '../../../shared';
import { readCollection, invalidParameter, readWarehouseCode } from '../parameters';
import { listOperation, listProperties } from '../shapes/list';
import { simplifiedOrder } from './simplified';

const warehouseCode = warehouseCodeProperty('The warehouse whose orders are listed');

const properties: INodeProperties[] = [
	warehouseCode,
	...listProperties,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Created After',
				name: 'createdAfter',
				type: 'dateTime',
				default: '',
				description:
					'Only orders created at or after this time (to the second): a date, or ISO 8601 text such as 2026-01-31T08:00:00Z. A time without an offset is in the workflow time zone.',
			},
			{
				displayName: 'Created Before',
				name: 'createdBefore',
				type: 'dateTime',
				default: '',
				description:
					'Only orders created at or before this time (to the second): a date, or ISO 8601 text such as 2026-01-31T08:00:00Z. A time without an offset is in the workflow time zone.',
			},
		],
	},
];

const filtersProperty = propertyIn(properties, 'filters');
const createdAfter = propertyIn(filtersProperty.options as INodeProperties[], 'createdAfter');
const createdBefore = propertyIn(filtersProperty.options as INodeProperties[], 'createdBefore');

/** A luxon DateTime (any copy of luxon), a Date, or ISO 8601 text; anything else is no date. */
function toDateTime(value: unknown, zone: string): DateTime | undefined {
	if (DateTime.isDateTime(value)) return value;
	if (value instanceof Date) return DateTime.fromJSDate(value);
	if (typeof value === 'object' && value !== null && 'toISO' in value) {
		const iso = (value as { toISO: () => unknown }).toISO();
		return typeof iso === 'string' ? DateTime.fromISO(iso, { setZone: true }) : undefined;
	}
	if (typeof value === 'string') return DateTime.fromISO(value.trim(), { zone });
	return undefined;
}

/** A filter's time in UTC to the second, or undefined when unset; refused when no date. */
function readTime(
	ctx: IExecuteFunctions,
	itemIndex: number,
	filters: IDataObject,
	property: INodeProperties,
): DateTime | undefined {
	const value = filters[property.name];
	if (value === undefined || value === null || (typeof value === 'string' && !value.trim()))
		return undefined;
	const time = toDateTime(value, ctx.getTimezone());
	if (!time?.isValid) {
		const message = `${named(property, 'field')} must be a date and time, got ${shown(value)}`;
		const advice = 'Give an ISO 8601 date and time such as 2026-01-31T08:00:00Z, or pick a date.';
		throw invalidParameter(ctx, itemIndex, message, advice);
	}
	return time.toUTC().startOf('second');
}

const serviceTime = (time: DateTime) => time.toFormat("yyyy-MM-dd'T'HH:mm:ss'Z'");

/** The body: the warehouse and the time range, after ≤ before. */
function readFilters(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const body: IDataObject = { warehouse_code: readWarehouseCode(ctx, warehouseCode, itemIndex) };
	const filters = readCollection(ctx, filtersProperty, itemIndex);
	const after = readTime(ctx, itemIndex, filters, createdAfter);
	const before = readTime(ctx, itemIndex, filters, createdBefore);
	if (after && before && after > before) {
		const message = `${named(createdAfter, 'field')}, ${serviceTime(after)}, is later than ${quotedName(createdBefore)}, ${serviceTime(before)}: no order can match`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	if (after) body.created_after = serviceTime(after);
	if (before) body.created_before = serviceTime(before);
	return body;
}

export const { description, plan } = listOperation({
	show: { resource: 'fbpiOrder', operation: 'getMany' },
	endpoint: 'ListFbpiOrders',
	properties,
	entries: 'orders',
	token: 'query',
	noun: 'orders',
	simplified: simplifiedOrder,
	read: (ctx, itemIndex) => ({ body: readFilters(ctx, itemIndex) }),
});
