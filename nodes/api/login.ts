/**
 * The login itself: a signed token posted to the login endpoint; the session lives in the cookies
 * the 200 answer sets. Bounded: each attempt times out after 30 s, a transient failure (5xx, a
 * reset connection, a timeout) is tried twice more with backoff, and redirects are followed only
 * within the gateway's origin, at most 3 times. Nothing here puts the private key, the token or a
 * cookie into an error message.
 */
import { createHash } from 'crypto';
import {
	sleep,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IHttpRequestHelper,
} from 'n8n-workflow';

import { LOGIN_PATH, USER_AGENT } from './constants';
import { parseErrorBody, SellerPlatformLoginError } from './errors';
import { backoffDelay } from './policy';
import { fingerprints } from './state';
import { loginBody, requireField } from './token';
import { baseUrlProblem, joinUrl, MAX_REDIRECTS, originOf, redirectTarget } from './url';

export const LOGIN_POLICY = { timeoutMs: 30_000, attempts: 3 };

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
			disableFollowRedirect: true,
			timeout: LOGIN_POLICY.timeoutMs,
		})) as LoginResponse;
	} catch (error) {
		// A transport failure: the HTTP client's error carries the request, and so the JWT. Keep
		// only its code; the caller reports it.
		const { code, message } = error as { code?: string; message?: string };
		const timedOut =
			code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(message ?? '');
		return { networkError: timedOut ? 'ETIMEDOUT' : String(code ?? 'network error') };
	}
}

const TRANSIENT = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN']);

const isTransient = (response: LoginResponse) =>
	'networkError' in response ? TRANSIENT.has(response.networkError) : response.statusCode >= 500;

/** Posts the login, repeating transient failures and following same-origin redirects. */
async function postWithRetries(ctx: IHttpRequestHelper, url: string, body: IDataObject) {
	let target = url;
	for (let attempt = 1, redirects = 0; ;) {
		const response = await postLogin(ctx, target, body);
		if (!('networkError' in response) && response.statusCode >= 300 && response.statusCode < 400) {
			const next = redirectTarget(String(response.headers.location ?? ''), target);
			if (!next || originOf(next) !== originOf(url) || ++redirects > MAX_REDIRECTS) {
				throw new SellerPlatformLoginError(
					next && originOf(next) !== originOf(url)
						? `The Seller Platform login was redirected to another origin (${originOf(next)}) and was not followed`
						: `The Seller Platform login was redirected too often (HTTP ${response.statusCode})`,
					{
						httpCode: response.statusCode,
						description: `Redirects are followed only within ${originOf(url)}, at most ${MAX_REDIRECTS} times, so the token never leaves the configured gateway. Check the Base URL of the credential.`,
					},
				);
			}
			target = next;
			continue;
		}
		if (attempt >= LOGIN_POLICY.attempts || !isTransient(response)) return response;
		await sleep(backoffDelay(attempt - 1));
		attempt++;
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
	const problem = baseUrlProblem(baseUrl);
	if (problem) throw new SellerPlatformLoginError(problem);
	const token = [String(body.token)];

	const response = await postWithRetries(this, joinUrl(baseUrl, LOGIN_PATH), body);
	if ('networkError' in response) {
		throw new SellerPlatformLoginError(
			response.networkError === 'ETIMEDOUT'
				? `The Seller Platform login at ${baseUrl} did not answer within ${LOGIN_POLICY.timeoutMs / 1000} s (${LOGIN_POLICY.attempts} attempts)`
				: `Could not reach the Seller Platform login at ${baseUrl}: ${response.networkError}`,
			{ description: 'Check the Base URL of the credential and that this n8n can reach it.' },
		);
	}
	if (response.statusCode !== 200) {
		// Every field without the token, redacted before it is shortened.
		const parsed = parseErrorBody(response.body, token, '<jwt>');
		const message = parsed.message ?? `HTTP ${response.statusCode}`;
		throw new SellerPlatformLoginError(`Seller Platform login failed: ${message}`, {
			httpCode: response.statusCode,
			statusCode: parsed.status_code,
			statusId: parsed.status_id,
			details: parsed.details,
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
