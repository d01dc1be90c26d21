/** Stock → Get: the quantity of each input item's warehouse and partner SKU (GetStock). */
import { partnerSkuProperty, warehouseCodeProperty } from '../../../shared';
import { batchOperation } from '../shapes/batch';
import { MAX_STOCK_ROWS, readStockKey, STOCK_KEY } from './row';

const fields = {
	warehouse_code: warehouseCodeProperty('The warehouse whose stock to read'),
	partner_sku: partnerSkuProperty('Your SKU whose stock in the warehouse to read'),
};

export const { description, plan } = batchOperation({
	show: { resource: 'stock', operation: 'get' },
	fields,
	rowIs: 'a warehouse and a SKU',
	endpoint: 'GetStock',
	maxRows: MAX_STOCK_ROWS,
	key: STOCK_KEY,
	repeatedKey: 'share',
	row: readStockKey,
	leftOutAdvice: 'Nothing was read for this row: run it again.',
});
