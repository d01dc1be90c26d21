/**
 * Warehouse → Get Many: the warehouses of the credential's project (ListWarehouses), optionally
 * of one fulfillment system, every page followed (shapes/list.ts; the token goes in the body).
 * ListWarehouses has a plan of its own (30 per 60 s, at most 15 in any 30 s), which the shared
 * layer paces by.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { propertyIn } from '../../../shared';
import { readCollection, readTextField } from '../parameters';
import { listOperation, listProperties } from '../shapes/list';

const properties: INodeProperties[] = [
	...listProperties,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Fulfillment System Code',
				name: 'fulfillmentSystemCode',
				type: 'string',
				default: '',
				placeholder: 'e.g. FBPI',
				description: 'Only the warehouses of this fulfillment system (as the service names it)',
			},
		],
	},
];

const filtersProperty = propertyIn(properties, 'filters');
const fulfillmentSystemCode = propertyIn(
	filtersProperty.options as INodeProperties[],
	'fulfillmentSystemCode',
);

/** The body: `filters.fulfillment_system_code` when the filter is set (never blank). */
function readFilters(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = readCollection(ctx, filtersProperty, itemIndex);
	const advice = 'Give a fulfillment system code, or remove the filter to list every warehouse.';
	const code = readTextField(ctx, itemIndex, filters, fulfillmentSystemCode, advice);
	return code === undefined ? {} : { filters: { fulfillment_system_code: code } };
}

export const { description, plan } = listOperation({
	show: { resource: 'warehouse', operation: 'getMany' },
	endpoint: 'ListWarehouses',
	properties,
	entries: 'warehouses',
	token: 'body',
	noun: 'warehouses',
	read: (ctx, itemIndex) => ({ body: readFilters(ctx, itemIndex) }),
});
