import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../types';
import { updateOperation } from './update.operation';

export const operations: ResourceOperations = { update: updateOperation };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['destination'] } },
		options: [
			{
				name: 'Update',
				value: 'update',
				action: 'Update an event destination',
				description:
					'Change an HTTPS destination for event notifications: its address, headers, state and event subscriptions',
			},
		],
		default: 'update',
	},
	...updateOperation.description,
];
