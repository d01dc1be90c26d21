/**
 * FBN Shipment → Schedule: books a sealed ASN into a warehouse, a day and a time slot that Get
 * Slots offered (AsnService_ScheduleShipment): Sealed → Scheduled. The date and the slot's ends
 * are checked for their form before sending; whether the slot is still free is the service's.
 * Warehouse, date and slot are pickers fed by Get Slots for the chosen ASN (slotPickers.ts).
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { asnNrProperty, named, propertyIn, quoted } from '../../../shared';
import { invalidParameter, readRequiredText } from '../parameters';
import { bodyFromFields } from '../shapes/bodyFromFields';
import { slotPickerProperty } from './slotPickers';

const time = (displayName: string, name: 'slotStart' | 'slotEnd', example: string) =>
	slotPickerProperty(name, {
		displayName,
		description: `The ${name === 'slotStart' ? 'start' : 'end'} of the time slot, HH:MM (24-hour): one Get Slots offers for this ASN (listed), or typed`,
		example,
		typedLabel: 'By Time',
	});

/*
 * Warehouse, date and slot: pickers listing what Get Slots offers the chosen ASN (slotPickers.ts),
 * or typed, or mapped by expression (e.g. from Get Slots' `earliest_slot`).
 */
const properties: INodeProperties[] = [
	asnNrProperty('The number of the sealed ASN to schedule (asn_nr)'),
	slotPickerProperty('dstWarehouseCode', {
		displayName: 'Destination Warehouse Code',
		description:
			'The noon warehouse to deliver to, one that Get Slots lists for this ASN (not one of your own warehouses)',
		example: 'FBN-DXB-01',
		typedLabel: 'By Code',
	}),
	slotPickerProperty('scheduleDate', {
		displayName: 'Schedule Date',
		description: 'The day of delivery, YYYY-MM-DD, one that Get Slots offers',
		example: '2026-03-12',
		typedLabel: 'By Date',
	}),
	time('Slot Start', 'slotStart', '08:00'),
	time('Slot End', 'slotEnd', '12:00'),
];

const date = propertyIn(properties, 'scheduleDate');
const start = propertyIn(properties, 'slotStart');
const end = propertyIn(properties, 'slotEnd');

function readDate(ctx: IExecuteFunctions, itemIndex: number): string {
	const text = readRequiredText(ctx, date, itemIndex);
	if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || !DateTime.fromISO(text).isValid) {
		const message = `${named(date)} must be a date written YYYY-MM-DD, got ${quoted(text)}`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	return text;
}

function readTime(ctx: IExecuteFunctions, itemIndex: number, property: INodeProperties) {
	const text = readRequiredText(ctx, property, itemIndex);
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
