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
			operation: getMany,
		},
	},
});
