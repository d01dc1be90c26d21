import { resource } from '../resource';
import * as exchangeToken from './exchangeToken.operation';

export const { option, operations, description } = resource({
	value: 'oauth',
	name: 'OAuth',
	operations: {
		exchangeToken: {
			name: 'Exchange Token',
			action: 'Exchange an access token for its workflow result',
			description:
				'Complete an OAuth exchange: runs the workflow tied to the OAuth client and returns its result (for example issued credentials)',
			operation: exchangeToken,
		},
	},
});
