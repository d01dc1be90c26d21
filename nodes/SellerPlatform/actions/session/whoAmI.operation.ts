/** Session → Who Am I: whose session the credential opens (`user_code`, `username`). */
import type { IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../../shared';
import { perItem } from '../runner';
import { describe } from '../shapes/declaration';

export const description = describe({
	show: { resource: 'session', operation: 'whoAmI' },
	properties: [],
});

export const plan = perItem(function (this: IExecuteFunctions, itemIndex) {
	return { send: async () => ({ json: await apiRequest.call(this, 'Whoami', { itemIndex }) }) };
});
