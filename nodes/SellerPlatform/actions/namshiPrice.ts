/**
 * What Namshi's global and local price updates share (BatchUpsertGlobalPricing,
 * BatchUpsertLocalPricing): the batch cap, country codes as text (the reference lists no
 * countries for them) and the price and MSRP of a row, at least one of them set.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { named } from '../../shared';
import { invalidParameter, optionalNumberParameter, type ParameterSource } from './parameters';

/**
 * Rows per request. The reference states no cap for Namshi's pricing endpoints; 100 is the
 * package's conservative choice, as for noon's stock and prices.
 */
export const MAX_NAMSHI_PRICE_ROWS = 100;

/** A required country code, as text: two letters, sent as written (country.ts `readTwoLetterCountry`). */
export const countryTextProperty = (
	name: string,
	displayName: string,
	description: string,
	example = 'AE',
): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	required: true,
	default: '',
	placeholder: `e.g. ${example}`,
	description: `${description}: its two-letter ISO 3166-1 code, sent as written`,
});

/**
 * An optional amount (price, MSRP): a number from 0, empty to leave it as it is. `decimals` where
 * every currency of the endpoint has that many (noon's AED, SAR, EGP: 2); none where a currency
 * has more (Namshi's KWD, BHD, OMR: 3), so the editor never rounds a typed amount. The reader
 * never rounds.
 */
export const amountProperty = (
	name: string,
	displayName: string,
	description: string,
	decimals?: number,
): INodeProperties => ({
	displayName,
	name,
	type: 'number',
	typeOptions:
		decimals === undefined ? { minValue: 0 } : { minValue: 0, numberPrecision: decimals },
	default: '',
	description: `${description}, not negative. Leave empty to keep the current one.`,
});

/** The MSRP of a price row: the same field in Price, Global Price and Local Price updates. */
export const msrpProperty = (decimals?: number) =>
	amountProperty(
		'msrp',
		'MSRP',
		'The recommended retail price shown crossed out beside the price',
		decimals,
	);

/** Namshi's amounts are in the country's currency, as many decimals as it has. */
export const NAMSHI_AMOUNT_NOTE = 'as many decimals as the currency has (3 for KWD, BHD, OMR)';

/**
 * The amounts of a row (fields by API name → their properties): the ones set, or refused when
 * none is ("Item 3 sets nothing").
 */
export function readAmounts(
	ctx: ParameterSource,
	amounts: Record<string, INodeProperties>,
	itemIndex: number,
): IDataObject {
	const values: IDataObject = {};
	for (const [field, property] of Object.entries(amounts)) {
		const value = optionalNumberParameter(ctx, property, itemIndex, {});
		if (value !== undefined) values[field] = value;
	}
	if (Object.keys(values).length === 0) {
		const names = Object.values(amounts).map((property) => named(property));
		throw invalidParameter(
			ctx,
			itemIndex,
			`Item ${itemIndex} sets nothing: ${names.join(' and ')} are both empty`,
			'Set the price, the MSRP, or both.',
		);
	}
	return values;
}
