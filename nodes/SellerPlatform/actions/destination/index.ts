import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../runner';
import * as update from './update.operation';

export const operations: Record<string, Operation> = { update };

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
	...update.description,
];
