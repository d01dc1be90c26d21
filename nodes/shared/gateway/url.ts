/** URL building for the login and every API request. */
import { createHash } from 'crypto';
import type { INodeProperties } from 'n8n-workflow';

import { credentialField } from '../common/properties';
import { gatewayBaseUrl } from '../credential/baseUrl';
import { allowLocalNamesField, baseUrlField } from '../credential/fields';
import { GATEWAY_DOMAIN } from '../credential/gateways';
import { addressKind } from './address';
import { ENDPOINTS, type Endpoint, type PrefixSetting } from './endpoints';

function trimTrailingSlashes(value: string): string {
	return value.replace(/\/+$/, '');
}

/** Joins a base URL and path pieces with exactly one slash between them. */
export function joinUrl(baseUrl: string, ...paths: string[]): string {
	let url = trimTrailingSlashes(baseUrl.trim());
	for (const piece of paths) {
		const trimmed = piece.trim().replace(/^\/+|\/+$/g, '');
		if (trimmed) url += `/${trimmed}`;
	}
	return url;
}

/**
 * Fills `{name}` placeholders of a path template. Every value is URL-encoded as one segment, so
 * a value such as `../x` or `a/b` can never change the path.
 */
export function fillPath(template: string, params: Record<string, string> = {}): string {
	return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
		const value = params[name];
		if (value === undefined) throw new Error(`Missing path parameter "${name}"`);
		// URL parsers resolve "." and ".." (even as %2E) as dot segments: such a value would
		// change the path, so it is refused rather than sent.
		if (isDotSegment(value)) throw new Error(`Path parameter "${name}" cannot be "${value}"`);
		return encodeURIComponent(value);
	});
}

/** True for values a URL parser would treat as a relative path step. */
export function isDotSegment(value: string): boolean {
	return value === '.' || value === '..';
}

/** The full URL of an endpoint: base URL, service prefix, path with encoded parameters. */
export function buildUrl(
	baseUrl: string,
	endpoint: Endpoint,
	pathParams: Record<string, string> = {},
	prefixes: Partial<Record<PrefixSetting, string>> = {},
): string {
	const spec = ENDPOINTS[endpoint];
	const prefix = spec.prefix ? (prefixes[spec.prefix] ?? '') : '';
	return joinUrl(baseUrl, prefix, fillPath(spec.path, pathParams));
}

/**
 * Names a resolver may complete with its search domains (which may be public): a single label
 * (`emulator`, as a container or host file names it) or a name under a suffix meant for local
 * use, tried as `name.<search domain>` first wherever the resolver's `ndots` is above its dots.
 */
const SEARCHED_NAME = /^[^.]+$|\.(local|internal|lan|home\.arpa)$/;

/**
 * Addresses that count as private but reach any IPv4 host, public ones too: the NAT64 prefix for
 * local use (64:ff9b:1::/48, RFC 8215), as the URL parser writes it.
 */
