/**
 * The one way to the Seller Platform API. Every request of both nodes goes through `apiRequest`:
 * URL building, headers, authentication (n8n logs in again on 401 and repeats once), client-side
 * pacing under the rate plan, waiting on 429, repeating transient failures of repeatable
 * operations, and turning the service's error body into a `NodeApiError`.
 */
import {
	NodeApiError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type ICredentialsDecrypted,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type INode,
	type IWebhookFunctions,
	type JsonObject,
} from 'n8n-workflow';

import {
	DEFAULT_IMPORT_PREFIX,
	DEFAULT_REQUESTS_PER_MINUTE,
	DEFAULT_SANDBOX_ORDER_PREFIX,
	USER_AGENT,
} from './constants';
import { SellerPlatformLoginError } from './login';
import { OPERATIONS, type OperationName, type OperationSpec } from './operations';
import { RateLimiterRegistry } from './rateLimiter';
import { fillPath, joinUrl, parseErrorBody, type ServiceErrorBody } from './url';

export { OPERATIONS, type OperationName } from './operations';

export const CREDENTIAL_TYPE = 'sellerPlatformApi';

export type RequestContext = IExecuteFunctions | IHookFunctions | ILoadOptionsFunctions | IWebhookFunctions;

export interface ApiRequestOptions {
	/** Values for the `{name}` placeholders of the operation's path. */
	pathParams?: Record<string, string>;
	body?: IDataObject;
	/** Item the request is made for: used for the credential lookup and in errors. */
	itemIndex?: number;
}

/** Bounds of the waiting and repeating. */
export const RETRY_POLICY = {
	/** 429 answers waited out per request before giving up. */
	maxRateLimitRetries: 8,
	/** Repeats of a repeatable operation after a 5xx, a reset connection or a timeout. */
	maxTransientRetries: 3,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
	/** A Retry-After longer than this is cut to it. */
	maxRetryAfterMs: 120_000,
	requestTimeoutMs: 60_000,
};

const limiters = new RateLimiterRegistry({ now: () => Date.now(), sleep: async (ms) => await sleep(ms) });

interface ConnectionSettings {
	baseUrl: string;
	scope: string;
	requestsPerMinute: number;
	prefixes: Record<NonNullable<OperationSpec['prefix']>, string>;
	/**
	 * The decrypted credential, read once per node run and handed to every request of the run,
	 * so n8n does not read and decrypt it again per request. n8n writes a new session into this
	 * same object when it logs in again (and stores it), so later requests of the run use it.
	 */
	credential: ICredentialsDecrypted;
}

/** The credential, read once per node run rather than once per item. */
const settingsCache = new WeakMap<object, Promise<ConnectionSettings>>();

async function connectionSettings(ctx: RequestContext, itemIndex: number): Promise<ConnectionSettings> {
	let pending = settingsCache.get(ctx);
	if (!pending) {
		pending = (async () => {
			const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
			const reference = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
			const baseUrl = String(credentials.baseUrl ?? '').trim();
			const rpm = Number(credentials.requestsPerMinute);
			return {
				baseUrl,
				// The quota belongs to the project (per operation); fall back to the key without one.
				scope: `${baseUrl}|${String(credentials.projectCode || credentials.keyId || '')}`,
				requestsPerMinute: Number.isFinite(rpm) && rpm >= 1 ? rpm : DEFAULT_REQUESTS_PER_MINUTE,
				prefixes: {
					sandboxOrderPrefix: String(credentials.sandboxOrderPrefix ?? DEFAULT_SANDBOX_ORDER_PREFIX),
					importPrefix: String(credentials.importPrefix ?? DEFAULT_IMPORT_PREFIX),
				},
				credential: {
					id: reference?.id ?? '',
					name: reference?.name ?? '',
					type: CREDENTIAL_TYPE,
					data: credentials,
				},
			};
		})();
		settingsCache.set(ctx, pending);
		pending.catch(() => settingsCache.delete(ctx));
	}
	return await pending;
}

/** Builds the full URL of an operation: base URL, service prefix, path with encoded parameters. */
export function buildUrl(
	baseUrl: string,
	operation: OperationName,
	pathParams: Record<string, string> = {},
	prefixes: Partial<Record<NonNullable<OperationSpec['prefix']>, string>> = {},
): string {
	const spec = OPERATIONS[operation];
	const prefix = spec.prefix ? (prefixes[spec.prefix] ?? '') : '';
	return joinUrl(baseUrl, prefix, fillPath(spec.path, pathParams));
}

