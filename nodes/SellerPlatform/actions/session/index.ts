import { resource } from '../resource';
import * as login from './login.operation';
import * as whoAmI from './whoAmI.operation';

export const { option, operations, description } = resource({
	value: 'session',
	name: 'Session',
	default: 'login',
	operations: {
		login: {
			name: 'Log In',
			action: 'Log in to the seller platform',
			description:
				"Open a session with the credential's key and report the project it is scoped to",
			operation: login,
		},
		whoAmI: {
			name: 'Who Am I',
			action: 'Get the user of the session',
			description:
				'Get the user_code and username of the API user the credential logs in as (the User Code that API Credential operations take)',
			operation: whoAmI,
		},
	},
});
