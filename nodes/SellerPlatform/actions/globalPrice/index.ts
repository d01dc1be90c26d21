import { resource } from '../resource';
import * as update from './update.operation';

export const { option, operations, description } = resource({
	value: 'globalPrice',
	name: 'Global Price (Namshi)',
	operations: {
		update: {
			name: 'Update',
			action: 'Update global prices of SKUs',
			description:
				'Set the price and/or MSRP of a SKU shipped from one country and sold in another on Namshi (a credential with Gateway: Namshi), one per input item, sent in batches',
			operation: update,
		},
	},
});
