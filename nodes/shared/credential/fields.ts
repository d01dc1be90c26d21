/**
 * The fields of the Seller Platform API credential, each with its label and default: the
 * credential lists them (`credentialProperties`), the shared layer reads their defaults, and every
 * message that names a field reads its label here (errors/errors.ts too, hence this folder's place
 * at the bottom of the shared layer).
 *
 * n8n's credential lint rules read a credential class's own `properties` only, so they no longer
 * see these fields (the node-parameter rules of nodes/ do); test/integration/package.test.ts
 * checks what they checked: the secret fields are password fields.
 */
import type { INodeProperties } from 'n8n-workflow';

import { CUSTOM_GATEWAY, GATEWAYS } from './gateways';
import { COMMON_PLAN } from './plan';

/** Defaults read from their homes (named: n8n's lint takes a name as a default, not `a.b`). */
const PRODUCTION_GATEWAY = GATEWAYS.noon;
const COMMON_REQUESTS_PER_MINUTE = COMMON_PLAN.requests;

/**
 * Which gateway the credential talks to. Its default is the Base URL field, so a credential saved
 * before this field existed (it holds a Base URL and no Gateway) keeps working as it was: n8n
 * fills a missing field with its default, and drops a field that its display rule hides.
 */
export const gatewayField = {
	displayName: 'Gateway',
	name: 'gateway',
	type: 'options',
	options: [
		{
			name: 'Custom Address (Base URL Below)',
			value: CUSTOM_GATEWAY,
			description:
				'A host under noon.partners (the production gateway by default), or a local emulator',
		},
		{ name: 'Namshi', value: 'namshi', description: GATEWAYS.namshi },
		{ name: 'Noon Production', value: 'noon', description: GATEWAYS.noon },
		{ name: 'Noon Sandbox', value: 'noonSandbox', description: GATEWAYS.noonSandbox },
	],
	default: CUSTOM_GATEWAY,
	description:
		'The API gateway of the key: noon production, the noon sandbox (deterministic answers, no side effects), the Namshi gateway, or an address of your own in Base URL',
} satisfies INodeProperties;

export const baseUrlField = {
	displayName: 'Base URL',
	name: 'baseUrl',
	type: 'string',
	default: PRODUCTION_GATEWAY,
	required: true,
	description:
		'Address of the API gateway, used as it is: the production gateway by default, another host under noon.partners, or a loopback, private or local address such as the one the local emulator prints',
	displayOptions: { show: { gateway: [CUSTOM_GATEWAY] } },
} satisfies INodeProperties;

/**
 * Whether the Base URL may name a host that a resolver may complete with its search domains, or
 * a carrier-NAT address (gateway/url.ts `isLocalHost`). Off by default: such a host may not be
 * on your own network.
 */
export const allowLocalNamesField = {
	displayName: 'Allow Local Names and Carrier NAT',
	name: 'allowLocalNames',
	type: 'boolean',
	default: false,
	description:
		'Whether the Base URL may name a host by a single label (such as emulator) or under .local, .internal, .lan or .home.arpa, or a carrier-NAT address (100.64.0.0/10). Off by default: the resolver may complete such a name with its search domains, which may be public, and a provider may share carrier-NAT addresses with its other customers. localhost and loopback, private and link-local addresses work without it.',
	displayOptions: { show: { gateway: [CUSTOM_GATEWAY] } },
} satisfies INodeProperties;

/**
 * Whether a proxy may carry the login and the session to a local Base URL (auth/route.ts). Off
 * by default: they go straight to the Base URL.
 */
export const allowProxyField = {
	displayName: 'Allow Proxy',
	name: 'allowProxy',
	type: 'boolean',
	default: false,
	description:
		"Whether a proxy may carry the login token and the session to a local Base URL: the proxy that n8n's environment names (HTTP_PROXY, NO_PROXY) for an http:// Base URL, and the HTTP Request node's Proxy option. Off by default: they go straight to the Base URL, and no proxy sees them. Turn it on only for a proxy you run yourself.",
	displayOptions: { show: { gateway: [CUSTOM_GATEWAY] } },
} satisfies INodeProperties;

