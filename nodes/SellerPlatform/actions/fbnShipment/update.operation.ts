/**
 * FBN Shipment → Update: sets an ASN's metadata (`misc`, a JSON object the service has not yet
 * given a fixed form), while it is Created, Sealed or Scheduled (AsnService_UpdateShipment, PUT).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { named, propertyIn, shown } from '../../../shared';
import { invalidParameter } from '../parameters';
import { bodyFromFields } from '../shapes/bodyFromFields';
import { asnNrProperty } from './asn';

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

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** The metadata: a JSON object, given as one or as JSON text; anything else refused. */
function readMisc(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const value = ctx.getNodeParameter(misc.name, itemIndex, misc.default) as unknown;
	let object: unknown = value;
	if (typeof value === 'string') {
		try {
			object = JSON.parse(value) as unknown;
		} catch {
			const message = `${named(misc)} must be a JSON object, got text that is not JSON`;
			throw invalidParameter(ctx, itemIndex, message, 'Write an object such as {"note": "x"}.');
		}
	}
	if (!isObject(object)) {
		const message = `${named(misc)} must be a JSON object, got ${shown(object)}`;
		throw invalidParameter(ctx, itemIndex, message, 'Write an object such as {"note": "x"}.');
	}
	return object;
}

export const { description, plan } = bodyFromFields({
	show: { resource: 'fbnShipment', operation: 'update' },
	endpoint: 'AsnService_UpdateShipment',
	properties,
	path: { asn_nr: 'asnNr' },
	body: { misc: readMisc },
});
