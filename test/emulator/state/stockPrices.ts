/**
 * Stock (per project, warehouse and partner SKU) and prices (per project, partner SKU and
 * country), as the batch endpoints GetStock, UpdateStock, BatchGetPricing and BatchUpsertPricing
 * read and write them, plus the row faults tests queue: rows answered with a failure status, rows
 * left out of an answer, answers in reverse order, answer rows that match no row sent. The row
 * faults also serve the batch endpoints of customer returns, Namshi and cross-border prices
 * (handlers/crossBorder.ts).
 */
import { GRPC_CODES, invalidArgument, type GrpcCode } from '../errors';

export type BatchOperation =
	| 'GetStock'
	| 'UpdateStock'
	| 'BatchGetPricing'
	| 'BatchUpsertPricing'
	// Customer returns, Namshi and cross-border prices (handlers/crossBorder.ts).
	| 'BatchGetCustomerReturnOrders'
	| 'BatchUpsertGlobalPricing'
	| 'BatchUpsertLocalPricing'
	| 'BatchUpsertProduct'
	| 'BatchGetTransferPrice'
	| 'BatchUpsertTransferPrice';
export const BATCH_OPERATIONS: readonly BatchOperation[] = [
	'GetStock',
	'UpdateStock',
	'BatchGetPricing',
	'BatchUpsertPricing',
	// Customer returns, Namshi and cross-border prices.
	'BatchGetCustomerReturnOrders',
	'BatchUpsertGlobalPricing',
	'BatchUpsertLocalPricing',
	'BatchUpsertProduct',
	'BatchGetTransferPrice',
	'BatchUpsertTransferPrice',
];

/** Answers whose rows carry no status: a row cannot be failed, only left out. */
const NO_ROW_STATUS: readonly BatchOperation[] = ['BatchGetCustomerReturnOrders'];

export interface StockRecord {
	warehouse_code: string;
	partner_sku: string;
	qty: number;
	processing_time?: string;
	/** ISO 8601. */
	stock_updated_at: string;
}

export interface PriceRecord {
	partner_sku: string;
	country_code: string;
	price?: number;
	msrp?: number;
	is_active?: boolean;
	/** ISO 8601 (kept by the emulator; the API does not answer it). */
	updated_at: string;
}

/** A row of a request or an answer. */
export type BatchRow = Record<string, unknown>;

/** A request row matches when each field given here equals the row's (`{ partner_sku: 'A' }`). */
export type RowMatch = Record<string, string>;

/**
 * Faults of the batch endpoints' answers, for the next requests of `operation` until cleared
 * (`clearRowFaults`). Several specs add up.
 */
export interface RowFaultSpec {
	operation: BatchOperation;
	/** These rows are answered with a failure status (and, for writes, not applied). */
	fail?: RowMatch[];
	/** The failure status of `fail` rows; default FAILED_PRECONDITION. */
	failCode?: GrpcCode;
	failMessage?: string;
	/** These rows are left out of the answer (a write is applied all the same). */
	omit?: RowMatch[];
	/** The answer lists its rows in reverse order. */
	reverse?: boolean;
	/** The answer adds this many rows that match no row of the request. */
	extraRows?: number;
}

export const OK_STATUS = { status_id: 0, status_code: 'OK', message: '', details: [] };

export function rowStatus(code: GrpcCode, message: string) {
	return { status_id: GRPC_CODES[code].id, status_code: code, message, details: [] };
}

const stockKey = (warehouse: string, sku: string) => `${warehouse}\u0000${sku}`;
const priceKey = (sku: string, country: string) => `${sku}\u0000${country}`;
const matches = (row: BatchRow, match: RowMatch) =>
	Object.entries(match).every(([field, value]) => row[field] === value);

function checkSpec(spec: RowFaultSpec): RowFaultSpec {
	if (!spec || !BATCH_OPERATIONS.includes(spec.operation)) {
		throw invalidArgument(`operation must be one of ${BATCH_OPERATIONS.join(', ')}`);
	}
	for (const list of [spec.fail, spec.omit]) {
		if (
			list !== undefined &&
			(!Array.isArray(list) || list.some((m) => !m || typeof m !== 'object'))
		) {
			throw invalidArgument('fail and omit must be lists of row matches ({ field: value })');
		}
	}
	if (spec.fail?.length && NO_ROW_STATUS.includes(spec.operation)) {
		throw invalidArgument(`${spec.operation} answers no row status: use omit, not fail`);
	}
	if (spec.failCode !== undefined && !(spec.failCode in GRPC_CODES)) {
		throw invalidArgument(
			`failCode must be a gRPC code name, got ${JSON.stringify(spec.failCode)}`,
		);
	}
	const extra = spec.extraRows ?? 0;
	if (!Number.isInteger(extra) || extra < 0)
		throw invalidArgument('extraRows must be a whole number');
	return structuredClone(spec);
}

