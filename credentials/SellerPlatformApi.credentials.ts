import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import {
	authenticateRequest,
	DEFAULT_BASE_URL,
	DEFAULT_IMPORT_PREFIX,
	DEFAULT_REQUESTS_PER_MINUTE,
	DEFAULT_SANDBOX_ORDER_PREFIX,
	sharedLogin,
	USER_AGENT,
	WHOAMI_PATH,
} from '../nodes/shared';

export class SellerPlatformApi implements ICredentialType {
	name = 'sellerPlatformApi';

	displayName = 'Seller Platform API';

	icon: Icon = {
		light: 'file:../icons/sellerPlatform.svg',
		dark: 'file:../icons/sellerPlatform.dark.svg',
	};

	documentationUrl = 'https://github.com/seller-platform/n8n-nodes-seller-platform#credentials';

	properties: INodeProperties[] = [
		{
			displayName:
				'Paste the values of the credentials file you downloaded from the seller portal (key_id, private_key, project_code)',
			name: 'notice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: DEFAULT_BASE_URL,
			required: true,
			description:
				'Address of the API gateway. Use https://noon-sandbox-api-gateway.noon.partners for the sandbox, or the address the local emulator prints.',
		},
		{
			displayName: 'Key ID',
			name: 'keyId',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'noon-partners-key-id-0123456789abcdef0123456789abcdef',
			description: 'The key_id of the credential; it becomes the sub claim of the login token',
		},
		{
			displayName: 'Private Key',
			name: 'privateKey',
			type: 'string',
			typeOptions: { password: true, rows: 4 },
			default: '',
			required: true,
			placeholder: '-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----',
			description:
				'The private_key of the credential (PEM, PKCS#8 or PKCS#1). Pasting it with literal \\n sequences, as in the JSON file, works too.',
		},
		{
			displayName: 'Project Code',
			name: 'projectCode',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'PRJ123456',
			description: 'The project_code of the credential, sent as default_project_code at login',
		},
		{
			displayName: 'Session Cookie',
			name: 'sessionCookie',
			type: 'hidden',
			// A password field: n8n blanks it before the credential reaches the editor.
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		{
			displayName: 'Session Fingerprint',
			name: 'sessionFingerprint',
			type: 'hidden',
			default: '',
		},
		{
			displayName: 'Sandbox Order Path Prefix',
			name: 'sandboxOrderPrefix',
			type: 'string',
			default: DEFAULT_SANDBOX_ORDER_PREFIX,
			description:
				'Service prefix put before /v1/sandbox-order/create. Change it only if the gateway routes the sandbox order elsewhere.',
		},
		{
			displayName: 'Import Path Prefix',
			name: 'importPrefix',
			type: 'string',
			default: DEFAULT_IMPORT_PREFIX,
			description:
				'Service prefix put before /v1/import/barcode and /v1/import/status. Change it only if the gateway routes imports elsewhere.',
		},
		{
			displayName: 'Requests per Minute',
			name: 'requestsPerMinute',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_REQUESTS_PER_MINUTE,
			description:
				'Rate plan of the project, per operation. The nodes pace their requests to stay under it, shared by every workflow of this n8n.',
		},
	];

	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		return await sharedLogin.call(this, credentials);
	}

	// Adds the session cookies to every request (and signs the token of the "Test" login below).
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return await authenticateRequest(credentials, requestOptions);
	}

	// "Test": n8n first logs in with the values in the form (preAuthentication, which reports the
	// service's message when the login is refused), then asks the gateway whose session it is. The
	// login token itself is never handed to a request (auth/authenticate.ts refuses the login endpoint).
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: WHOAMI_PATH,
			method: 'GET',
			headers: { Accept: 'application/json', 'User-Agent': USER_AGENT },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The service refused the session: check the Key ID and the Private Key (and that the key is not expired or limited to other IP addresses)',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The service refused the session for this Project Code: check that the key belongs to that project',
				},
			},
		],
	};
}
