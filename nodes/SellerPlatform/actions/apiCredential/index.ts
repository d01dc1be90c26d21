import { resource } from '../resource';
import * as create from './create.operation';
import * as remove from './remove.operation';

export const { option, operations, description } = resource({
	value: 'apiCredential',
	name: 'API Credential',
	default: 'create',
	operations: {
		create: {
			name: 'Create',
			action: 'Create an API credential',
			description:
				'Generate an RSA key pair credential for an API service account, optionally limited to IP addresses and an expiry',
			operation: create,
		},
		remove: {
			name: 'Remove',
			action: 'Remove API credentials',
			description:
				'Deactivate one key of an API service account, or every key of it when no Key ID is given',
			operation: remove,
		},
	},
});
