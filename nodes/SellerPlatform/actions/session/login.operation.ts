import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { gatewayBaseUrl, loginForRun } from '../../../shared';
import { perItem } from '../runner';

export const description: INodeProperties[] = [
	{
		displayName:
			'Logs in with the selected credential and reports the outcome. Other operations log in by themselves; use this one to check a credential inside a workflow.',
		name: 'loginNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: ['session'], operation: ['login'] } },
	},
];

/** One login per node run, shared by its items: the result says who is logged in, never how. */
export const plan = perItem(function (this: IExecuteFunctions, itemIndex) {
	return {
		send: async () => {
			const { credentials, sessionCookie, loggedInAt } = await loginForRun(this, itemIndex);
			const cookieNames = sessionCookie
				.split(';')
				.map((pair) => pair.trim().split('=')[0])
				.filter(Boolean);
			const json: IDataObject = {
				loggedIn: true,
				keyId: credentials.keyId as string,
				projectCode: credentials.projectCode as string,
				baseUrl: gatewayBaseUrl(credentials),
				sessionCookieNames: cookieNames,
				loggedInAt,
			};
			return { json };
		},
	};
});
