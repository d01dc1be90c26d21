import { DateTime } from 'luxon';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { named, optionLabel, propertyIn, quoted, quotedName, shown } from '../../../shared';
import { readOptions } from '../options';
import {
	readBinaryPropertyField,
	checkText,
	invalidParameter,
	readNonBlankText,
	readOptionField,
} from '../parameters';
import type { TaskOutput } from '../runner';
import { bodyFromFields } from '../shapes/bodyFromFields';
import { describeCreated, findKeyId, takePrivateKeys } from './privateKey';
import { userCodeProperty } from './userCode';

export const MAX_WHITELISTED_IPS = 10;

const properties: INodeProperties[] = [
	{
		displayName:
			'The new private key is shown only once. By default it is in the output JSON, and n8n keeps execution data: choose another "Private Key Output" below, or stop saving execution data for this workflow, if the key must not stay there.',
		name: 'privateKeyNotice',
		type: 'notice',
		default: '',
	},
	userCodeProperty(
		'The user_code of the API user (service account). Set this or Channel Identifier.',
		true,
	),
	{
		displayName: 'Channel Identifier',
		name: 'channelIdentifier',
		type: 'string',
		default: '',
		placeholder: 'e.g. my-integration@p123456.idp.noon.partners',
		description: "The service account's channel identifier (username). Set this or User Code.",
		hint: 'When User Code is set too, only user_code is sent: it wins',
	},
	{
		displayName: 'Whitelisted IPs',
		name: 'whitelistedIps',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		placeholder: 'e.g. 203.0.113.10, 2001:db8::1',
		description: `Optional. Up to ${MAX_WHITELISTED_IPS} IPv4 or IPv6 addresses, separated by commas or new lines, that alone may use the key.`,
	},
	{
		displayName: 'Expires At',
		name: 'expiresAt',
		type: 'dateTime',
		default: '',
		description: 'Optional expiry of the key; sent as ISO 8601 with a UTC offset',
	},
];

const keyOutputOptions: INodeProperties[] = [
	{
		displayName: 'Private Key Output',
		name: 'privateKeyOutput',
		type: 'options',
		options: [
			{
				name: 'In the Output JSON',
				value: 'json',
				description: 'The credential.private_key field, as the API returns it',
			},
			{
				name: 'As a Binary PEM File',
				value: 'binary',
				description: 'Removed from the JSON, attached as a file named after the key ID (.pem)',
			},
			{
				name: 'Nowhere',
				value: 'none',
				description: 'Removed from the output (the key is lost)',
			},
		],
		default: 'json',
		description: 'Where the newly created private key goes',
	},
	{
		displayName: 'Put Key File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'privateKey',
		hint: 'The name of the output binary field to put the PEM file in',
		displayOptions: { show: { privateKeyOutput: ['binary'] } },
	},
];

const keyOutputOption = propertyIn(keyOutputOptions, 'privateKeyOutput');
const keyFileField = propertyIn(keyOutputOptions, 'binaryPropertyName');

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** True for a plain IPv4 or IPv6 address (no port, prefix or zone). */
export function isIpAddress(value: string): boolean {
	if (IPV4.test(value)) return true;
	if (!value.includes(':') || !/^[0-9a-fA-F:.]+$/.test(value)) return false;
	try {
		return new URL(`http://[${value}]/`).hostname.length > 2;
	} catch {
		return false;
	}
}

type KeyOutput = 'json' | 'binary' | 'none';

