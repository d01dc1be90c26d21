/**
 * What went wrong, in the service's words and without secrets.
 *
 * `classify` reads a failure (for the retry policy); `apiError` turns it into the one error the
 * user sees: n8n's own `NodeApiError`, enriched once with the service's message, status_code,
 * status_id and details, read and redacted by errorBody.ts.
 */
import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import {
	keyIdField,
	privateKeyField,
	projectCodeField,
	requestsPerMinuteField,
} from '../credential/fields';
import { cleanErrorBody, parseErrorBody, type ServiceErrorBody } from './errorBody';
import { redact, redactAndCut } from './redact';

/** Longest message of a failure inside n8n kept. */
const MAX_INNER_MESSAGE = 500;

/**
 * A failed login, carrying the service's answer but no secret. Its fields are deliberately not
 * named `httpCode`, `statusCode` or `status`: n8n wraps errors of `preAuthentication` in a
 * NodeApiError, which would then replace the service's message with a generic one.
 */
export class SellerPlatformLoginError extends Error {
	readonly httpStatus?: number;
	readonly serviceStatusCode?: string;
	readonly serviceStatusId?: number;
	readonly serviceDetails?: unknown[];
	readonly description: string;

	constructor(
		message: string,
		info: {
			httpCode?: number;
			statusCode?: string;
			statusId?: number;
			details?: unknown[];
			description?: string;
		} = {},
	) {
		super(message);
		this.name = 'SellerPlatformLoginError';
		this.httpStatus = info.httpCode;
		this.serviceStatusCode = info.statusCode;
		this.serviceStatusId = info.statusId;
		this.serviceDetails = info.details;
		this.description =
			info.description ??
			`Check the ${keyIdField.displayName}, ${privateKeyField.displayName} and ${projectCodeField.displayName} of the Seller Platform API credential.`;
	}
}

/**
 * The node's own policy stopped a request (waiting budget spent, circuit breaker open): carries the
 * message and description the user sees and the HTTP status of the answer that led to it.
 */
export class PolicyStop extends Error {
	constructor(
		message: string,
		readonly description: string,
		readonly httpStatus?: number,
	) {
		super(message);
		this.name = 'PolicyStop';
	}
}

/** A failure as the retry policy and the error message need it. */
export interface Failure {
	httpStatus?: number;
	body: ServiceErrorBody;
	/** The raw Retry-After header of the answer, if any. */
	retryAfter?: unknown;
	/** The Location header of a redirect answer. */
	location?: string;
	/** Connection-level error code such as ECONNRESET. */
	code?: string;
	loginError?: SellerPlatformLoginError;
}

interface ErrorLike {
	message?: string;
	code?: unknown;
	httpCode?: unknown;
	cause?: unknown;
	response?: {
		status?: number;
		statusCode?: number;
		headers?: Record<string, unknown>;
		data?: unknown;
		body?: unknown;
	};
}

function locationOf(headers: Record<string, unknown> | undefined): string | undefined {
	const value = headers?.location;
	return typeof value === 'string' && value ? value : undefined;
}

/**
 * Reads a failure: walks the error and its causes (n8n wraps the HTTP client's error). What the
 * service said, and the message of a failure inside n8n, come without `secrets`.
 */
export function classify(error: unknown, secrets: string[] = []): Failure {
	const chain: ErrorLike[] = [];
	for (
		let e = error as ErrorLike | undefined, depth = 0;
		e && typeof e === 'object' && depth < 5;
		depth++
	) {
		chain.push(e);
		e = e.cause as ErrorLike | undefined;
	}
	const loginError = chain.find((e) => e instanceof SellerPlatformLoginError) as
		SellerPlatformLoginError | undefined;
	if (loginError) return { loginError, body: {}, httpStatus: loginError.httpStatus };

	const withResponse = chain.find((e) => e.response && typeof e.response === 'object');
	if (withResponse?.response) {
		const response = withResponse.response;
		return {
			httpStatus: response.status ?? response.statusCode,
			body: parseErrorBody(response.data ?? response.body, secrets),
			retryAfter: (response.headers ?? {})['retry-after'],
			location: locationOf(response.headers),
		};
	}
	const code = chain
		.map((e) => e.code)
		.find((c): c is string => typeof c === 'string' && /^E[A-Z_]+$/.test(c));
	const httpCode = chain.map((e) => Number(e.httpCode)).find((c) => c >= 100 && c < 600);
	const timedOut = chain.some((e) => /timeout/i.test(e.message ?? ''));
	// Neither an answer nor a socket error (a failure inside n8n, for example): keep its message.
	const innermost = chain[chain.length - 1]?.message;
	return {
		httpStatus: code ? undefined : httpCode,
		code: code ?? (timedOut ? 'ETIMEDOUT' : undefined),
		body:
			!code && !timedOut && innermost
				? { message: redactAndCut(innermost, secrets, MAX_INNER_MESSAGE) }
				: {},
	};
}

