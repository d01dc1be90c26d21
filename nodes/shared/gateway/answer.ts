/**
 * Answers are read with a size cap: n8n's HTTP client would buffer a whole answer, however large,
 * and decode a gzip answer whole (a small compressed body can decode to gigabytes). So every API
 * answer and the login's arrive as a stream (`encoding: 'stream'`; the client still decodes gzip,
 * deflate and brotli on the way), read here up to a cap of decoded bytes (`MAX_ANSWER_BYTES` for
 * the API, `MAX_LOGIN_ANSWER_BYTES` for the login): beyond, the request is aborted, its connection
 * closed and the rest never read.
 */
import { baseUrlField } from '../credential/fields';
import { PolicyStop } from '../errors/errors';

/** Largest answer of the API read, in decoded bytes (after gzip). */
export const MAX_ANSWER_MB = 16;
export const MAX_ANSWER_BYTES = MAX_ANSWER_MB * 1024 * 1024;

/** Largest login answer read, in decoded bytes: the login answers a small JSON object. */
export const MAX_LOGIN_ANSWER_KB = 64;
export const MAX_LOGIN_ANSWER_BYTES = MAX_LOGIN_ANSWER_KB * 1024;

/** The cap of an answer (`what`: 'login' or 'API'), as bytes and as text. */
function capOf(what: string): { bytes: number; text: string } {
	return what === 'login'
		? { bytes: MAX_LOGIN_ANSWER_BYTES, text: `${MAX_LOGIN_ANSWER_KB} KB` }
		: { bytes: MAX_ANSWER_BYTES, text: `${MAX_ANSWER_MB} MB` };
}

/** An answer beyond the cap: not read further, never repeated. */
export class AnswerTooLarge extends PolicyStop {
	constructor(what: string, httpStatus?: number) {
		const cap = capOf(what).text;
		super(
			`The answer of the Seller Platform ${what} was larger than ${cap} (decoded), so it was not read`,
			`The node reads at most ${cap} of an answer (after gzip decoding) and closed the connection there. An answer that large is not one the API gives: check the ${baseUrlField.displayName} of the credential, or try again later.`,
			httpStatus,
		);
		this.name = 'AnswerTooLarge';
	}
}

/** A body the HTTP client hands as a stream. */
interface BodyStream extends AsyncIterable<unknown> {
	destroy(error?: Error): unknown;
}

function isStream(body: unknown): body is BodyStream {
	return (
		typeof body === 'object' &&
		body !== null &&
		typeof (body as Partial<BodyStream>)[Symbol.asyncIterator] === 'function' &&
		typeof (body as Partial<BodyStream>).destroy === 'function'
	);
}

const sizeOf = (chunk: unknown) =>
	chunk instanceof Uint8Array || typeof chunk === 'string' ? chunk.length : 0;

function asBuffer(chunk: unknown): Buffer {
	if (Buffer.isBuffer(chunk)) return chunk;
	if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
	return chunk instanceof Uint8Array ? Buffer.from(chunk) : Buffer.alloc(0);
}

/**
 * The text of a streamed body, read up to the cap; beyond it `stop()` closes the connection (it
 * aborts the request), the stream is destroyed and `AnswerTooLarge` thrown. A body that is not a
 * stream (already read by n8n) comes back as it is.
 */
export async function readCapped(
	body: unknown,
	what: string,
	stop: () => void,
	httpStatus?: number,
): Promise<unknown> {
	if (!isStream(body)) return body;
	const chunks: Buffer[] = [];
	const cap = capOf(what).bytes;
	let received = 0;
	let failed: unknown;
	try {
		for await (const chunk of body) {
			received += sizeOf(chunk);
			if (received > cap) throw new AnswerTooLarge(what, httpStatus);
			chunks.push(asBuffer(chunk));
		}
		// As n8n's client reads text: without a byte order mark.
		return Buffer.concat(chunks)
			.toString('utf8')
			.replace(/^\uFEFF/, '');
	} catch (error) {
		failed = error;
	}
	chunks.length = 0;
	stop();
	body.destroy();
	throw failed;
}

/** A failed request's error as n8n 1.x throws it (n8n-workflow 1.x `NodeApiError`). */
interface WithoutCause {
	cause?: unknown;
	message?: string;
	context?: { data?: unknown };
}

/**
 * n8n 1.x drops the HTTP client's error from the `NodeApiError` its authenticated request throws
 * (n8n-workflow 1.x keeps no cause that is an Error): the answer survives only as the error's
 * `context.data`, the streamed answer itself, with its status and headers. Put back as the
 * error's cause, it reads as in n8n 2.x (status, Retry-After, the service's message), and the
 * answer, which holds the request (and its Cookie), leaves the error's context.
 */
function restoreDroppedAnswer(error: unknown): void {
	const e = error as WithoutCause | undefined;
	if (!e || typeof e !== 'object' || e.cause !== undefined || !e.context) return;
	const answer = e.context.data as { statusCode?: unknown; headers?: unknown } | undefined;
	if (!isStream(answer) || typeof answer.statusCode !== 'number') return;
	if (!answer.headers || typeof answer.headers !== 'object') return;
	e.cause = {
		name: 'AxiosError',
		message: String(e.message ?? ''),
		response: { status: answer.statusCode, headers: answer.headers, data: answer },
	};
	delete e.context.data;
}

interface WithResponse {
	cause?: unknown;
	response?: { status?: number; data?: unknown; body?: unknown };
}

/**
 * Reads the streamed body of a failed request's answer (in the error or one of its causes) in
 * place, within the cap: the error then reads like one with a buffered body (errors.ts `classify`).
 * An error body beyond the cap is dropped unread (the answer's status stays).
 */
export async function readErrorBody(error: unknown, stop: () => void): Promise<void> {
	restoreDroppedAnswer(error);
	let e = error as WithResponse | undefined;
	for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++, e = e.cause as never) {
		const response = e.response;
		if (!response || typeof response !== 'object') continue;
		for (const key of ['data', 'body'] as const) {
			if (!isStream(response[key])) continue;
			try {
				response[key] = await readCapped(response[key], 'API', stop);
			} catch {
				response[key] = undefined;
			}
		}
	}
}
