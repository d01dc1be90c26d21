import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../types';
import { loginOperation } from './login.operation';

export const operations: ResourceOperations = { login: loginOperation };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['session'] } },
		options: [
			{
				name: 'Log In',
				value: 'login',
				action: 'Log in to the seller platform',
				description: 'Open a session with the credential\'s key and report the project it is scoped to',
			},
		],
		default: 'login',
	},
	...loginOperation.description,
];