export interface ErrorContext {
	node: INode;
	/** The API endpoint (or `Login`, `DownloadExport`); the error names it as its "operation". */
	endpoint: string;
	itemIndex: number;
	/** Values the request carried that must not appear in the error. */
	secrets?: string[];
}

/** A run limit, a refused redirect or a stop: its own message and description, nothing sent. */
function stopError(error: Error, node: INode, itemIndex: number): NodeApiError {
	const { description, httpStatus } = error as PolicyStop;
	return new NodeApiError(node, { message: error.message } as JsonObject, {
		message: error.message,
		description: description ?? 'The user stopped the execution; nothing more was sent.',
		httpCode: httpStatus === undefined ? undefined : String(httpStatus),
		itemIndex,
	});
}

/** What the service (or the login) said, without secrets. */
function serviceBody(failure: Failure, secrets: string[]): ServiceErrorBody {
	const login = failure.loginError;
	if (!login) return failure.body;
	return cleanErrorBody(
		{
			message: login.message,
			status_code: login.serviceStatusCode,
			status_id: login.serviceStatusId,
			details: login.serviceDetails,
		},
		secrets,
	);
}

/** A failed login's words: n8n's message when it explains a socket error the login names. */
function loginWords(nodeMessage: string, login: SellerPlatformLoginError) {
	return {
		message: nodeMessage && nodeMessage.startsWith(login.message) ? nodeMessage : login.message,
		description: login.description,
	};
}

/** A failed request's words: the service's message, and the facts for the description. */
function requestWords(
	nodeMessage: string,
	failure: Failure,
	body: ServiceErrorBody,
	endpoint: string,
) {
	const { httpStatus, code } = failure;
	const message =
		body.message ??
		(code
			? `Could not reach the Seller Platform API: ${nodeMessage || code}`
			: `The Seller Platform API answered HTTP ${httpStatus ?? 'error'}`);
	const facts = [
		httpStatus ? `HTTP ${httpStatus}` : undefined,
		code ? `connection error ${code}` : undefined,
		body.status_code ? `status_code ${body.status_code}` : undefined,
		body.status_id !== undefined ? `status_id ${body.status_id}` : undefined,
		`operation ${endpoint}`,
	].filter(Boolean);
	let description = facts.join(', ');
	if (body.details?.length) description += `. Details: ${JSON.stringify(body.details)}`;
	if (httpStatus === 429) {
		description += `. The rate plan was still exceeded after waiting; lower "${requestsPerMinuteField.displayName}" in the credential.`;
	}
	return { message, description };
}

/** The HTTP client's error holds the request, and with it the session cookie: keep its words only. */
function dropRequest(result: NodeApiError, secrets: string[]) {
	const cause = result.cause as ErrorLike | undefined;
	if (cause && typeof cause === 'object') {
		Object.defineProperty(result, 'cause', {
			value: { name: (cause as Error).name, message: redact(String(cause.message ?? ''), secrets) },
			configurable: true,
			writable: true,
		});
	}
}

/**
 * The error the user sees. n8n's own `NodeApiError` (the one `httpRequestWithAuthentication`
 * throws) is enriched in place; any other failure is wrapped in one once. The service's message
 * becomes the message; HTTP code, status_code, status_id and details go to the description and
 * the error's context. Nothing of the request (session cookie, token, secrets) is kept.
 */
export function apiError(
	error: unknown,
	{ node, endpoint, itemIndex, secrets = [] }: ErrorContext,
): NodeApiError {
	if (
		error instanceof PolicyStop ||
		(error instanceof Error && error.name === 'ExecutionStopped')
	) {
		return stopError(error as Error, node, itemIndex);
	}
	const failure = classify(error, secrets);
	const result =
		error instanceof NodeApiError
			? error
			: new NodeApiError(node, error as JsonObject, { itemIndex });
	const login = failure.loginError;
	const body = serviceBody(failure, secrets);
	const words = login
		? loginWords(result.message, login)
		: requestWords(result.message, failure, body, endpoint);
	result.message = words.message;
	result.description = words.description;
	result.httpCode = failure.httpStatus === undefined ? null : String(failure.httpStatus);
	result.messages = result.messages.map((text) => redact(text, secrets));
	result.context = {
		itemIndex,
		statusCode: body.status_code,
		statusId: body.status_id,
		details: body.details,
		...(login ? {} : { operation: endpoint }),
	};
	dropRequest(result, secrets);
	return result;
}
