/**
 * Transfer Price → Get: the transfer price, MSRP (both in US dollars) and active state of each
 * input item's partner SKU (cross-border BatchGetTransferPrice).
 */
import { partnerSkuProperty } from '../../../shared';
import { readRequiredText } from '../parameters';
import { batchOperation } from '../shapes/batch';
import { MAX_TRANSFER_PRICE_ROWS, TRANSFER_PRICE_KEY } from './row';

const fields = { partner_sku: partnerSkuProperty('Your SKU whose transfer price to read') };

export const { description, plan } = batchOperation({
	show: { resource: 'transferPrice', operation: 'get' },
	fields,
	rowIs: 'a SKU',
	endpoint: 'BatchGetTransferPrice',
	maxRows: MAX_TRANSFER_PRICE_ROWS,
	key: TRANSFER_PRICE_KEY,
	repeatedKey: 'share',
	row: (ctx, read, itemIndex) => ({
		partner_sku: readRequiredText(ctx, read.partner_sku, itemIndex),
	}),
	leftOutAdvice: 'Nothing was read for this row: run it again.',
});
