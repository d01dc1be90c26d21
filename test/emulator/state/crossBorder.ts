/**
 * Namshi's global and local prices and the cross-border products and transfer prices, per project,
 * as the batch endpoints BatchUpsertGlobalPricing, BatchUpsertLocalPricing, BatchUpsertProduct,
 * BatchUpsertTransferPrice and BatchGetTransferPrice write and read them. Country codes are
 * compared without regard to case (the service answers them as sent). Customer returns are
 * seeded (seed.ts), the same in every project. Row faults are the stock and price ones
 * (state/stockPrices.ts).
 */

export interface GlobalPriceRecord {
	partner_sku: string;
	source_country_code: string;
	destination_country_code: string;
	price?: number;
	msrp?: number;
}

export interface LocalPriceRecord {
	partner_sku: string;
	country_code: string;
	price?: number;
	msrp?: number;
}

export interface CrossBorderProductRecord {
	partner_sku: string;
	dimensions_cm?: { length: number; width: number; height: number };
	vm_weight_cm?: number;
	actual_weight_kg?: number;
	hs_code?: string;
}

export interface TransferPriceRecord {
	partner_sku: string;
	transfer_price_usd?: number;
	msrp_usd?: number;
	is_active?: boolean;
}

/** The records of one project, each kind by its key. */
interface ProjectRecords {
	global: Map<string, GlobalPriceRecord>;
	local: Map<string, LocalPriceRecord>;
	products: Map<string, CrossBorderProductRecord>;
	transfer: Map<string, TransferPriceRecord>;
}

export type CrossBorderKind = keyof ProjectRecords;
export const CROSS_BORDER_KINDS: readonly CrossBorderKind[] = [
	'global',
	'local',
	'products',
	'transfer',
];

const keyOf = (...parts: string[]) => parts.join('\u0000');

/** The key of a record of `kind`: its SKU, and its countries in lower case. */
function recordKey(kind: CrossBorderKind, row: Record<string, unknown>): string {
	const country = (field: string) => String(row[field]).toLowerCase();
	const sku = String(row.partner_sku);
	if (kind === 'global')
		return keyOf(sku, country('source_country_code'), country('destination_country_code'));
	if (kind === 'local') return keyOf(sku, country('country_code'));
	return sku;
}

export interface CrossBorderRecords {
	global: GlobalPriceRecord;
	local: LocalPriceRecord;
	products: CrossBorderProductRecord;
	transfer: TransferPriceRecord;
}

export class CrossBorderStore {
	private readonly byProject = new Map<string, ProjectRecords>();

	private recordsOf(projectCode: string): ProjectRecords {
		let records = this.byProject.get(projectCode);
		if (!records) {
			records = { global: new Map(), local: new Map(), products: new Map(), transfer: new Map() };
			this.byProject.set(projectCode, records);
		}
		return records;
	}

	/** Sets what the row gives (absent fields keep their value; a new key starts empty). */
	put<K extends CrossBorderKind>(
		projectCode: string,
		kind: K,
		row: CrossBorderRecords[K],
	): CrossBorderRecords[K] {
		const map = this.recordsOf(projectCode)[kind] as Map<string, CrossBorderRecords[K]>;
		const key = recordKey(kind, row as unknown as Record<string, unknown>);
		const record = { ...map.get(key), ...row };
		map.set(key, record);
		return structuredClone(record);
	}

	get<K extends CrossBorderKind>(
		projectCode: string,
		kind: K,
		row: Record<string, unknown>,
	): CrossBorderRecords[K] | undefined {
		const map = this.recordsOf(projectCode)[kind] as Map<string, CrossBorderRecords[K]>;
		const record = map.get(recordKey(kind, row));
		return record && structuredClone(record);
	}

	/** Every record of a kind in a project, in the order they were first set. */
	list<K extends CrossBorderKind>(projectCode: string, kind: K): Array<CrossBorderRecords[K]> {
		const map = this.recordsOf(projectCode)[kind] as Map<string, CrossBorderRecords[K]>;
		return [...map.values()].map((record) => structuredClone(record));
	}
}