export async function apiRequest(
	this: RequestContext,
	operation: OperationName,
	options: ApiRequestOptions = {},
): Promise<IDataObject> {
	const itemIndex = options.itemIndex ?? 0;
	const spec = OPERATIONS[operation];
	const settings = await connectionSettings(this, itemIndex);
	const request: IHttpRequestOptions = {
		method: spec.method,
		url: buildUrl(settings.baseUrl, operation, options.pathParams, settings.prefixes),
		headers: { Accept: 'application/json', 'User-Agent': USER_AGENT },
		json: true,
		timeout: RETRY_POLICY.requestTimeoutMs,
	};
	if (spec.method !== 'GET') request.body = options.body ?? {};

	const limiter = limiters.get(settings.scope, operation, settings.requestsPerMinute);
	const response = await withRetries(spec.repeatable, async () => {
		const slot = await limiter.acquire();
		try {
			return (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				{ ...request, headers: { ...request.headers } },
				{ credentialsDecrypted: settings.credential },
			)) as unknown;
		} finally {
			slot.finished();
		}
	}).catch((failure: RequestFailure) => {
		throw toNodeApiError(this.getNode(), operation, redactFailure(failure, secretsIn(request.body)), itemIndex);
	});
	return normaliseBody(response);
}

/** Secret values a request carries in its body: an OAuth access token, destination header values. */
export function secretsIn(body: unknown): string[] {
	if (!body || typeof body !== 'object') return [];
	const { access_token: accessToken, credentials } = body as IDataObject;
	const values = ((credentials as IDataObject | undefined)?.values ?? {}) as IDataObject;
	return [accessToken, ...Object.values(values)].filter(
		(value): value is string => typeof value === 'string' && value.length >= 4,
	);
}

/** Removes `secrets` from what a failure would show (the service may echo the request). */
export function redactFailure(failure: RequestFailure, secrets: string[]): RequestFailure {
	if (!secrets.length) return failure;
	const redact = (text: string) => secrets.reduce((result, secret) => result.split(secret).join('<redacted>'), text);
	const body = { ...failure.body };
	if (body.message) body.message = redact(body.message);
	if (body.details) body.details = JSON.parse(redact(JSON.stringify(body.details))) as unknown[];
	return { ...failure, body };
}

/**
 * Sends until it succeeds: waits out 429 answers (Retry-After, else backoff), and repeats
 * transient failures when the request is repeatable. Rejects with the last `RequestFailure`.
 */
async function withRetries<T>(repeatable: boolean, send: () => Promise<T>): Promise<T> {
	let rateLimited = 0;
	let transient = 0;
	for (;;) {
		try {
			return await send();
		} catch (error) {
			const failure = describeFailure(error);
			if (failure.httpStatus === 429 && rateLimited < RETRY_POLICY.maxRateLimitRetries) {
				await sleep(failure.retryAfterMs ?? backoffDelay(rateLimited));
				rateLimited++;
				continue;
			}
			if (repeatable && isTransient(failure) && transient < RETRY_POLICY.maxTransientRetries) {
				await sleep(backoffDelay(transient));
				transient++;
				continue;
			}
			throw failure;
		}
	}
}

export interface DownloadedFile {
	data: Buffer;
	mimeType?: string;
	fileName?: string;
}

/**
 * Downloads a file the service links to (an export's download_url). The link is a signed address,
 * often on another host, so the session cookie is NOT sent with it.
 */
export async function downloadFile(
	this: IExecuteFunctions,
	url: string,
	itemIndex: number,
): Promise<DownloadedFile> {
	const response = (await withRetries(true, async () =>
		await this.helpers.httpRequest({
			method: 'GET',
			url,
			encoding: 'arraybuffer',
			returnFullResponse: true,
			headers: { 'User-Agent': USER_AGENT },
			timeout: RETRY_POLICY.requestTimeoutMs,
		}),
	).catch((failure: RequestFailure) => {
		throw toNodeApiError(this.getNode(), 'DownloadExport', failure, itemIndex);
	})) as { body: ArrayBuffer | Buffer; headers: Record<string, string | undefined> };
	const headers = response.headers ?? {};
	const disposition = String(headers['content-disposition'] ?? '');
	const named = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
	const fromPath = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
	return {
		data: Buffer.from(response.body as ArrayBuffer),
		mimeType: headers['content-type']?.split(';')[0].trim(),
		fileName: named ?? (fromPath || undefined),
	};
}

function normaliseBody(response: unknown): IDataObject {
	if (response === undefined || response === null || response === '') return {};
	if (typeof response === 'string') {
		try {
			return normaliseBody(JSON.parse(response));
		} catch {
			return { data: response };
		}
	}
	if (typeof response !== 'object' || Array.isArray(response)) return { data: response as IDataObject[] };
	return response as IDataObject;
}

/** Exponential backoff with jitter: a random delay in [d/2, d], d = base * 2^attempt, capped. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
	const ceiling = Math.min(RETRY_POLICY.maxDelayMs, RETRY_POLICY.baseDelayMs * 2 ** attempt);
	return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Reads a Retry-After header: delay in seconds or an HTTP date. */
