/**
 * FBN Shipment → Schedule: books a sealed ASN into a warehouse, a day and a time slot that Get
 * Slots offered (AsnService_ScheduleShipment): Sealed → Scheduled. The date and the slot's ends
 * are checked for their form before sending; whether the slot is still free is the service's.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { named, propertyIn, quoted } from '../../../shared';
import { invalidParameter, requiredTextParameter } from '../parameters';
import { bodyFromFields } from '../shapes/bodyFromFields';
import { asnNrProperty } from './asn';

const time = (displayName: string, name: string, example: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	required: true,
	default: '',
	placeholder: `e.g. ${example}`,
	description: `The ${name === 'slotStart' ? 'start' : 'end'} of the time slot, HH:MM (24-hour), as Get Slots gives it`,
});

const properties: INodeProperties[] = [
	asnNrProperty('The number of the sealed ASN to schedule (asn_nr)'),
	{
		displayName: 'Destination Warehouse Code',
		name: 'dstWarehouseCode',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.earliest_slot.dst_warehouse_code }}',
		description:
			'The noon warehouse to deliver to, one that Get Slots lists for this ASN (not one of your own warehouses)',
	},
	{
		displayName: 'Schedule Date',
		name: 'scheduleDate',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 2026-03-12',
		description: 'The day of delivery, YYYY-MM-DD, one that Get Slots offers',
	},
	time('Slot Start', 'slotStart', '08:00'),
	time('Slot End', 'slotEnd', '12:00'),
];

const date = propertyIn(properties, 'scheduleDate');
const start = propertyIn(properties, 'slotStart');
const end = propertyIn(properties, 'slotEnd');

function readDate(ctx: IExecuteFunctions, itemIndex: number): string {
	const text = requiredTextParameter(ctx, date, itemIndex);
	if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || !DateTime.fromISO(text).isValid) {
		const message = `${named(date)} must be a date written YYYY-MM-DD, got ${quoted(text)}`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	return text;
}

function readTime(ctx: IExecuteFunctions, itemIndex: number, property: INodeProperties) {
	const text = requiredTextParameter(ctx, property, itemIndex);
	if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(text)) {
		const message = `${named(property)} must be a time written HH:MM (00:00 to 23:59), got ${quoted(text)}`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	return text;
}

function readSlot(ctx: IExecuteFunctions, itemIndex: number) {
	const slot = { start: readTime(ctx, itemIndex, start), end: readTime(ctx, itemIndex, end) };
	if (slot.end <= slot.start) {
		const message = `${named(end)}, ${slot.end}, must be later than ${named(start)}, ${slot.start}`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	return slot;
}

export const { description, plan } = bodyFromFields({
	show: { resource: 'fbnShipment', operation: 'schedule' },
	endpoint: 'AsnService_ScheduleShipment',
	properties,
	path: { asn_nr: 'asnNr' },
	body: {
		dst_warehouse_code: 'dstWarehouseCode',
		schedule_date: readDate,
		schedule_slot: readSlot,
	},
});
