import { resource } from '../resource';
import * as get from './get.operation';

export const { option, operations, description } = resource({
	value: 'offer',
	name: 'Offer',
	operations: {
		get: {
			name: 'Get',
			action: 'Get the offers of a SKU',
			description:
				'Get the offers of a SKU in every country: price, net stock, whether each is live and the issues that keep it offline',
			operation: get,
		},
	},
});
