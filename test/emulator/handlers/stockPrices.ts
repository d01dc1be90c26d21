/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The batch endpoints of stock and prices: each request carries rows (`items`), and the answer
 * has one row per request row, each with its own status (rpcStatus): a row that fails does not
 * fail the others. Field rules (required fields, types, the country enum, the cap) are in the
 * table entries below; the handlers answer row by row:
 * - an unknown warehouse: that row NOT_FOUND;
 * - a read of a SKU with no stock (GetStock) or no price (BatchGetPricing): that row NOT_FOUND;
 * - a negative quantity, price or MSRP, or a write that sets nothing: that row INVALID_ARGUMENT;
 * - an update of a new SKU creates it (quantity 0 unless given).
 * Row faults a test queued (state/stockPrices.ts) apply last.
 */
import type { ApiResult, Endpoint, EndpointContext } from '../endpoint';
import { s } from '../schema';
import { OK_STATUS, rowStatus, type BatchOperation, type BatchRow } from '../state/stockPrices';

/**
 * Rows per request. The reference states no cap; the emulator enforces the package's (100), so a
 * packing mistake shows up as a 400 in the tests.
 */
export const MAX_BATCH_ROWS = 100;
export const PRICE_COUNTRIES = ['ae', 'sa', 'eg'] as const;

const INT32 = { minimum: -2_147_483_648, maximum: 2_147_483_647 };
const rows = (fields: Parameters<typeof s.object>[0]) =>
	s.array(s.object(fields), {
		required: true,
		minItems: 1,
		noun: 'row',
		maxItems: MAX_BATCH_ROWS,
	});

interface StockRow {
	warehouse_code: string;
	partner_sku: string;
	qty?: number;
	processing_time?: string;
}

interface PriceRow {
	partner_sku: string;
	country_code: string;
	price?: number;
	msrp?: number;
	is_active?: boolean;
}

export type RowAnswer = (row: any) => BatchRow;

/** Answers each row (or its injected fault), then reshapes the answer as the faults say. */
export function answerRows(
	{ state }: EndpointContext,
	operation: BatchOperation,
	request: BatchRow[],
	answer: RowAnswer,
	keyOnly: (row: any) => BatchRow,
): ApiResult {
	const answered = request.map((row) => {
		const fault = state.stockPrices.faultStatus(operation, row);
		return fault ? { ...keyOnly(row), status: fault } : answer(row);
	});
	const items = state.stockPrices.reshape(operation, request, answered, (n) => ({
		...keyOnly(request[0]),
		partner_sku: `NOT-ASKED-${n}`,
		status: OK_STATUS,
	}));
	return { body: { items } };
}

const stockKeyOf = (row: StockRow) => ({
	warehouse_code: row.warehouse_code,
	partner_sku: row.partner_sku,
});
const priceKeyOf = (row: PriceRow) => ({
	partner_sku: row.partner_sku,
	country_code: row.country_code,
});

function unknownWarehouse(ctx: EndpointContext, row: StockRow) {
	if (ctx.state.fbpi.warehouse(ctx.projectCode, row.warehouse_code)) return undefined;
	return rowStatus(
		'NOT_FOUND',
		`warehouse_code ${JSON.stringify(row.warehouse_code)} not found in project ${ctx.projectCode}`,
	);
}

function getStock(ctx: EndpointContext<{ items: StockRow[] }>): ApiResult {
	return answerRows(
		ctx,
		'GetStock',
		ctx.body.items as unknown as BatchRow[],
		(row: StockRow) => {
			const missing = unknownWarehouse(ctx, row);
			if (missing) return { ...stockKeyOf(row), status: missing, qty: 0 };
			const stock = ctx.state.stockPrices.getStock(
				ctx.projectCode,
				row.warehouse_code,
				row.partner_sku,
			);
			if (!stock) {
				const message = `no stock recorded for partner_sku ${JSON.stringify(row.partner_sku)} in warehouse ${row.warehouse_code}`;
				return { ...stockKeyOf(row), status: rowStatus('NOT_FOUND', message), qty: 0 };
			}
			return { ...stock, status: OK_STATUS };
		},
		stockKeyOf,
	);
}

