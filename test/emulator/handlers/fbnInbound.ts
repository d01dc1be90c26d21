/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The FBN inbound (ASN) endpoints of `/inbound`: every one requires the `X-Project` header with
 * the session's project (endpoint.ts `projectHeader`, checked by server.ts). Field rules (required
 * fields, enums, the 1000-item caps, page sizes) are in the entries; the handlers keep the ASN's
 * life (state/fbnInbound.ts):
 * - create answers the ASN made before for the same exref_nr and shipment_type;
 * - items change only while Created, and each SKU must be eligible for FBN in the ASN's country
 *   (else the whole request is refused, nothing changed); deleting a SKU the ASN lacks is no error;
 * - seal needs Created and an item; cancel from Created, Sealed or Scheduled; reschedule from
 *   Scheduled (back to Sealed, its slot freed); metadata while Created, Sealed or Scheduled;
 * - slots and schedule need Sealed; a schedule must name a free slot of an eligible warehouse;
 * - lists page with `page_size` (default and maximum per list) and `next_token`: the ASN and
 *   catalog lists answer "" on their last page, the item list leaves the token out.
 */
import type { Endpoint, EndpointContext, HandledEndpoint } from '../endpoint';
import { ApiError, invalidArgument } from '../errors';
import { s, type Format } from '../schema';
import {
	ASN_STATUSES,
	FBN_WAREHOUSES,
	STORAGE_TYPES,
	type Asn,
	type AsnItem,
	type TimeSlot,
} from '../state/fbnInbound';

export const FBN_PROJECT_HEADER = 'X-Project';
export const MAX_ASN_ITEMS_PER_REQUEST = 1000;
/** Default and maximum `page_size` of each list, as the reference documents them. */
export const FBN_PAGES = {
	shipments: { default: 50, max: 200 },
	items: { default: 1000, max: 1000 },
	catalog: { default: 100, max: 1000 },
} as const;

const pageSize =
	(max: number): Format<string> =>
	(value, path) =>
		/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= max
			? null
			: `${path} must be a whole number from 1 to ${max}, got ${JSON.stringify(value)}`;

const datePattern: Format<string> = (value, path) =>
	/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))
		? null
		: `${path} must be a date YYYY-MM-DD, got ${JSON.stringify(value)}`;
const timePattern: Format<string> = (value, path) =>
	/^([01]\d|2[0-3]):[0-5]\d$/.test(value)
		? null
		: `${path} must be a time HH:MM, got ${JSON.stringify(value)}`;

const listQuery = (max: number) => ({
	next_token: s.string(),
	page_size: s.string({ format: pageSize(max) }),
});
/**
 * The destination country: free text in the reference ("e.g. AE, SA"), written upper case there;
 * any two upper-case letters is accepted (a country without FBN warehouses here has no slots and
 * no eligible items unless a test adds some).
 */
const countryCode: Format<string> = (value, path) =>
	/^[A-Z]{2}$/.test(value)
		? null
		: `${path} must be a two-letter country code in upper case (e.g. AE, SA), got ${JSON.stringify(value)}`;
const COUNTRY = s.string({ required: true, format: countryCode });

/** An ASN's header as the API answers it. */
export function asnHeader(asn: Asn) {
	return {
		asn_nr: asn.asn_nr,
		exref_nr: asn.exref_nr,
		shipment_type: asn.shipment_type,
		status: asn.status,
		country_code: asn.country_code,
		dst_warehouse_code: asn.dst_warehouse_code,
		expected_qty: asn.items.reduce((sum, item) => sum + item.qty, 0),
		schedule_date: asn.schedule_date,
		schedule_slot: asn.schedule_slot ? { ...asn.schedule_slot } : null,
		delivery_type: 'DELIVERY_TYPE_DROP_OFF',
		qty_received: asn.qty_received,
		qty_putaway: asn.qty_putaway,
		total_sku_count: asn.items.length,
		created_at: asn.created_at,
		updated_at: asn.updated_at,
	};
}

const answer = (asn: Asn, now?: number) => {
	if (now !== undefined) asn.updated_at = new Date(now).toISOString();
	return { body: { shipment: asnHeader(asn) } };
};

