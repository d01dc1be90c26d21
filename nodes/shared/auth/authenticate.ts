/**
 * The credential's `authenticate`: which requests may carry the session or a login token (only
 * those that go straight to the credential's Base URL, never to its login endpoint), and the
 * session cookie put on each of them (session.ts keeps the newest).
 */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { signalOf } from '../common/abort';
import { monotonicNow } from '../common/clock';
import { LOGIN_PATH } from '../common/constants';
import { gatewayBaseUrl } from '../credential/baseUrl';
import { baseUrlField } from '../credential/fields';
import { SellerPlatformLoginError } from '../errors/errors';
import { addressKind } from '../gateway/address';
import { baseUrlProblem, joinUrl, localNamesAllowed, requestTarget } from '../gateway/url';
import { loginFingerprint } from './login';
import { isStraightRoute, proxyAllowed, straightRoute } from './route';
import { isRetired, noteSessionSent, refusedRequests, sessions } from './session';

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
	const gateway = new URL(gatewayBaseUrl(credentials)).origin;
	const target = requestTarget(options);
	if (target?.origin === gateway) return target;
	const refusal = new SellerPlatformLoginError(
		`The Seller Platform API credential sends its session and login token only to its ${baseUrlField.displayName} (${gateway}): this request to ${target && target.origin !== 'null' ? target.origin : 'an address that is not a full http(s) URL'} was not sent`,
		{
			description: `Use this credential only for requests to ${gateway}, or correct the ${baseUrlField.displayName} of the credential. For another service, use a credential of its own.`,
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
 * Why the request would not go straight to the gateway, or undefined: a proxy of its own (whoever
 * runs it reads the session; refused even for a loopback Base URL, which may be a tunnel to the
 * real gateway, unless the credential allows a proxy for its local Base URL: route.ts), certificate
 * checks turned off or a certificate authority of the request's own (anyone on the way can pose as
 * the gateway; allowed for a loopback Base URL, where nothing crosses a network).
 */
function indirectRoute(
	options: RouteOptions,
	baseUrl: string,
	credentials: ICredentialDataDecryptedObject,
): string | undefined {
	const base = new URL(baseUrl);
	const ownProxy = options.proxy && !isStraightRoute(options.proxy, base);
	if (ownProxy && !proxyAllowed(credentials, baseUrl)) return 'through a proxy';
	if (addressKind(base.hostname) === 'loopback') return undefined;
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
		: indirectRoute(options, baseUrl, credentials);
	if (!route) return;
	const refusal = new SellerPlatformLoginError(
		`The Seller Platform API credential adds its session or login token only to requests that go straight to its ${baseUrlField.displayName}: this request ${route} was not sent`,
		{
			description:
				'The credential logs in by itself, and never through a proxy or with certificate checks turned off. Send the request without a proxy (or turn on the credential\'s "Allow Proxy" for a local Base URL), with "Ignore SSL Issues" off and without "SSL Certificates"; to check a login, use the credential\'s Test button or the Session → Log In operation.',
		},
	);
	refusedRequests.set(credentials, refusal);
	throw refusal;
}

/**
 * What every request the credential signs says about redirects, in the words of both n8n helpers
 * (`httpRequest*`: `disableFollowRedirect`; the legacy `request*` of the HTTP Request node:
 * `followRedirect`, `followAllRedirects`): none is followed by n8n, so the session never goes
 * where a redirect points, and should n8n follow one anyway, it drops the session on another
 * origin (n8n keeps it by default when it follows redirects itself: with SSRF protection on and
 * a proxy variable set). The package's own requests follow same-origin redirects themselves
 * (gateway/url.ts `redirectStep`); a redirect answer reaches the HTTP Request node as it came.
 */
const NO_REDIRECTS = {
	sendCredentialsOnCrossOriginRedirect: false,
	disableFollowRedirect: true,
	maxRedirects: 0,
	followRedirect: false,
	followAllRedirects: false,
};

/**
 * The credential's `authenticate`, run by n8n just before every request it sends for us:
 * - a request to any origin but the Base URL's is refused (nothing is sent);
 * - so is a request to the login endpoint, or through a proxy, or with certificate checks off
 *   (unless the Base URL is a loopback emulator): no node but the credential's own login ever gets
 *   a login token, and the session never crosses a route the user can read;
 * - a request to an http:// Base URL goes straight to it, past the proxy of n8n's environment
 *   (route.ts), unless the credential allows a proxy for its local Base URL;
 * - any other request gets the session cookies, unless they were obtained with other credential
 *   values: then none are sent, the service answers 401 and n8n logs in again with the new values;
 * - no request it signs follows a redirect (`NO_REDIRECTS`).
 */
export async function authenticateRequest(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const options: IHttpRequestOptions = {
		...requestOptions,
		...NO_REDIRECTS,
		headers: { ...(requestOptions.headers ?? {}) },
		// The request's deadline, where n8n put the execution's cancel signal alone (abort.ts).
		abortSignal: signalOf(requestOptions) ?? requestOptions.abortSignal,
	};
	refusedRequests.delete(credentials);
	const baseUrl = gatewayBaseUrl(credentials);
	const problem = baseUrlProblem(baseUrl, localNamesAllowed(credentials));
	if (problem) throw new SellerPlatformLoginError(problem);
	const target = gatewayTarget(credentials, options);
	refuseUnsafeRoute(credentials, options, target, baseUrl);
	// Straight to an http:// Base URL, past any proxy of n8n's environment (route.ts).
	const straight = proxyAllowed(credentials, baseUrl) ? undefined : straightRoute(target);
	if (straight) options.proxy = straight;
	const identity = loginFingerprint(credentials);
	let session = typeof credentials.sessionCookie === 'string' ? credentials.sessionCookie : '';
	// A session this process already replaced would only earn a 401: send the newest instead, and
	// note it on the request's own copy of the credential, so a 401 is answered for the session
	// that was really used.
	const newest = sessions.newest.get(identity);
	if (newest && session && session !== newest && isRetired(identity, session)) {
		session = newest;
		credentials.sessionCookie = newest;
		credentials.sessionFingerprint = identity;
	}
	if (session && credentials.sessionFingerprint === identity) {
		options.headers!.Cookie = session;
		noteSessionSent(session, monotonicNow());
	}
	return options;
}
