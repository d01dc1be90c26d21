/**
 * FBPI Order → Update: marks items of an order out of stock (UpdateOrder), by marketplace item
 * number. The numbers come as a list (from an expression) or as comma-separated text; the output
 * names the items marked.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { named, propertyIn, quotedName, shown } from '../../../shared';
import { checkedText, invalidParameter } from '../parameters';
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
			'Marketplace item numbers (mp_item_nr) of the items to mark out of stock, comma-separated, or a list from an expression. The marketplace cancels them; the other items go on to fulfilment.',
	},
];

const itemsProperty = propertyIn(properties, 'outOfStockItems');

/** The entries of a list or of comma-separated text, trimmed, each once, in their order. */
function entriesOf(ctx: IExecuteFunctions, itemIndex: number, value: unknown): string[] {
	const what = named(itemsProperty);
	if (Array.isArray(value)) {
		const entryOf = (position: number) => `Entry ${position + 1} of ${quotedName(itemsProperty)}`;
		return value.map((entry: unknown, position) => {
			const text = typeof entry === 'string' ? entry.trim() : '';
			if (text === '') {
				const message = `${entryOf(position)} must be a marketplace item number (text), got ${shown(entry)}`;
				throw invalidParameter(ctx, itemIndex, message);
			}
			return checkedText(ctx, itemIndex, text, entryOf(position));
		});
	}
	if (typeof value !== 'string') {
		const message = `${what} must be a list or comma-separated text of marketplace item numbers, got ${shown(value)}`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	const text = checkedText(ctx, itemIndex, value, what);
	return text
		.split(',')
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}

/** The items to mark: at least one. */
function readItems(ctx: IExecuteFunctions, itemIndex: number): string[] {
	const value = ctx.getNodeParameter(itemsProperty.name, itemIndex, '') as unknown;
	const numbers = [...new Set(entriesOf(ctx, itemIndex, value ?? ''))];
	if (numbers.length === 0) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`${named(itemsProperty)} must list at least one marketplace item number`,
			'Give the mp_item_nr of each item to mark out of stock (see FBPI Order → Get), separated by commas, or map a list.',
		);
	}
	return numbers;
}

export const { description, plan } = bodyFromFields<string[]>({
	show: { resource: 'fbpiOrder', operation: 'update' },
	endpoint: 'UpdateOrder',
	properties,
	body: {
		fbpi_order_nr: 'fbpiOrderNr',
		items: (ctx, itemIndex) =>
			readItems(ctx, itemIndex).map((mp_item_nr) => ({ mp_item_nr, status: OUT_OF_STOCK })),
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
