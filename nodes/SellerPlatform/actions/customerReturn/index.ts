import { resource } from '../resource';
import * as get from './get.operation';

export const { option, operations, description } = resource({
	value: 'customerReturn',
	name: 'Customer Return (Namshi)',
	operations: {
		get: {
			name: 'Get',
			action: 'Get customer returns of orders',
			description:
				'Get the returned items (AWB, barcode, status) of a Namshi order (a credential with Gateway: Namshi), one per input item, read in batches',
			operation: get,
		},
	},
});
