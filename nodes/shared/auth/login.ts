/**
 * The login itself: a signed token posted to the login endpoint; the session lives in the cookies
 * the 200 answer sets. Bounded: the whole login (every attempt with its whole answer, the waits
 * between attempts, redirects) has one deadline, 30 s; a 5xx or a reset connection is tried again
 * while time is left (3 attempts at most), a time-out never; redirects are followed only within
 * the gateway's origin, at most 3 times. Nothing here puts the private key, the token or a cookie
 * into an error message.
 */
import { createHash } from 'crypto';
import {
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IHttpRequestHelper,
} from 'n8n-workflow';

import { deadline, ExecutionStopped, wait, withinDeadline, type Deadline } from '../common/abort';
import { LOGIN_PATH, USER_AGENT } from '../common/constants';
import { gatewayBaseUrl } from '../credential/baseUrl';
import { baseUrlField } from '../credential/fields';
import { parseErrorBody } from '../errors/errorBody';
import { SellerPlatformLoginError } from '../errors/errors';
import { AnswerTooLarge, readCapped } from '../gateway/answer';
import { baseUrlProblem, joinUrl, localNamesAllowed, redirectStep } from '../gateway/url';
import { CONNECTION_FAILURES } from '../pacing/retries';
import { backoffDelay } from '../pacing/waits';
import { proxyAllowed, straightRoute } from './route';
import { loginBody, requireField } from './token';

/** `timeoutMs`: the deadline of the whole login, every attempt included. */
export const LOGIN_POLICY = { timeoutMs: 30_000, attempts: 3 };

/** The login had no complete answer within its deadline (`LOGIN_POLICY.timeoutMs`). */
export class LoginTimedOut extends SellerPlatformLoginError {
	constructor(baseUrl: string, attempts: number) {
		const tries = attempts > 1 ? ` (${attempts} attempts)` : '';
		super(
			`The Seller Platform login at ${baseUrl} timed out: no complete answer within ${LOGIN_POLICY.timeoutMs / 1000} s${tries}`,
			{
				description: `The login was not repeated after the time-out. Check the ${baseUrlField.displayName} of the credential and that this n8n can reach it.`,
			},
		);
		this.name = 'LoginTimedOut';
	}
}

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

/**
 * Largest session a login may set: its Cookie header, in bytes (UTF-8). Browsers keep at most
 * 4 KB per cookie and a gateway's session is a few cookies of tens of bytes each (the emulator's
 * is 79 bytes), so a larger one is refused at login, never kept nor sent.
 */
export const MAX_SESSION_COOKIE_KB = 8;
export const MAX_SESSION_COOKIE_BYTES = MAX_SESSION_COOKIE_KB * 1024;

/** The session the login's answer sets (its Set-Cookie headers), within its size bound. */
function sessionOf(headers: IDataObject): string {
	const sessionCookie = cookieHeaderFromSetCookie(headers['set-cookie']);
	if (!sessionCookie) {
		throw new SellerPlatformLoginError(
			'Seller Platform login answered 200 but set no session cookie',
			{
				httpCode: 200,
				description: `Check that the ${baseUrlField.displayName} points at the Seller Platform gateway.`,
			},
		);
	}
	const bytes = Buffer.byteLength(sessionCookie, 'utf8');
	if (bytes > MAX_SESSION_COOKIE_BYTES) {
		throw new SellerPlatformLoginError(
			`Seller Platform login answered 200 but set session cookies of ${bytes} bytes, more than the ${MAX_SESSION_COOKIE_KB} KB the node keeps`,
			{
				httpCode: 200,
				description: `A Seller Platform gateway's session is far smaller, and browsers keep at most 4 KB per cookie: this one was not kept. Check that the ${baseUrlField.displayName} points at the Seller Platform gateway.`,
			},
		);
	}
	return sessionCookie;
}

type LoginResponse =
	{ statusCode: number; headers: IDataObject; body: unknown } | { networkError: string };

const TIMED_OUT = 'ETIMEDOUT';

/**
 * What each attempt of one login needs: a freshly signed body (a login token is sent once: a used
 * `jti` cannot log in again, and nobody should hold one that could), and whether the login may
 * take a proxy (auth/route.ts; otherwise it goes straight to an http:// Base URL).
 */
interface LoginRequest {
	sign: () => Promise<IDataObject>;
	mayProxy: boolean;
}

async function postLogin(
	ctx: IHttpRequestHelper,
	url: string,
	body: IDataObject,
	limit: Deadline,
	mayProxy: boolean,
): Promise<LoginResponse> {
	const straight = mayProxy ? undefined : straightRoute(new URL(url));
	let failed: unknown;
	try {
		return await withinDeadline(
			limit,
			async (signal) => {
				const own = new AbortController();
				const response = (await ctx.helpers.httpRequest({
					method: 'POST',
					url,
					body,
					json: true,
					// Read within the size cap (answer.ts), not buffered whole by n8n's client.
					encoding: 'stream',
					headers: { Accept: 'application/json', 'User-Agent': USER_AGENT },
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
					disableFollowRedirect: true,
					...(straight && { proxy: straight }),
					timeout: limit.left(),
					abortSignal: AbortSignal.any([signal, own.signal]),
				})) as { statusCode: number; headers: IDataObject; body: unknown };
				const stop = () => own.abort();
				return { ...response, body: await readCapped(response.body, 'login', stop) };
			},
			() => new Error(TIMED_OUT),
		);
	} catch (error) {
		failed = error;
	}
	if (limit.passed()) return { networkError: TIMED_OUT };
	if (failed instanceof ExecutionStopped) throw failed;
	if (failed instanceof AnswerTooLarge) {
		throw new SellerPlatformLoginError(failed.message, { description: failed.description });
	}
	// A transport failure: the HTTP client's error carries the request, and so the JWT. Keep
	// only its code; the caller reports it.
	const { code, message } = failed as { code?: string; message?: string };
	const timedOut =
		code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(message ?? '');
	return { networkError: timedOut ? TIMED_OUT : String(code ?? 'network error') };
}

