/**
 * The Seller Platform session: the login (a signed token posted to the login endpoint; the session
 * lives in the cookies the 200 answer sets), logins shared between concurrent callers, and the
 * cookie put on every request.
 *
 * Used by the credential's `preAuthentication`, so n8n runs it when the stored session is empty,
 * when a request answers 401, and when the user presses "Test". Nothing here ever puts the private
 * key, the token or a cookie into an error message.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestHelper,
	IHttpRequestOptions,
} from 'n8n-workflow';

import { addressKind } from './address';
import { abortable, sharedTask, signalOf, type SharedTask } from './abort';
import { CREDENTIAL_TYPE, LOGIN_PATH } from './constants';
import { apiError, SellerPlatformLoginError } from './errors';
import { login, loginFingerprint } from './login';
import { noteSessionSent, perRun, refusedRequests, retireSession, sessions } from './state';
import { baseUrlProblem, joinUrl, requestTarget } from './url';

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
export async function sharedLogin(
	this: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
	cancel?: AbortSignal,
): Promise<IDataObject> {
	// n8n's legacy request helper (the HTTP Request node's) logs in again after any failure: not
	// for a request `authenticate` refused, which gets its refusal again instead.
	const refused = refusedRequests.get(credentials);
	if (refused) {
		refusedRequests.delete(credentials);
		throw refused;
	}
	const identity = loginFingerprint(credentials);
	const running = sessions.inFlight.get(identity);
	if (running && !running.abandoned()) return await running.join(cancel);

	// A caller without a session, or with one this process knows to be older than its newest,
	// takes the newest: one it replaced, or one it first sent before its newest login started
	// (another n8n process's, read from the stored credential earlier). A session first seen
	// after that may be fresher than ours: then a real login follows. Should the newest have
	// expired too, the service answers 401 and the caller comes back with it, which logs in below.
	const used = typeof credentials.sessionCookie === 'string' ? credentials.sessionCookie : '';
	const newest = sessions.newest.get(identity);
	const olderThanNewest =
		!used ||
		sessions.retired.get(identity)?.has(used) ||
		(sessions.firstSent.get(used) ?? Infinity) < (sessions.newestStartedAt.get(identity) ?? 0);
	if (newest && used !== newest && olderThanNewest) {
		return { sessionCookie: newest, sessionFingerprint: identity };
	}

	// Each caller waits with its own cancel signal; once every caller stopped, the login is closed
	// (abort.ts `sharedTask`) and the next caller starts a new one.
	const startedAt = Date.now();
	const shared: SharedTask<IDataObject> = sharedTask(async (abandoned) => {
		try {
			const result = await login.call(this, credentials, abandoned);
			retireSession(identity, sessions.newest.get(identity));
			retireSession(identity, used);
			sessions.newest.set(identity, String(result.sessionCookie));
			sessions.newestStartedAt.set(identity, startedAt);
			sessions.loginsDone.set(identity, (sessions.loginsDone.get(identity) ?? 0) + 1);
			return result;
		} finally {
			if (sessions.inFlight.get(identity) === shared) sessions.inFlight.delete(identity);
			sessions.lastLoginEnd.set(identity, Date.now());
		}
	});
	sessions.inFlight.set(identity, shared);
	return await shared.join(cancel);
}

/** The login's request helper: n8n's plain one, as the credential's own login gets it. */
export function loginHelper(ctx: { helpers: IHttpRequestHelper['helpers'] }): IHttpRequestHelper {
	return { helpers: { httpRequest: ctx.helpers.httpRequest } };
}

/** What the Session → Login operation reports: whose login, and when it ended. */
export interface RunLogin {
	credentials: ICredentialDataDecryptedObject;
	sessionCookie: string;
	loggedInAt: string;
}

/**
 * A login of its own (not shared with requests), once per node run and shared by the run's
 * items: the Session → Login operation. A stop ends the wait at once; a failure is the same
 * NodeApiError as a request's (errors.ts).
 */
export async function loginForRun(ctx: IExecuteFunctions, itemIndex: number): Promise<RunLogin> {
	let pending = perRun.logins.get(ctx);
	if (!pending) {
		pending = (async () => {
			const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
			const cancel = ctx.getExecutionCancelSignal?.();
			const { sessionCookie } = await login.call(loginHelper(ctx), credentials, cancel);
			return {
				credentials,
				sessionCookie: String(sessionCookie),
				loggedInAt: new Date().toISOString(),
			};
		})();
		perRun.logins.set(ctx, pending);
	}
	let failed: unknown;
	try {
		// A login ends at its own deadline; a stop ends it and the node's wait at once.
		return await abortable(pending, ctx.getExecutionCancelSignal?.());
	} catch (error) {
		failed = error;
	}
	throw apiError(failed, { node: ctx.getNode(), endpoint: 'Login', itemIndex });
}

/**
 * The request's address, when it is on the gateway: the origin (scheme, host, port, compared as
 * URLs normalise them) of the credential's Base URL. Any other address is refused before anything
 * is sent, so neither a login token nor the session ever leaves the gateway, whatever URL a user
 * types into n8n's HTTP Request node with this credential.
 */
function gatewayTarget(
	credentials: ICredentialDataDecryptedObject,
	options: IHttpRequestOptions,
): URL {
	const gateway = new URL(String(credentials.baseUrl).trim()).origin;
	const target = requestTarget(options);
	if (target?.origin === gateway) return target;
	const refusal = new SellerPlatformLoginError(
		`The Seller Platform API credential sends its session and login token only to its Base URL (${gateway}): this request to ${target && target.origin !== 'null' ? target.origin : 'an address that is not a full http(s) URL'} was not sent`,
		{
			description: `Use this credential only for requests to ${gateway}, or correct the Base URL of the credential. For another service, use a credential of its own.`,
		},
	);
	refusedRequests.set(credentials, refusal);
	throw refusal;
}