function updateStock(ctx: EndpointContext<{ items: StockRow[] }>): ApiResult {
	return answerRows(
		ctx,
		'UpdateStock',
		ctx.body.items as unknown as BatchRow[],
		(row: StockRow) => {
			const missing = unknownWarehouse(ctx, row);
			if (missing) return { ...stockKeyOf(row), status: missing };
			if (row.qty === undefined && row.processing_time === undefined) {
				const status = rowStatus(
					'INVALID_ARGUMENT',
					'nothing to update: give qty or processing_time',
				);
				return { ...stockKeyOf(row), status };
			}
			if (row.qty !== undefined && row.qty < 0) {
				const status = rowStatus('INVALID_ARGUMENT', `qty must not be negative, got ${row.qty}`);
				return { ...stockKeyOf(row), status };
			}
			ctx.state.stockPrices.putStock(ctx.projectCode, row, ctx.now);
			return { ...stockKeyOf(row), status: OK_STATUS };
		},
		stockKeyOf,
	);
}

function getPricing(ctx: EndpointContext<{ items: PriceRow[] }>): ApiResult {
	return answerRows(
		ctx,
		'BatchGetPricing',
		ctx.body.items as unknown as BatchRow[],
		(row: PriceRow) => {
			const found = ctx.state.stockPrices.getPrice(
				ctx.projectCode,
				row.partner_sku,
				row.country_code,
			);
			if (!found) {
				const message = `no pricing for partner_sku ${JSON.stringify(row.partner_sku)} in ${row.country_code}`;
				return { ...priceKeyOf(row), status: rowStatus('NOT_FOUND', message) };
			}
			const { updated_at: _updated, ...pricing } = found;
			return { ...pricing, status: OK_STATUS };
		},
		priceKeyOf,
	);
}

function upsertPricing(ctx: EndpointContext<{ items: PriceRow[] }>): ApiResult {
	return answerRows(
		ctx,
		'BatchUpsertPricing',
		ctx.body.items as unknown as BatchRow[],
		(row: PriceRow) => {
			const negative = (['price', 'msrp'] as const).find((field) => (row[field] ?? 0) < 0);
			if (negative) {
				const status = rowStatus('INVALID_ARGUMENT', `${negative} must not be negative`);
				return { ...priceKeyOf(row), status };
			}
			if (row.price === undefined && row.msrp === undefined && row.is_active === undefined) {
				const status = rowStatus(
					'INVALID_ARGUMENT',
					'nothing to update: give price, msrp or is_active',
				);
				return { ...priceKeyOf(row), status };
			}
			ctx.state.stockPrices.putPrice(ctx.projectCode, row, ctx.now);
			return { ...priceKeyOf(row), status: OK_STATUS };
		},
		priceKeyOf,
	);
}

const stockKey = {
	warehouse_code: s.string({ required: true }),
	partner_sku: s.string({ required: true }),
};
const priceKey = {
	partner_sku: s.string({ required: true }),
	country_code: s.string({ required: true, enum: PRICE_COUNTRIES }),
};

/** The four entries of the endpoint table (endpoints.ts). */
export const STOCK_PRICE_ENDPOINTS: readonly Endpoint[] = [
	{
		operation: 'GetStock',
		method: 'POST',
		path: '/stock/v1/stock-list',
		body: { items: rows(stockKey) },
		handler: getStock,
	},
	{
		operation: 'UpdateStock',
		method: 'POST',
		path: '/stock/v1/stock-update',
		body: {
			items: rows({ ...stockKey, qty: s.integer(INT32), processing_time: s.string() }),
		},
		handler: updateStock,
	},
	{
		operation: 'BatchGetPricing',
		method: 'POST',
		path: '/pricing/v1/pricing/get',
		body: { items: rows(priceKey) },
		handler: getPricing,
	},
	{
		operation: 'BatchUpsertPricing',
		method: 'POST',
		path: '/pricing/v1/pricing/upsert',
		body: {
			items: rows({ ...priceKey, price: s.number(), msrp: s.number(), is_active: s.boolean() }),
		},
		handler: upsertPricing,
	},
];
