/**
 * FBPI Order → Update: marks items of an order out of stock (UpdateOrder), by marketplace item
 * number. The numbers come as a list (from an expression) or as text separated by commas or line
 * breaks (parameters/lists.ts `readTextList`); the output names the items marked.
 */
import type { INodeProperties } from 'n8n-workflow';

import { propertyIn } from '../../../shared';
import { readTextList } from '../parameters';
import { bodyFromFields } from '../shapes/bodyFromFields';

/** The one status UpdateOrder sets. */
export const OUT_OF_STOCK = 'UPDATE_ORDER_REQUEST_ITEM_STATUS_OUT_OF_STOCK';

const properties: INodeProperties[] = [
	{
		displayName: 'FBPI Order Number',
		name: 'fbpiOrderNr',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. ={{ $json.fbpi_order_nr }}',
		description: 'The fbpi_order_nr of the order whose items cannot be fulfilled',
	},
	{
		displayName: 'Out of Stock Items',
		name: 'outOfStockItems',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. NAE40000001-1, NAE40000001-2',
		description:
			'Marketplace item numbers (mp_item_nr) of the items to mark out of stock, separated by commas or line breaks, or a list from an expression. The marketplace cancels them; the other items go on to fulfilment.',
	},
];

const itemsProperty = propertyIn(properties, 'outOfStockItems');

export const { description, plan } = bodyFromFields<string[]>({
	show: { resource: 'fbpiOrder', operation: 'update' },
	endpoint: 'UpdateOrder',
	properties,
	body: {
		fbpi_order_nr: 'fbpiOrderNr',
		items: (ctx, itemIndex) =>
			readTextList(ctx, itemsProperty, itemIndex, 'at least one marketplace item number').map(
				(mp_item_nr) => ({ mp_item_nr, status: OUT_OF_STOCK }),
			),
	},
	output: (_ctx, _answer, request) => ({
		json: {
			fbpi_order_nr: request.body?.fbpi_order_nr,
			out_of_stock_items: (request.body?.items as Array<{ mp_item_nr: string }>).map(
				(item) => item.mp_item_nr,
			),
		},
	}),
});
