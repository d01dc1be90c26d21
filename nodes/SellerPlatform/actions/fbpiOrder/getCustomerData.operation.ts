import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { concurrencyOption, optionsCollection, requiredPathParameter } from '../common';
import type { ItemOperation } from '../types';

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

export const getCustomerDataOperation: ItemOperation<string> = {
	description,
	prepare(this: IExecuteFunctions, itemIndex) {
		return requiredPathParameter(this, 'fbpiOrderNr', 'FBPI Order Number', itemIndex);
	},
	async send(this: IExecuteFunctions, fbpiOrderNr, itemIndex) {
		const customer = await apiRequest.call(this, 'GetFbpiOrderCustomerData', {
			pathParams: { fbpi_order_nr: fbpiOrderNr },
			itemIndex,
		});
		return { fbpi_order_nr: fbpiOrderNr, ...customer };
	},
};