/** One page of `entries` from the query's token and page size. */
function page<T>(
	entries: T[],
	query: Record<string, string>,
	size: { default: number },
): { entries: T[]; next: string | undefined } {
	let from = 0;
	if (query.next_token !== undefined) {
		const match = /^page-(\d+)$/.exec(query.next_token);
		if (!match)
			throw invalidArgument(
				`next_token ${JSON.stringify(query.next_token)} is not a token of this list`,
			);
		from = Number(match[1]);
	}
	const count = query.page_size === undefined ? size.default : Number(query.page_size);
	const end = from + count;
	return {
		entries: entries.slice(from, end),
		next: end < entries.length ? `page-${end}` : undefined,
	};
}

function createShipment({ state, body, projectCode, now }: EndpointContext) {
	const { exref_nr, shipment_type, country_code } = body;
	const before = state.fbn.findByReference(projectCode, exref_nr, shipment_type);
	if (before) return answer(before);
	return answer(state.fbn.create(projectCode, exref_nr, shipment_type, country_code, now));
}

function listShipments({ state, query, projectCode }: EndpointContext) {
	const status = query['filter.status'];
	const all = state.fbn
		.list(projectCode)
		.filter((asn) => asn.country_code === query.country_code)
		.filter((asn) => !status || status === 'ASN_STATUS_UNSPECIFIED' || asn.status === status);
	const { entries, next } = page(all, query, FBN_PAGES.shipments);
	return {
		body: { shipments: entries.map(asnHeader), next_token: next ?? '', total_count: all.length },
	};
}

const CHANGEABLE = ['ASN_STATUS_CREATED', 'ASN_STATUS_SEALED', 'ASN_STATUS_SCHEDULED'] as const;

function updateShipment({ state, params, body, projectCode, now }: EndpointContext) {
	const asn = state.fbn.getIn(projectCode, params.asn_nr, [...CHANGEABLE], 'a metadata update');
	asn.misc = structuredClone(body.misc);
	return answer(asn, now);
}

function updateStatus({ state, params, body, projectCode, now }: EndpointContext) {
	const { fbn } = state;
	if (body.action === 'STATUS_ACTION_SEAL') {
		const asn = fbn.getIn(projectCode, params.asn_nr, ['ASN_STATUS_CREATED'], 'sealing');
		if (asn.items.length === 0)
			throw new ApiError(
				'FAILED_PRECONDITION',
				`ASN ${asn.asn_nr} has no items: add some before sealing`,
			);
		asn.status = 'ASN_STATUS_SEALED';
		return answer(asn, now);
	}
	if (body.action === 'STATUS_ACTION_CANCEL') {
		const asn = fbn.getIn(projectCode, params.asn_nr, [...CHANGEABLE], 'cancelling');
		asn.status = 'ASN_STATUS_CANCELED';
		return answer(asn, now);
	}
	const asn = fbn.getIn(projectCode, params.asn_nr, ['ASN_STATUS_SCHEDULED'], 'rescheduling');
	Object.assign(asn, {
		status: 'ASN_STATUS_SEALED',
		dst_warehouse_code: null,
		schedule_date: null,
		schedule_slot: null,
	});
	return answer(asn, now);
}

function listItems({ state, params, query, projectCode }: EndpointContext) {
	const asn = state.fbn.get(projectCode, params.asn_nr);
	const { entries, next } = page(asn.items, query, FBN_PAGES.items);
	const items = entries.map((item) => {
		const known = state.fbn.eligible(projectCode, item.partner_sku, asn.country_code);
		return {
			partner_sku: item.partner_sku,
			sku: known?.sku ?? '',
			title: known?.title ?? '',
			qty: item.qty,
			storage_type: item.storage_type,
			image_url: known?.image_url ?? '',
		};
	});
	const body: Record<string, unknown> = { items, total_sku_count: asn.items.length };
	if (next !== undefined) body.next_token = next;
	return { body };
}

