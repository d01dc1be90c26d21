import { MARKETPLACE_COUNTRIES } from '../../../shared';
import { resource } from '../resource';
import * as get from './get.operation';
import * as update from './update.operation';

export const { option, operations, description } = resource({
	value: 'price',
	name: 'Price',
	default: 'update',
	operations: {
		get: {
			name: 'Get',
			action: 'Get prices of SKUs in a country',
			description:
				'Get the price, MSRP and active state of a SKU in a country, one per input item, read in batches',
			tool: `Gets the price of one SKU in one marketplace country: price, msrp and is_active. Takes the seller's partner_sku (as orders and offers show it) and the country's two-letter ISO 3166-1 code: ${MARKETPLACE_COUNTRIES}.`,
			operation: get,
		},
		update: {
			name: 'Update',
			action: 'Update prices of SKUs in a country',
			description:
				'Set the price, MSRP and/or active state of a SKU in a country, one per input item, sent in batches',
			operation: update,
		},
	},
});
