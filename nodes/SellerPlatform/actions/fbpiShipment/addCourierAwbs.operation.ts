import { propertyIn } from '../../../shared';
import { bodyFromFields } from '../shapes/bodyFromFields';
import { awbsProperty, readAwbs, readShipmentKey, shipmentKeyProperties } from './shipment';

const properties = [
	...shipmentKeyProperties('The warehouse the shipment was created in'),
	awbsProperty(
		'The AWBs to add to the shipment, e.g. when the current one cannot be scanned at the warehouse',
	),
];
const awbs = propertyIn(properties, 'awbs');

export const { description, plan } = bodyFromFields({
	show: { resource: 'fbpiShipment', operation: 'addCourierAwbs' },
	endpoint: 'AddShipmentCourierAwbs',
	properties,
	body: (ctx, itemIndex) => ({
		...readShipmentKey(ctx, properties, itemIndex),
		awbs: readAwbs(ctx, awbs, itemIndex),
	}),
	output: (_ctx, answer, { body }) => {
		const { awbs: added, ...key } = body ?? {};
		return { json: { ...key, ...answer, added_awbs: added } };
	},
});
