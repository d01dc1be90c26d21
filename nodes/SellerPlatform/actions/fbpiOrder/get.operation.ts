/** FBPI Order → Get: an order with its items, by its number. */
import { simplifiedReadByPath } from '../shapes/simplify';
import { simplifiedOrder } from './simplified';

export const { description, plan } = simplifiedReadByPath({
	show: { resource: 'fbpiOrder', operation: 'get' },
	endpoint: 'GetFbpiOrder',
	path: { fbpi_order_nr: 'fbpiOrderNr' },
	properties: [
		{
			displayName: 'FBPI Order Number',
			name: 'fbpiOrderNr',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. ={{ $json.payload.order_nr }}',
			description:
				'The fbpi_order_nr of the order to read: from the payload (order_nr) of an FBPI::ORDER_SYNC event, from Get Many, or from Create Sandbox Order',
		},
	],
	simplified: simplifiedOrder,
});
