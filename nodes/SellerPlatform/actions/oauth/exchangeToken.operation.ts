import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { concurrencyOption, optionsCollection, requiredString } from '../common';
import type { ItemOperation } from '../types';

const show = { resource: ['oauth'], operation: ['exchangeToken'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Access Token',
		name: 'accessToken',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		description:
			'The access_token (a JWT obtained from CreateToken) of the OAuth client whose workflow should run on your behalf',
		displayOptions: { show },
	},
	optionsCollection(show, [concurrencyOption]),
];

export const exchangeTokenOperation: ItemOperation<string> = {
	description,
	prepare(this: IExecuteFunctions, itemIndex) {
		return requiredString(this, 'accessToken', 'Access Token', itemIndex);
	},
	async send(this: IExecuteFunctions, accessToken, itemIndex) {
		return await apiRequest.call(this, 'ExchangeToken', { body: { access_token: accessToken }, itemIndex });
	},
};