/** Whose key it is: `user_code`, or else `channel_identifier`; at least one is required. */
function readOwner(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const user = propertyIn(properties, 'userCode');
	const channel = propertyIn(properties, 'channelIdentifier');
	const userCode = readNonBlankText(ctx, user, itemIndex);
	const channelIdentifier = readNonBlankText(ctx, channel, itemIndex);
	if (!userCode && !channelIdentifier) {
		const message = `Set ${quotedName(user)} or ${quotedName(channel)}: at least one is required`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	return userCode ? { user_code: userCode } : { channel_identifier: channelIdentifier };
}

/** The addresses the key may be used from: at most 10, each an IPv4 or IPv6 address. */
function readWhitelistedIps(ctx: IExecuteFunctions, itemIndex: number): string[] {
	const property = propertyIn(properties, 'whitelistedIps');
	const what = named(property);
	const value = ctx.getNodeParameter(property.name, itemIndex, property.default);
	const ips = checkText(ctx, itemIndex, value, what)
		.split(/[\s,;]+/)
		.filter(Boolean);
	if (ips.length > MAX_WHITELISTED_IPS) {
		const message = `${what} lists ${ips.length} addresses, at most ${MAX_WHITELISTED_IPS} are allowed`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	const wrong = ips.find((ip) => !isIpAddress(ip));
	if (wrong !== undefined) {
		const message = `${what} holds ${quoted(wrong)}, which is not an IPv4 or IPv6 address`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	return ips;
}

/** When the key expires, as the service writes it (UTC, offset); undefined when unset. */
function readExpiresAt(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	const property = propertyIn(properties, 'expiresAt');
	const expiresAt = ctx.getNodeParameter(property.name, itemIndex, property.default) as unknown;
	if (expiresAt === '' || expiresAt === undefined || expiresAt === null) return undefined;
	const what = named(property);
	const parsed =
		expiresAt instanceof Date
			? DateTime.fromJSDate(expiresAt)
			: DateTime.isDateTime(expiresAt)
				? expiresAt
				: DateTime.fromISO(checkText(ctx, itemIndex, expiresAt, what), {
						zone: ctx.getTimezone(),
					});
	if (!parsed.isValid) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`${what} is not a valid date and time: ${shown(expiresAt)}`,
			'Use an ISO 8601 date and time such as 2027-01-31T23:59:00+04:00.',
		);
	}
	return parsed.toUTC().toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}

interface KeyPlace {
	keyOutput: KeyOutput;
	binaryPropertyName: string;
}

/** Where the new private key goes ("Private Key Output"), and the file's field for `binary`. */
function readKeyOutput(ctx: IExecuteFunctions, itemIndex: number): KeyPlace {
	const options = readOptions(ctx, itemIndex);
	const keyOutput = readOptionField(
		ctx,
		itemIndex,
		options,
		keyOutputOption,
		'option',
	) as KeyOutput;
	const binaryPropertyName =
		keyOutput === 'binary' ? readBinaryPropertyField(ctx, itemIndex, options, keyFileField) : '';
	return { keyOutput, binaryPropertyName };
}

/** The request's body: whose key, from where it may be used, until when. */
function readCredential(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const body = readOwner(ctx, itemIndex);
	const ips = readWhitelistedIps(ctx, itemIndex);
	if (ips.length) body.whitelisted_ips = ips;
	const expiresAt = readExpiresAt(ctx, itemIndex);
	if (expiresAt) body.expires_at = expiresAt;
	return body;
}

export const { description, plan } = bodyFromFields<KeyPlace>({
	show: { resource: 'apiCredential', operation: 'create' },
	endpoint: 'CreateCredential',
	properties,
	options: keyOutputOptions,
	body: readCredential,
	after: readKeyOutput,
	task: () => ({
		// One at a time, in input order: a failure stops the run before the next key is made.
		sequential: true,
		creates: {
			describe: describeCreated,
			advice:
				'Their private keys cannot be shown again: deactivate these keys if nobody has them, or turn on "Continue On Fail" so the output keeps every key created before a failure.',
		},
	}),
	output: async (ctx, created, { extra }) => await placePrivateKey(ctx, created, extra as KeyPlace),
});

/**
 * Puts the new private key where the "Private Key Output" option says, whatever the shape of the
 * answer (privateKey.ts): with `binary` and `none` the JSON holds no trace of it.
 */
async function placePrivateKey(
	ctx: IExecuteFunctions,
	created: IDataObject,
	{ keyOutput, binaryPropertyName }: KeyPlace,
): Promise<TaskOutput> {
	if (keyOutput === 'json') return { json: created };
	const placeholder =
		keyOutput === 'none'
			? `[removed: ${keyOutputOption.displayName} is ${optionLabel(keyOutputOption, 'none')}]`
			: `[moved to the binary field "${binaryPropertyName}"]`;
	const { json, keys } = takePrivateKeys(created, placeholder);
	if (keyOutput === 'none' || !keys.length) return { json };

	const file = await ctx.helpers.prepareBinaryData(
		Buffer.from(keys.join('\n'), 'utf8'),
		`${findKeyId(json) ?? 'private-key'}.pem`,
		'application/x-pem-file',
	);
	return { json, binary: { [binaryPropertyName]: file } };
}