function upsertItems({ state, params, body, projectCode, now }: EndpointContext) {
	const asn = state.fbn.getIn(projectCode, params.asn_nr, ['ASN_STATUS_CREATED'], 'an item change');
	const seen = new Set<string>();
	const rows = body.items as AsnItem[];
	for (const [i, row] of rows.entries()) {
		if (seen.has(row.partner_sku))
			throw invalidArgument(
				`items[${i}].partner_sku ${JSON.stringify(row.partner_sku)} is listed twice`,
			);
		seen.add(row.partner_sku);
		const known = state.fbn.eligible(projectCode, row.partner_sku, asn.country_code);
		if (!known) {
			throw new ApiError(
				'FAILED_PRECONDITION',
				`items[${i}].partner_sku ${JSON.stringify(row.partner_sku)} is not eligible for FBN in ${asn.country_code}`,
			);
		}
	}
	for (const row of rows) {
		const known = state.fbn.eligible(projectCode, row.partner_sku, asn.country_code)!;
		const storage_type =
			row.storage_type === 'STORAGE_TYPE_UNSPECIFIED' ? known.storage_type : row.storage_type;
		const item = { partner_sku: row.partner_sku, qty: row.qty, storage_type };
		const at = asn.items.findIndex((entry) => entry.partner_sku === row.partner_sku);
		if (at === -1) asn.items.push(item);
		else asn.items[at] = item;
	}
	return answer(asn, now);
}

function deleteItems({ state, params, body, projectCode, now }: EndpointContext) {
	const asn = state.fbn.getIn(projectCode, params.asn_nr, ['ASN_STATUS_CREATED'], 'an item change');
	const gone = new Set(body.partner_skus as string[]);
	asn.items = asn.items.filter((item) => !gone.has(item.partner_sku));
	return answer(asn, now);
}

function slotAvailability({ state, params, projectCode, now }: EndpointContext) {
	const asn = state.fbn.getIn(
		projectCode,
		params.asn_nr,
		['ASN_STATUS_SEALED'],
		'slot availability',
	);
	return { body: { warehouses: state.fbn.freeSlots(projectCode, asn.country_code, now) } };
}

function scheduleShipment({ state, params, body, projectCode, now }: EndpointContext) {
	const asn = state.fbn.getIn(projectCode, params.asn_nr, ['ASN_STATUS_SEALED'], 'scheduling');
	const slot = body.schedule_slot as TimeSlot;
	const code = body.dst_warehouse_code as string;
	const known = FBN_WAREHOUSES.find((wh) => wh.warehouse_code === code);
	if (!known || known.country_code !== asn.country_code)
		throw new ApiError(
			'FAILED_PRECONDITION',
			`warehouse ${JSON.stringify(code)} is not eligible for ASN ${asn.asn_nr}`,
		);
	const free = state.fbn
		.freeSlots(projectCode, asn.country_code, now)
		.find((entry) => entry.warehouse.warehouse_code === code)
		?.days.find((entry) => entry.date === body.schedule_date)
		?.slots.some((entry) => entry.start === slot.start && entry.end === slot.end);
	if (!free) {
		throw new ApiError(
			'FAILED_PRECONDITION',
			`the slot ${body.schedule_date} ${slot.start}-${slot.end} at ${code} is not available (taken, past or never offered)`,
		);
	}
	Object.assign(asn, {
		status: 'ASN_STATUS_SCHEDULED',
		dst_warehouse_code: code,
		schedule_date: body.schedule_date,
		schedule_slot: { start: slot.start, end: slot.end },
	});
	return answer(asn, now);
}

function listEligible({ state, query, projectCode }: EndpointContext) {
	const search = (query['search.partner_sku'] ?? '').toLowerCase();
	const all = state.fbn
		.catalog(projectCode)
		.filter((item) => item.countries.includes(query.country_code))
		.filter((item) => item.partner_sku.toLowerCase().includes(search));
	const { entries, next } = page(all, query, FBN_PAGES.catalog);
	const items = entries.map(({ countries: _countries, ...item }) => ({ ...item }));
	return { body: { items, next_token: next ?? '', total_count: all.length } };
}

