import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../../shared';
import { concurrencyOption, optionsCollection } from '../options';
import { requiredPathParameter } from '../parameters';
import { perItem } from '../runner';

const show = { resource: ['fbpiOrder'], operation: ['getCustomerData'] };

export const description: INodeProperties[] = [
	{
		displayName: 'FBPI Order Number',
		name: 'fbpiOrderNr',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. ={{ $json.payload.order_nr }}',
		description:
			'The fbpi_order_nr, as received in the payload (order_nr) of an FBPI::ORDER_SYNC event or returned by Create Sandbox Order',
		displayOptions: { show },
	},
	optionsCollection(show, [concurrencyOption]),
];

export const plan = perItem(function (this: IExecuteFunctions, itemIndex) {
	const fbpiOrderNr = requiredPathParameter(this, 'fbpiOrderNr', 'FBPI Order Number', itemIndex);
	return {
		send: async () => {
			const customer = await apiRequest.call(this, 'GetFbpiOrderCustomerData', {
				pathParams: { fbpi_order_nr: fbpiOrderNr },
				itemIndex,
			});
			return { json: { fbpi_order_nr: fbpiOrderNr, ...customer } };
		},
	};
});
