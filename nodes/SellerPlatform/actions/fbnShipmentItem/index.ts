import { resource } from '../resource';
import * as deleteOperation from './delete.operation';
import * as getMany from './getMany.operation';
import * as upsert from './upsert.operation';

export const { option, operations, description } = resource({
	value: 'fbnShipmentItem',
	name: 'FBN Shipment Item',
	operations: {
		upsert: {
			name: 'Create or Update',
			action: 'Create or update items of an FBN inbound shipment',
			description:
				'Add a SKU to a draft ASN or set its quantity: one input item per SKU, up to 1000 per request',
			operation: upsert,
		},
		getMany: {
			name: 'Get Many',
			action: 'Get many items of an FBN inbound shipment',
			description: 'List the SKUs of an ASN with their quantities and catalog details',
			operation: getMany,
		},
		delete: {
			name: 'Delete',
			action: 'Delete items of an FBN inbound shipment',
			description: 'Take SKUs off a draft ASN: one input item per SKU',
			operation: deleteOperation,
		},
	},
});