const ITEMS_CAP = { minItems: 1, maxItems: MAX_ASN_ITEMS_PER_REQUEST, required: true };
/** An entry of the `/inbound/v1` service: its path under the prefix, X-Project required. */
const inbound = (entry: HandledEndpoint): HandledEndpoint => ({
	...entry,
	path: `/inbound/v1${entry.path}`,
	projectHeader: FBN_PROJECT_HEADER,
});

export const FBN_INBOUND_ENDPOINTS: readonly Endpoint[] = [
	inbound({
		operation: 'AsnService_CreateShipment',
		method: 'POST',
		path: '/shipment/create',
		body: {
			shipment_type: s.string({ required: true, enum: ['SHIPMENT_TYPE_FBN_GLOBAL'] }),
			exref_nr: s.string({ required: true }),
			country_code: COUNTRY,
		},
		handler: createShipment,
	}),
	inbound({
		operation: 'AsnService_ListShipments',
		method: 'GET',
		path: '/shipment/list',
		query: {
			country_code: COUNTRY,
			'filter.status': s.string({ enum: ASN_STATUSES }),
			...listQuery(FBN_PAGES.shipments.max),
		},
		handler: listShipments,
	}),
	inbound({
		operation: 'AsnService_GetShipment',
		method: 'GET',
		path: '/shipment/{asn_nr}',
		handler: ({ state, params, projectCode }) => answer(state.fbn.get(projectCode, params.asn_nr)),
	}),
	inbound({
		operation: 'AsnService_UpdateShipment',
		method: 'PUT',
		path: '/shipment/{asn_nr}',
		body: { misc: s.map(() => null, { required: true }) },
		handler: updateShipment,
	}),
	inbound({
		operation: 'AsnService_UpdateShipmentStatus',
		method: 'PUT',
		path: '/shipment/{asn_nr}/status',
		body: {
			action: s.string({
				required: true,
				enum: ['STATUS_ACTION_SEAL', 'STATUS_ACTION_CANCEL', 'STATUS_ACTION_RESCHEDULE'],
			}),
		},
		handler: updateStatus,
	}),
	inbound({
		operation: 'AsnService_ListShipmentItems',
		method: 'GET',
		path: '/shipment/{asn_nr}/items',
		query: listQuery(FBN_PAGES.items.max),
		handler: listItems,
	}),
	inbound({
		operation: 'AsnService_UpdateShipmentItems',
		method: 'PUT',
		path: '/shipment/{asn_nr}/items',
		body: {
			items: s.array(
				s.object({
					partner_sku: s.string({ required: true }),
					qty: s.integer({ required: true, minimum: 1, maximum: 2_147_483_647 }),
					storage_type: s.string({ required: true, enum: STORAGE_TYPES }),
				}),
				{ ...ITEMS_CAP, noun: 'item' },
			),
		},
		handler: upsertItems,
	}),
	inbound({
		operation: 'AsnService_DeleteShipmentItems',
		method: 'POST',
		path: '/shipment/{asn_nr}/items/delete',
		body: {
			partner_skus: s.array(s.string({ required: true }), { ...ITEMS_CAP, noun: 'partner SKU' }),
		},
		handler: deleteItems,
	}),
	inbound({
		operation: 'AsnService_GetSlotAvailability',
		method: 'GET',
		path: '/shipment/{asn_nr}/schedule/slot_availability',
		handler: slotAvailability,
	}),
	inbound({
		operation: 'AsnService_ScheduleShipment',
		method: 'POST',
		path: '/shipment/{asn_nr}/schedule',
		body: {
			dst_warehouse_code: s.string({ required: true }),
			schedule_date: s.string({ required: true, format: datePattern }),
			schedule_slot: s.object(
				{
					start: s.string({ required: true, format: timePattern }),
					end: s.string({ required: true, format: timePattern }),
				},
				{ required: true },
			),
		},
		handler: scheduleShipment,
	}),
	inbound({
		operation: 'AsnService_ListEligibleItems',
		method: 'GET',
		path: '/catalog/items',
		query: {
			country_code: COUNTRY,
			'search.partner_sku': s.string(),
			...listQuery(FBN_PAGES.catalog.max),
		},
		handler: listEligible,
	}),
];
