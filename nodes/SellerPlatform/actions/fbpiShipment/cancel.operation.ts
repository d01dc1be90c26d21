import { bodyFromFields } from '../shapes/bodyFromFields';
import { readShipmentKey, shipmentKeyProperties } from './shipment';

const properties = shipmentKeyProperties('The warehouse the shipment was created in');

export const { description, plan } = bodyFromFields({
	show: { resource: 'fbpiShipment', operation: 'cancel' },
	endpoint: 'CancelShipment',
	properties: [
		{
			displayName:
				'Cancels the shipment and every item in it; the items are then cancelled on the order too.',
			name: 'cancelNotice',
			type: 'notice',
			default: '',
		},
		...properties,
	],
	body: (ctx, itemIndex) => ({ ...readShipmentKey(ctx, properties, itemIndex) }),
	output: (_ctx, answer, { body }) => ({ json: { ...body, ...answer, cancelled: true } }),
});
