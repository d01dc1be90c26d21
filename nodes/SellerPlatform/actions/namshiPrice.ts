/**
 * What Namshi's global and local price updates share (BatchUpsertGlobalPricing,
 * BatchUpsertLocalPricing): the batch cap, country codes as text (the reference lists no
 * countries for them) and the price and MSRP of a row, at least one of them set.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { named, quoted } from '../../shared';
import {
	invalidParameter,
	optionalNumberParameter,
	requiredTextParameter,
	type ParameterSource,
} from './parameters';

/**
 * Rows per request. The reference states no cap for Namshi's pricing endpoints; 100 is the
 * package's conservative choice, as for noon's stock and prices.
 */
export const MAX_NAMSHI_PRICE_ROWS = 100;

/** A required country code, as text: two letters, sent as written. */
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

/** The item's country code: two letters (A to Z, either case), else refused naming the parameter. */
export function readCountryText(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string {
	const code = requiredTextParameter(ctx, property, itemIndex);
	if (!/^[A-Za-z]{2}$/.test(code)) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`${named(property)} must be a two-letter country code, got ${quoted(code)}`,
			'Use the ISO 3166-1 alpha-2 code of the country, e.g. AE, SA or KW.',
		);
	}
	return code;
}

/** An optional amount (price, MSRP): a number from 0, empty to leave it as it is. */
export const amountProperty = (
	name: string,
	displayName: string,
	description: string,
): INodeProperties => ({
	displayName,
	name,
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: '',
	description: `${description}, not negative. Leave empty to keep the current one.`,
});

/** The MSRP of a price row: the same field in Price, Global Price and Local Price updates. */
export const msrpProperty = amountProperty(
	'msrp',
	'MSRP',
	'The recommended retail price shown crossed out beside the price',
);

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
