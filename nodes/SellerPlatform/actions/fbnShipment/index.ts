import { resource } from '../resource';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as getSlots from './getSlots.operation';
import * as schedule from './schedule.operation';
import * as update from './update.operation';
import * as updateStatus from './updateStatus.operation';

export const { option, operations, description } = resource({
	value: 'fbnShipment',
	name: 'FBN Shipment (ASN)',
	default: 'create',
	operations: {
		create: {
			name: 'Create',
			action: 'Create an FBN inbound shipment',
			description:
				'Start an ASN to send stock into noon warehouses; the same external reference answers the ASN made before',
			operation: create,
		},
		get: {
			name: 'Get',
			action: 'Get an FBN inbound shipment',
			description: 'Get the status, schedule and quantities of an ASN',
			operation: get,
		},
		getMany: {
			name: 'Get Many',
			action: 'Get many FBN inbound shipments',
			description: 'List the ASNs of a destination country, optionally of one status',
			tool: `Lists the FBN inbound shipments (ASNs: stock the seller sends into noon's warehouses) of one destination country: for each, asn_nr, exref_nr, status, dst_warehouse_code, schedule_date, schedule_slot, expected_qty, qty_received, total_sku_count and created_at. Takes the country's upper-case two-letter ISO 3166-1 code, such as AE or SA.`,
			operation: getMany,
		},
		update: {
			name: 'Update',
			action: 'Update an FBN inbound shipment',
			description: 'Set the metadata of an ASN that is not yet being received',
			operation: update,
		},
		updateStatus: {
			name: 'Update Status',
			action: 'Seal, cancel or reschedule an FBN inbound shipment',
			description: 'Seal a draft ASN, cancel it, or give up its schedule',
			operation: updateStatus,
		},
		getSlots: {
			name: 'Get Slots',
			action: 'Get the delivery slots of an FBN inbound shipment',
			description: 'List the warehouses, days and time slots a sealed ASN can be delivered in',
			operation: getSlots,
		},
		schedule: {
			name: 'Schedule',
			action: 'Schedule an FBN inbound shipment',
			description: 'Book a sealed ASN into a warehouse, day and time slot',
			operation: schedule,
		},
	},
});