export function parseRetryAfter(value: unknown, nowMs: number = Date.now()): number | undefined {
	const raw = Array.isArray(value) ? value[0] : value;
	if (raw === undefined || raw === null || String(raw).trim() === '') return undefined;
	const text = String(raw).trim();
	let ms: number;
	if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
	else {
		const date = Date.parse(text);
		if (Number.isNaN(date)) return undefined;
		ms = date - nowMs;
	}
	return Math.min(Math.max(0, Math.round(ms)), RETRY_POLICY.maxRetryAfterMs);
}

/** What went wrong, stripped of the request (which carries the session cookie). */
export interface RequestFailure {
	httpStatus?: number;
	body: ServiceErrorBody;
	retryAfterMs?: number;
	/** Connection-level error code such as ECONNRESET. */
	code?: string;
	loginError?: SellerPlatformLoginError;
}

const TRANSIENT_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

function isTransient(failure: RequestFailure): boolean {
	if (failure.loginError) return false;
	if (failure.httpStatus !== undefined) return failure.httpStatus >= 500;
	return failure.code !== undefined && TRANSIENT_CODES.has(failure.code);
}

interface ErrorLike {
	message?: string;
	code?: unknown;
	httpCode?: unknown;
	cause?: unknown;
	response?: { status?: number; statusCode?: number; headers?: Record<string, unknown>; data?: unknown; body?: unknown };
}

/** Walks the error and its causes (n8n wraps the HTTP client's error in a NodeApiError). */
export function describeFailure(error: unknown): RequestFailure {
	const chain: ErrorLike[] = [];
	for (let e = error as ErrorLike | undefined, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
		chain.push(e);
		e = e.cause as ErrorLike | undefined;
	}
	const loginError = chain.find((e) => e instanceof SellerPlatformLoginError) as
		| SellerPlatformLoginError
		| undefined;
	if (loginError) return { loginError, body: {}, httpStatus: loginError.httpStatus };

	const withResponse = chain.find((e) => e.response && typeof e.response === 'object');
	if (withResponse?.response) {
		const response = withResponse.response;
		const headers = response.headers ?? {};
		return {
			httpStatus: response.status ?? response.statusCode,
			body: parseErrorBody(response.data ?? response.body),
			retryAfterMs: parseRetryAfter(headers['retry-after']),
		};
	}
	const code = chain.map((e) => e.code).find((c): c is string => typeof c === 'string' && /^E[A-Z_]+$/.test(c));
	const httpCode = chain.map((e) => Number(e.httpCode)).find((c) => c >= 100 && c < 600);
	const timedOut = chain.some((e) => /timeout/i.test(e.message ?? ''));
	// Neither an answer nor a socket error (a failure inside n8n, for example): keep its message.
	const innermost = chain[chain.length - 1]?.message;
	return {
		httpStatus: code ? undefined : httpCode,
		code: code ?? (timedOut ? 'ETIMEDOUT' : undefined),
		body: !code && !timedOut && innermost ? { message: innermost.slice(0, 500) } : {},
	};
}

/** The service's answer as a NodeApiError: its message, status_code, status_id, details and HTTP code. */
export function toNodeApiError(
	node: INode,
	operation: OperationName | 'Login' | 'DownloadExport',
	failure: RequestFailure,
	itemIndex: number,
): NodeApiError {
	if (failure.loginError) {
		const login = failure.loginError;
		const error = new NodeApiError(
			node,
			{ message: login.message, status_code: login.serviceStatusCode ?? null } as JsonObject,
			{
				message: login.message,
				description: login.description,
				httpCode: login.httpStatus === undefined ? undefined : String(login.httpStatus),
				itemIndex,
			},
		);
		Object.assign(error.context, {
			statusCode: login.serviceStatusCode,
			statusId: login.serviceStatusId,
			details: login.serviceDetails,
		});
		return error;
	}
	const { body, httpStatus } = failure;
	const message =
		body.message ??
		(failure.code
			? `Could not reach the Seller Platform API (${failure.code})`
			: `The Seller Platform API answered HTTP ${httpStatus ?? 'error'}`);
	const facts = [
		httpStatus ? `HTTP ${httpStatus}` : undefined,
		failure.code ? `connection error ${failure.code}` : undefined,
		body.status_code ? `status_code ${body.status_code}` : undefined,
		body.status_id !== undefined ? `status_id ${body.status_id}` : undefined,
		`operation ${operation}`,
	].filter(Boolean);
	let description = facts.join(', ');
	if (body.details?.length) description += `. Details: ${JSON.stringify(body.details)}`;
	if (httpStatus === 429) description += '. The rate plan was still exceeded after waiting; lower "Requests per Minute" in the credential.';
	const error = new NodeApiError(node, { ...body } as JsonObject, {
		message,
		description,
		httpCode: httpStatus ? String(httpStatus) : undefined,
		itemIndex,
	});
	Object.assign(error.context, {
		statusCode: body.status_code,
		statusId: body.status_id,
		details: body.details,
		operation,
	});
	return error;
}
