/** Seed data of the emulator: records every API user of a fresh emulator can read. */

export type PoStatus = 'PO_STATUS_UNSPECIFIED' | 'PO_STATUS_PENDING' | 'PO_STATUS_RELEASED';

/** The spec's date object: 0 marks an absent year, month or day. */
export interface PoDate {
	year: number;
	month: number;
	day: number;
}

export interface PurchaseOrderLine {
	partner_sku: string;
	qty: number;
	unit_cost: number;
}

/** GetPurchaseOrder response. */
export interface PurchaseOrder {
	po_nr: string;
	po_currency: string;
	merchant_code: string;
	warehouse_code: string;
	po_status: PoStatus;
	po_release_date: PoDate;
	po_lines: PurchaseOrderLine[];
}

/** Seeded purchase orders by role, for tests to reference. */
export const SEEDED_PO = {
	/** Released, AED, three lines. */
	released: 'PO-1001',
	/** Released, SAR. */
	releasedSar: 'PO-1002',
	/** Released, EGP, fractional unit cost. */
	releasedEgp: 'PO-1003',
	/** Pending, release date all zeros (no date yet). */
	pendingNoDate: 'PO-1004',
	/** Pending, release date with day 0 (only year and month significant). */
	pendingDayZero: 'PO-1005',
} as const;

export const SEEDED_PURCHASE_ORDERS: readonly PurchaseOrder[] = [
	{
		po_nr: SEEDED_PO.released,
		po_currency: 'AED',
		merchant_code: 'STR10001',
		warehouse_code: 'WH-DXB-01',
		po_status: 'PO_STATUS_RELEASED',
		po_release_date: { year: 2024, month: 3, day: 15 },
		po_lines: [
			{ partner_sku: 'SKU-TSHIRT-BLK-M', qty: 120, unit_cost: 18.5 },
			{ partner_sku: 'SKU-TSHIRT-BLK-L', qty: 80, unit_cost: 18.5 },
			{ partner_sku: 'SKU-MUG-WHT', qty: 24, unit_cost: 9.75 },
		],
	},
	{
		po_nr: SEEDED_PO.releasedSar,
		po_currency: 'SAR',
		merchant_code: 'STR10002',
		warehouse_code: 'WH-RUH-02',
		po_status: 'PO_STATUS_RELEASED',
		po_release_date: { year: 2024, month: 11, day: 2 },
		po_lines: [
			{ partner_sku: 'SKU-HEADPHONES-01', qty: 10, unit_cost: 249 },
			{ partner_sku: 'SKU-CABLE-USBC-1M', qty: 300, unit_cost: 7.2 },
		],
	},
	{
		po_nr: SEEDED_PO.releasedEgp,
		po_currency: 'EGP',
		merchant_code: 'STR10003',
		warehouse_code: 'WH-CAI-01',
		po_status: 'PO_STATUS_RELEASED',
		po_release_date: { year: 2025, month: 1, day: 20 },
		po_lines: [{ partner_sku: 'SKU-KETTLE-17L', qty: 6, unit_cost: 149.99 }],
	},
	{
		po_nr: SEEDED_PO.pendingNoDate,
		po_currency: 'AED',
		merchant_code: 'STR10001',
		warehouse_code: 'WH-DXB-01',
		po_status: 'PO_STATUS_PENDING',
		po_release_date: { year: 0, month: 0, day: 0 },
		po_lines: [
			{ partner_sku: 'SKU-BACKPACK-GRY', qty: 40, unit_cost: 55 },
			{ partner_sku: 'SKU-BOTTLE-750', qty: 200, unit_cost: 12.25 },
		],
	},
	{
		po_nr: SEEDED_PO.pendingDayZero,
		po_currency: 'SAR',
		merchant_code: 'STR10002',
		warehouse_code: 'WH-JED-01',
		po_status: 'PO_STATUS_PENDING',
		po_release_date: { year: 2025, month: 6, day: 0 },
		po_lines: [{ partner_sku: 'SKU-DESK-LAMP', qty: 15, unit_cost: 89.9 }],
	},
];

export const SEEDED_PO_NUMBERS: readonly string[] = SEEDED_PURCHASE_ORDERS.map((po) => po.po_nr);

/** Any `PO-BULK-<digits>` is a generated released purchase order (for bulk tests and benchmarks). */
export const BULK_PO_PATTERN = /^PO-BULK-(\d+)$/;

const BULK_CURRENCIES = ['AED', 'SAR', 'EGP'] as const;
const BULK_WAREHOUSES = ['WH-DXB-01', 'WH-RUH-02', 'WH-CAI-01'] as const;

/** The generated purchase order `PO-BULK-<n>`: deterministic, so repeated reads agree. */
export function bulkPurchaseOrder(poNr: string): PurchaseOrder | undefined {
	const match = BULK_PO_PATTERN.exec(poNr);
	if (!match) return undefined;
	// The last digits are enough to vary the fields and keep arithmetic exact for any length.
	const n = Number(match[1].slice(-9));
	return {
		po_nr: poNr,
		po_currency: BULK_CURRENCIES[n % BULK_CURRENCIES.length],
		merchant_code: `STR${20000 + (n % 100)}`,
		warehouse_code: BULK_WAREHOUSES[n % BULK_WAREHOUSES.length],
		po_status: 'PO_STATUS_RELEASED',
		po_release_date: { year: 2024 + (n % 2), month: 1 + (n % 12), day: 1 + (n % 28) },
		po_lines: Array.from({ length: 1 + (n % 3) }, (_, i) => ({
			partner_sku: `SKU-BULK-${n}-${i + 1}`,
			qty: 1 + ((n + i) % 50),
			unit_cost: Math.round((5 + ((n * 7 + i * 13) % 500) + 0.25 * i) * 100) / 100,
		})),
	};
}
