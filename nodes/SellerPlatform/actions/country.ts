/**
 * The marketplace country of the FBPI, AWB and price operations: the three the reference lists,
 * one options list and one reader (lower case; any other value refused, naming the parameter).
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { named, quoted } from '../../shared';
import { invalidParameter, textParameter, type ParameterSource } from './parameters';

/** The reference's country codes, in the order messages list them. */
export const COUNTRY_CODES = ['ae', 'sa', 'eg'];

/** The countries as the editor lists them (by name). */
export const COUNTRY_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Egypt', value: 'eg' },
	{ name: 'Saudi Arabia', value: 'sa' },
	{ name: 'United Arab Emirates', value: 'ae' },
];

/** A required Country Code (United Arab Emirates by default). */
export const countryCodeProperty = (description: string): INodeProperties => ({
	displayName: 'Country Code',
	name: 'countryCode',
	type: 'options',
	options: COUNTRY_OPTIONS,
	required: true,
	default: 'ae',
	description,
});

/** The item's country, lower case, one of COUNTRY_CODES; undefined when optional and unset. */
export function readCountryCode(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string | undefined {
	const code = textParameter(ctx, property, itemIndex)?.toLowerCase();
	if (code !== undefined && !COUNTRY_CODES.includes(code)) {
		const message = `${named(property)} must be one of ${COUNTRY_CODES.join(', ')}, got ${quoted(code)}`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	return code;
}
