import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../runner';
import * as exchangeToken from './exchangeToken.operation';

export const operations: Record<string, Operation> = { exchangeToken };

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
	...exchangeToken.description,
];
