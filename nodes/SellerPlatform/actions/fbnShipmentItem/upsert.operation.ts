/**
 * FBN Shipment Item → Upsert: adds a SKU to a draft ASN, or sets the quantity of one it has
 * (AsnService_UpdateShipmentItems, PUT). One row per input item (shapes/batch.ts), rows of one
 * ASN packed into requests of at most 1000; the same ASN and SKU twice in a run is refused
 * (which quantity should win is not the node's to guess).
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	readOption,
	readOptionalNumber,
	invalidParameter,
	type ParameterSource,
} from '../parameters';
import { named, partnerSkuProperty } from '../../../shared';
import { batchOperation } from '../shapes/batch';
import { asn, ITEM_KEY, MAX_ASN_ITEMS, pathOf, readItemKey, withShipment } from './row';

/** The largest quantity the service takes (a 32-bit integer). */
const MAX_QUANTITY = 2_147_483_647;

const quantity: INodeProperties = {
	displayName: 'Quantity',
	name: 'quantity',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_QUANTITY, numberPrecision: 0 },
	required: true,
	default: 1,
	description: 'Units of the SKU in the shipment: the new total for the SKU, not a change',
};
const storageType: INodeProperties = {
	displayName: 'Storage Type',
	name: 'storageType',
	type: 'options',
	options: [
		{
			name: 'From the Catalog',
			value: 'STORAGE_TYPE_UNSPECIFIED',
			description: 'The storage type noon has for the SKU',
		},
		{ name: 'Standard', value: 'STORAGE_TYPE_STANDARD' },
		{ name: 'Oversize', value: 'STORAGE_TYPE_OVERSIZE' },
		{ name: 'Bulky', value: 'STORAGE_TYPE_BULKY' },
	],
	default: 'STORAGE_TYPE_UNSPECIFIED',
	description: 'How the SKU is stored in the warehouse',
};

/** An item as the body lists it: the ASN is in the path. */
function withoutAsn(row: IDataObject): IDataObject {
	const item = { ...row };
	delete item.asn_nr;
	return item;
}

/** The row's fields by the API's names (shapes/mapping.ts). */
const fields = {
	asn_nr: asn,
	partner_sku: partnerSkuProperty('Your SKU to send, one eligible for FBN (see FBN Catalog Item)'),
	qty: quantity,
	storage_type: storageType,
};

function readRow(ctx: ParameterSource, read: typeof fields, itemIndex: number): IDataObject {
	const row = readItemKey(ctx, read, itemIndex);
	const qty = readOptionalNumber(ctx, read.qty, itemIndex, {
		whole: true,
		min: 1,
		max: MAX_QUANTITY,
	});
	if (qty === undefined) {
		const message = `${named(read.qty)} must be a whole number from 1, got nothing`;
		throw invalidParameter(ctx, itemIndex, message, 'To take a SKU off the ASN, use Delete.');
	}
	return { ...row, qty, storage_type: readOption(ctx, read.storage_type, itemIndex) };
}

export const { description, plan } = batchOperation({
	show: { resource: 'fbnShipmentItem', operation: 'upsert' },
	fields,
	rowIs: 'an ASN, a SKU and its quantity',
	endpoint: 'AsnService_UpdateShipmentItems',
	maxRows: MAX_ASN_ITEMS,
	key: ITEM_KEY,
	repeatedKey: 'refuse',
	row: readRow,
	leftOutAdvice: 'Read the ASN’s items back with FBN Shipment Item → Get Many.',
	pathOf,
	bodyOf: (rows) => ({ items: rows.map(withoutAsn) }),
	wholeAnswer: withShipment(),
});
