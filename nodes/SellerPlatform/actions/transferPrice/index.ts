import { resource } from '../resource';
import * as get from './get.operation';
import * as update from './update.operation';

export const { option, operations, description } = resource({
	value: 'transferPrice',
	name: 'Transfer Price (Cross-Border)',
	default: 'update',
	operations: {
		get: {
			name: 'Get',
			action: 'Get transfer prices of SKUs',
			description:
				'Get the transfer price, MSRP (in US dollars) and active state of a SKU, one per input item, read in batches',
			operation: get,
		},
		update: {
			name: 'Update',
			action: 'Update transfer prices of SKUs',
			description:
				'Set the transfer price, MSRP (in US dollars) and/or active state of a SKU, one per input item, sent in batches',
			operation: update,
		},
	},
});
