import { bodyFromFields } from '../shapes/bodyFromFields';
import { readShipmentKey, shipmentKeyProperties } from './shipment';

const properties = shipmentKeyProperties('The warehouse the shipment was created in');

export const { description, plan } = bodyFromFields({
	show: { resource: 'fbpiShipment', operation: 'get' },
	endpoint: 'GetShipment',
	properties,
	body: (ctx, itemIndex) => ({ ...readShipmentKey(ctx, properties, itemIndex) }),
	output: (_ctx, shipment, { body }) => ({ json: { ...body, ...shipment } }),
});
