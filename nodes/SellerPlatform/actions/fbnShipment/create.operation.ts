/**
 * FBN Shipment → Create: a new ASN (inbound shipment) header, in status Created and without
 * items (AsnService_CreateShipment). The external reference is the seller's key: the service
 * answers the ASN made before for the same reference and shipment type, so a re-run creates
 * nothing twice, and a request whose answer was lost is repeated like a read.
 *
 * The service answers that ASN whatever country this request names, so the answer is compared
 * with the request (existingAsn.ts): an ASN of another country is the item's error, never a
 * success. The answer has no field that says whether it was made now; an ASN that has items or
 * has moved past Created was evidently made before and is flagged `alreadyExisted`.
 */
import type { INodeProperties } from 'n8n-workflow';

import { fbnCountryProperty, propertyIn } from '../../../shared';
import { readFbnCountry, readOption } from '../parameters';
import { bodyFromFields } from '../shapes/bodyFromFields';
import { answeredAsn } from './existingAsn';

const properties: INodeProperties[] = [
	{
		displayName: 'Shipment Type',
		name: 'shipmentType',
		type: 'options',
		options: [
			{
				name: 'FBN Global',
				value: 'SHIPMENT_TYPE_FBN_GLOBAL',
				description: 'Stock sent into noon warehouses (Fulfilled by noon)',
			},
		],
		required: true,
		default: 'SHIPMENT_TYPE_FBN_GLOBAL',
		description: 'The kind of inbound shipment',
	},
	{
		displayName: 'External Reference Number',
		name: 'exrefNr',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. PO-2026-0042',
		description:
			'Your own reference for the shipment (exref_nr), e.g. a purchase order number: unique per shipment type in your account. Creating again with the same reference answers the ASN made before (alreadyExisted: true once it has items or has moved past Created); a reference already used for another country, or whose ASN was cancelled or expired, fails.',
	},
	fbnCountryProperty('The country of the noon warehouses the stock goes to'),
];

const shipmentType = propertyIn(properties, 'shipmentType');
const country = propertyIn(properties, 'countryCode');

export const { description, plan } = bodyFromFields({
	show: { resource: 'fbnShipment', operation: 'create' },
	endpoint: 'AsnService_CreateShipment',
	properties,
	body: {
		shipment_type: (ctx, itemIndex) => readOption(ctx, shipmentType, itemIndex),
		exref_nr: 'exrefNr',
		country_code: (ctx, itemIndex) => readFbnCountry(ctx, country, itemIndex),
	},
	output: answeredAsn,
	task: (request) => ({
		creates: {
			describe: () => `the ASN of external reference ${String(request.body?.exref_nr)}`,
			advice:
				'Running the workflow again with the same External Reference Numbers creates nothing twice: the service answers the ASNs made before (for the same country).',
		},
	}),
});
