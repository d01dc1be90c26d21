/**
 * The headers of an event webhook: name/value pairs the service sends with every delivery, the
 * only way the receiving server can tell noon's deliveries from anyone else's requests. Their
 * values are secrets: no message names one (the request pipeline redacts them from the service's
 * errors: errors/redact.ts `secretsIn`), and the output shows them masked.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { HEADER_NAME_PATTERN, keyProblem, quoted, quotedName, textProblem } from '../../../shared';
import { checkText, invalidParameter, readRows } from '../parameters';

/** How the output shows a header value. */
export const MASKED_HEADER_VALUE = '****';

export const headersProperty: INodeProperties = {
	displayName: 'Headers',
	name: 'headers',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	required: true,
	default: {},
	placeholder: 'Add header',
	description:
		'HTTP headers the service sends with every delivery, e.g. a secret your server checks: at least one. The values are kept secret: never shown in errors or logs, and masked in the output.',
	options: [
		{
			displayName: 'Header',
			name: 'header',
			values: [
				{
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
					placeholder: 'e.g. X-Webhook-Secret',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					typeOptions: { password: true },
					default: '',
				},
			],
		},
	],
};

const field = quotedName(headersProperty);

/** A header's value: text, not blank, on one line. Never quoted in a message: it is a secret. */
function headerValue(ctx: IExecuteFunctions, itemIndex: number, value: unknown, name: string) {
	const where = `The value of the header "${name}" in ${field}`;
	// Text problems of a string (its length, a lone surrogate) say nothing of its characters;
	// for any other value only that it is no text.
	const problem = textProblem(value, where);
	if (problem) {
		throw invalidParameter(
			ctx,
			itemIndex,
			typeof value === 'string' ? problem : `${where} must be text`,
		);
	}
	const text = value === undefined || value === null ? '' : String(value);
	if (text.trim() === '') throw invalidParameter(ctx, itemIndex, `${where} must not be empty`);
	if (/[\r\n\0]/.test(text)) {
		const message = `${where} must be on one line: a line break or NUL cannot be sent in a header`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	return text;
}

/** The headers as the request's `credentials` map: each name once (in any case), a valid name. */
export function readHeaders(ctx: IExecuteFunctions, itemIndex: number): Record<string, string> {
	const rows = readRows(ctx, headersProperty, itemIndex, {
		needs: 'at least one header',
		description:
			'Add a header, e.g. a secret your server checks, so that it can tell these deliveries from anyone else’s requests.',
	});
	// Header names are the user's: a map without a prototype, so no name reaches one.
	const headers = Object.create(null) as Record<string, string>;
	const seen = new Set<string>();
	for (const row of rows as IDataObject[]) {
		const name = checkText(ctx, itemIndex, row.name, `A header name in ${field}`);
		if (!HEADER_NAME_PATTERN.test(name)) {
			const message = `The header name ${quoted(name)} in ${field} is not a valid HTTP header name`;
			throw invalidParameter(ctx, itemIndex, message);
		}
		const reserved = keyProblem(name, `A header name in ${field}`);
		if (reserved) throw invalidParameter(ctx, itemIndex, reserved);
		if (seen.has(name.toLowerCase())) {
			const message = `The header "${name}" is in ${field} twice: header names are the same in any case`;
			throw invalidParameter(ctx, itemIndex, message);
		}
		seen.add(name.toLowerCase());
		headers[name] = headerValue(ctx, itemIndex, row.value, name);
	}
	return headers;
}

/** The headers as the output shows them: their names, each value masked. */
export function maskedHeaders(headers: Record<string, unknown>): IDataObject {
	return Object.fromEntries(Object.keys(headers).map((name) => [name, MASKED_HEADER_VALUE]));
}
