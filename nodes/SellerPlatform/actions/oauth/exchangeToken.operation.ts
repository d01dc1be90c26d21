import { bodyFromFields } from '../shapes/bodyFromFields';

export const { description, plan } = bodyFromFields({
	show: { resource: 'oauth', operation: 'exchangeToken' },
	endpoint: 'ExchangeToken',
	body: { access_token: 'accessToken' },
	// The exchange runs the client's workflow: its outcome is the answer's status.
	answerStatus: 'status',
	properties: [
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'The access_token (a JWT obtained from CreateToken) of the OAuth client whose workflow should run on your behalf',
		},
	],
});
