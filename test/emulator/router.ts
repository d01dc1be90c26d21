/**
 * Path matching shared by the API route table and the control API.
 *
 * Paths are written like the spec writes them (`/fbpo/v1/po/{po_nr}/get`). Matching works on the
 * RAW request path: it is split on `/` first and each segment is percent-decoded afterwards, so an
 * encoded slash (`..%2Fx`) stays inside its segment and becomes the parameter value `../x`.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The part of a route definition the matcher needs. */
export interface RouteSpec {
	method: HttpMethod;
	/** Path template; `{name}` marks a parameter spanning exactly one non-empty segment. */
	path: string;
}

type Segment = { literal: string } | { param: string };

export interface CompiledRoute<T extends RouteSpec> {
	route: T;
	segments: Segment[];
}

export type RouteMatch<T extends RouteSpec> =
	| { kind: 'matched'; route: T; params: Record<string, string> }
	| { kind: 'method-not-allowed'; allowed: HttpMethod[] }
	| { kind: 'not-found' }
	| { kind: 'malformed-path' };

function compileSegment(segment: string): Segment {
	const param = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(segment);
	return param ? { param: param[1] } : { literal: segment };
}

/** Compiles a route table; duplicate method + path pairs are a programming error. */
export function compileRoutes<T extends RouteSpec>(routes: readonly T[]): CompiledRoute<T>[] {
	const seen = new Set<string>();
	return routes.map((route) => {
		const key = `${route.method} ${route.path}`;
		if (seen.has(key)) throw new Error(`duplicate emulator route: ${key}`);
		seen.add(key);
		return { route, segments: route.path.split('/').map(compileSegment) };
	});
}

/**
 * A request target in origin form (`/a/b?x=1`): one in absolute form (`http://host:port/a/b?x=1`,
 * as a client writes it to a proxy, and as the credential writes it to an http:// Base URL so that
 * no proxy of n8n's environment gets it) loses its scheme and authority. HTTP/1.1 servers must
 * accept both (RFC 9112, 3.2.2).
 */
export function originForm(url: string | undefined): string {
	const target = url ?? '/';
	const authority = /^[a-z][a-z\d+\-.]*:\/\/[^/?#]*/i.exec(target);
	if (!authority) return target;
	const rest = target.slice(authority[0].length);
	return rest.startsWith('/') ? rest : `/${rest}`;
}

/** The path part of a raw request target (`/a/b?x=1` → `/a/b`), still percent-encoded. */
export function rawPathOf(url: string | undefined): string {
	const target = url ?? '/';
	const end = target.search(/[?#]/);
	return end === -1 ? target : target.slice(0, end);
}

/** Splits a raw path on `/`, then decodes each segment; null when a segment is not valid percent-encoding. */
export function decodeSegments(rawPath: string): string[] | null {
	try {
		return rawPath.split('/').map((segment) => decodeURIComponent(segment));
	} catch {
		return null;
	}
}

function matchSegments(segments: Segment[], actual: string[]): Record<string, string> | null {
	if (segments.length !== actual.length) return null;
	const params: Record<string, string> = {};
	for (let i = 0; i < segments.length; i++) {
		const segment = segments[i];
		if ('literal' in segment) {
			if (segment.literal !== actual[i]) return null;
		} else {
			if (actual[i] === '') return null;
			params[segment.param] = actual[i];
		}
	}
	return params;
}

export function matchRoute<T extends RouteSpec>(
	routes: readonly CompiledRoute<T>[],
	method: string | undefined,
	rawPath: string,
): RouteMatch<T> {
	const actual = decodeSegments(rawPath);
	if (!actual) return { kind: 'malformed-path' };
	const allowed: HttpMethod[] = [];
	for (const { route, segments } of routes) {
		const params = matchSegments(segments, actual);
		if (!params) continue;
		if (route.method === method) return { kind: 'matched', route, params };
		allowed.push(route.method);
	}
	return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
}
