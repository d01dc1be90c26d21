import { resource } from '../resource';
import * as update from './update.operation';

export const { option, operations, description } = resource({
	value: 'crossBorderProduct',
	name: 'Cross-Border Product',
	operations: {
		update: {
			name: 'Update',
			action: 'Update cross-border products',
			description:
				'Create or update the dimensions, weights and HS code of a SKU for cross-border pricing, one per input item, sent in batches',
			operation: update,
		},
	},
});
