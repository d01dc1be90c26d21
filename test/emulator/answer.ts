/**
 * An answer of another shape (fault `answer`): the operation runs as usual (its state changes
 * too), then its own successful answer is reshaped, as another version of the service, a gateway
 * or a proxy might send it. In this order:
 *
 * - `unwrap`: the answer is the value of that field of the operation's answer (`credential`: the
 *   credential's fields, private key included, at the top level);
 * - `omit`: these top-level fields are left out (a gRPC gateway leaves out an empty list);
 * - `set`: these top-level fields are set on the answer (a `po_release_date` of odd parts);
 * - `wrap`: the answer sits inside these fields, outermost first (`['result']`: `{ result: … }`);
 * - `array`: the answer is a one-element array;
 * - `prefix`: the answer is sent as text, this prefix and then its JSON (`)]}'\n`, an XSSI guard),
 *   with the content type `contentType` (default `application/json; charset=utf-8`);
 * - `status`: the answer is sent with this HTTP status (a gateway failing after the operation
 *   ran: `{ status: 502, prefix: 'upstream timeout after issuing ' }` shows a new token in an
 *   error);
 * - `repeatToken`: a page of a list asked for with a token (`next_token` in the query or the body)
 *   gives that same token as its `next_token`: a service stuck on one page (the first page, asked
 *   without one, keeps its own token, so the next request carries a token the list issued).
 */
import { invalidArgument } from './errors';
import type { AnswerShape } from './types';

const FIELD = /^[^\s]{1,100}$/;
const isFieldList = (value: unknown) =>
	value === undefined ||
	(Array.isArray(value) && value.every((field) => typeof field === 'string' && FIELD.test(field)));

/** Checks `answer` of a fault spec given as untrusted input (control API). */
export function validateAnswerShape(answer: unknown): void {
	if (answer === undefined) return;
	if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
		throw invalidArgument('fault answer must be an object');
	}
	const { unwrap, omit, set, wrap, array, prefix, contentType, status, repeatToken } =
		answer as Record<string, unknown>;
	if (
		status !== undefined &&
		!(Number.isInteger(status) && (status as number) >= 200 && (status as number) <= 599)
	) {
		throw invalidArgument('fault answer status must be an HTTP status from 200 to 599');
	}
	if (unwrap !== undefined && !(typeof unwrap === 'string' && FIELD.test(unwrap))) {
		throw invalidArgument('fault answer unwrap must be a field name');
	}
	if (!isFieldList(omit))
		throw invalidArgument('fault answer omit must be an array of field names');
	if (set !== undefined && (set === null || typeof set !== 'object' || Array.isArray(set))) {
		throw invalidArgument('fault answer set must be an object of fields');
	}
	if (!isFieldList(wrap)) {
		throw invalidArgument('fault answer wrap must be an array of field names');
	}
	if (array !== undefined && typeof array !== 'boolean')
		throw invalidArgument('fault answer array must be a boolean');
	if (repeatToken !== undefined && typeof repeatToken !== 'boolean')
		throw invalidArgument('fault answer repeatToken must be a boolean');
	if (prefix !== undefined && typeof prefix !== 'string')
		throw invalidArgument('fault answer prefix must be a string');
	if (contentType !== undefined && !(typeof contentType === 'string' && contentType)) {
		throw invalidArgument('fault answer contentType must be a non-empty string');
	}
}

/** The page token a request carried: `next_token` of its query, else of its JSON body. */
export function askedToken(query: URLSearchParams, body: unknown): string | undefined {
	const fromBody =
		body && typeof body === 'object' ? (body as Record<string, unknown>).next_token : undefined;
	const token = query.get('next_token') ?? fromBody;
	return typeof token === 'string' && token !== '' ? token : undefined;
}

/**
 * The operation's answer reshaped; `contentType` set when it is sent as raw text. `asked`: the
 * page token the request carried (`repeatToken`).
 */
export function reshapeAnswer(
	body: unknown,
	shape: AnswerShape,
	asked?: string,
): { body: unknown; contentType?: string } {
	let answer = body;
	if (shape.repeatToken && asked !== undefined && answer && typeof answer === 'object')
		answer = { ...(answer as object), next_token: asked };
	if (shape.unwrap !== undefined) answer = (answer as Record<string, unknown>)?.[shape.unwrap];
	if (shape.omit && answer && typeof answer === 'object') {
		answer = { ...(answer as object) };
		for (const field of shape.omit) delete (answer as Record<string, unknown>)[field];
	}
	if (shape.set) answer = { ...(answer as object), ...structuredClone(shape.set) };
	for (const field of [...(shape.wrap ?? [])].reverse()) answer = { [field]: answer };
	if (shape.array) answer = [answer];
	if (shape.prefix === undefined) return { body: answer };
	return {
		body: shape.prefix + JSON.stringify(answer),
		contentType: shape.contentType ?? 'application/json; charset=utf-8',
	};
}
