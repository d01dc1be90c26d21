/**
 * Local Price → Update: sets the price and/or MSRP of each input item's partner SKU in a country
 * (Namshi's BatchUpsertLocalPricing: creates the price when there is none). The output is the row
 * sent, once the service answered it OK.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	amountProperty,
	countryTextProperty,
	MAX_NAMSHI_PRICE_ROWS,
	msrpProperty,
	NAMSHI_AMOUNT_NOTE,
	PARTNER_SKU_KEY,
	partnerSkuProperty,
} from '../../../shared';
import {
	type ParameterSource,
	readAmounts,
	readRequiredText,
	readTwoLetterCountry,
} from '../parameters';
import { batchOperation, type KeyField } from '../shapes/batch';

const sku = partnerSkuProperty('Your SKU whose local price to set');
const country = countryTextProperty(
	'countryCode',
	'Country Code',
	'The country the price applies in',
);
const price = amountProperty(
	'price',
	'Price',
	`The selling price in the country's currency, ${NAMSHI_AMOUNT_NOTE}`,
);
const msrp = msrpProperty();

const KEY: KeyField[] = [
	PARTNER_SKU_KEY,
	{ field: 'country_code', label: 'country', parameter: country.displayName, anyCase: true },
];

/** The row's fields by the API's names (shapes/mapping.ts). */
const fields = { partner_sku: sku, country_code: country, price, msrp };

function readRow(ctx: ParameterSource, read: typeof fields, itemIndex: number): IDataObject {
	return {
		partner_sku: readRequiredText(ctx, read.partner_sku, itemIndex),
		country_code: readTwoLetterCountry(ctx, read.country_code, itemIndex),
		...readAmounts(ctx, { price: read.price, msrp: read.msrp }, itemIndex),
	};
}

export const { description, plan } = batchOperation({
	show: { resource: 'localPrice', operation: 'update' },
	fields,
	rowIs: 'a SKU, a country and what to set',
	endpoint: 'BatchUpsertLocalPricing',
	maxRows: MAX_NAMSHI_PRICE_ROWS,
	key: KEY,
	repeatedKey: 'refuse',
	row: readRow,
	leftOutAdvice:
		'Whether the service applied it is unknown: run the item again (an update sets the values, so repeating it is safe).',
	// The answer's key is the row's (they matched): the row sent is the output.
	output: (_answer, sent) => ({ ...sent }),
});
