/**
 * FBPI Order → Get Many: the orders of one warehouse (ListFbpiOrders), optionally created within
 * a time range, every page followed (shapes/list.ts). The range's ends are n8n date-time values,
 * sent in the service's format (UTC, to the second: `YYYY-MM-DDTHH:MM:SSZ`).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { DateTime } from 'luxon';

import {
	knownWarehouses,
	named,
	propertyIn,
	quoted,
	quotedName,
	shown,
	warehouseCodeProperty,
} from '../../../shared';
import { readCollection, invalidParameter, readWarehouseCode, runsAsTool } from '../parameters';
import { listOperation, listProperties, type ListRequest } from '../shapes/list';
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
	const toISO = typeof value === 'object' && value !== null ? (value as IDataObject).toISO : null;
	if (typeof toISO === 'function') {
		const iso: unknown = toISO.call(value);
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
	const time = toDateTime(value, ctx.getTimezone())?.toUTC();
	// The service's format has four digits for the year.
	if (!time?.isValid || time.year < 1 || time.year > 9999) {
		const years = time?.isValid ? ' from the year 1 to 9999 (in UTC)' : '';
		const message = `${named(property, 'field')} must be a date and time${years}, got ${shown(value)}`;
		const advice = {
			editor: 'Pick a date, or give ISO 8601 text such as 2026-01-31T08:00:00Z.',
			tool: 'Give an ISO 8601 date and time such as 2026-01-31T08:00:00Z.',
		};
		throw invalidParameter(ctx, itemIndex, message, advice);
	}
	return time.startOf('second');
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

/** Listed codes shown at most in a refusal. */
const MAX_LIKE = 3;

/**
 * An empty list for a warehouse code the project does not have, when an AI model gave the code:
 * refused, so that the model does not read it as "no orders" (the service lists nothing for an
 * unknown code: a typo, a code in lower case, one made up). Checked against the credential's
 * kept warehouse list (transport/warehouses.ts: read at most every 5 minutes, so a warehouse
 * created since may be refused until then); not checked, and the empty list stands, when the
 * list cannot be read or was cut at its page cap. In the editor the code comes from that list.
 */
async function refuseUnknownWarehouse(
	ctx: IExecuteFunctions,
	itemIndex: number,
	request: ListRequest,
): Promise<void> {
	if (!runsAsTool(ctx)) return;
	const code = String(request.body?.warehouse_code);
	const list = await knownWarehouses(ctx);
	if (!list?.complete || list.entries.some((warehouse) => warehouse.code === code)) return;
	const like = list.entries
		.filter((warehouse) => warehouse.code.toLowerCase() === code.toLowerCase())
		.slice(0, MAX_LIKE)
		.map((warehouse) => quoted(warehouse.code));
	const guess = like.length ? ` (the project has ${like.join(', ')})` : '';
	const message = `${named(warehouseCode)} is ${shown(code)}, not a warehouse of this project${guess}`;
	const advice = 'Call Warehouse → Get Many and give a warehouse_code exactly as it lists it.';
	throw invalidParameter(ctx, itemIndex, message, advice);
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
	whenEmpty: refuseUnknownWarehouse,
});
