/**
 * What the stock operations share: the batch cap, the row's key (warehouse + partner SKU) and the
 * parameters that name a row, read for each input item.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { requiredTextParameter, type ParameterSource } from '../parameters';
import type { KeyField } from '../shapes/batch';
import { readWarehouseCode, warehouseCodeProperty } from '../warehouse/warehouseCode';

/**
 * Rows per request. The reference states no cap for the stock endpoints; 100 is the package's
 * conservative choice (small answers, a failed request touches few rows), and 1,500 requests a
 * minute still move 150,000 rows.
 */
export const MAX_STOCK_ROWS = 100;

export const partnerSkuProperty = (description: string): INodeProperties => ({
	displayName: 'Partner SKU',
	name: 'partnerSku',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. SKU-1001',
	description,
});

/** The label of a parameter made by `property` (written once, in its description). */
export const labelOf = (property: (description: string) => INodeProperties) =>
	property('').displayName;

export const STOCK_KEY: KeyField[] = [
	{ field: 'warehouse_code', label: 'warehouse', parameter: labelOf(warehouseCodeProperty) },
	{ field: 'partner_sku', label: 'SKU', parameter: labelOf(partnerSkuProperty) },
];

/** The row's key fields: the warehouse and the SKU, both required. */
export function readStockKey(
	ctx: ParameterSource,
	fields: { warehouse_code: INodeProperties; partner_sku: INodeProperties },
	itemIndex: number,
): IDataObject {
	return {
		warehouse_code: readWarehouseCode(ctx, fields.warehouse_code, itemIndex),
		partner_sku: requiredTextParameter(ctx, fields.partner_sku, itemIndex),
	};
}

export { warehouseCodeProperty };
