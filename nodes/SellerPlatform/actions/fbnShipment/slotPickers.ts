/**
 * The pickers of FBN Shipment → Schedule: Destination Warehouse Code, Schedule Date, Slot Start and
 * Slot End as resource locators whose lists are what Get Slots answers for the ASN chosen in the
 * node (AsnService_GetSlotAvailability), each narrowed by the values chosen above it (warehouse →
 * date → start → end). No ASN chosen yet, or one given by an expression (known only in a run):
 * an empty list, nothing asked. A value typed or mapped by expression is taken as it is; a plain
 * string saved before these were locators reads as before.
 */
import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';

import { apiRequest, locatorProperty } from '../../../shared';
import { slotsOf, warehouseNames, type Slot } from './slots';

/** The node's list-search methods (SellerPlatform.node.ts `methods`), by picker. */
export const SLOT_SEARCH_METHODS = {
	dstWarehouseCode: 'searchScheduleWarehouses',
	scheduleDate: 'searchScheduleDates',
	slotStart: 'searchSlotStarts',
	slotEnd: 'searchSlotEnds',
} as const;

/** The pickers in the order they narrow each other: each list depends on the ASN and those above. */
const CHAIN = ['dstWarehouseCode', 'scheduleDate', 'slotStart', 'slotEnd'] as const;
type Picker = (typeof CHAIN)[number];

/** A picker of Schedule: its list depends on the ASN and the pickers above it. */
export function slotPickerProperty(
	picker: Picker,
	text: { displayName: string; description: string; example: string; typedLabel: string },
): INodeProperties {
	const above = CHAIN.slice(0, CHAIN.indexOf(picker));
	return locatorProperty({
		...text,
		name: picker,
		searchListMethod: SLOT_SEARCH_METHODS[picker],
		searchable: false,
		dependsOn: ['asnNr.value', ...above.map((name) => `${name}.value`)],
	});
}

/**
 * A parameter's value as the editor holds it now, or '' when unset or an expression (its value is
 * known only in a run). n8n's `extractValue` finds the parameter among those shown; when it is not
 * shown (another operation) nothing is chosen.
 */
function chosen(ctx: ILoadOptionsFunctions, name: string): string {
	let value: unknown;
	try {
		value = ctx.getCurrentNodeParameter(name, { extractValue: true });
	} catch {
		return '';
	}
	if (typeof value !== 'string' || value.startsWith('=')) return '';
	return value.trim();
}

const FIELD: Record<Exclude<Picker, 'slotEnd'>, (slot: Slot) => string> = {
	dstWarehouseCode: (slot) => slot.dst_warehouse_code,
	scheduleDate: (slot) => slot.schedule_date,
	slotStart: (slot) => slot.schedule_slot.start,
};

/** The free slots of the chosen ASN that match the pickers above `picker`, and the names. */
async function slotsAbove(ctx: ILoadOptionsFunctions, picker: Picker) {
	const asn = chosen(ctx, 'asnNr');
	if (!asn) return { slots: [] as Slot[], names: new Map<string, string>() };
	const answer = await apiRequest.call(ctx, 'AsnService_GetSlotAvailability', {
		pathParams: { asn_nr: asn },
	});
	let slots = slotsOf(answer);
	for (const name of CHAIN.slice(0, CHAIN.indexOf(picker)) as Array<keyof typeof FIELD>) {
		const value = chosen(ctx, name);
		if (value) slots = slots.filter((slot) => FIELD[name](slot) === value);
	}
	return { slots, names: warehouseNames(answer) };
}

/** One entry per distinct value, in the slots' order (date, start, warehouse). */
function distinct(slots: Slot[], entry: (slot: Slot) => INodeListSearchItems) {
	const seen = new Map<string, INodeListSearchItems>();
	for (const slot of slots) {
		const item = entry(slot);
		if (!seen.has(String(item.value))) seen.set(String(item.value), item);
	}
	return { results: [...seen.values()] };
}

const endOf = (slot: Slot) => slot.schedule_slot.end;
const span = (slot: Slot) => `${slot.schedule_slot.start}–${slot.schedule_slot.end}`;
const count = (slots: Slot[], keep: (slot: Slot) => boolean) => {
	const n = slots.filter(keep).length;
	return `${n} free slot${n === 1 ? '' : 's'}`;
};

/** The warehouses Get Slots offers the ASN, by name and code, with their earliest free slot. */
export async function searchScheduleWarehouses(
	this: ILoadOptionsFunctions,
): Promise<INodeListSearchResult> {
	const { slots, names } = await slotsAbove(this, 'dstWarehouseCode');
	return distinct(slots, (slot) => {
		const code = slot.dst_warehouse_code;
		const name = names.get(code);
		return {
			name: name ? `${name} (${code})` : code,
			value: code,
			description: `Earliest free slot ${slot.schedule_date} ${span(slot)}`,
		};
	});
}

/** The days with a free slot (at the chosen warehouse, if one is chosen). */
export async function searchScheduleDates(
	this: ILoadOptionsFunctions,
): Promise<INodeListSearchResult> {
	const { slots } = await slotsAbove(this, 'scheduleDate');
	return distinct(slots, (slot) => ({
		name: slot.schedule_date,
		value: slot.schedule_date,
		description: count(slots, (other) => other.schedule_date === slot.schedule_date),
	}));
}

/** The free slots' starts (of the chosen warehouse and day, if chosen), each with its ends. */
export async function searchSlotStarts(
	this: ILoadOptionsFunctions,
): Promise<INodeListSearchResult> {
	const { slots } = await slotsAbove(this, 'slotStart');
	return distinct(slots, (slot) => {
		const start = slot.schedule_slot.start;
		const ends = new Set(slots.filter((o) => o.schedule_slot.start === start).map(endOf));
		return { name: start, value: start, description: `To ${[...ends].join(' or ')}` };
	});
}

/** The ends of the free slots that begin at the chosen start (and warehouse and day, if chosen). */
export async function searchSlotEnds(this: ILoadOptionsFunctions): Promise<INodeListSearchResult> {
	const { slots } = await slotsAbove(this, 'slotEnd');
	return distinct(slots, (slot) => ({
		name: slot.schedule_slot.end,
		value: slot.schedule_slot.end,
		description: span(slot),
	}));
}
