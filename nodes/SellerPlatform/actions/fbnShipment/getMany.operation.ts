/**
 * FBN Shipment → Get Many: the ASNs of one destination country, optionally of one status, every
 * page followed (shapes/list.ts, at most 200 per page). Each output item is one ASN header.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fbnCountryProperty, propertyIn } from '../../../shared';
import { readCollection, readFbnCountry, readOptionField } from '../parameters';
import { listOperation, listProperties } from '../shapes/list';
import { ASN_PAGE_SIZE, ASN_STATUS_OPTIONS } from './asn';
import { simplifiedAsn } from './simplified';

const properties: INodeProperties[] = [
	fbnCountryProperty('The destination country whose ASNs are listed'),
	...listProperties,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: ASN_STATUS_OPTIONS,
				default: 'ASN_STATUS_CREATED',
				description: 'Only the ASNs in this status',
			},
		],
	},
];

const country = propertyIn(properties, 'countryCode');
const filters = propertyIn(properties, 'filters');
const status = propertyIn(filters.options as INodeProperties[], 'status');

function readQuery(ctx: IExecuteFunctions, itemIndex: number): Record<string, string> {
	const query: Record<string, string> = { country_code: readFbnCountry(ctx, country, itemIndex) };
	const values = readCollection(ctx, filters, itemIndex);
	if (status.name in values)
		query['filter.status'] = readOptionField(ctx, itemIndex, values, status, 'field');
	return query;
}

export const { description, plan } = listOperation({
	show: { resource: 'fbnShipment', operation: 'getMany' },
	endpoint: 'AsnService_ListShipments',
	properties,
	entries: 'shipments',
	token: 'query',
	noun: 'ASNs',
	pageSize: ASN_PAGE_SIZE,
	total: {
		field: 'total_count',
		counts: 'the number of ASNs across all pages, as the service counts them',
	},
	simplified: simplifiedAsn,
	read: (ctx, itemIndex) => ({ query: readQuery(ctx, itemIndex) }),
});
