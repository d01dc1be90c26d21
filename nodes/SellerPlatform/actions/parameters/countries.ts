/**
 * The marketplace country (its parameters: nodes/shared/parameters/country.ts): one of the three
 * the reference lists (lower case; any other value refused, naming the parameter), or, where the
 * reference leaves the country free text (FBN, Namshi prices), any two-letter code
 * (`readTwoLetterCountry`), upper case for FBN (`readFbnCountry`).
 */
import type { INodeProperties } from 'n8n-workflow';

import { COUNTRY_CODES, MARKETPLACE_COUNTRIES, named, quoted } from '../../../shared';
import { invalidParameter, type ParameterSource } from './source';
import { readRequiredText, readText } from './text';

/** The item's country, lower case, one of COUNTRY_CODES; undefined when optional and unset. */
export function readCountryCode(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string | undefined {
	const given = readText(ctx, property, itemIndex);
	const code = given?.toLowerCase();
	if (code !== undefined && !COUNTRY_CODES.includes(code)) {
		const message = `${named(property)} must be one of ${COUNTRY_CODES.join(', ')}, got ${quoted(given!)}`;
		const advice = `Use the two-letter ISO 3166-1 code of a marketplace country, in either case: ${MARKETPLACE_COUNTRIES}.`;
		throw invalidParameter(ctx, itemIndex, message, advice);
	}
	return code;
}

/**
 * A required country code where the reference leaves it free text (FBN's "e.g. AE, SA", Namshi's
 * prices): any two letters, A to Z in either case, trimmed; else refused naming the parameter.
 */
export function readTwoLetterCountry(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string {
	const code = readRequiredText(ctx, property, itemIndex);
	if (!/^[A-Za-z]{2}$/.test(code)) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`${named(property)} must be a two-letter country code, got ${quoted(code)}`,
			'Use the upper-case two-letter ISO 3166-1 code of the country, such as AE, SA or KW.',
		);
	}
	return code;
}

/** The item's FBN destination country, upper case (`AE`): any two letters. */
export function readFbnCountry(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string {
	return readTwoLetterCountry(ctx, property, itemIndex).toUpperCase();
}
