import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../types';
import { exchangeTokenOperation } from './exchangeToken.operation';

export const operations: ResourceOperations = { exchangeToken: exchangeTokenOperation };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['oauth'] } },
		options: [
			{
				name: 'Exchange Token',
				value: 'exchangeToken',
				action: 'Exchange an access token for its workflow result',
				description:
					'Complete an OAuth exchange: runs the workflow tied to the OAuth client and returns its result (for example issued credentials)',
			},
		],
		default: 'exchangeToken',
	},
	...exchangeTokenOperation.description,
];
