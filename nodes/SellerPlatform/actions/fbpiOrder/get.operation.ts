import { readByPath } from '../shapes/readByPath';

export const { description, plan } = readByPath({
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
});
