/**
 * Transfer Price → Update: sets the transfer price, MSRP (both in US dollars) and/or active state
 * of each input item's partner SKU (cross-border BatchUpsertTransferPrice). The output is the row
 * sent, once the service answered it OK.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { amountProperty, named, partnerSkuProperty } from '../../../shared';
import {
	invalidParameter,
	readOptionalBoolean,
	readOptionalNumber,
	readRequiredText,
	type ParameterSource,
} from '../parameters';
import { batchOperation } from '../shapes/batch';
import { MAX_TRANSFER_PRICE_ROWS, TRANSFER_PRICE_KEY } from './row';

const transferPrice = amountProperty(
	'transferPriceUsd',
	'Transfer Price (USD)',
	'The transfer price of the item, in US dollars',
	2,
);
const msrp = amountProperty(
	'msrpUsd',
	'MSRP (USD)',
	'The recommended retail price of the item, in US dollars',
	2,
);
const isActive: INodeProperties = {
	displayName: 'Is Active',
	name: 'isActive',
	type: 'options',
	options: [
		{ name: 'Active', value: 'true' },
		{ name: 'Inactive', value: 'false' },
		{ name: 'Keep As It Is', value: '' },
	],
	default: '',
	description:
		'Whether the pricing of the SKU is active. By expression: true or false (or the text "true" / "false").',
};

/** The row's fields by the API's names (shapes/mapping.ts). */
const fields = {
	partner_sku: partnerSkuProperty('Your SKU whose transfer price to set'),
	transfer_price_usd: transferPrice,
	msrp_usd: msrp,
	is_active: isActive,
};

function readRow(ctx: ParameterSource, read: typeof fields, itemIndex: number): IDataObject {
	const row: IDataObject = { partner_sku: readRequiredText(ctx, read.partner_sku, itemIndex) };
	const values = {
		transfer_price_usd: readOptionalNumber(ctx, read.transfer_price_usd, itemIndex, {}),
		msrp_usd: readOptionalNumber(ctx, read.msrp_usd, itemIndex, {}),
		is_active: readOptionalBoolean(ctx, read.is_active, itemIndex),
	};
	if (Object.values(values).every((value) => value === undefined)) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`Item ${itemIndex} sets nothing: ${named(read.transfer_price_usd)}, ${named(read.msrp_usd)} and ${named(read.is_active)} are all empty`,
			'Set the transfer price, the MSRP, whether the pricing is active, or several of them.',
		);
	}
	for (const [field, value] of Object.entries(values)) if (value !== undefined) row[field] = value;
	return row;
}

export const { description, plan } = batchOperation({
	show: { resource: 'transferPrice', operation: 'update' },
	fields,
	rowIs: 'a SKU and what to set',
	endpoint: 'BatchUpsertTransferPrice',
	maxRows: MAX_TRANSFER_PRICE_ROWS,
	key: TRANSFER_PRICE_KEY,
	repeatedKey: 'refuse',
	row: readRow,
	leftOutAdvice:
		'Whether the service applied it is unknown: read it back with Transfer Price → Get, or run the item again (an update sets the values, so repeating it is safe).',
	// The answer's key is the row's (they matched): the row sent is the output.
	output: (_answer, sent) => ({ ...sent }),
});
