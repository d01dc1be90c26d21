import { DateTime } from 'luxon';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, quoted, shown } from '../../../shared';
import { concurrencyOption, optionsCollection } from '../options';
import {
	binaryFieldOption,
	checkedOption,
	checkedText,
	collectionParameter,
	invalidParameter,
	nonBlankTextParameter,
} from '../parameters';
import { perItem, type TaskOutput } from '../runner';
import { describeCreated, findKeyId, takePrivateKeys } from './privateKey';

const show = { resource: ['apiCredential'], operation: ['create'] };

export const MAX_WHITELISTED_IPS = 10;

export const description: INodeProperties[] = [
	{
		displayName:
			'The new private key is shown only once. By default it is in the output JSON, and n8n keeps execution data: choose another "Private Key Output" below, or stop saving execution data for this workflow, if the key must not stay there.',
		name: 'privateKeyNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	{
		displayName: 'User Code',
		name: 'userCode',
		type: 'string',
		default: '',
		description: 'The user_code of the API user (service account). Set this or Channel Identifier.',
		displayOptions: { show },
	},
	{
		displayName: 'Channel Identifier',
		name: 'channelIdentifier',
		type: 'string',
		default: '',
		placeholder: 'e.g. my-integration@p123456.idp.noon.partners',
		description: "The service account's channel identifier (username). Set this or User Code.",
		hint: 'When User Code is set too, only user_code is sent: it wins',
		displayOptions: { show },
	},
	{
		displayName: 'Whitelisted IPs',
		name: 'whitelistedIps',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		placeholder: 'e.g. 203.0.113.10, 2001:db8::1',
		description:
			'Optional. Up to 10 IPv4 or IPv6 addresses, separated by commas or new lines, that alone may use the key.',
		displayOptions: { show },
	},
	{
		displayName: 'Expires At',
		name: 'expiresAt',
		type: 'dateTime',
		default: '',
		description: 'Optional expiry of the key; sent as ISO 8601 with a UTC offset',
		displayOptions: { show },
	},
	optionsCollection(show, [
		concurrencyOption,
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
	]),
];

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

const KEY_OUTPUTS = ['json', 'binary', 'none'] as const;
type KeyOutput = (typeof KEY_OUTPUTS)[number];

/** Whose key it is: `user_code`, or else `channel_identifier`; at least one is required. */
function readOwner(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const userCode = nonBlankTextParameter(ctx, 'userCode', 'User Code', itemIndex);
	const channelIdentifier = nonBlankTextParameter(
		ctx,
		'channelIdentifier',
		'Channel Identifier',
		itemIndex,
	);
	if (!userCode && !channelIdentifier) {
		throw invalidParameter(
			ctx,
			itemIndex,
			'Set "User Code" (userCode) or "Channel Identifier" (channelIdentifier): at least one is required',
		);
	}
	return userCode ? { user_code: userCode } : { channel_identifier: channelIdentifier };
}

/** The addresses the key may be used from: at most 10, each an IPv4 or IPv6 address. */
function readWhitelistedIps(ctx: IExecuteFunctions, itemIndex: number): string[] {
	const what = 'The parameter "Whitelisted IPs" (whitelistedIps)';
	const value = ctx.getNodeParameter('whitelistedIps', itemIndex, '');
	const ips = checkedText(ctx, itemIndex, value, what)
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
	const expiresAt = ctx.getNodeParameter('expiresAt', itemIndex, '') as unknown;
	if (expiresAt === '' || expiresAt === undefined || expiresAt === null) return undefined;
	const what = 'The parameter "Expires At" (expiresAt)';
	const parsed =
		expiresAt instanceof Date
			? DateTime.fromJSDate(expiresAt)
			: DateTime.isDateTime(expiresAt)
				? expiresAt
				: DateTime.fromISO(checkedText(ctx, itemIndex, expiresAt, what), {
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

/** Where the new private key goes ("Private Key Output"), and the file's field for `binary`. */
function readKeyOutput(ctx: IExecuteFunctions, itemIndex: number) {
	const options = collectionParameter(ctx, 'options', 'Options', itemIndex);
	const keyOutput = checkedOption(
		ctx,
		itemIndex,
		options.privateKeyOutput,
		'The option "Private Key Output" (privateKeyOutput)',
		KEY_OUTPUTS,
		'json',
	);
	const binaryPropertyName =
		keyOutput === 'binary'
			? binaryFieldOption(ctx, itemIndex, options, 'Put Key File in Field', 'privateKey')
			: '';
	return { keyOutput, binaryPropertyName };
}

export const plan = perItem(function (this: IExecuteFunctions, itemIndex) {
	const body = readOwner(this, itemIndex);
	const ips = readWhitelistedIps(this, itemIndex);
	if (ips.length) body.whitelisted_ips = ips;
	const expiresAt = readExpiresAt(this, itemIndex);
	if (expiresAt) body.expires_at = expiresAt;
	const { keyOutput, binaryPropertyName } = readKeyOutput(this, itemIndex);
	return {
		// One at a time, in input order: a failure stops the run before the next key is made.
		sequential: true,
		creates: {
			describe: describeCreated,
			advice:
				'Their private keys cannot be shown again: deactivate these keys if nobody has them, or turn on "Continue On Fail" so the output keeps every key created before a failure.',
		},
		send: async () => {
			const created = await apiRequest.call(this, 'CreateCredential', { body, itemIndex });
			return await placePrivateKey(this, created, keyOutput, binaryPropertyName);
		},
	};
});

/**
 * Puts the new private key where the "Private Key Output" option says, whatever the shape of the
 * answer (privateKey.ts): with `binary` and `none` the JSON holds no trace of it.
 */
async function placePrivateKey(
	ctx: IExecuteFunctions,
	created: IDataObject,
	keyOutput: KeyOutput,
	binaryPropertyName: string,
): Promise<TaskOutput> {
	if (keyOutput === 'json') return { json: created };
	const placeholder =
		keyOutput === 'none'
			? '[removed: Private Key Output is Nowhere]'
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
