/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * A careless service: an error answer that repeats what the request carried (fault `echo`).
 *
 * `echo: true` repeats the request's Cookie header and JSON body, as JSON, in the message and the
 * details. An `EchoSpec` instead repeats each secret value the request carried (every cookie
 * value, a `token` or `access_token`, destination header values, a `client_secret` and its `code`) in one field, written in one
 * encoding, starting at a chosen character: enough to put a secret across a client's cut.
 */
import { invalidArgument, type ApiError, type ErrorBody } from './errors';
import { parseCookies, type ParsedBody } from './http';
import type { EchoSpec } from './types';

export const ECHO_FIELDS = ['message', 'status_code', 'details', 'text'] as const;
export const ECHO_ENCODINGS = ['raw', 'hex', 'url', 'base64', 'base64url'] as const;

/** Checks `echo` of a fault spec given as untrusted input (control API). */
export function validateEcho(echo: unknown): void {
	if (echo === undefined || typeof echo === 'boolean') return;
	if (echo === null || typeof echo !== 'object' || Array.isArray(echo)) {
		throw invalidArgument('fault echo must be a boolean or an object');
	}
	const { field, encoding, at } = echo as Record<string, unknown>;
	if (field !== undefined && !ECHO_FIELDS.includes(field as never)) {
		throw invalidArgument(`fault echo field must be one of ${ECHO_FIELDS.join(', ')}`);
	}
	if (encoding !== undefined && !ECHO_ENCODINGS.includes(encoding as never)) {
		throw invalidArgument(`fault echo encoding must be one of ${ECHO_ENCODINGS.join(', ')}`);
	}
	if (at !== undefined && !(Number.isInteger(at) && (at as number) >= 0 && (at as number) <= 1e6)) {
		throw invalidArgument('fault echo at must be an integer from 0 to 1000000');
	}
}

/** The secret values a request carried, in order: cookie values, then values of the body. */
export function carriedSecrets(cookieHeader: string | undefined, body: ParsedBody): string[] {
	const values: unknown[] = [...parseCookies(cookieHeader).values()];
	if (body.kind === 'json' && body.value && typeof body.value === 'object') {
		const { token, access_token: accessToken, credentials } = body.value as Record<string, any>;
		values.push(token, accessToken, ...Object.values(credentials?.values ?? {}));
		// An event webhook's credentials are the header map itself (CreateWebhook).
		if (credentials && typeof credentials === 'object') values.push(...Object.values(credentials));
		// CreateToken: the client secret and the authorization code that goes with it.
		const { client_secret: clientSecret, code } = body.value as Record<string, any>;
		if (clientSecret !== undefined) values.push(clientSecret, code);
	}
	return values.filter((value): value is string => typeof value === 'string' && value !== '');
}

export function encodeEcho(value: string, encoding: EchoSpec['encoding'] = 'raw'): string {
	const bytes = Buffer.from(value, 'utf8');
	switch (encoding) {
		case 'hex':
			return bytes.toString('hex');
		case 'url':
			// Form encoding: a space as `+`, `=` as `%3D`, `+` as `%2B`.
			return new URLSearchParams([['', value]]).toString().slice(1);
		case 'base64':
			return bytes.toString('base64');
		case 'base64url':
			return bytes.toString('base64url');
		default:
			return value;
	}
}

export interface EchoAnswer {
	status: number;
	headers: Record<string, string>;
	/** A JSON error body, or plain text (`field: 'text'`). */
	body: ErrorBody | Record<string, unknown> | string;
	contentType?: string;
}

/**
 * The answer of an echoing fault: `error` (the fault's own answer) with the request's secrets in
 * it. With `at`, filler stands before the first secret so that it starts at that character.
 */
export function echoAnswer(
	error: ApiError,
	echo: true | EchoSpec,
	cookieHeader: string | undefined,
	body: ParsedBody,
): EchoAnswer {
	const answer = { status: error.httpStatus, headers: { ...error.headers } };
	if (echo === true) {
		const carried = { cookie: cookieHeader ?? '', body: body.kind === 'json' ? body.value : null };
		const message = `${error.message}; request was ${JSON.stringify(carried)}`;
		return { ...answer, body: { ...error.toBody(), message, details: [carried] } };
	}
	const lead = `${error.message}; request carried `;
	const filler = echo.at === undefined ? lead : (lead + '.'.repeat(echo.at)).slice(0, echo.at);
	const encoded = carriedSecrets(cookieHeader, body).map((value) =>
		encodeEcho(value, echo.encoding),
	);
	const text = filler + encoded.join(' ');
	const field = echo.field ?? 'message';
	if (field === 'text') return { ...answer, body: text, contentType: 'text/plain; charset=utf-8' };
	const errorBody: Record<string, unknown> = { ...error.toBody() };
	if (field === 'details') errorBody.details = [{ echoed: text }];
	else errorBody[field] = text;
	return { ...answer, body: errorBody };
}
