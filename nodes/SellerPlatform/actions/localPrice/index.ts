import { resource } from '../resource';
import * as update from './update.operation';

export const { option, operations, description } = resource({
	value: 'localPrice',
	name: 'Local Price (Namshi)',
	operations: {
		update: {
			name: 'Update',
			action: 'Update local prices of SKUs',
			description:
				'Set the price and/or MSRP of a SKU in a country on Namshi (a credential with Gateway: Namshi), one per input item, sent in batches',
			operation: update,
		},
	},
});
