/**
 * The batch endpoints of Namshi's customer returns and prices and of cross-border pricing (issue
 * 29). Each request carries rows (`items`; customer returns: `order_nrs`), and each answer row
 * names its key. The field rules (required fields, types, caps) are in the table entries below;
 * the handlers answer row by row:
 * - the upserts: a negative amount or weight, or a price row that sets nothing: that row
 *   INVALID_ARGUMENT; a new key is created;
 * - BatchGetTransferPrice: a SKU with no transfer price: that row NOT_FOUND;
 * - BatchGetCustomerReturnOrders: one answer row per returned item of each order asked (seed.ts),
 *   none for an order with no return, and no row status (`status` is the return's own state).
 * Row faults a test queued (state/stockPrices.ts) apply last.
 */
import type { ApiResult, Endpoint, EndpointContext } from '../endpoint';
import { s } from '../schema';
import { customerReturnsOf } from '../seed';
import type { CrossBorderKind } from '../state/crossBorder';
import { OK_STATUS, rowStatus, type BatchOperation, type BatchRow } from '../state/stockPrices';
import { answerRows, MAX_BATCH_ROWS } from './stockPrices';

/**
 * Rows per request of the transfer price endpoints: the reference caps the read at 1000 items,
 * and the package sends the write in requests of the same size. The other endpoints state no cap;
 * the emulator enforces the package's (100, MAX_BATCH_ROWS), so a packing mistake is a 400.
 */
export const MAX_TRANSFER_PRICE_ROWS = 1000;

const rowsOf = (fields: Parameters<typeof s.object>[0], maxItems = MAX_BATCH_ROWS) =>
	s.array(s.object(fields), { required: true, minItems: 1, noun: 'row', maxItems });

const pick = (row: BatchRow, fields: readonly string[]) =>
	Object.fromEntries(fields.filter((field) => field in row).map((field) => [field, row[field]]));

interface Upsert {
	operation: BatchOperation;
	kind: CrossBorderKind;
	key: readonly string[];
	/** Fields that must not be negative. */
	amounts: readonly string[];
	/** Fields of which a row must set one (none: the key alone is a valid row). */
	setsOneOf?: readonly string[];
}

/** An upsert answered row by row: its key and status (OK, or why the row was refused). */
function upsert(ctx: EndpointContext<{ items: BatchRow[] }>, spec: Upsert): ApiResult {
	const keyOnly = (row: BatchRow) => pick(row, spec.key);
	return answerRows(
		ctx,
		spec.operation,
		ctx.body.items,
		(row: BatchRow) => {
			const negative = spec.amounts.find((field) => ((row[field] as number) ?? 0) < 0);
			if (negative) {
				const status = rowStatus('INVALID_ARGUMENT', `${negative} must not be negative`);
				return { ...keyOnly(row), status };
			}
			if (spec.setsOneOf && !spec.setsOneOf.some((field) => row[field] !== undefined)) {
				const message = `nothing to update: give ${spec.setsOneOf.join(' or ')}`;
				return { ...keyOnly(row), status: rowStatus('INVALID_ARGUMENT', message) };
			}
			ctx.state.crossBorder.put(ctx.projectCode, spec.kind, row as never);
			return { ...keyOnly(row), status: OK_STATUS };
		},
		keyOnly,
	);
}

function getTransferPrice(ctx: EndpointContext<{ items: BatchRow[] }>): ApiResult {
	const keyOnly = (row: BatchRow) => pick(row, ['partner_sku']);
	return answerRows(
		ctx,
		'BatchGetTransferPrice',
		ctx.body.items,
		(row: BatchRow) => {
			const found = ctx.state.crossBorder.get(ctx.projectCode, 'transfer', row);
			if (!found) {
				const message = `no transfer price for partner_sku ${JSON.stringify(row.partner_sku)}`;
				return { ...keyOnly(row), status: rowStatus('NOT_FOUND', message) };
			}
			return { ...found, status: OK_STATUS };
		},
		keyOnly,
	);
}

