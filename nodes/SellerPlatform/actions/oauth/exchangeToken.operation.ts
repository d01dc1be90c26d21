import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../../shared';
import { concurrencyOption, optionsCollection } from '../options';
import { requiredTextParameter } from '../parameters';
import { perItem } from '../runner';

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

export const plan = perItem(function (this: IExecuteFunctions, itemIndex) {
	const accessToken = requiredTextParameter(this, 'accessToken', 'Access Token', itemIndex);
	return {
		send: async () => ({
			json: await apiRequest.call(this, 'ExchangeToken', {
				body: { access_token: accessToken },
				itemIndex,
			}),
		}),
	};
});
