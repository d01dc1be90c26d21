import { resource } from '../resource';
import * as createBarcode from './createBarcode.operation';
import * as getStatus from './getStatus.operation';

export const { option, operations, description } = resource({
	value: 'import',
	name: 'Import',
	operations: {
		createBarcode: {
			name: 'Create Barcode Import',
			action: 'Create a barcode import',
			description:
				'Start an import that maps barcodes to partner SKUs, from mappings, a file or a table',
			operation: createBarcode,
		},
		getStatus: {
			name: 'Get Status',
			action: 'Get the status of an import',
			description:
				'Get the status and processing report of an import, optionally waiting until it finishes',
			operation: getStatus,
		},
	},
});
