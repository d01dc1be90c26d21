import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../runner';
import * as create from './create.operation';

export const operations: Record<string, Operation> = { create };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['apiCredential'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create an API credential',
				description:
					'Generate an RSA key pair credential for an API service account, optionally limited to IP addresses and an expiry',
			},
		],
		default: 'create',
	},
	...create.description,
];
