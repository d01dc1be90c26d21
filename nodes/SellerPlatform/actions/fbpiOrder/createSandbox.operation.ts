import { randomBytes } from 'crypto';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, quoted } from '../../../shared';
import { concurrencyOption, optionsCollection } from '../options';
import {
	checkedList,
	checkedText,
	invalidParameter,
	optionalTextParameter,
	requiredTextParameter,
} from '../parameters';
import { perItem } from '../runner';

const show = { resource: ['fbpiOrder'], operation: ['createSandbox'] };

export const ITEM_STATUSES = ['MP_ITEM_STATUS_CONFIRMED', 'MP_ITEM_STATUS_CANCELLED'];
export const COUNTRY_CODES = ['ae', 'sa', 'eg'];
export const MAX_IDEMPOTENCY_KEY_LENGTH = 10;

export const description: INodeProperties[] = [
	{
		displayName:
			'Creates a test order that is never fulfilled. The marketplace sends its standard order-creation webhook (FBPI::ORDER_SYNC) for it, so a Seller Platform Trigger can pick it up.',
		name: 'sandboxNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
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
		displayOptions: { show },
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
		displayOptions: { show },
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
		description:
			'At most 10 characters. Repeating a request with the same key does not create a second order. Left empty, a fresh key is generated and returned as idempotency_key.',
		displayOptions: { show },
	},
	{
		displayName: 'Country Code',
		name: 'countryCode',
		type: 'options',
		options: [
			{ name: 'Service Default (UAE)', value: '' },
			{ name: 'Egypt', value: 'eg' },
			{ name: 'Saudi Arabia', value: 'sa' },
			{ name: 'United Arab Emirates', value: 'ae' },
		],
		default: '',
		description: 'Marketplace country of the order',
		displayOptions: { show },
	},
	optionsCollection(show, [concurrencyOption]),
];

/** The order's items: at least one, each with a known status and an optional Partner SKU. */
function readItems(ctx: IExecuteFunctions, itemIndex: number): IDataObject[] {
	const raw = checkedList(
		ctx,
		itemIndex,
		ctx.getNodeParameter('items.item', itemIndex, []),
		'The parameter "Items" (items)',
	);
	if (raw.length === 0) {
		throw invalidParameter(
			ctx,
			itemIndex,
			'The parameter "Items" (items) needs at least one item',
			'Add an item with the status it should be created in.',
		);
	}
	return raw.map((entry, position) => {
		const where = `item ${position + 1} of "Items" (items)`;
		const status = checkedText(ctx, itemIndex, entry.status, `The status of ${where}`);
		if (!ITEM_STATUSES.includes(status)) {
			const message = `Item ${position + 1} of "Items" (items) has the status ${quoted(status)}, but it must be one of ${ITEM_STATUSES.join(', ')}`;
			throw invalidParameter(ctx, itemIndex, message);
		}
		const partnerSku = checkedText(ctx, itemIndex, entry.partnerSku, `The Partner SKU of ${where}`);
		return partnerSku ? { status, partner_sku: partnerSku } : { status };
	});
}

/** The given Idempotency Key (at most `MAX_IDEMPOTENCY_KEY_LENGTH` characters), or a new random one. */
function readIdempotencyKey(ctx: IExecuteFunctions, itemIndex: number): string {
	const key = optionalTextParameter(ctx, 'idempotencyKey', 'Idempotency Key', itemIndex);
	if (key !== undefined && key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
		const message = `The parameter "Idempotency Key" (idempotencyKey) must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, got ${key.length}`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	return key ?? randomBytes(8).toString('base64url').slice(0, MAX_IDEMPOTENCY_KEY_LENGTH);
}

/** The marketplace country, lower case, one of the spec's; undefined when unset. */
function readCountryCode(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	const text = optionalTextParameter(ctx, 'countryCode', 'Country Code', itemIndex);
	const countryCode = text?.toLowerCase();
	if (countryCode !== undefined && !COUNTRY_CODES.includes(countryCode)) {
		const message = `The parameter "Country Code" (countryCode) must be one of ${COUNTRY_CODES.join(', ')}, got ${quoted(countryCode)}`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	return countryCode;
}

export const plan = perItem(function (this: IExecuteFunctions, itemIndex) {
	const warehouseCode = requiredTextParameter(this, 'warehouseCode', 'Warehouse Code', itemIndex);
	const items = readItems(this, itemIndex);
	const idempotencyKey = readIdempotencyKey(this, itemIndex);
	const body: IDataObject = {
		warehouse_code: warehouseCode,
		idempotency_key: idempotencyKey,
		items,
	};
	const countryCode = readCountryCode(this, itemIndex);
	if (countryCode !== undefined) body.country_code = countryCode;
	return {
		creates: {
			describe: (json: IDataObject) =>
				`sandbox order ${String(json.fbpi_order_nr ?? '(number not returned)')} (idempotency key ${idempotencyKey})`,
			advice:
				'Running the workflow again with the same Idempotency Keys does not create these orders again.',
		},
		send: async () => {
			const created = await apiRequest.call(this, 'CreateSandboxOrder', { body, itemIndex });
			return { json: { ...created, idempotency_key: idempotencyKey } };
		},
	};
});
