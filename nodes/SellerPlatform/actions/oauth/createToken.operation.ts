/**
 * OAuth → Create Token: trades an authorization code and the client's ID and secret for an access
 * token (CreateToken, never repeated: the code is spent). The client secret and the code are
 * secrets in every error (the request layer removes them from what the service echoes); the
 * tokens of the answer (access, refresh, ID) are secrets too, in the output only as the "Access
 * Token Output" option says.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { optionLabel, propertyIn, redactValue } from '../../../shared';
import { readOptions } from '../options';
import { readOptionField } from '../parameters';
import type { TaskOutput } from '../runner';
import { bodyFromFields } from '../shapes/bodyFromFields';

const properties: INodeProperties[] = [
	{
		displayName:
			'The access token is a secret. By default it is in the output JSON, and n8n keeps execution data: choose another "Access Token Output" below, or stop saving execution data for this workflow, if it must not stay there.',
		name: 'accessTokenNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Grant Type',
		name: 'grantType',
		type: 'string',
		required: true,
		default: 'authorization_code',
		description: 'The OAuth grant type; authorization_code for the code of the consent redirect',
	},
	{
		displayName: 'Code',
		name: 'code',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. ={{ $json.query.code }}',
		description: 'The authorization code the OAuth consent redirect brought back (used once)',
	},
	{
		displayName: 'Client ID',
		name: 'clientId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. ={{ $json.client_id }}',
		description: 'The client_id of your OAuth app',
	},
	{
		displayName: 'Client Secret',
		name: 'clientSecret',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		description: 'The client_secret of your OAuth app',
	},
];

const tokenOutputOptions: INodeProperties[] = [
	{
		displayName: 'Access Token Output',
		name: 'accessTokenOutput',
		type: 'options',
		options: [
			{
				name: 'In the Output JSON',
				value: 'json',
				description: 'The access_token field, as the API returns it',
			},
			{
				name: 'Nowhere',
				value: 'none',
				description:
					'Every token of the answer (access_token, refresh_token, id_token…, however spelled) removed from the output; the rest of the answer stays',
			},
		],
		default: 'json',
		description: 'Where the new access token goes',
	},
];

const tokenOutput = propertyIn(tokenOutputOptions, 'accessTokenOutput');

function readTokenOutput(ctx: IExecuteFunctions, itemIndex: number): string {
	return readOptionField(ctx, itemIndex, readOptions(ctx, itemIndex), tokenOutput, 'option');
}

/**
 * Whether a field of the answer holds tokens, however its name is spelled: its letters and digits
 * (any case) hold "token" (`access_token`, `refreshToken`, `ID-Token`, `token_value`, `tokens`)
 * or are "jwt"; `token_type` names the kind of token, not one.
 */
function isTokenField(name: string): boolean {
	const letters = name.replace(/[^a-z\d]/gi, '').toLowerCase();
	return (letters.includes('token') && letters !== 'tokentype') || letters === 'jwt';
}

/** The texts in `value` (itself, or in a list at any depth). */
function textsIn(value: unknown): string[] {
	if (typeof value === 'string') return value ? [value] : [];
	return Array.isArray(value) ? value.flatMap(textsIn) : [];
}

/** The values of every token field of `value`, at any depth (a list of tokens included). */
function tokensIn(value: unknown): string[] {
	if (!value || typeof value !== 'object') return [];
	return Object.entries(value).flatMap(([name, inner]) => [
		...(isTokenField(name) ? textsIn(inner) : []),
		...tokensIn(inner),
	]);
}

/** The answer, without any trace of a token unless the option keeps them in the JSON. */
function placeToken(answer: IDataObject, keep: string): TaskOutput {
	if (keep === 'json') return { json: answer };
	const placeholder = `[removed: ${tokenOutput.displayName} is ${optionLabel(tokenOutput, 'none')}]`;
	const json = redactValue(answer, tokensIn(answer), placeholder);
	json.access_token = placeholder;
	return { json };
}

export const { description, plan } = bodyFromFields<string>({
	show: { resource: 'oauth', operation: 'createToken' },
	endpoint: 'CreateToken',
	properties,
	options: tokenOutputOptions,
	body: {
		grant_type: 'grantType',
		code: 'code',
		client_id: 'clientId',
		client_secret: 'clientSecret',
	},
	after: readTokenOutput,
	task: () => ({
		creates: {
			describe: (json) =>
				`an access token for project ${typeof json.project_code === 'string' ? json.project_code : 'unknown'}`,
			advice:
				'Each authorization code gives one token: run the consent flow again for a new code, or turn on "Continue On Fail" so the output keeps every token created before a failure.',
		},
	}),
	output: (_ctx, answer, { extra }) => placeToken(answer, extra as string),
});
