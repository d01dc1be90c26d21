/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/** Small HTTP helpers shared by the API pipeline and the control API. */
import { Readable } from 'node:stream';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

import { ApiError, invalidArgument } from './errors';

export type ResponseHeaders = Record<string, string | string[]>;

export function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

/** Result of parsing a request body: `empty`, valid JSON, or text that is not JSON. */
export type ParsedBody =
	{ kind: 'empty' } | { kind: 'json'; value: unknown } | { kind: 'invalid'; raw: string };

export function parseBody(text: string): ParsedBody {
	if (text.trim() === '') return { kind: 'empty' };
	try {
		return { kind: 'json', value: JSON.parse(text) as unknown };
	} catch {
		return { kind: 'invalid', raw: text };
	}
}

/** The body as it appears in the request log: parsed JSON, the raw text, or null when empty. */
export function loggedBody(body: ParsedBody): unknown {
	if (body.kind === 'json') return body.value;
	return body.kind === 'invalid' ? body.raw : null;
}

/** The methods whose requests carry a body: the endpoints of these take a JSON body. */
export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/** `application/json`, or a `+json` type, with or without parameters (`; charset=utf-8`). */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/**
 * A strict gateway's check of a body method's request: a JSON Content-Type and a body (`{}` when
 * no field is set, as the reference defines every such operation's body); else 415 with the
 * service's error body. Other methods pass.
 */
export function checkJsonBody(
	method: string,
	path: string,
	contentType: string | undefined,
	body: ParsedBody,
): void {
	if (!BODY_METHODS.has(method)) return;
	const wanted = `${method} ${path} takes a JSON body (Content-Type: application/json, {} when empty)`;
	if (contentType === undefined || !JSON_MEDIA_TYPE.test(contentType.trim())) {
		const got = contentType ? `Content-Type ${JSON.stringify(contentType)}` : 'no Content-Type';
		throw new ApiError('INVALID_ARGUMENT', `unsupported media type: ${wanted}, got ${got}`, 415);
	}
	if (body.kind === 'empty')
		throw new ApiError('INVALID_ARGUMENT', `request body required: ${wanted}, got none`, 415);
}

/**
 * A request body that must be a JSON object (an empty body counts as `{}`, as with grpc-gateway,
 * where `checkJsonBody` is turned off).
 */
export function requireJsonObject(body: ParsedBody): Record<string, unknown> {
	if (body.kind === 'empty') return {};
	if (body.kind === 'invalid') throw invalidArgument('request body is not valid JSON');
	if (body.value === null || typeof body.value !== 'object' || Array.isArray(body.value)) {
		throw invalidArgument('request body must be a JSON object');
	}
	return body.value as Record<string, unknown>;
}

export function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: ResponseHeaders = {},
): void {
	if (res.headersSent || res.destroyed) return;
	const payload = JSON.stringify(body);
	const allHeaders: OutgoingHttpHeaders = {
		...headers,
		'Content-Type': 'application/json',
		'Content-Length': Buffer.byteLength(payload),
	};
	res.writeHead(status, allHeaders);
	res.end(payload);
}

/** Sends a non-JSON body (a served file). */
export function sendRaw(
	res: ServerResponse,
	status: number,
	contentType: string,
	body: string | Buffer | Readable,
	headers: ResponseHeaders = {},
): void {
	if (res.headersSent || res.destroyed) return;
	if (body instanceof Readable) {
		// A generated file: streamed, its Content-Length given by the route.
		res.writeHead(status, { ...headers, 'Content-Type': contentType });
		body.pipe(res);
		return;
	}
	res.writeHead(status, {
		...headers,
		'Content-Type': contentType,
		'Content-Length': Buffer.byteLength(body),
	});
	res.end(body);
}

/** Parses a `Cookie` request header into name → value (first occurrence of a name wins). */
export function parseCookies(header: string | undefined): Map<string, string> {
	const cookies = new Map<string, string>();
	for (const part of (header ?? '').split(';')) {
		const eq = part.indexOf('=');
		if (eq <= 0) continue;
		const name = part.slice(0, eq).trim();
		if (!cookies.has(name)) cookies.set(name, part.slice(eq + 1).trim());
	}
	return cookies;
}

/** Socket address without the IPv4-mapped IPv6 prefix (`::ffff:127.0.0.1` → `127.0.0.1`). */
export function normaliseAddress(address: string | undefined): string {
	if (!address) return '';
	return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}

export const sleep = (ms: number): Promise<void> =>
	ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
