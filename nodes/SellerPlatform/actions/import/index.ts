import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../types';
import { createBarcodeOperation } from './createBarcode.operation';
import { getStatusOperation } from './getStatus.operation';

export const operations: ResourceOperations = { createBarcode: createBarcodeOperation, getStatus: getStatusOperation };

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
				description: 'Start an import that maps barcodes to partner SKUs, from mappings, a file or a table',
			},
			{
				name: 'Get Status',
				value: 'getStatus',
				action: 'Get the status of an import',
				description: 'Get the status and processing report of an import, optionally waiting until it finishes',
			},
		],
		default: 'createBarcode',
	},
	...createBarcodeOperation.description,
	...getStatusOperation.description,
];
