import { randomBytes } from 'crypto';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../../api/request';
import { quoted } from '../../../api/values';
import { concurrencyOption, optionsCollection } from '../descriptions';
import {
	checkedList,
	checkedText,
	invalidParameter,
	optionalString,
	requiredString,
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

export const plan = perItem(function (this: IExecuteFunctions, itemIndex) {
	const warehouseCode = requiredString(this, 'warehouseCode', 'Warehouse Code', itemIndex);
	const raw = checkedList(
		this,
		itemIndex,
		this.getNodeParameter('items.item', itemIndex, []),
		'The parameter "Items" (items)',
	);
	if (raw.length === 0) {
		throw invalidParameter(
			this,
			itemIndex,
			'The parameter "Items" (items) needs at least one item',
			'Add an item with the status it should be created in.',
		);
	}
	const items = raw.map((entry, position) => {
		const status = checkedText(
			this,
			itemIndex,
			entry.status,
			`The status of item ${position + 1} of "Items" (items)`,
		);
		if (!ITEM_STATUSES.includes(status)) {
			throw invalidParameter(
				this,
				itemIndex,
				`Item ${position + 1} of "Items" (items) has the status ${quoted(status)}, but it must be one of ${ITEM_STATUSES.join(', ')}`,
			);
		}
		const partnerSku = checkedText(
			this,
			itemIndex,
			entry.partnerSku,
			`The Partner SKU of item ${position + 1} of "Items" (items)`,
		);
		return partnerSku ? { status, partner_sku: partnerSku } : { status };
	});

	let idempotencyKey = optionalString(this, 'idempotencyKey', itemIndex, 'Idempotency Key');
	if (idempotencyKey !== undefined && idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
		throw invalidParameter(
			this,
			itemIndex,
			`The parameter "Idempotency Key" (idempotencyKey) must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, got ${idempotencyKey.length}`,
		);
	}
	idempotencyKey ??= randomBytes(8).toString('base64url').slice(0, MAX_IDEMPOTENCY_KEY_LENGTH);

	const body: IDataObject = {
		warehouse_code: warehouseCode,
		idempotency_key: idempotencyKey,
		items,
	};
	const countryCode = optionalString(this, 'countryCode', itemIndex, 'Country Code')?.toLowerCase();
	if (countryCode !== undefined) {
		if (!COUNTRY_CODES.includes(countryCode)) {
			throw invalidParameter(
				this,
				itemIndex,
				`The parameter "Country Code" (countryCode) must be one of ${COUNTRY_CODES.join(', ')}, got ${quoted(countryCode)}`,
			);
		}
		body.country_code = countryCode;
	}
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
