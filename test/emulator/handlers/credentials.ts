/** CreateCredential: the rules that join fields (the field rules are in the endpoint table). */
import type { EndpointContext, ApiResult } from '../endpoint';
import { ApiError, invalidArgument } from '../errors';
import { canonicalIp, parseIsoWithOffset } from '../validate';

export interface CreateCredentialBody {
	user_code?: string;
	channel_identifier?: string;
	whitelisted_ips?: string[];
	expires_at?: string;
}

export const ipProblem = (ip: string, path: string): string | null =>
	canonicalIp(ip) === undefined
		? `${path} must be an IPv4 or IPv6 address, got ${JSON.stringify(ip)}`
		: null;

export const isoProblem = (text: string, path: string): string | null =>
	parseIsoWithOffset(text) === undefined
		? `${path} must be an ISO 8601 date-time with a UTC offset (e.g. 2030-01-31T12:00:00Z or 2030-01-31T16:00:00+04:00), got ${JSON.stringify(text)}`
		: null;

export async function createCredential({
	state,
	body,
	projectCode,
	now,
}: EndpointContext<CreateCredentialBody>): Promise<ApiResult> {
	const { user_code: userCode, channel_identifier: channelIdentifier } = body;
	if (userCode === undefined && channelIdentifier === undefined)
		throw invalidArgument('one of user_code or channel_identifier is required');
	const whitelistedIps = (body.whitelisted_ips ?? []).map((ip) => canonicalIp(ip) as string);
	let expiresAt: number | null = null;
	if (body.expires_at !== undefined) {
		expiresAt = parseIsoWithOffset(body.expires_at) as number;
		if (expiresAt <= now)
			throw invalidArgument(`expires_at must be in the future, got ${body.expires_at}`);
	}
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
	const { key_id, private_key, channel_identifier, project_code, type, issued_at } = credential;
	return {
		body: {
			credential: { key_id, private_key, channel_identifier, project_code, type, issued_at },
		},
	};
}

// --- Identity: RemoveCredentials -----------------------------------------------------------------

export interface RemoveCredentialsBody {
	user_code: string;
	/** Absent (or '' / null, as grpc-gateway reads them): every key of the user. */
	key_id?: string;
}

/** RemoveCredentials: one key of a user of the project, or every key of it. */
export function removeCredentials({
	state,
	body,
	projectCode,
}: EndpointContext<RemoveCredentialsBody>): ApiResult {
	const user = state.findUser(projectCode, { userCode: body.user_code });
	if (!user) {
		throw new ApiError(
			'NOT_FOUND',
			`user_code ${JSON.stringify(body.user_code)} not found in project ${projectCode}`,
		);
	}
	const removed = state.removeCredentials(user, body.key_id);
	return { body: { success: true, credentials_removed: removed } };
}
