/** Reading and checking parameters before anything is sent: each rule names the parameter. */
import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { isDotSegment } from '../../api/url';

/** A rejected parameter: names it and the rule, before anything is sent. */
export function invalidParameter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

/** Reads a required string parameter and rejects empty or blank values before any request. */
export function requiredString(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const text = optionalString(ctx, name, itemIndex);
	if (text === undefined) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`The parameter "${label}" (${name}) must not be empty`,
			`Set "${label}" to a non-blank value, or map it from the input data with an expression.`,
		);
	}
	return text;
}

/** Reads an optional string parameter: trimmed, `undefined` when empty (so it is not sent). */
export function optionalString(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
): string | undefined {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	if (value === undefined || value === null) return undefined;
	const text = typeof value === 'number' ? String(value) : value;
	if (typeof text !== 'string') return undefined;
	return text.trim() === '' ? undefined : text.trim();
}

/**
 * Reads a parameter that becomes one segment of the request path: not blank, and not "." or ".."
 * (URL parsers would resolve those into another path). Any other character is URL-encoded.
 */
export function requiredPathParameter(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const value = requiredString(ctx, name, label, itemIndex);
	if (isDotSegment(value)) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`The parameter "${label}" (${name}) cannot be "${value}"`,
			`"${label}" becomes part of the request path, where "." and ".." are not allowed.`,
		);
	}
	return value;
}

/**
 * Reads the `binaryPropertyName` option (the output field a file goes into) when a file is asked
 * for; it must not be blank.
 */
export function binaryFieldOption(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	label: string,
	fallback: string,
): string {
	const name = String(options.binaryPropertyName ?? fallback).trim();
	if (!name) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`The option "${label}" (binaryPropertyName) must not be empty`,
		);
	}
	return name;
}
