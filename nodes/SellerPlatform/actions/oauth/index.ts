import { resource } from '../resource';
import * as createToken from './createToken.operation';
import * as exchangeToken from './exchangeToken.operation';

export const { option, operations, description } = resource({
	value: 'oauth',
	name: 'OAuth',
	default: 'exchangeToken',
	operations: {
		createToken: {
			name: 'Create Token',
			action: 'Create an OAuth access token',
			description:
				'Trade the authorization code of the OAuth consent redirect and your client ID and secret for an access token',
			operation: createToken,
		},
		exchangeToken: {
			name: 'Exchange Token',
			action: 'Exchange an access token for its workflow result',
			description:
				'Complete an OAuth exchange: runs the workflow tied to the OAuth client and returns its result (for example issued credentials)',
			operation: exchangeToken,
		},
	},
});
