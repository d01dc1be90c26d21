/**
 * The Seller Platform session: the login (a signed token posted to the login endpoint; the session
 * lives in the cookies the 200 answer sets), logins shared between concurrent callers, and the
 * cookie put on every request.
 *
 * Used by the credential's `preAuthentication`, so n8n runs it when the stored session is empty,
 * when a request answers 401, and when the user presses "Test". Nothing here ever puts the private
 * key, the token or a cookie into an error message.
 */
import { createHash } from 'crypto';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
} from 'n8n-workflow';

import { LOGIN_PATH, USER_AGENT } from './constants';
import { parseErrorBody, redact, redactValue, SellerPlatformLoginError } from './errors';
import { fingerprints, retireSession, sessions } from './state';
import { loginBody, requireField } from './token';
import { joinUrl } from './url';

/** `name=value` of every cookie a response sets, joined for a `Cookie` header. */
export function cookieHeaderFromSetCookie(setCookie: unknown): string {
	const list = Array.isArray(setCookie)
		? setCookie
		: typeof setCookie === 'string'
			? [setCookie]
			: [];
	const pairs = new Map<string, string>();
	for (const entry of list) {
		const pair = String(entry).split(';', 1)[0].trim();
		const eq = pair.indexOf('=');
		if (eq <= 0) continue;
		pairs.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
	}
	return [...pairs].map(([name, value]) => `${name}=${value}`).join('; ');
}

type LoginResponse =
	{ statusCode: number; headers: IDataObject; body: unknown } | { networkError: string };

async function postLogin(
	ctx: IHttpRequestHelper,
	url: string,
	body: IDataObject,
): Promise<LoginResponse> {
	try {
		return (await ctx.helpers.httpRequest({
			method: 'POST',
			url,
			body,
			json: true,
			headers: { Accept: 'application/json', 'User-Agent': USER_AGENT },
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		})) as LoginResponse;
	} catch (error) {
		// A transport failure: the HTTP client's error carries the request, and so the JWT. Keep
		// only its code; the caller reports it.
		return { networkError: String((error as { code?: string }).code ?? 'network error') };
	}
}

/**
 * Logs in and returns the session as the credential's expirable property. Success only on 200.
 */
export async function login(
	this: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	const body = await loginBody(credentials);
	const baseUrl = requireField(credentials, 'baseUrl', 'Base URL');
	const token = [String(body.token)];

	const response = await postLogin(this, joinUrl(baseUrl, LOGIN_PATH), body);
	if ('networkError' in response) {
		throw new SellerPlatformLoginError(
			`Could not reach the Seller Platform login at ${baseUrl}: ${response.networkError}`,
			{ description: 'Check the Base URL of the credential and that this n8n can reach it.' },
		);
	}
	if (response.statusCode !== 200) {
		const parsed = parseErrorBody(response.body);
		const message = redact(parsed.message ?? `HTTP ${response.statusCode}`, token, '<jwt>');
		throw new SellerPlatformLoginError(`Seller Platform login failed: ${message}`, {
			httpCode: response.statusCode,
			statusCode: parsed.status_code,
			statusId: parsed.status_id,
			details: redactValue(parsed.details, token, '<jwt>'),
		});
	}

	const sessionCookie = cookieHeaderFromSetCookie(response.headers['set-cookie']);
	if (!sessionCookie) {
		throw new SellerPlatformLoginError(
			'Seller Platform login answered 200 but set no session cookie',
			{
				httpCode: 200,
				description: 'Check that the Base URL points at the Seller Platform gateway.',
			},
		);
	}
	return { sessionCookie, sessionFingerprint: loginFingerprint(credentials) };
}

/**
 * Logins shared across concurrent callers, per login identity (base URL, key id, key, project).
 *
 * n8n calls `preAuthentication` once per request that found no session or got a 401. With many
 * items in flight, that would be one login per item. Instead:
 * - callers that arrive while a login is running wait for it and share its session;
 * - a caller without a session, or whose rejected session is older than the newest one obtained
 *   here, gets the newest one (another request already logged in);
 * - only a caller whose rejected session is the newest one, or when this process has none yet,
 *   starts a new login.
 */
/**
 * A digest of what a login depends on (base URL, key id, key, project). Stored beside the session
 * so a session obtained with other values (the user edited the credential) is not used.
 */
export function loginFingerprint(credentials: ICredentialDataDecryptedObject): string {
	const source = ['baseUrl', 'keyId', 'privateKey', 'projectCode']
		.map((k) => String(credentials[k] ?? '').trim())
		.join('\u0000');
	// n8n hands the same credentials object to every request of a run: hash each one once.
	const cached = fingerprints.get(credentials);
	if (cached?.source === source) return cached.digest;
	const digest = createHash('sha256').update(source).digest('hex');
	fingerprints.set(credentials, { source, digest });
	return digest;
}

export async function sharedLogin(
	this: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	const identity = loginFingerprint(credentials);
	const running = sessions.inFlight.get(identity);
	if (running) return await running;

	// A caller without a session, or with one this process knows to be older than its newest,
	// takes the newest. (A session this process does not know may come from another n8n process
	// and be fresher than ours: then a real login follows.) Should the newest have expired too,
	// the service answers 401 and the caller comes back with it, which logs in below.
	const used = typeof credentials.sessionCookie === 'string' ? credentials.sessionCookie : '';
	const newest = sessions.newest.get(identity);
	if (newest && used !== newest && (!used || sessions.retired.get(identity)?.has(used))) {
		return { sessionCookie: newest, sessionFingerprint: identity };
	}

	const pending = login.call(this, credentials);
	sessions.inFlight.set(identity, pending);
	try {
		const result = await pending;
		retireSession(identity, sessions.newest.get(identity));
		retireSession(identity, used);
		sessions.newest.set(identity, String(result.sessionCookie));
		return result;
	} finally {
		sessions.inFlight.delete(identity);
	}
}

function isLoginRequest(options: IHttpRequestOptions): boolean {
	const target = `${options.baseURL ?? ''}${options.url}`.split('?')[0];
	return target.replace(/\/+$/, '').endsWith(LOGIN_PATH);
}

/**
 * The credential's `authenticate`, run by n8n just before every request it sends for us:
 * - a request to the login endpoint (the credential's "Test") gets a freshly signed token, so
 *   "Test" always performs a real login with the values in the form;
 * - any other request gets the session cookies, unless they were obtained with other credential
 *   values: then none are sent, the service answers 401 and n8n logs in again with the new values.
 */
export async function authenticateRequest(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const options: IHttpRequestOptions = {
		...requestOptions,
		headers: { ...(requestOptions.headers ?? {}) },
	};
	if (isLoginRequest(options)) {
		options.body = await loginBody(credentials);
		options.json = true;
		return options;
	}
	const session = typeof credentials.sessionCookie === 'string' ? credentials.sessionCookie : '';
	if (session && credentials.sessionFingerprint === loginFingerprint(credentials)) {
		options.headers!.Cookie = session;
	}
	return options;
}