const TRANSLATED = /^\[64:ff9b:1:/;

/** A single label written with its final dot (`ai.`): a top-level domain, never a local name. */
const TOP_LEVEL = /^[^.]+\.$/;

/**
 * Whether `hostname`, as written in the URL, is a host only the credential's own setting
 * (`allowLocalNamesField`) makes local: a name the resolver may complete (`SEARCHED_NAME`, not
 * a top-level domain) or a carrier-NAT address.
 */
function needsLocalNames(hostname: string): boolean {
	const kind = addressKind(hostname);
	if (kind === 'shared') return true;
	const name = hostname.toLowerCase();
	if (kind !== 'public' || name.includes(':') || TOP_LEVEL.test(name)) return false;
	return SEARCHED_NAME.test(name.replace(/\.$/, ''));
}

/**
 * Whether plain http: may carry the login token and the session to `hostname`: a loopback,
 * private or link-local address (not one that translates to any IPv4 host), `localhost` or a name
 * under it, as written in the URL; with `localNames` (the credential's setting) also a name the
 * resolver may complete and a carrier-NAT address (`needsLocalNames`).
 */
export function isLocalHost(hostname: string, localNames = false): boolean {
	const kind = addressKind(hostname);
	if (kind === 'loopback' || kind === 'link-local') return true;
	if (kind === 'private') return !TRANSLATED.test(hostname.toLowerCase());
	return localNames && needsLocalNames(hostname);
}

/** Whether the credential allows the hosts of `needsLocalNames` (its `allowLocalNamesField`). */
export function localNamesAllowed(credentials: Record<string, unknown>): boolean {
	return credentials[allowLocalNamesField.name] === true;
}

/** Why a host of `needsLocalNames` was refused, naming the setting that would allow it. */
function localNameRefusal(field: string, hostname: string): string {
	const what =
		addressKind(hostname) === 'shared'
			? 'a carrier-NAT address (100.64.0.0/10, which the network provider may share with its other customers)'
			: 'a name that the resolver may complete with its search domains, which may be public (a single label, or a name under .local, .internal, .lan or .home.arpa)';
	return `${field} names ${hostname}, ${what}, so nothing was sent. Use localhost or the host's IP address, or turn on "${allowLocalNamesField.displayName}" in the credential if that host is on your own network.`;
}

/** Whether `hostname` is the gateways' domain or a host under it (any port). */
export function isGatewayDomain(hostname: string): boolean {
	const name = hostname.toLowerCase().replace(/\.$/, '');
	return name === GATEWAY_DOMAIN || name.endsWith(`.${GATEWAY_DOMAIN}`);
}

/** Which hosts get the login token, and why, as an error says it. */
export const TOKEN_HOSTS_RULE = `The login token, signed with the private key, names no gateway and logs in at the real one wherever it is sent: so it is sent only to a host under ${GATEWAY_DOMAIN} (the noon and Namshi gateways, any port) or to a loopback or private address or a local host name (a local emulator, a tunnel you run)`;

/**
 * Checks the credential's Base URL:
 * - a host under the gateways' domain or a local host (`isLocalHost`; with `localNames`, the
 *   credential's setting, also the names and addresses of `needsLocalNames`), nothing else: the
 *   login token would log in at the real gateway from anywhere, so it never goes to another host;
 * - https (http only for a local host: the login token and the session would otherwise cross the
 *   internet in clear text);
 * - no user name or password (which would otherwise travel in every request and in errors).
 * Returns what is wrong, or undefined. Names the host at most, never the rest of the value.
 */
export function baseUrlProblem(baseUrl: string, localNames = false): string | undefined {
	const field = credentialField(baseUrlField);
	let url: URL;
	try {
		url = new URL(baseUrl);
	} catch {
		return `${field} is not a valid address`;
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		return `${field} must start with https:// (or http:// for a local emulator)`;
	}
	const local = isLocalHost(url.hostname, localNames);
	if (!local && !isGatewayDomain(url.hostname)) {
		if (needsLocalNames(url.hostname)) return localNameRefusal(field, url.hostname);
		return `${field} names ${url.hostname}, which is not a Seller Platform gateway, so nothing was sent. ${TOKEN_HOSTS_RULE}.`;
	}
	if (url.protocol === 'http:' && !local) {
		return `${field} must start with https:// for ${url.hostname}: http:// would send the login token and the session in clear text, so it is accepted only for a loopback or private address or a local host name (such as a local emulator)`;
	}
	if (url.username || url.password) {
		return `${field} must not contain a user name or password`;
	}
	return undefined;
}

/** A path segment of a service prefix: letters, digits and - . _ ~ (URL-safe as written). */
const PREFIX_SEGMENT = /^[A-Za-z0-9._~-]+$/;

/**
 * Checks a service prefix of the credential (`field`): empty, or path segments (PREFIX_SEGMENT)
 * between single slashes, none "." or "..". So the prefix only adds steps below the Base URL's
 * path: it never climbs above it, starts a query or fragment, or names a host. Returns what is
 * wrong, or undefined; never shows the value.
 */
export function pathPrefixProblem(
	prefix: string,
	field: Pick<INodeProperties, 'displayName' | 'default'>,
): string | undefined {
	const text = prefix.trim().replace(/^\/|\/$/g, '');
	if (text === '') return undefined;
	const segments = text.split('/');
	const fits = segments.every((part) => PREFIX_SEGMENT.test(part) && !isDotSegment(part));
	if (fits) return undefined;
	return `${credentialField(field)} must be a path such as ${String(field.default)}, or empty: letters, digits and - . _ ~ between single slashes, no "." or ".." step, no ?, #, % or host (it is put after the Base URL's path)`;
}

/**
 * A Base URL in one spelling, for keys that must not depend on how it was typed: lower-case
 * scheme and host, no default port, no trailing slash (the path kept as it is).
 */
export function normaliseBaseUrl(baseUrl: string): string {
	try {
		const url = new URL(baseUrl.trim());
		return trimTrailingSlashes(`${url.origin}${url.pathname}`);
	} catch {
		return trimTrailingSlashes(baseUrl.trim());
	}
}

/**
 * The project a credential works on, in one spelling (project code trimmed; the key id without a
 * project): part of the keys of what is kept per gateway (`gatewayScope`) and per rate plan
 * (`rateScope`).
 */
export function projectScope(credentials: Record<string, unknown>): string {
	const text = (name: string) => String(credentials[name] ?? '').trim();
	return text('projectCode') || text('keyId');
}

/** The host name of an address ('' when it is no absolute URL). */
function hostOf(address: string): string {
	try {
		return new URL(address.trim()).hostname;
	} catch {
		return '';
	}
}

/**
 * Whose rate plan a credential's requests count against: the key of the rate plan's limiters
 * (pacing/limiters.ts), as a SHA-256 digest (64 hex characters whatever was typed).
 * - A Base URL under the gateways' domain (`isGatewayDomain`, any host): the project's, one for
 *   all those hosts (noon counts sandbox traffic against the same project's quota as production).
 * - Any other Base URL (a local emulator, a tunnel): that address (`normaliseBaseUrl`) and the
 *   project. So a credential pointed at a server of its own never paces another's requests.
 */
export function rateScope(credentials: Record<string, unknown>): string {
	const baseUrl = gatewayBaseUrl(credentials);
	const where = isGatewayDomain(hostOf(baseUrl)) ? GATEWAY_DOMAIN : normaliseBaseUrl(baseUrl);
	// A URL in one spelling holds no NUL (the URL parser encodes it): the pair reads one way only.
	const scope = `${where}\u0000${projectScope(credentials)}`;
	return createHash('sha256').update(scope).digest('hex');
}

/**
 * The gateway and project a credential works on, in one spelling (Base URL normalised, project as
 * `projectScope`): the key of the trigger's destinations, download places and import memory.
 */
export function gatewayScope(credentials: Record<string, unknown>): string {
	return `${normaliseBaseUrl(gatewayBaseUrl(credentials))}|${projectScope(credentials)}`;
}

/**
 * Where a request goes, as n8n's HTTP client (axios) sends it: its `url` (`uri` in the legacy
 * request options of n8n's HTTP Request node), put after its `baseURL` unless it is absolute.
 * Undefined when that is no absolute address.
 */
export function requestTarget(options: object): URL | undefined {
	const { url, uri, baseURL } = options as { url?: unknown; uri?: unknown; baseURL?: unknown };
	const path = String(url ?? uri ?? '');
	const base = baseURL ? String(baseURL) : '';
	let address = path;
	if (base && !/^([a-z][a-z\d+\-.]*:)?\/\//i.test(path)) {
		address = path ? `${trimTrailingSlashes(base)}/${path.replace(/^\/+/, '')}` : base;
	}
	try {
		return new URL(address);
	} catch {
		return undefined;
	}
}

/** An address fit for a log line: without user name, password, query string or fragment. */
export function addressForLog(address: string): string {
	try {
		const url = new URL(address);
		return url.origin === 'null' ? url.protocol : `${url.origin}${url.pathname}`;
	} catch {
		return address.split(/[?#]/, 1)[0].replace(/^([^/]*\/\/)[^/]*@/, '$1');
	}
}

/** The origin of an address (scheme, host, port), or undefined when it is no absolute URL. */
export function originOf(url: string): string | undefined {
	try {
		return new URL(url).origin;
	} catch {
		return undefined;
	}
}

/** At most this many redirects are followed, and only within the origin of the request. */
export const MAX_REDIRECTS = 3;

/** Where a redirect leads: `location` resolved against the request's URL. */
export function redirectTarget(location: string, from: string): string | undefined {
	try {
		return new URL(location, from).href;
	} catch {
		return undefined;
	}
}

/** Why a redirect is not followed, in the words of the gateway request it answered. */
const REDIRECT_REFUSALS = {
	request: {
		foreign: (origin: string) =>
			`The Seller Platform API redirected the request to another origin (${origin}); it was not followed`,
		tooMany: () =>
			`The Seller Platform API redirected the request more than ${MAX_REDIRECTS} times`,
		carries: 'the session and the token never leave',
	},
	login: {
		foreign: (origin: string) =>
			`The Seller Platform login was redirected to another origin (${origin}) and was not followed`,
		tooMany: (httpStatus: number) =>
			`The Seller Platform login was redirected too often (HTTP ${httpStatus})`,
		carries: 'the token never leaves',
	},
};

/** A redirect of a gateway request: the address to follow, or why it is refused. */
export type RedirectStep = { follow: string } | { refuse: string; description: string };

/**
 * The one rule for redirects of gateway requests (API requests and the login): follow `location`
 * only within the origin of `from`, and only while fewer than `MAX_REDIRECTS` were followed, so
 * secrets never leave the configured gateway. Undefined when `location` is no address: the
 * redirect answer then stands as the request's answer.
 */
export function redirectStep(
	kind: keyof typeof REDIRECT_REFUSALS,
	location: string,
	from: string,
	followed: number,
	httpStatus: number,
): RedirectStep | undefined {
	const target = redirectTarget(location, from);
	if (target === undefined) return undefined;
	const foreign = originOf(target) !== originOf(from);
	if (!foreign && followed < MAX_REDIRECTS) return { follow: target };
	const words = REDIRECT_REFUSALS[kind];
	return {
		refuse: foreign ? words.foreign(originOf(target) ?? 'unknown') : words.tooMany(httpStatus),
		description: `Redirects are followed only within ${originOf(from)}, at most ${MAX_REDIRECTS} times, so ${words.carries} the configured gateway. Check the ${baseUrlField.displayName} of the credential.`,
	};
}
