/** What the transfer price operations share: the batch cap and the row's key (the partner SKU). */
import type { KeyField } from '../shapes/batch';
import { labelOf, partnerSkuProperty } from '../stock/row';

/** Rows per request: the reference's cap of the transfer price endpoints (1000 items). */
export const MAX_TRANSFER_PRICE_ROWS = 1000;

export const TRANSFER_PRICE_KEY: KeyField[] = [
	{ field: 'partner_sku', label: 'SKU', parameter: labelOf(partnerSkuProperty) },
];

export { partnerSkuProperty };
