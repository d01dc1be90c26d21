/**
 * What the FBN inbound operations share: the ASN number, the destination country (the
 * marketplace countries of country.ts, sent in upper case as the reference writes them), the ASN
 * statuses, and the page sizes the reference documents for its lists.
 */
import type { IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { countryCodeProperty, readCountryCode } from '../country';

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

export const fbnCountryProperty = countryCodeProperty;

/** The item's destination country, upper case (`AE`), one of the marketplace countries. */
export function readFbnCountry(
	ctx: IExecuteFunctions,
	property: INodeProperties,
	itemIndex: number,
): string {
	return (readCountryCode(ctx, property, itemIndex) as string).toUpperCase();
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
