import { resource } from '../resource';
import * as getMany from './getMany.operation';

export const { option, operations, description } = resource({
	value: 'warehouse',
	name: 'Warehouse',
	operations: {
		getMany: {
			name: 'Get Many',
			action: 'Get many warehouses',
			description:
				'List the warehouses of the project, optionally of one fulfillment system, one item per warehouse',
			tool: "Lists the seller's warehouses: for each, warehouse_code, display_name, fulfillment_system_code (e.g. FBPI) and is_active. Call it first: the FBPI order and stock tools take a warehouse_code exactly as listed here.",
			operation: getMany,
		},
	},
});
