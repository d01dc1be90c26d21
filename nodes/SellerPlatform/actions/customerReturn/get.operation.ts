/**
 * Customer Return → Get: the returned items of each input item's order (Namshi's
 * BatchGetCustomerReturnOrders). The request lists order numbers (`order_nrs`); the answer lists
 * returned items, each with its `order_nr` and no row status (its `status` is the return's own),
 * so an order may have several rows: they are gathered per order. An order the answer does not
 * name simply has no return (yet): its item succeeds with no returned items (`items: []`), so
 * that a batch of orders, most of them never returned, runs through.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { readRequiredText } from '../parameters';
import { batchOperation, type KeyField } from '../shapes/batch';

/**
 * Orders per request. The reference states no cap; 100 is the package's conservative choice, as
 * for stock and prices.
 */
export const MAX_RETURN_ORDERS = 100;

const orderNr: INodeProperties = {
	displayName: 'Order Number',
	name: 'orderNr',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. ={{ $json.order_nr }}',
	description: 'The number of the customer order whose returns to read',
};

const KEY: KeyField[] = [{ field: 'order_nr', label: 'order', parameter: orderNr.displayName }];

export const { description, plan } = batchOperation({
	show: { resource: 'customerReturn', operation: 'get' },
	fields: { order_nr: orderNr },
	rowIs: 'an order number',
	endpoint: 'BatchGetCustomerReturnOrders',
	maxRows: MAX_RETURN_ORDERS,
	key: KEY,
	repeatedKey: 'share',
	row: (ctx, read, itemIndex) => ({
		order_nr: readRequiredText(ctx, read.order_nr, itemIndex),
	}),
	bodyOf: (rows) => ({ order_nrs: rows.map((row) => row.order_nr) }),
	grouped: (answers: IDataObject[], sent: IDataObject) => ({
		order_nr: sent.order_nr,
		items: answers,
	}),
	leftOutMeans: 'noRows',
	leftOutAdvice: 'Nothing was read for these orders: run it again.',
});
