import { resource } from '../resource';
import * as login from './login.operation';

export const { option, operations, description } = resource({
	value: 'session',
	name: 'Session',
	operations: {
		login: {
			name: 'Log In',
			action: 'Log in to the seller platform',
			description:
				"Open a session with the credential's key and report the project it is scoped to",
			operation: login,
		},
	},
});
