/**
 * FBN Shipment → Get Slots: the noon warehouses a sealed ASN may go to, each with its days and
 * time slots still free (AsnService_GetSlotAvailability). The output is the answer, plus
 * `earliest_slot`: the first free slot of all (by date, then start, then warehouse), in the form
 * Schedule takes it, or null when there is none.
 */
import type { IDataObject } from 'n8n-workflow';

import { readByPath } from '../shapes/readByPath';
import { asnNrProperty } from './asn';

interface Slot {
	dst_warehouse_code: string;
	schedule_date: string;
	schedule_slot: { start: string; end: string };
}

const list = (value: unknown): IDataObject[] =>
	Array.isArray(value)
		? (value as unknown[]).filter(
				(entry): entry is IDataObject =>
					typeof entry === 'object' && entry !== null && !Array.isArray(entry),
			)
		: [];
const text = (value: unknown) => (typeof value === 'string' ? value : '');

const sortKey = (slot: Slot) =>
	`${slot.schedule_date} ${slot.schedule_slot.start} ${slot.dst_warehouse_code}`;

/** Every slot of the answer, as Schedule takes it (entries it cannot read are passed over). */
function slotsOf(answer: IDataObject): Slot[] {
	return list(answer.warehouses).flatMap((entry) => {
		const code = text((entry.warehouse as IDataObject | undefined)?.warehouse_code);
		return list(entry.days).flatMap((day) =>
			list(day.slots).map((slot) => ({
				dst_warehouse_code: code,
				schedule_date: text(day.date),
				schedule_slot: { start: text(slot.start), end: text(slot.end) },
			})),
		);
	});
}

function earliest(answer: IDataObject): Slot | null {
	const slots = slotsOf(answer).filter(
		(slot) => slot.dst_warehouse_code && slot.schedule_date && slot.schedule_slot.start,
	);
	slots.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
	return slots[0] ?? null;
}

export const { description, plan } = readByPath({
	show: { resource: 'fbnShipment', operation: 'getSlots' },
	endpoint: 'AsnService_GetSlotAvailability',
	path: { asn_nr: 'asnNr' },
	properties: [asnNrProperty('The number of the sealed ASN to find delivery slots for (asn_nr)')],
	output: (_ctx, answer) => ({
		json: { ...answer, earliest_slot: earliest(answer) as unknown as IDataObject },
	}),
});
