/**
 * Global Price → Update: sets the cross-border price and/or MSRP of each input item's partner SKU
 * for one source and destination country (Namshi's BatchUpsertGlobalPricing: creates the price
 * when there is none). The output is the row sent, once the service answered it OK.
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

const sku = partnerSkuProperty('Your SKU whose global price to set');
const source = countryTextProperty(
	'sourceCountryCode',
	'Source Country Code',
	'The country the item ships from',
	'CN',
);
const destination = countryTextProperty(
	'destinationCountryCode',
	'Destination Country Code',
	'The country the item is sold in',
);
const price = amountProperty(
	'price',
	'Price',
	`The selling price in the destination country's currency, ${NAMSHI_AMOUNT_NOTE}`,
);
const msrp = msrpProperty();

const KEY: KeyField[] = [
	PARTNER_SKU_KEY,
	{ field: 'source_country_code', label: 'from', parameter: source.displayName, anyCase: true },
	{
		field: 'destination_country_code',
		label: 'to',
		parameter: destination.displayName,
		anyCase: true,
	},
];

/** The row's fields by the API's names (shapes/mapping.ts). */
const fields = {
	partner_sku: sku,
	source_country_code: source,
	destination_country_code: destination,
	price,
	msrp,
};

function readRow(ctx: ParameterSource, read: typeof fields, itemIndex: number): IDataObject {
	return {
		partner_sku: readRequiredText(ctx, read.partner_sku, itemIndex),
		source_country_code: readTwoLetterCountry(ctx, read.source_country_code, itemIndex),
		destination_country_code: readTwoLetterCountry(ctx, read.destination_country_code, itemIndex),
		...readAmounts(ctx, { price: read.price, msrp: read.msrp }, itemIndex),
	};
}

export const { description, plan } = batchOperation({
	show: { resource: 'globalPrice', operation: 'update' },
	fields,
	rowIs: 'a SKU, its source and destination countries and what to set',
	endpoint: 'BatchUpsertGlobalPricing',
	maxRows: MAX_NAMSHI_PRICE_ROWS,
	key: KEY,
	repeatedKey: 'refuse',
	row: readRow,
	leftOutAdvice:
		'Whether the service applied it is unknown: run the item again (an update sets the values, so repeating it is safe).',
	// The answer's key is the row's (they matched): the row sent is the output.
	output: (_answer, sent) => ({ ...sent }),
});
