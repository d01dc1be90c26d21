/** OAuth exchange (identity). */
import { requiredString } from '../validate';
import type { RouteModule } from './types';

export const oauthRoutes: RouteModule = () => [
	{
		operation: 'ExchangeToken',
		method: 'POST',
		path: '/identity/oauth/v1/token/exchange',
		auth: 'session',
		rateLimited: true,
		handler: ({ state, body, session, now }) => {
			const accessToken = requiredString(body, 'access_token');
			return { body: state.oauth.exchange(accessToken, session!.projectCode, now) };
		},
	},
];
