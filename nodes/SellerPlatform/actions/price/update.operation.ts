/**
 * Price → Update: sets the price, MSRP and/or active state of each input item's SKU in a country
 * (BatchUpsertPricing: creates the price when there is none). The output is the answer's row
 * with the values sent.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	amountProperty,
	countryCodeProperty,
	msrpProperty,
	named,
	partnerSkuProperty,
} from '../../../shared';
import {
	invalidParameter,
	readOptionalBoolean,
	readOptionalNumber,
	type ParameterSource,
} from '../parameters';
import { batchOperation } from '../shapes/batch';
import { MAX_PRICE_ROWS, PRICE_KEY, readPriceKey } from './row';

const isActive: INodeProperties = {
	displayName: 'Is Active',
	name: 'isActive',
	type: 'options',
	options: [
		{ name: 'Active (For Sale)', value: 'true' },
		{ name: 'Inactive (Not Sold)', value: 'false' },
		{ name: 'Keep As It Is', value: '' },
	],
	default: '',
	description:
		'Whether the SKU is sold in the country. By expression: true or false (or the text "true" / "false").',
};

/** The row's fields by the API's names (shapes/mapping.ts). */
const fields = {
	partner_sku: partnerSkuProperty('Your SKU whose price to set'),
	country_code: countryCodeProperty('The marketplace country the price applies in'),
	// noon's marketplace currencies (AED, SAR, EGP) have two decimals.
	price: amountProperty('price', 'Price', "The selling price, in the country's currency", 2),
	msrp: msrpProperty(2),
	is_active: isActive,
};

function readRow(ctx: ParameterSource, read: typeof fields, itemIndex: number): IDataObject {
	const row = readPriceKey(ctx, read, itemIndex);
	const values = {
		price: readOptionalNumber(ctx, read.price, itemIndex, {}),
		msrp: readOptionalNumber(ctx, read.msrp, itemIndex, {}),
		is_active: readOptionalBoolean(ctx, read.is_active, itemIndex),
	};
	if (Object.values(values).every((value) => value === undefined)) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`Item ${itemIndex} sets nothing: ${named(read.price)}, ${named(read.msrp)} and ${named(read.is_active)} are all empty`,
			'Set the price, the MSRP, whether the SKU is active, or several of them.',
		);
	}
	for (const [field, value] of Object.entries(values)) if (value !== undefined) row[field] = value;
	return row;
}

export const { description, plan } = batchOperation({
	show: { resource: 'price', operation: 'update' },
	fields,
	rowIs: 'a SKU, a country and what to set',
	endpoint: 'BatchUpsertPricing',
	maxRows: MAX_PRICE_ROWS,
	key: PRICE_KEY,
	repeatedKey: 'refuse',
	row: readRow,
	leftOutAdvice:
		'Whether the service applied it is unknown: read it back with Price → Get, or run the item again (an update sets the values, so repeating it is safe).',
	// The answer's key is the row's (they matched): the row sent is the output, as it is (a write
	// refuses a repeated key, so each row answers one item; 100,000 rows need no second copy).
	output: (_answer, sent) => sent,
});
