import { resource } from '../resource';
import * as getMany from './getMany.operation';

export const { option, operations, description } = resource({
	value: 'fbnCatalogItem',
	name: 'FBN Catalog Item',
	default: 'getMany',
	operations: {
		getMany: {
			name: 'Get Many',
			action: 'Get many catalog items eligible for FBN',
			description:
				'List your items that can be sent to noon warehouses of a country, with their storage type',
			operation: getMany,
		},
	},
});
