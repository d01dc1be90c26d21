/**
 * FBN Shipment Item → Get Many: the items of an ASN with their catalog details, every page
 * followed (shapes/list.ts, at most 1000 per page). Each output item is one SKU of the ASN.
 */
import { asnNrProperty, propertyIn } from '../../../shared';
import { readPathSegment } from '../parameters';
import { listOperation, listProperties } from '../shapes/list';

/** The most items a page holds (the reference's maximum `page_size`). */
const PAGE_SIZE = 1000;

const properties = [
	asnNrProperty('The number of the ASN whose items are listed'),
	...listProperties,
];
const asn = propertyIn(properties, 'asnNr');

export const { description, plan } = listOperation({
	show: { resource: 'fbnShipmentItem', operation: 'getMany' },
	endpoint: 'AsnService_ListShipmentItems',
	properties,
	entries: 'items',
	token: 'query',
	noun: 'items',
	pageSize: PAGE_SIZE,
	total: {
		field: 'total_sku_count',
		counts: 'the distinct SKUs on the ASN, across all pages',
	},
	read: (ctx, itemIndex) => ({
		pathParams: { asn_nr: readPathSegment(ctx, asn, itemIndex) },
	}),
});
