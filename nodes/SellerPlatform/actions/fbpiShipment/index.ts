import { resource } from '../resource';
import * as addCourierAwbs from './addCourierAwbs.operation';
import * as cancel from './cancel.operation';
import * as create from './create.operation';
import * as generateAwbs from './generateAwbs.operation';
import * as get from './get.operation';

export const { option, operations, description } = resource({
	value: 'fbpiShipment',
	name: 'FBPI Shipment',
	default: 'create',
	operations: {
		create: {
			name: 'Create',
			action: 'Create a shipment for an FBPI order',
			description:
				'Ship items of an order with one or more AWBs; a re-run with the same shipment number finds the shipment instead of creating it twice',
			operation: create,
		},
		get: {
			name: 'Get',
			action: 'Get an FBPI shipment',
			description: 'Get the order, items and AWBs of a shipment by its number',
			operation: get,
		},
		cancel: {
			name: 'Cancel',
			action: 'Cancel an FBPI shipment',
			description: 'Cancel a shipment and the items in it',
			operation: cancel,
		},
		addCourierAwbs: {
			name: 'Add Courier AWBs',
			action: 'Add courier AWBs to an FBPI shipment',
			description: 'Add AWBs to a shipment, e.g. when its current one cannot be scanned',
			operation: addCourierAwbs,
		},
		generateAwbs: {
			name: 'Generate AWBs',
			action: 'Generate noon logistics AWB numbers',
			description: 'Get up to 1000 new noon logistics AWB numbers for later shipments',
			operation: generateAwbs,
		},
	},
});
