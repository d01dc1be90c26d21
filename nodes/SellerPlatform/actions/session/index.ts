import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../runner';
import * as login from './login.operation';

export const operations: Record<string, Operation> = { login };

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
				description:
					"Open a session with the credential's key and report the project it is scoped to",
			},
		],
		default: 'login',
	},
	...login.description,
];
