/**
 * FBN Shipment → Update Status: moves an ASN on (AsnService_UpdateShipmentStatus, PUT): seal a
 * draft that has items (Created → Sealed), cancel it (from Created, Sealed or Scheduled), or give
 * up its schedule (Scheduled → Sealed). The service refuses a move the ASN's status does not allow.
 */
import type { INodeProperties } from 'n8n-workflow';

import { asnNrProperty, propertyIn } from '../../../shared';
import { readOption } from '../parameters';
import { bodyFromFields } from '../shapes/bodyFromFields';

const properties: INodeProperties[] = [
	asnNrProperty('The number of the ASN to move on (asn_nr)'),
	{
		displayName: 'Action',
		name: 'statusAction',
		type: 'options',
		options: [
			{
				name: 'Seal',
				value: 'STATUS_ACTION_SEAL',
				description: 'Finalise a draft with at least one item: Created → Sealed',
			},
			{
				name: 'Cancel',
				value: 'STATUS_ACTION_CANCEL',
				description: 'Cancel an ASN that is Created, Sealed or Scheduled',
			},
			{
				name: 'Reschedule',
				value: 'STATUS_ACTION_RESCHEDULE',
				description: 'Give up the schedule to pick another slot: Scheduled → Sealed',
			},
		],
		required: true,
		default: 'STATUS_ACTION_SEAL',
	},
];

const action = propertyIn(properties, 'statusAction');

export const { description, plan } = bodyFromFields({
	show: { resource: 'fbnShipment', operation: 'updateStatus' },
	endpoint: 'AsnService_UpdateShipmentStatus',
	properties,
	path: { asn_nr: 'asnNr' },
	body: { action: (ctx, itemIndex) => readOption(ctx, action, itemIndex) },
});
