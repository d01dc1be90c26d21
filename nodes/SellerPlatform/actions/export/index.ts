import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../runner';
import * as getStatus from './getStatus.operation';

export const operations: Record<string, Operation> = { getStatus };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['export'] } },
		options: [
			{
				name: 'Get Status',
				value: 'getStatus',
				action: 'Get the status of an export',
				description:
					'Get the details, status and download link of an export, optionally waiting for it and downloading the file',
			},
		],
		default: 'getStatus',
	},
	...getStatus.description,
];
