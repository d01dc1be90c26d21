import { resource } from '../resource';
import * as get from './get.operation';

export const { option, operations, description } = resource({
	value: 'purchaseOrder',
	name: 'Purchase Order',
	operations: {
		get: {
			name: 'Get',
			action: 'Get a purchase order',
			description: 'Fetch a purchase order with its status, release date and lines by its number',
			operation: get,
		},
	},
});