export const keyIdField = {
	displayName: 'Key ID',
	name: 'keyId',
	type: 'string',
	default: '',
	required: true,
	// Its placeholder, a key ID as the seller portal spells it (lower case), is the credential
	// file's (n8n's node-parameter rules, which the package scanner applies here, read it as a label).
	description: 'The key_id of the credential; it becomes the sub claim of the login token',
} satisfies INodeProperties;

export const privateKeyField = {
	displayName: 'Private Key',
	name: 'privateKey',
	type: 'string',
	typeOptions: { password: true, rows: 4 },
	default: '',
	required: true,
	placeholder: '-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----',
	description:
		'The private_key of the credential (PEM, PKCS#8 or PKCS#1). Pasting it with literal \\n sequences, as in the JSON file, works too.',
} satisfies INodeProperties;

export const projectCodeField = {
	displayName: 'Project Code',
	name: 'projectCode',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'PRJ123456',
	description: 'The project_code of the credential, sent as default_project_code at login',
} satisfies INodeProperties;

/** Service prefixes the spec leaves out of the `/v1/...` paths (api-field-notes.md). */
export const sandboxOrderPrefixField = {
	displayName: 'Sandbox Order Path Prefix',
	name: 'sandboxOrderPrefix',
	type: 'string',
	default: '/fbpi',
	description:
		'Service prefix put before /v1/sandbox-order/create. Change it only if the gateway routes the sandbox order elsewhere.',
} satisfies INodeProperties;

export const importPrefixField = {
	displayName: 'Import Path Prefix',
	name: 'importPrefix',
	type: 'string',
	default: '/catplat',
	description:
		'Service prefix put before /v1/import/barcode and /v1/import/status. Change it only if the gateway routes imports elsewhere.',
} satisfies INodeProperties;

/**
 * The event-notifications service publishes two forms of its paths: the seed writes its
 * destination update under `/event-notifications/v1/...`, the service's own reference file writes
 * `/v1/create-webhook` with no prefix. The default keeps the seed's prefix (the one gateway path
 * of that service a source shows); an empty value sends the reference's bare paths.
 */
export const eventNotificationsPathPrefixField = {
	displayName: 'Event Notifications Path Prefix',
	name: 'eventNotificationsPathPrefix',
	type: 'string',
	default: '/event-notifications',
	description:
		"Service prefix put before /v1/create-webhook, /v1/create-subscription and /v1/webhook/assign-developer (Event Webhook → Create, Subscribe, Assign Developer). The default gives /event-notifications/v1/create-webhook, the form of the seed spec's event-notifications paths; leave it empty for /v1/create-webhook, the form of the service's reference file. Change it only if the gateway routes the event webhooks elsewhere.",
} satisfies INodeProperties;

/** The common rate plan's requests per 60 s, per endpoint (the spec's "operation"). */
export const requestsPerMinuteField = {
	displayName: 'Requests per Minute',
	name: 'requestsPerMinute',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: COMMON_REQUESTS_PER_MINUTE,
	description:
		'Rate plan of the project, per operation. The nodes pace their requests to stay under it, shared by every workflow of this n8n.',
} satisfies INodeProperties;

/** The credential's properties, in the order its form shows them. */
export const credentialProperties: INodeProperties[] = [
	{
		displayName:
			'Paste the values of the credentials file you downloaded from the seller portal (key_id, private_key, project_code)',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	gatewayField,
	baseUrlField,
	allowLocalNamesField,
	allowProxyField,
	keyIdField,
	privateKeyField,
	projectCodeField,
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
	sandboxOrderPrefixField,
	importPrefixField,
	eventNotificationsPathPrefixField,
	requestsPerMinuteField,
];
