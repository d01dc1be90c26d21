import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { abortable } from '../../../api/abort';
import { CREDENTIAL_TYPE } from '../../../api/constants';
import { apiError } from '../../../api/errors';
import { login } from '../../../api/login';
import { perRun } from '../../../api/state';
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
export const execute = perItem(function (this: IExecuteFunctions, itemIndex) {
	return { send: async () => ({ json: await loginOnce(this, itemIndex) }) };
});

async function loginOnce(ctx: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	let pending = perRun.loginResults.get(ctx);
	if (!pending) {
		pending = (async () => {
			const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
			const { sessionCookie } = await login.call(
				{ helpers: { httpRequest: ctx.helpers.httpRequest } },
				credentials,
				ctx.getExecutionCancelSignal?.(),
			);
			const cookieNames = String(sessionCookie)
				.split(';')
				.map((pair) => pair.trim().split('=')[0])
				.filter(Boolean);
			return {
				loggedIn: true,
				keyId: credentials.keyId as string,
				projectCode: credentials.projectCode as string,
				baseUrl: credentials.baseUrl as string,
				sessionCookieNames: cookieNames,
				loggedInAt: new Date().toISOString(),
			};
		})();
		perRun.loginResults.set(ctx, pending);
	}
	try {
		// A login ends at its own deadline; a stop ends it and the node's wait at once.
		return { ...(await abortable(pending, ctx.getExecutionCancelSignal?.())) };
	} catch (error) {
		throw apiError(error, { node: ctx.getNode(), operation: 'Login', itemIndex });
	}
}
