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
	credentialProperties,
	GATEWAY_BASE_URL_EXPRESSION,
	keyIdField,
	privateKeyField,
	projectCodeField,
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

	properties: INodeProperties[] = credentialProperties.map((field) =>
		field === keyIdField
			? {
					...field,
					// A key ID as the seller portal hands it out.
					placeholder: 'noon-partners-key-id-0123456789abcdef0123456789abcdef',
				}
			: field,
	);

	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		return await sharedLogin.call(this, credentials);
	}

	// Adds the session cookies to every request (and signs the token of the "Test" login below).
	// An own property, not a method: n8n's node loader copies a credential type with a spread
	// (own properties only) before it checks `authenticate` to offer "Custom API Call" in the
	// node's lists and the credential in the HTTP Request node; a method would be left behind.
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => await authenticateRequest(credentials, requestOptions);

	// "Test": n8n first logs in with the values in the form (preAuthentication, which reports the
	// service's message when the login is refused), then asks the gateway whose session it is. The
	// login token itself is never handed to a request (auth/authenticate.ts refuses the login endpoint).
	test: ICredentialTestRequest = {
		request: {
			baseURL: GATEWAY_BASE_URL_EXPRESSION,
			url: WHOAMI_PATH,
			method: 'GET',
			headers: { Accept: 'application/json', 'User-Agent': USER_AGENT },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: `The service refused the session: check the ${keyIdField.displayName} and the ${privateKeyField.displayName} (and that the key is not expired or limited to other IP addresses)`,
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: `The service refused the session for this ${projectCodeField.displayName}: check that the key belongs to that project`,
				},
			},
		],
	};
}
