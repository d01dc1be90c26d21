/**
 * Login and sessions, verified like a strict server.
 *
 * Login takes an RS256 JWT (header `alg` RS256, `typ` JWT; claims `sub` = key id, `iat` in whole
 * seconds, `jti` unique) signed with the credential's private key. Success sets TWO cookies;
 * later requests are authenticated only when both come back, so a client that keeps a single
 * hard-coded cookie name fails here just as it would against the real gateway.
 */
import {
	decodeJwt,
	decodeProtectedHeader,
	errors as joseErrors,
	jwtVerify,
	type JWTPayload,
} from 'jose';

import { ApiError, unauthenticated } from './errors';
import { parseCookies } from './http';
import type { ApiResult, EndpointContext } from './endpoint';
import type { EmulatorState, Session, StoredCredential } from './state';

export const LOGIN_PATH = '/identity/public/v1/api/login';
/** Names of the two session cookies (undocumented upstream; clients must keep every cookie set). */
export const SESSION_COOKIE = '_npsid';
export const GATEWAY_COOKIE = '_npgw';
/** Largest accepted distance between `iat` and the server clock. */
export const IAT_WINDOW_SECONDS = 5 * 60;

function decodeToken(token: string): {
	header: ReturnType<typeof decodeProtectedHeader>;
	claims: JWTPayload;
} {
	try {
		return { header: decodeProtectedHeader(token), claims: decodeJwt(token) };
	} catch (error) {
		throw unauthenticated(`malformed token: ${(error as Error).message}`);
	}
}

/** Verifies the login JWT and returns the credential it was signed with. */
async function verifyLoginToken(
	state: EmulatorState,
	token: string,
	now: number,
): Promise<StoredCredential> {
	const { header, claims } = decodeToken(token);
	if (header.alg !== 'RS256')
		throw unauthenticated(`unsupported token alg ${JSON.stringify(header.alg)} (expected RS256)`);
	if (header.typ !== 'JWT')
		throw unauthenticated(`invalid token typ ${JSON.stringify(header.typ)} (expected "JWT")`);
	if (typeof claims.sub !== 'string' || claims.sub === '')
		throw unauthenticated('token has no sub (key id)');
	const credential = state.credentials.get(claims.sub);
	if (!credential) throw unauthenticated(`unknown key id ${JSON.stringify(claims.sub)}`);

	try {
		await jwtVerify(token, credential.publicKey, { algorithms: ['RS256'] });
	} catch (error) {
		if (error instanceof joseErrors.JWSSignatureVerificationFailed)
			throw unauthenticated('invalid token signature');
		throw unauthenticated(`invalid token: ${(error as Error).message}`);
	}

	const { iat, jti } = claims;
	if (typeof iat !== 'number' || !Number.isInteger(iat)) {
		throw unauthenticated('iat must be an integer number of seconds since the epoch');
	}
	if (Math.abs(now / 1000 - iat) > IAT_WINDOW_SECONDS) {
		throw unauthenticated('iat outside the allowed 5 minute window');
	}
	if (typeof jti !== 'string' || jti === '') throw unauthenticated('token has no jti');
	// Once iat is out of the window the token is refused anyway, so the jti can be forgotten then.
	if (!state.consumeJti(jti, (iat + IAT_WINDOW_SECONDS) * 1000, now)) {
		throw unauthenticated('token replayed (jti already used)');
	}
	return credential;
}

/** Key-level restrictions: expiry and IP whitelist. */
function checkCredentialUsable(
	credential: StoredCredential,
	remoteAddress: string,
	now: number,
): void {
	if (credential.expiresAt !== null && credential.expiresAt <= now)
		throw unauthenticated('credential expired');
	if (credential.whitelistedIps.length > 0 && !credential.whitelistedIps.includes(remoteAddress)) {
		throw unauthenticated(`caller address not whitelisted: ${remoteAddress}`);
	}
}

export interface LoginBody {
	token: string;
	default_project_code?: string;
}

/** Login: verifies the token and opens a session in the credential's project. */
export async function login({
	state,
	body,
	remoteAddress,
	now,
}: EndpointContext<LoginBody>): Promise<ApiResult> {
	const { token, default_project_code: projectCode } = body;
	const credential = await verifyLoginToken(state, token, now);
	checkCredentialUsable(credential, remoteAddress, now);
	// proto3 semantics: an empty string is the same as an absent field.
	if (projectCode && projectCode !== credential.projectCode) {
		throw new ApiError(
			'PERMISSION_DENIED',
			`credential has no access to project ${JSON.stringify(projectCode)}`,
		);
	}
	const session = state.openSession(credential, credential.projectCode, now);
	return {
		body: {},
		headers: {
			'Set-Cookie': [
				`${SESSION_COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Lax`,
				`${GATEWAY_COOKIE}=${session.gatewayToken}; Path=/; SameSite=Lax`,
			],
		},
	};
}

/** Who the session belongs to: the service account's user code and name. */
export function whoami({ state, session }: EndpointContext): unknown {
	const credential = state.credentials.get(session!.keyId);
	return { user_code: session!.userCode, username: credential?.channelIdentifier ?? '' };
}

/** The live session the request's cookies belong to; 401 otherwise. */
export function requireSession(
	state: EmulatorState,
	cookieHeader: string | undefined,
	now: number,
): Session {
	const cookies = parseCookies(cookieHeader);
	const id = cookies.get(SESSION_COOKIE);
	const gatewayToken = cookies.get(GATEWAY_COOKIE);
	if (!id || !gatewayToken) {
		throw unauthenticated(
			'missing session cookies: log in and send back every cookie the login set',
		);
	}
	const session = state.findSession(id, gatewayToken, now);
	if (!session) throw unauthenticated('session expired or invalid: log in again');
	return session;
}
