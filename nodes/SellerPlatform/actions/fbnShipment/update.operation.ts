/**
 * FBN Shipment → Update: sets an ASN's metadata (`misc`, a JSON object the service has not yet
 * given a fixed form), while it is Created, Sealed or Scheduled (AsnService_UpdateShipment, PUT).
 */
import type { INodeProperties } from 'n8n-workflow';

import { asnNrProperty, propertyIn } from '../../../shared';
import { readJsonObject } from '../parameters';
import { bodyFromFields } from '../shapes/bodyFromFields';

const properties: INodeProperties[] = [
	asnNrProperty('The number of the ASN to update (asn_nr)'),
	{
		displayName: 'Metadata (JSON)',
		name: 'misc',
		type: 'json',
		required: true,
		default: '{}',
		description:
			'Additional metadata of the shipment (misc), a JSON object: the service has not fixed its fields yet',
	},
];

const misc = propertyIn(properties, 'misc');

export const { description, plan } = bodyFromFields({
	show: { resource: 'fbnShipment', operation: 'update' },
	endpoint: 'AsnService_UpdateShipment',
	properties,
	path: { asn_nr: 'asnNr' },
	body: { misc: (ctx, itemIndex) => readJsonObject(ctx, misc, itemIndex) },
});
