/**
 * Transfer Price → Update: sets the transfer price, MSRP (both in US dollars) and/or active state
 * of each input item's partner SKU (cross-border BatchUpsertTransferPrice). The output is the row
 * sent, once the service answered it OK.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { named } from '../../../shared';
import { amountProperty } from '../namshiPrice';
import {
	invalidParameter,
	optionalBooleanParameter,
	optionalNumberParameter,
	requiredTextParameter,
} from '../parameters';
import { batchOperation } from '../shapes/batch';
import { MAX_TRANSFER_PRICE_ROWS, partnerSkuProperty, TRANSFER_PRICE_KEY } from './row';

const sku = partnerSkuProperty('Your SKU whose transfer price to set');
const transferPrice = amountProperty(
	'transferPriceUsd',
	'Transfer Price (USD)',
	'The transfer price of the item, in US dollars',
);
const msrp = amountProperty(
	'msrpUsd',
	'MSRP (USD)',
	'The recommended retail price of the item, in US dollars',
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

function readRow(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const row: IDataObject = { partner_sku: requiredTextParameter(ctx, sku, itemIndex) };
	const values = {
		transfer_price_usd: optionalNumberParameter(ctx, transferPrice, itemIndex, {}),
		msrp_usd: optionalNumberParameter(ctx, msrp, itemIndex, {}),
		is_active: optionalBooleanParameter(ctx, isActive, itemIndex),
	};
	if (Object.values(values).every((value) => value === undefined)) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`Item ${itemIndex} sets nothing: ${named(transferPrice)}, ${named(msrp)} and ${named(isActive)} are all empty`,
			'Set the transfer price, the MSRP, whether the pricing is active, or several of them.',
		);
	}
	for (const [field, value] of Object.entries(values)) if (value !== undefined) row[field] = value;
	return row;
}

export const { description, plan } = batchOperation({
	show: { resource: 'transferPrice', operation: 'update' },
	properties: [sku, transferPrice, msrp, isActive],
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
