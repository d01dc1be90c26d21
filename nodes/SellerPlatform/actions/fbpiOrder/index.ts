import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../types';
import { createSandboxOperation } from './createSandbox.operation';
import { getCustomerDataOperation } from './getCustomerData.operation';

export const operations: ResourceOperations = { createSandbox: createSandboxOperation, getCustomerData: getCustomerDataOperation };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['fbpiOrder'] } },
		options: [
			{
				name: 'Create Sandbox Order',
				value: 'createSandbox',
				action: 'Create a sandbox FBPI order',
				description:
					'Create a test order in a sandbox warehouse; it is never fulfilled and triggers the order-creation webhook',
			},
			{
				name: 'Get Customer Data',
				value: 'getCustomerData',
				action: 'Get the customer of an FBPI order',
				description: 'Get the customer name, city and administrative division of an FBPI order',
			},
		],
		default: 'getCustomerData',
	},
	...getCustomerDataOperation.description,
	...createSandboxOperation.description,
];
