/**
 * What the stock operations share: the batch cap, the row's key (warehouse + partner SKU) and the
 * parameters that name a row, read for each input item.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { labelOf, PARTNER_SKU_KEY, warehouseCodeProperty } from '../../../shared';
import { readWarehouseCode, readRequiredText, type ParameterSource } from '../parameters';
import type { KeyField } from '../shapes/batch';

/**
 * Rows per request. The reference states no cap for the stock endpoints; 100 is the package's
 * conservative choice (small answers, a failed request touches few rows), and 1,500 requests a
 * minute still move 150,000 rows.
 */
export const MAX_STOCK_ROWS = 100;

export const STOCK_KEY: KeyField[] = [
	{ field: 'warehouse_code', label: 'warehouse', parameter: labelOf(warehouseCodeProperty) },
	PARTNER_SKU_KEY,
];

/** The row's key fields: the warehouse and the SKU, both required. */
export function readStockKey(
	ctx: ParameterSource,
	fields: { warehouse_code: INodeProperties; partner_sku: INodeProperties },
	itemIndex: number,
): IDataObject {
	return {
		warehouse_code: readWarehouseCode(ctx, fields.warehouse_code, itemIndex),
		partner_sku: readRequiredText(ctx, fields.partner_sku, itemIndex),
	};
}