/**
 * A path as a lenient gateway may route it: percent-escapes decoded, `;` parameters and repeated
 * or trailing slashes dropped, lower case.
 */
function routedPath(pathname: string): string {
	let path = pathname;
	try {
		path = decodeURIComponent(pathname);
	} catch {
		// A malformed escape: compared as written.
	}
	return path
		.replace(/;[^/]*/g, '')
		.replace(/\/{2,}/g, '/')
		.replace(/\/+$/, '')
		.toLowerCase();
}

/** The Base URL's login endpoint, in any spelling a gateway may route to it. */
function isLoginRequest(target: URL, baseUrl: string): boolean {
	const login = new URL(joinUrl(baseUrl, LOGIN_PATH));
	return routedPath(target.pathname) === routedPath(login.pathname);
}

/** The options of a request that n8n's helpers (and the legacy ones of the HTTP Request node) read. */
type RouteOptions = IHttpRequestOptions & {
	rejectUnauthorized?: boolean;
	strictSSL?: boolean;
	agentOptions?: { rejectUnauthorized?: boolean; ca?: unknown };
};

/**
 * Why the request would not go straight to the gateway, or undefined: a proxy (whoever runs it
 * reads the session; refused even for a loopback Base URL, which may be a tunnel to the real
 * gateway), certificate checks turned off or a certificate authority of the request's own (anyone
 * on the way can pose as the gateway; allowed for a loopback Base URL, where nothing crosses a
 * network).
 */
function indirectRoute(options: RouteOptions, baseUrl: string): string | undefined {
	if (options.proxy) return 'through a proxy';
	if (addressKind(new URL(baseUrl).hostname) === 'loopback') return undefined;
	const checksOff =
		options.skipSslCertificateValidation === true ||
		options.rejectUnauthorized === false ||
		options.strictSSL === false ||
		options.agentOptions?.rejectUnauthorized === false;
	if (checksOff) return 'with certificate checks turned off (Ignore SSL Issues)';
	const ownAuthority = options.agentOptions?.ca !== undefined;
	return ownAuthority ? 'with a certificate authority of its own (SSL Certificates)' : undefined;
}

/**
 * Refuses a request `authenticate` must not add a secret to: one to the login endpoint (the
 * credential logs in by itself; a token handed to another node would be a working login, and
 * the answer's session cookie would show in its output) or one sent indirectly (see above).
 */
function refuseUnsafeRoute(
	credentials: ICredentialDataDecryptedObject,
	options: RouteOptions,
	target: URL,
	baseUrl: string,
): void {
	const route = isLoginRequest(target, baseUrl)
		? 'to the login endpoint'
		: indirectRoute(options, baseUrl);
	if (!route) return;
	const refusal = new SellerPlatformLoginError(
		`The Seller Platform API credential adds its session or login token only to requests that go straight to its Base URL: this request ${route} was not sent`,
		{
			description:
				'The credential logs in by itself, and never through a proxy or with certificate checks turned off. Send the request without a proxy, with "Ignore SSL Issues" off and without "SSL Certificates"; to check a login, use the credential\'s Test button or the Session → Log In operation.',
		},
	);
	refusedRequests.set(credentials, refusal);
	throw refusal;
}

/**
 * The credential's `authenticate`, run by n8n just before every request it sends for us:
 * - a request to any origin but the Base URL's is refused (nothing is sent);
 * - so is a request to the login endpoint, or through a proxy, or with certificate checks off
 *   (unless the Base URL is a loopback emulator): no node but the credential's own login ever gets
 *   a login token, and the session never crosses a route the user can read;
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
		// The request's deadline, where n8n put the execution's cancel signal alone (abort.ts).
		abortSignal: signalOf(requestOptions) ?? requestOptions.abortSignal,
	};
	refusedRequests.delete(credentials);
	const baseUrl = String(credentials.baseUrl ?? '').trim();
	const problem = baseUrlProblem(baseUrl);
	if (problem) throw new SellerPlatformLoginError(problem);
	refuseUnsafeRoute(credentials, options, gatewayTarget(credentials, options), baseUrl);
	const identity = loginFingerprint(credentials);
	let session = typeof credentials.sessionCookie === 'string' ? credentials.sessionCookie : '';
	// A session this process already replaced would only earn a 401: send the newest instead, and
	// note it on the request's own copy of the credential, so a 401 is answered for the session
	// that was really used.
	const newest = sessions.newest.get(identity);
	if (newest && session && session !== newest && sessions.retired.get(identity)?.has(session)) {
		session = newest;
		credentials.sessionCookie = newest;
		credentials.sessionFingerprint = identity;
	}
	if (session && credentials.sessionFingerprint === identity) {
		options.headers!.Cookie = session;
		noteSessionSent(session, Date.now());
	}
	return options;
}

/**
 * After a request: the shared credential of the run takes the session its copy ended with, unless
 * this process already knows a newer one.
 */
export function adoptSession(
	shared: ICredentialDataDecryptedObject,
	copy: ICredentialDataDecryptedObject,
) {
	const session = copy.sessionCookie;
	if (typeof session !== 'string' || !session || session === shared.sessionCookie) return;
	const identity = loginFingerprint(copy);
	if (sessions.retired.get(identity)?.has(session)) return;
	shared.sessionCookie = session;
	shared.sessionFingerprint = copy.sessionFingerprint;
}
