import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../runner';
import * as createBarcode from './createBarcode.operation';
import * as getStatus from './getStatus.operation';

export const operations: Record<string, Operation> = { createBarcode, getStatus };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['import'] } },
		options: [
			{
				name: 'Create Barcode Import',
				value: 'createBarcode',
				action: 'Create a barcode import',
				description:
					'Start an import that maps barcodes to partner SKUs, from mappings, a file or a table',
			},
			{
				name: 'Get Status',
				value: 'getStatus',
				action: 'Get the status of an import',
				description:
					'Get the status and processing report of an import, optionally waiting until it finishes',
			},
		],
		default: 'createBarcode',
	},
	...createBarcode.description,
	...getStatus.description,
];