/** Every returned item of the orders asked, in the order asked; an order twice is answered once. */
function getCustomerReturns({ state, body }: EndpointContext<{ order_nrs: string[] }>): ApiResult {
	const answer: BatchRow[] = [...new Set(body.order_nrs)].flatMap(
		(orderNr) => customerReturnsOf(orderNr) as unknown as BatchRow[],
	);
	// The row faults match answer rows by their order number (the answer has no row per request).
	const items = state.stockPrices.reshape('BatchGetCustomerReturnOrders', answer, answer, (n) => ({
		...customerReturnsOf(`RET-BULK-${n}`)[0],
		order_nr: `NOT-ASKED-${n}`,
	}));
	return { body: { items } };
}

const amount = () => s.number();
const sku = { partner_sku: s.string({ required: true }) };

/** The six entries of the endpoint table (endpoints.ts). */
export const CROSS_BORDER_ENDPOINTS: readonly Endpoint[] = [
	{
		operation: 'BatchGetCustomerReturnOrders',
		method: 'POST',
		path: '/customer-returns/v1/order/returns',
		body: {
			order_nrs: s.array(s.string({ required: true }), {
				required: true,
				minItems: 1,
				noun: 'order number',
				maxItems: MAX_BATCH_ROWS,
			}),
		},
		handler: getCustomerReturns,
	},
	{
		operation: 'BatchUpsertGlobalPricing',
		method: 'POST',
		path: '/pricing/v1/global/upsert',
		body: {
			items: rowsOf({
				...sku,
				source_country_code: s.string({ required: true }),
				destination_country_code: s.string({ required: true }),
				price: amount(),
				msrp: amount(),
			}),
		},
		handler: (ctx) =>
			upsert(ctx, {
				operation: 'BatchUpsertGlobalPricing',
				kind: 'global',
				key: ['partner_sku', 'source_country_code', 'destination_country_code'],
				amounts: ['price', 'msrp'],
				setsOneOf: ['price', 'msrp'],
			}),
	},
	{
		operation: 'BatchUpsertLocalPricing',
		method: 'POST',
		path: '/pricing/v1/local/upsert',
		body: {
			items: rowsOf({
				...sku,
				country_code: s.string({ required: true }),
				price: amount(),
				msrp: amount(),
			}),
		},
		handler: (ctx) =>
			upsert(ctx, {
				operation: 'BatchUpsertLocalPricing',
				kind: 'local',
				key: ['partner_sku', 'country_code'],
				amounts: ['price', 'msrp'],
				setsOneOf: ['price', 'msrp'],
			}),
	},
	{
		operation: 'BatchUpsertProduct',
		method: 'POST',
		path: '/xborder-pricing/v1/product/upsert',
		body: {
			items: rowsOf({
				...sku,
				dimensions_cm: s.object({
					length: s.number({ required: true }),
					width: s.number({ required: true }),
					height: s.number({ required: true }),
				}),
				vm_weight_cm: amount(),
				actual_weight_kg: amount(),
				hs_code: s.string(),
			}),
		},
		handler: (ctx) =>
			upsert(ctx, {
				operation: 'BatchUpsertProduct',
				kind: 'products',
				key: ['partner_sku'],
				amounts: ['vm_weight_cm', 'actual_weight_kg'],
			}),
	},
	{
		operation: 'BatchUpsertTransferPrice',
		method: 'POST',
		path: '/xborder-pricing/v1/transfer-price/upsert',
		body: {
			items: rowsOf(
				{ ...sku, transfer_price_usd: amount(), msrp_usd: amount(), is_active: s.boolean() },
				MAX_TRANSFER_PRICE_ROWS,
			),
		},
		handler: (ctx) =>
			upsert(ctx, {
				operation: 'BatchUpsertTransferPrice',
				kind: 'transfer',
				key: ['partner_sku'],
				amounts: ['transfer_price_usd', 'msrp_usd'],
				setsOneOf: ['transfer_price_usd', 'msrp_usd', 'is_active'],
			}),
	},
	{
		operation: 'BatchGetTransferPrice',
		method: 'POST',
		path: '/xborder-pricing/v1/transfer-price/get',
		body: { items: rowsOf(sku, MAX_TRANSFER_PRICE_ROWS) },
		handler: getTransferPrice,
	},
];