export class StockPriceStore {
	/** Stock by project, then `<warehouse>\0<sku>`. */
	private readonly stockByProject = new Map<string, Map<string, StockRecord>>();
	/** Prices by project, then `<sku>\0<country>`. */
	private readonly pricesByProject = new Map<string, Map<string, PriceRecord>>();
	private rowFaults: RowFaultSpec[] = [];

	private stockOf(projectCode: string): Map<string, StockRecord> {
		let map = this.stockByProject.get(projectCode);
		if (!map) this.stockByProject.set(projectCode, (map = new Map()));
		return map;
	}

	private pricesOf(projectCode: string): Map<string, PriceRecord> {
		let map = this.pricesByProject.get(projectCode);
		if (!map) this.pricesByProject.set(projectCode, (map = new Map()));
		return map;
	}

	getStock(projectCode: string, warehouse: string, sku: string): StockRecord | undefined {
		const record = this.stockOf(projectCode).get(stockKey(warehouse, sku));
		return record && { ...record };
	}

	/** Sets what the update gives (absent fields keep their value; a new row starts at 0). */
	putStock(
		projectCode: string,
		update: { warehouse_code: string; partner_sku: string; qty?: number; processing_time?: string },
		now: number,
	): StockRecord {
		const stock = this.stockOf(projectCode);
		const key = stockKey(update.warehouse_code, update.partner_sku);
		const previous = stock.get(key);
		const record: StockRecord = {
			warehouse_code: update.warehouse_code,
			partner_sku: update.partner_sku,
			qty: update.qty ?? previous?.qty ?? 0,
			stock_updated_at: new Date(now).toISOString(),
		};
		const time = update.processing_time ?? previous?.processing_time;
		if (time !== undefined) record.processing_time = time;
		stock.set(key, record);
		return { ...record };
	}

	getPrice(projectCode: string, sku: string, country: string): PriceRecord | undefined {
		const record = this.pricesOf(projectCode).get(priceKey(sku, country));
		return record && { ...record };
	}

	putPrice(
		projectCode: string,
		update: {
			partner_sku: string;
			country_code: string;
			price?: number;
			msrp?: number;
			is_active?: boolean;
		},
		now: number,
	): PriceRecord {
		const prices = this.pricesOf(projectCode);
		const key = priceKey(update.partner_sku, update.country_code);
		const record: PriceRecord = {
			...prices.get(key),
			...update,
			updated_at: new Date(now).toISOString(),
		};
		prices.set(key, record);
		return { ...record };
	}

	/** Every stock row of a project, in the order they were first set. */
	listStock(projectCode: string): StockRecord[] {
		return [...this.stockOf(projectCode).values()].map((record) => ({ ...record }));
	}

	listPrices(projectCode: string): PriceRecord[] {
		return [...this.pricesOf(projectCode).values()].map((record) => ({ ...record }));
	}

	addRowFaults(spec: RowFaultSpec): void {
		this.rowFaults.push(checkSpec(spec));
	}

	clearRowFaults(): void {
		this.rowFaults = [];
	}

	/** The failure status a fault gives this request row, if any. */
	faultStatus(operation: BatchOperation, row: BatchRow) {
		const spec = this.rowFaults.find(
			(s) => s.operation === operation && s.fail?.some((match) => matches(row, match)),
		);
		if (!spec) return undefined;
		return rowStatus(
			spec.failCode ?? 'FAILED_PRECONDITION',
			spec.failMessage ?? 'row refused (injected fault)',
		);
	}

	/** The answer's rows after the faults: rows left out, the order reversed, rows added. */
	reshape(
		operation: BatchOperation,
		request: BatchRow[],
		answer: BatchRow[],
		extraRow: (n: number) => BatchRow,
	) {
		const specs = this.rowFaults.filter((s) => s.operation === operation);
		let rows = answer.filter(
			(_, i) => !specs.some((s) => s.omit?.some((match) => matches(request[i], match))),
		);
		if (specs.some((s) => s.reverse)) rows = rows.reverse();
		const extra = specs.reduce((total, s) => total + (s.extraRows ?? 0), 0);
		for (let n = 1; n <= extra; n++) rows.push(extraRow(n));
		return rows;
	}
}
