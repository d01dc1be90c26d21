/**
 * The marketplace country of the FBPI, AWB, price and FBN operations: the three the reference
 * lists, one options list. Where the reference leaves the country free text (FBN, Namshi prices),
 * any two-letter code is taken (the action node's readers check each).
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** The reference's country codes, in the order messages list them. */
export const COUNTRY_CODES = ['ae', 'sa', 'eg'];

/** The countries as the editor lists them (by name). */
export const COUNTRY_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Egypt', value: 'eg' },
	{ name: 'Saudi Arabia', value: 'sa' },
	{ name: 'United Arab Emirates', value: 'ae' },
];

/** The marketplace countries as a message or a tool description names them: `AE (United Arab Emirates), …`. */
export const MARKETPLACE_COUNTRIES = COUNTRY_CODES.map((code) => {
	const country = COUNTRY_OPTIONS.find((option) => option.value === code)?.name ?? code;
	return `${code.toUpperCase()} (${country})`;
}).join(', ');

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

/**
 * The destination country of the FBN operations: the marketplace countries listed (the values
 * saved workflows hold), any other two-letter code from an expression.
 */
export const fbnCountryProperty = (description: string): INodeProperties =>
	countryCodeProperty(
		`${description}. Any other two-letter ISO 3166-1 code (e.g. KW) can be given with an expression; it is sent in upper case.`,
	);

/** A required country code as text (Namshi's prices): two letters, sent as written. */
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
