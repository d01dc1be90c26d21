/**
 * What the FBN inbound operations share: the ASN number, the destination country (free text in
 * the reference, "e.g. AE, SA": the marketplace countries of country.ts offered in the list, any
 * two-letter code from an expression, sent in upper case as the reference writes them), the ASN
 * statuses, and the page sizes the reference documents for its lists.
 */
import type { IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { countryCodeProperty, readTwoLetterCountry } from '../country';

/** The most entries a page of each FBN list holds (the reference's maximum `page_size`). */
export const FBN_PAGE_SIZE = { shipments: 200, items: 1000, catalog: 1000 };

/** Items one upsert or delete request carries at most (the reference's cap). */
export const MAX_ASN_ITEMS = 1000;

export const asnNrProperty = (description: string): INodeProperties => ({
	displayName: 'ASN Number',
	name: 'asnNr',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. {{ $json.shipment.asn_nr }}',
	description,
});

/**
 * The destination country: the marketplace countries listed (the values saved workflows hold),
 * any other two-letter code from an expression.
 */
export const fbnCountryProperty = (description: string): INodeProperties =>
	countryCodeProperty(
		`${description}. Any other two-letter ISO 3166-1 code (e.g. KW) can be given with an expression; it is sent in upper case.`,
	);

/** The item's destination country, upper case (`AE`): any two letters. */
export function readFbnCountry(
	ctx: IExecuteFunctions,
	property: INodeProperties,
	itemIndex: number,
): string {
	return readTwoLetterCountry(ctx, property, itemIndex).toUpperCase();
}

/** The statuses of an ASN, as a filter offers them (the unspecified one is no status). */
export const ASN_STATUS_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Canceled', value: 'ASN_STATUS_CANCELED' },
	{ name: 'Created', value: 'ASN_STATUS_CREATED', description: 'A draft: items can change' },
	{ name: 'Expired', value: 'ASN_STATUS_EXPIRED' },
	{ name: 'Inbounded', value: 'ASN_STATUS_INBOUNDED', description: 'Received in full' },
	{ name: 'Receiving', value: 'ASN_STATUS_RECEIVING', description: 'Being received' },
	{ name: 'Scheduled', value: 'ASN_STATUS_SCHEDULED', description: 'Has a warehouse and slot' },
	{ name: 'Sealed', value: 'ASN_STATUS_SEALED', description: 'Final items, not yet scheduled' },
];
