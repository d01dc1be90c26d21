import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../runner';
import * as get from './get.operation';

export const operations: Record<string, Operation> = { get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['purchaseOrder'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a purchase order',
				description: 'Fetch a purchase order with its status, release date and lines by its number',
			},
		],
		default: 'get',
	},
	...get.description,
];
