/** API credentials (identity/apiuser): CreateCredential. */
import { ApiError, invalidArgument } from '../errors';
import { MAX_WHITELISTED_IPS } from '../state';
import { at, canonicalIp, optionalArray, optionalString, parseIsoWithOffset } from '../validate';
import type { RouteModule } from './types';

export const credentialRoutes: RouteModule = () => [
	{
		operation: 'CreateCredential',
		method: 'POST',
		path: '/identity/apiuser/v1/credential/create',
		auth: 'session',
		rateLimited: true,
		handler: async ({ state, body, session, now }) => {
			const userCode = optionalString(body, 'user_code');
			const channelIdentifier = optionalString(body, 'channel_identifier');
			if (userCode === '')
				throw invalidArgument('user_code must not be empty: leave it out or give a user code');
			if (channelIdentifier === '') {
				throw invalidArgument(
					'channel_identifier must not be empty: leave it out or give a channel identifier',
				);
			}
			if (userCode === undefined && channelIdentifier === undefined) {
				throw invalidArgument('one of user_code or channel_identifier is required');
			}

			const ips = optionalArray(body, 'whitelisted_ips') ?? [];
			if (ips.length > MAX_WHITELISTED_IPS) {
				throw invalidArgument(
					`whitelisted_ips has ${ips.length} entries: at most ${MAX_WHITELISTED_IPS} are allowed`,
				);
			}
			const whitelistedIps = ips.map((ip, i) => {
				const canonical = typeof ip === 'string' ? canonicalIp(ip) : undefined;
				if (canonical === undefined) {
					throw invalidArgument(
						`${at('whitelisted_ips', i)} must be an IPv4 or IPv6 address, got ${JSON.stringify(ip)}`,
					);
				}
				return canonical;
			});

			const expiresAtText = optionalString(body, 'expires_at');
			let expiresAt: number | null = null;
			if (expiresAtText !== undefined && expiresAtText !== '') {
				const parsed = parseIsoWithOffset(expiresAtText);
				if (parsed === undefined) {
					throw invalidArgument(
						`expires_at must be an ISO 8601 date-time with a UTC offset (e.g. 2030-01-31T12:00:00Z or 2030-01-31T16:00:00+04:00), got ${JSON.stringify(expiresAtText)}`,
					);
				}
				if (parsed <= now)
					throw invalidArgument(`expires_at must be in the future, got ${expiresAtText}`);
				expiresAt = parsed;
			}

			const projectCode = session!.projectCode;
			// When both are given, user_code wins and channel_identifier is ignored.
			const user =
				userCode !== undefined
					? state.findUser(projectCode, { userCode })
					: state.findUser(projectCode, { channelIdentifier: channelIdentifier as string });
			if (!user) {
				throw new ApiError(
					'NOT_FOUND',
					userCode !== undefined
						? `user_code ${JSON.stringify(userCode)} not found in project ${projectCode}`
						: `channel_identifier ${JSON.stringify(channelIdentifier)} not found in project ${projectCode}`,
				);
			}
			const credential = await state.createCredentialFor(user, { whitelistedIps, expiresAt });
			return {
				body: {
					credential: {
						key_id: credential.key_id,
						private_key: credential.private_key,
						channel_identifier: credential.channel_identifier,
						project_code: credential.project_code,
						type: credential.type,
						issued_at: credential.issued_at,
					},
				},
			};
		},
	},
];
