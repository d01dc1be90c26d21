import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	allowedValues,
	COUNTRY_OPTIONS,
	propertyIn,
	quoted,
	quotedName,
	rowsOf,
} from '../../../shared';
import { checkText, invalidParameter, readCountryCode, readRows } from '../parameters';
import { createWithKey } from '../shapes/createWithKey';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 10;

const properties: INodeProperties[] = [
	{
		displayName:
			'Creates a test order that is never fulfilled. The marketplace sends its standard order-creation webhook (FBPI::ORDER_SYNC) for it, so a Seller Platform Trigger can pick it up.',
		name: 'sandboxNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Warehouse Code',
		name: 'warehouseCode',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. WH-DXB-01',
		description:
			'Integration warehouse for the order. It must already be configured to receive order webhooks.',
	},
	{
		displayName: 'Items',
		name: 'items',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		required: true,
		default: { item: [{ status: 'MP_ITEM_STATUS_CONFIRMED', partnerSku: '' }] },
		placeholder: 'Add item',
		description: 'One entry per item of the order, each with the status it is created in',
		options: [
			{
				displayName: 'Item',
				name: 'item',
				values: [
					{
						displayName: 'Status',
						name: 'status',
						type: 'options',
						options: [
							{ name: 'Confirmed', value: 'MP_ITEM_STATUS_CONFIRMED' },
							{ name: 'Cancelled', value: 'MP_ITEM_STATUS_CANCELLED' },
						],
						default: 'MP_ITEM_STATUS_CONFIRMED',
					},
					{
						displayName: 'Partner SKU',
						name: 'partnerSku',
						type: 'string',
						default: '',
						description:
							'Optional. Left empty, the service assigns a dummy SKU; it need not exist in your catalog.',
					},
				],
			},
		],
	},
	{
		displayName: 'Idempotency Key',
		name: 'idempotencyKey',
		type: 'string',
		default: '',
		description: `At most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters. Repeating a request with the same key does not create a second order. Left empty, a fresh key is generated and returned as idempotency_key.`,
	},
	{
		displayName: 'Country Code',
		name: 'countryCode',
		type: 'options',
		options: [{ name: 'Service Default (UAE)', value: '' }, ...COUNTRY_OPTIONS],
		default: '',
		description: 'Marketplace country of the order',
	},
];

const itemsParameter = propertyIn(properties, 'items');
const itemValues = rowsOf(itemsParameter).fields;
const statusField = propertyIn(itemValues, 'status');
const partnerSkuField = propertyIn(itemValues, 'partnerSku');
export const ITEM_STATUSES = allowedValues(statusField);

/** The order's items: at least one, each with a known status and an optional Partner SKU. */
function readItems(ctx: IExecuteFunctions, itemIndex: number): IDataObject[] {
	const raw = readRows(ctx, itemsParameter, itemIndex, {
		needs: 'at least one item',
		description: 'Add an item with the status it should be created in.',
	});
	return raw.map((entry, position) => {
		const where = `item ${position + 1} of ${quotedName(itemsParameter)}`;
		const status = checkText(ctx, itemIndex, entry.status, `The status of ${where}`);
		if (!ITEM_STATUSES.includes(status)) {
			const message = `Item ${position + 1} of ${quotedName(itemsParameter)} has the status ${quoted(status)}, but it must be one of ${ITEM_STATUSES.join(', ')}`;
			throw invalidParameter(ctx, itemIndex, message);
		}
		const sku = `The ${partnerSkuField.displayName} of ${where}`;
		const partnerSku = checkText(ctx, itemIndex, entry.partnerSku, sku);
		return partnerSku ? { status, partner_sku: partnerSku } : { status };
	});
}

export const { description, plan } = createWithKey({
	show: { resource: 'fbpiOrder', operation: 'createSandbox' },
	endpoint: 'CreateSandboxOrder',
	properties,
	body: {
		warehouse_code: 'warehouseCode',
		items: readItems,
		idempotency_key: 'idempotencyKey',
		country_code: (ctx, itemIndex) =>
			readCountryCode(ctx, propertyIn(properties, 'countryCode'), itemIndex),
	},
	key: { field: 'idempotency_key', maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
	creates: {
		describe: (json, key) =>
			`sandbox order ${String(json.fbpi_order_nr ?? '(number not returned)')} (idempotency key ${key})`,
		advice:
			'Running the workflow again with the same Idempotency Keys does not create these orders again.',
	},
});
