/**
 * Reading Get Slots' answer (AsnService_GetSlotAvailability): every free slot in the form Schedule
 * takes it, in the order a person picks one (date, start, warehouse). Get Slots' `earliest_slot`
 * and Schedule's pickers (slotPickers.ts) read it here.
 */
import type { IDataObject } from 'n8n-workflow';

/** One free slot, as Schedule's body takes it. */
export interface Slot {
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

/**
 * Every complete slot of the answer (warehouse, date and start known), by date, then start, then
 * warehouse; entries it cannot read are passed over.
 */
export function slotsOf(answer: IDataObject): Slot[] {
	const slots = list(answer.warehouses).flatMap((entry) => {
		const code = text((entry.warehouse as IDataObject | undefined)?.warehouse_code);
		return list(entry.days).flatMap((day) =>
			list(day.slots).map((slot) => ({
				dst_warehouse_code: code,
				schedule_date: text(day.date),
				schedule_slot: { start: text(slot.start), end: text(slot.end) },
			})),
		);
	});
	return slots
		.filter((slot) => slot.dst_warehouse_code && slot.schedule_date && slot.schedule_slot.start)
		.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
}

/** The warehouses' names by code, as the answer gives them (for the picker's labels). */
export function warehouseNames(answer: IDataObject): Map<string, string> {
	return new Map(
		list(answer.warehouses).map((entry) => {
			const warehouse = (entry.warehouse ?? {}) as IDataObject;
			return [text(warehouse.warehouse_code), text(warehouse.name)];
		}),
	);
}