/** Tried again while the deadline leaves time (retries.ts `CONNECTION_FAILURES`); a time-out is final. */
const isTransient = (response: LoginResponse) =>
	'networkError' in response
		? CONNECTION_FAILURES.has(response.networkError)
		: response.statusCode >= 500;

/** A redirect answer's next step (url.ts `redirectStep`); undefined for any other answer. */
function redirectOf(response: LoginResponse, from: string, followed: number) {
	if ('networkError' in response || response.statusCode < 300 || response.statusCode >= 400) {
		return undefined;
	}
	const location = String(response.headers.location ?? '');
	return redirectStep('login', location, from, followed, response.statusCode);
}

/**
 * Posts the login within `limit`, repeating transient failures while time is left and following
 * same-origin redirects, each post with a token of its own. Returns the last answer, the attempts
 * it took and every token sent (at most `LOGIN_POLICY.attempts` + `MAX_REDIRECTS`).
 */
async function postWithRetries(
	ctx: IHttpRequestHelper,
	url: string,
	request: LoginRequest,
	limit: Deadline,
) {
	let target = url;
	const tokens: string[] = [];
	for (let attempt = 1, redirects = 0; ;) {
		const body = await request.sign();
		tokens.push(String(body.token));
		const response = await postLogin(ctx, target, body, limit, request.mayProxy);
		const step = redirectOf(response, target, redirects);
		if (step && 'refuse' in step) {
			throw new SellerPlatformLoginError(step.refuse, {
				httpCode: (response as { statusCode: number }).statusCode,
				description: step.description,
			});
		}
		if (step) {
			target = step.follow;
			redirects++;
			continue;
		}
		const delay = backoffDelay(attempt - 1);
		if (attempt >= LOGIN_POLICY.attempts || !isTransient(response) || delay >= limit.left()) {
			return { response, attempts: attempt, tokens };
		}
		// Ended early by a stop: the next attempt then says why (postLogin).
		await wait(delay, limit.signal).catch(() => undefined);
		attempt++;
	}
}

/**
 * Logs in and returns the session as the credential's expirable property. Success only on 200.
 * `cancel` ends it at once (`ExecutionStopped`), its request closed: when nobody waits any more.
 */
export async function login(
	this: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
	cancel?: AbortSignal,
): Promise<IDataObject> {
	const baseUrl = requireField(
		{ ...credentials, baseUrl: gatewayBaseUrl(credentials) },
		baseUrlField,
	);
	// Checked before a token is signed: no token is made for a host that may not get it.
	const problem = baseUrlProblem(baseUrl, localNamesAllowed(credentials));
	if (problem) throw new SellerPlatformLoginError(problem);
	const request: LoginRequest = {
		sign: async () => await loginBody(credentials),
		mayProxy: proxyAllowed(credentials, baseUrl),
	};

	const limit = deadline(LOGIN_POLICY.timeoutMs, cancel);
	const url = joinUrl(baseUrl, LOGIN_PATH);
	const { response, attempts, tokens } = await postWithRetries(this, url, request, limit);
	if ('networkError' in response) {
		if (response.networkError === TIMED_OUT) throw new LoginTimedOut(baseUrl, attempts);
		throw new SellerPlatformLoginError(
			`Could not reach the Seller Platform login at ${baseUrl}: ${response.networkError}`,
			{
				description: `Check the ${baseUrlField.displayName} of the credential and that this n8n can reach it.`,
			},
		);
	}
	if (response.statusCode !== 200) {
		// Every field without the token, redacted before it is shortened.
		const parsed = parseErrorBody(response.body, tokens, '<jwt>');
		const message = parsed.message ?? `HTTP ${response.statusCode}`;
		throw new SellerPlatformLoginError(`Seller Platform login failed: ${message}`, {
			httpCode: response.statusCode,
			statusCode: parsed.status_code,
			statusId: parsed.status_id,
			details: parsed.details,
		});
	}

	const sessionCookie = sessionOf(response.headers);
	return { sessionCookie, sessionFingerprint: loginFingerprint(credentials) };
}

/**
 * Login fingerprints, per decrypted credentials object (n8n hands one object to every request of
 * a run, so each is hashed once). Bound: weak, gone with the object.
 */
const fingerprints = new WeakMap<object, { source: string; digest: string }>();

/**
 * A digest of what a login depends on (base URL, key id, key, project). Stored beside the session
 * so a session obtained with other values (the user edited the credential) is not used.
 */
export function loginFingerprint(credentials: ICredentialDataDecryptedObject): string {
	const source = [
		gatewayBaseUrl(credentials),
		...['keyId', 'privateKey', 'projectCode'].map((k) => String(credentials[k] ?? '').trim()),
	].join('\u0000');
	// n8n hands the same credentials object to every request of a run: hash each one once.
	const cached = fingerprints.get(credentials);
	if (cached?.source === source) return cached.digest;
	const digest = createHash('sha256').update(source).digest('hex');
	fingerprints.set(credentials, { source, digest });
	return digest;
}
