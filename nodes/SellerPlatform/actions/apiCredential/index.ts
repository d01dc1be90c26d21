import { resource } from '../resource';
import * as create from './create.operation';

export const { option, operations, description } = resource({
	value: 'apiCredential',
	name: 'API Credential',
	operations: {
		create: {
			name: 'Create',
			action: 'Create an API credential',
			description:
				'Generate an RSA key pair credential for an API service account, optionally limited to IP addresses and an expiry',
			operation: create,
		},
	},
});
