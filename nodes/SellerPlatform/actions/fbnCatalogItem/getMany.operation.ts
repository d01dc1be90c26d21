/**
 * FBN Catalog Item → Get Many: your catalog items that can be sent to noon warehouses of a
 * country (AsnService_ListEligibleItems), optionally those whose SKU contains a text, every page
 * followed (shapes/list.ts, at most 1000 per page).
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fbnCountryProperty, propertyIn } from '../../../shared';
import { readCollection, readFbnCountry, readTextField } from '../parameters';
import { listOperation, listProperties } from '../shapes/list';

/** The most catalog items a page holds (the reference's maximum `page_size`). */
const PAGE_SIZE = 1000;

const properties: INodeProperties[] = [
	fbnCountryProperty('The destination country the items must be eligible for'),
	...listProperties,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Partner SKU',
				name: 'partnerSku',
				type: 'string',
				default: '',
				placeholder: 'e.g. MUG',
				description: 'Only the items whose partner SKU contains this text',
			},
		],
	},
];

const country = propertyIn(properties, 'countryCode');
const filters = propertyIn(properties, 'filters');
const partnerSku = propertyIn(filters.options as INodeProperties[], 'partnerSku');

function readQuery(ctx: IExecuteFunctions, itemIndex: number): Record<string, string> {
	const query: Record<string, string> = { country_code: readFbnCountry(ctx, country, itemIndex) };
	const values = readCollection(ctx, filters, itemIndex);
	const advice = 'Give part of a SKU, or remove the filter to list every eligible item.';
	const text = readTextField(ctx, itemIndex, values, partnerSku, advice);
	if (text !== undefined) query['search.partner_sku'] = text;
	return query;
}

export const { description, plan } = listOperation({
	show: { resource: 'fbnCatalogItem', operation: 'getMany' },
	endpoint: 'AsnService_ListEligibleItems',
	properties,
	entries: 'items',
	token: 'query',
	noun: 'catalog items',
	pageSize: PAGE_SIZE,
	total: {
		field: 'total_count',
		counts: 'the eligible items across all pages, the SKU filter applied',
	},
	read: (ctx, itemIndex) => ({ query: readQuery(ctx, itemIndex) }),
});
