import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { CREDENTIAL_TYPE, describeFailure, toNodeApiError } from '../../transport';
import { login } from '../../transport/login';
import type { ItemOperation } from '../types';

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
const loginsPerRun = new WeakMap<object, Promise<IDataObject>>();

export const loginOperation: ItemOperation<void> = {
	description,
	prepare() {},
	async send(this: IExecuteFunctions, _prepared, itemIndex) {
		let pending = loginsPerRun.get(this);
		if (!pending) {
			pending = (async () => {
				const credentials = await this.getCredentials(CREDENTIAL_TYPE, itemIndex);
				const { sessionCookie } = await login.call({ helpers: { httpRequest: this.helpers.httpRequest } }, credentials);
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
			loginsPerRun.set(this, pending);
		}
		try {
			return { ...(await pending) };
		} catch (error) {
			throw toNodeApiError(this.getNode(), 'Login', describeFailure(error), itemIndex);
		}
	},
};
