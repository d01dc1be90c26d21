/**
 * A successful answer (HTTP 200) that still says something failed: a status inside it (the
 * reference's `rpcStatus`: `status_id`, `status_code`, `message`, `details`) that is not OK, or an
 * answer that is not what was asked for. Either is the item's error: n8n's NodeApiError with the
 * service's words and the endpoint, never a silent success. Used by batch rows (batch.ts) and by
 * declarations that name their answer's status field (request.ts `answerStatus`).
 */
import {
	NodeApiError,
	type IDataObject,
	type IExecuteFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { redactValue, type Endpoint } from '../../../shared';

/** What a failing status says: its code, id and message (at most 500 characters). */
export interface StatusFailure {
	code?: string;
	id?: number;
	message: string;
	details?: unknown;
}

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The status, when it says the request (or row) failed: its code, id and message, the message
 * without `secrets` before it is cut (a cut must not keep the first characters of one).
 */
export function failureOf(status: unknown, secrets: string[] = []): StatusFailure | undefined {
	// An absent status is the zero status (OK): proto3 JSON may leave zero values out.
	if (status === undefined || status === null) return undefined;
	if (!isObject(status)) return { message: 'the answer has a status the node cannot read' };
	const id = typeof status.status_id === 'number' ? status.status_id : undefined;
	const said = typeof status.status_code === 'string' ? status.status_code : undefined;
	const failed = (id !== undefined && id !== 0) || (!!said && said.toUpperCase() !== 'OK');
	if (!failed) return undefined;
	const text =
		typeof status.message === 'string' ? redactValue(status.message, secrets).trim() : '';
	const message = text.length > 500 ? `${text.slice(0, 500)}…` : text;
	// The code is shown in messages too: without secrets, and cut like a code (gRPC's are short).
	const code = said === undefined ? undefined : redactValue(said, secrets).slice(0, 100);
	return { code, id, message, details: status.details };
}

/** How a failure's code reads in a message: its status_code, else its numeric id. */
export const failureCode = (failure: StatusFailure) =>
	failure.code ?? (failure.id !== undefined ? `status ${failure.id}` : undefined);

/** The item's error for a successful answer that says it failed. */
export function answerError(
	ctx: IExecuteFunctions,
	endpoint: Endpoint,
	item: number,
	message: string,
	extra: {
		description: string;
		code?: string;
		id?: number;
		details?: unknown;
		context?: IDataObject;
	},
): NodeApiError {
	const { description, code, id, details, context } = extra;
	const error = new NodeApiError(ctx.getNode(), { message } as JsonObject, {
		message,
		description,
		itemIndex: item,
	});
	error.context = {
		itemIndex: item,
		statusCode: code,
		statusId: id,
		details: details as IDataObject['details'],
		operation: endpoint,
		...context,
	};
	return error;
}

/**
 * The error of an answer whose status (field `field`) failed: the service's message and code,
 * without `secrets` (what the request carried that must not be shown).
 */
export function statusError(
	ctx: IExecuteFunctions,
	endpoint: Endpoint,
	item: number,
	failure: StatusFailure,
	secrets: string[],
): NodeApiError {
	const clean = redactValue(failure, secrets);
	const code = failureCode(clean);
	const said = clean.message || `the service gave no reason${code ? ` (${code})` : ''}`;
	const facts = [
		'HTTP 200',
		clean.code ? `status_code ${clean.code}` : undefined,
		clean.id !== undefined ? `status_id ${clean.id}` : undefined,
		`operation ${endpoint}`,
	].filter(Boolean);
	let description = `The service answered, but its status says the request failed: ${facts.join(', ')}`;
	if (Array.isArray(clean.details) && clean.details.length)
		description += `. Details: ${JSON.stringify(clean.details)}`;
	return answerError(ctx, endpoint, item, said, {
		description,
		code: clean.code,
		id: clean.id,
		details: clean.details,
	});
}
