/**
 * The shape of one entry of the endpoint table (endpoints.ts), and how the server turns an entry
 * into a route: the request is checked against the entry's schemas first, then a read answers
 * from the store (404 derived when the record is missing) or a handler changes the state.
 */
import { ApiError } from './errors';
import { BODY_METHODS, requireJsonObject, type ParsedBody, type ResponseHeaders } from './http';
import type { OwnRatePlan } from './ratePlan';
import type { HttpMethod, RouteSpec } from './router';
import { checkFields, checkQuery, type Fields, type JsonObject } from './schema';
import type { EmulatorState, Session } from './state';
import type { Prefixes } from './types';

/** What an answer or a handler gets: the checked request and the store. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface EndpointContext<B = any> {
	state: EmulatorState;
	/** Decoded path parameters. */
	params: Record<string, string>;
	/** The checked body (absent fields dropped); `{}` for GET. */
	body: B;
	/** The checked query parameters. */
	query: Record<string, string>;
	/** The caller's session; null on public endpoints (Login). */
	session: Session | null;
	/** The caller's project (its session's); '' on public endpoints. */
	projectCode: string;
	/** Caller address, IPv4-mapped prefix removed. */
	remoteAddress: string;
	/** Time the request is handled, ms since the epoch. */
	now: number;
	/** Origin the caller reached the emulator at (from the Host header), for links in answers. */
	baseUrl: string;
}

export interface ApiResult {
	/** Default 200. */
	status?: number;
	/** Sent as JSON, unless `contentType` is set: then it is the raw text (or stream) to send. */
	body: unknown;
	headers?: ResponseHeaders;
	contentType?: string;
}

interface EndpointBase {
	/** Operation name as the reference writes it (`GetPurchaseOrder`): logs, stats, faults, rate plan. */
	operation: string;
	method: HttpMethod;
	/** Full path with its service prefix and `{param}`s, as the reference writes it. */
	path: string;
	/**
	 * The path's first segment is this configurable service prefix (`EmulatorOptions.prefixes`):
	 * the path above is written with its default.
	 */
	prefix?: keyof Prefixes;
	/** Default `session`; `public`: reachable without the login cookies. */
	auth?: 'session' | 'public';
	/** Counted against the rate plan; default: when `auth` is `session`. */
	rateLimited?: boolean;
	/**
	 * The operation's own documented plan (`x-max-requests` per `x-time-window`, `x-burst` per
	 * `x-burst-time-window`) where the reference gives it one below the common plan; absent: the
	 * emulator's plan (ratePlan.ts).
	 */
	ratePlan?: OwnRatePlan;
	/** `optional` skips the User-Agent check (served files, which plain downloads fetch). */
	userAgent?: 'required' | 'optional';
	/** Fields of the JSON body (POST, PUT, PATCH); absent: the body must be empty or `{}`. */
	body?: Fields;
	/** Query parameters; absent: none is taken. */
	query?: Fields;
	/**
	 * A header the request must carry with the session's project code (`X-Project` of the FBN
	 * inbound endpoints): absent, 400; another project, 403.
	 */
	projectHeader?: string;
}

/** A read: the answer is a record of the store; `undefined` is answered 404. */
export interface ReadEndpoint extends EndpointBase {
	/** What the record is, for the 404 message: `purchase order "PO-9" not found`. */
	resource: string;
	answer: (ctx: EndpointContext) => unknown;
}

/** An endpoint that changes state (or answers something other than a record). */
// Each handler reads its own checked body type; the table holds them all (any: a handler of a
// narrower body is not assignable to one of `unknown`).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface HandledEndpoint<B = any> extends EndpointBase {
	handler: (ctx: EndpointContext<B>) => ApiResult | Promise<ApiResult>;
}

export type Endpoint = ReadEndpoint | HandledEndpoint;

/** An endpoint ready for the router and the pipeline (server.ts). */
export interface ApiRoute extends RouteSpec {
	operation: string;
	auth: 'session' | 'public';
	rateLimited: boolean;
	ratePlan?: OwnRatePlan;
	userAgent: 'required' | 'optional';
	projectHeader?: string;
	/** Checks the request against the schemas; returns the checked body and query. */
	check(method: string, body: ParsedBody, query: URLSearchParams): CheckedRequest;
	run(ctx: EndpointContext): Promise<ApiResult>;
}

export interface CheckedRequest {
	body: JsonObject;
	query: Record<string, string>;
}

/** The path with the configured prefix in place of the default one. */
function pathOf(endpoint: Endpoint, prefixes: Readonly<Prefixes>): string {
	if (!endpoint.prefix) return endpoint.path;
	const rest = endpoint.path.replace(/^\/[^/]+/, '');
	return `${prefixes[endpoint.prefix]}${rest}`;
}

/** The value of the path's last parameter: the record a read looks up. */
function lastParam(path: string, params: Record<string, string>): string | undefined {
	const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
	return names.length === 0 ? undefined : params[names[names.length - 1]];
}

function notFound(endpoint: ReadEndpoint, params: Record<string, string>): ApiError {
	const key = lastParam(endpoint.path, params);
	return new ApiError(
		'NOT_FOUND',
		key === undefined
			? `${endpoint.resource} not found`
			: `${endpoint.resource} ${JSON.stringify(key)} not found`,
	);
}

export function toRoute(endpoint: Endpoint, prefixes: Readonly<Prefixes>): ApiRoute {
	const auth = endpoint.auth ?? 'session';
	return {
		operation: endpoint.operation,
		method: endpoint.method,
		path: pathOf(endpoint, prefixes),
		auth,
		rateLimited: endpoint.rateLimited ?? auth === 'session',
		ratePlan: endpoint.ratePlan,
		userAgent: endpoint.userAgent ?? 'required',
		projectHeader: endpoint.projectHeader,
		check(method, body, query) {
			let checkedBody: JsonObject = {};
			if (BODY_METHODS.has(method)) {
				const raw = requireJsonObject(body);
				checkedBody = checkFields(endpoint.body ?? {}, raw, '');
			}
			return {
				body: checkedBody,
				query: checkQuery(endpoint.query ?? {}, query) as Record<string, string>,
			};
		},
		async run(ctx) {
			if ('handler' in endpoint) return endpoint.handler(ctx);
			const record = endpoint.answer(ctx);
			if (record === undefined) throw notFound(endpoint, ctx.params);
			return { body: record };
		},
	};
}
