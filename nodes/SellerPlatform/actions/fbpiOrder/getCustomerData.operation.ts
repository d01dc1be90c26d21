import { readByPath } from '../shapes/readByPath';

export const { description, plan } = readByPath({
	show: { resource: 'fbpiOrder', operation: 'getCustomerData' },
	endpoint: 'GetFbpiOrderCustomerData',
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
				'The fbpi_order_nr, as received in the payload (order_nr) of an FBPI::ORDER_SYNC event or returned by Create Sandbox Order',
		},
	],
	output: (_ctx, customer, { pathParams }) => ({
		json: { fbpi_order_nr: pathParams?.fbpi_order_nr, ...customer },
	}),
});
