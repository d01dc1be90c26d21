/** What the transfer price operations share: the batch cap and the row's key (the partner SKU). */
import { PARTNER_SKU_KEY } from '../../../shared';
import type { KeyField } from '../shapes/batch';

/** Rows per request: the reference's cap of the transfer price endpoints (1000 items). */
export const MAX_TRANSFER_PRICE_ROWS = 1000;

export const TRANSFER_PRICE_KEY: KeyField[] = [PARTNER_SKU_KEY];
