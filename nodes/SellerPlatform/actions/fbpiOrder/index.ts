import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../runner';
import * as createSandbox from './createSandbox.operation';
import * as getCustomerData from './getCustomerData.operation';

export const operations: Record<string, Operation> = { createSandbox, getCustomerData };

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
	...getCustomerData.description,
	...createSandbox.description,
];
