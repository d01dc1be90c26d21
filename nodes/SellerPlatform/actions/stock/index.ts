import { resource } from '../resource';
import { WAREHOUSES } from '../toolDescription';
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
			tool: `Gets the stock of one SKU in one warehouse: qty (units available), processing_time (as the seller set it, free text) and stock_updated_at. Takes a warehouse_code exactly as ${WAREHOUSES} lists it, and the seller's partner_sku (as orders and offers show it).`,
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
