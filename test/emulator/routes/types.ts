/** Shape of the API route table. Each `routes/*.ts` module contributes routes of this shape. */
import type { ResponseHeaders } from '../http';
import type { HttpMethod, RouteSpec } from '../router';
import type { EmulatorState, Session } from '../state';
import type { Prefixes } from '../types';

export interface ApiRouteContext {
	state: EmulatorState;
	/** Decoded path parameters. */
	params: Record<string, string>;
	/** JSON object body of POST/PUT/PATCH requests (`{}` when empty); `{}` for other methods. */
	body: Record<string, unknown>;
	/** The caller's session; null on public routes (Login). */
	session: Session | null;
	/** Caller address, IPv4-mapped prefix removed. */
	remoteAddress: string;
	/** Time the handler runs, ms since the epoch. */
	now: number;
	/** Query parameters of the request target. */
	query: URLSearchParams;
	/** Origin the caller reached the emulator at (from the Host header), for links in answers. */
	baseUrl: string;
}

export interface ApiResult {
	/** Default 200. */
	status?: number;
	/** Sent as JSON, unless `contentType` is set: then it must be the raw text to send. */
	body: unknown;
	headers?: ResponseHeaders;
	/** Sends `body` as-is with this Content-Type (files), instead of JSON. */
	contentType?: string;
}

export interface ApiRoute extends RouteSpec {
	method: HttpMethod;
	/** Operation name as the spec writes it (`GetPurchaseOrder`); used by logs, stats, faults, rate plan. */
	operation: string;
	/** `session`: needs the login cookies; `public`: reachable without (Login only). */
	auth: 'session' | 'public';
	/** Counted against the rate plan (every operation but Login). */
	rateLimited: boolean;
	/** `optional` skips the User-Agent check (served files, which plain downloads fetch); default required. */
	userAgent?: 'required' | 'optional';
	/** Returns the answer, or throws `ApiError`. */
	handler(ctx: ApiRouteContext): ApiResult | Promise<ApiResult>;
}

/** Settings route modules may depend on (e.g. service prefixes of the `/v1/...` paths). */
export interface RouteConfig {
	prefixes: Readonly<Prefixes>;
}

export type RouteModule = (config: RouteConfig) => ApiRoute[];
