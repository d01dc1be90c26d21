import { resource } from '../resource';
import * as get from './get.operation';
import * as update from './update.operation';

export const { option, operations, description } = resource({
	value: 'stock',
	name: 'Stock',
	default: 'update',
	operations: {
		get: {
			name: 'Get',
			action: 'Get stock of SKUs in a warehouse',
			description:
				'Get the quantity, processing time and last update of a SKU in a warehouse, one per input item, read in batches',
			operation: get,
		},
		update: {
			name: 'Update',
			action: 'Update stock of SKUs in a warehouse',
			description:
				'Set the quantity and/or processing time of a SKU in a warehouse, one per input item, sent in batches',
			operation: update,
		},
	},
});
