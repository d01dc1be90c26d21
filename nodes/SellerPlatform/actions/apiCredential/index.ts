import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../types';
import { createOperation } from './create.operation';

export const operations: ResourceOperations = { create: createOperation };

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
	...createOperation.description,
];
