/** Reading and checking parameters before anything is sent: each rule names the parameter. */
import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import {
	booleanProblem,
	collectionProblem,
	isDotSegment,
	keyProblem,
	MAX_TEXT_LENGTH,
	numberProblem,
	optionProblem,
	parseBoolean,
	parseNumber,
	quoted,
	shown,
	textProblem,
	type NumberRule,
} from '../../shared';

/** A rejected parameter: names it and the rule, before anything is sent. */
export function invalidParameter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

/*
 * Text, one family: `textProblem` (values.ts) is the rule; `checkedText` reads a value under it
 * (a field of a collection, a list entry); the `…TextParameter` readers read a node parameter by
 * name: optional (unset or blank is undefined), non-blank when set, or required.
 */
export { MAX_TEXT_LENGTH, textProblem };

/** `value` as text, trimmed ('' when unset); throws when it is no text (see `textProblem`). */
export function checkedText(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	what: string,
): string {
	const problem = textProblem(value, what);
	if (problem) throw invalidParameter(ctx, itemIndex, problem);
	if (value === undefined || value === null) return '';
	return String(value).trim();
}

/** An optional text parameter: trimmed, `undefined` when unset or blank (so it is not sent). */
export function optionalTextParameter(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string | undefined {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	const text = checkedText(ctx, itemIndex, value, `The parameter "${label}" (${name})`);
	return text === '' ? undefined : text;
}

/** A text parameter that may be unset (`undefined`), but not blank when it is set. */
export function nonBlankTextParameter(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string | undefined {
	const raw = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	if (raw === '' || raw === undefined || raw === null) return undefined;
	const text = optionalTextParameter(ctx, name, label, itemIndex);
	if (text === undefined) {
		const message = `The parameter "${label}" (${name}) must not be blank when it is set`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	return text;
}

/** A required text parameter: not empty or blank, checked before any request. */
export function requiredTextParameter(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const text = optionalTextParameter(ctx, name, label, itemIndex);
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
	const value = requiredTextParameter(ctx, name, label, itemIndex);
	if (isDotSegment(value)) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`The parameter "${label}" (${name}) cannot be ${quoted(value)}`,
			`"${label}" becomes part of the request path, where "." and ".." are not allowed.`,
		);
	}
	return value;
}

/**
 * Reads the `binaryPropertyName` option (the output field a file goes into) when a file is asked
 * for: text, not blank, and not a name reserved for objects' prototypes.
 */
export function binaryFieldOption(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	label: string,
	fallback: string,
): string {
	const what = `The option "${label}" (binaryPropertyName)`;
	const name = checkedText(ctx, itemIndex, options.binaryPropertyName ?? fallback, what);
	const problem = name ? keyProblem(name, what) : `${what} must not be empty`;
	if (problem) throw invalidParameter(ctx, itemIndex, problem);
	return name;
}

/** A yes/no field: true, false, "true" or "false" (see `parseBoolean`); unset gives `fallback`. */
export function checkedBoolean(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	what: string,
	fallback: boolean,
): boolean {
	if (value === undefined) return fallback;
	const problem = booleanProblem(value, what);
	if (problem) throw invalidParameter(ctx, itemIndex, problem);
	return parseBoolean(value) as boolean;
}

/** One of the values of an options parameter; unset gives `fallback`. */
export function checkedOption<T extends string>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	what: string,
	allowed: readonly T[],
	fallback: T,
): T {
	if (value === undefined) return fallback;
	const problem = optionProblem(value, allowed, what);
	if (problem) throw invalidParameter(ctx, itemIndex, problem);
	return value as T;
}

/** A number under `rule` (see `numberProblem`); unset gives `fallback`. */
export function checkedNumber(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	what: string,
	rule: NumberRule,
	fallback: number,
): number {
	const problem = numberProblem(value, what, rule);
	if (problem) throw invalidParameter(ctx, itemIndex, problem);
	return parseNumber(value) ?? fallback;
}

/** Reads a collection parameter (`options`, `updateFields`, …): its fields, `{}` when unset. */
export function collectionParameter(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): IDataObject {
	const value = ctx.getNodeParameter(name, itemIndex, {}) as unknown;
	const problem = collectionProblem(value, `The parameter "${label}" (${name})`);
	if (problem) throw invalidParameter(ctx, itemIndex, problem);
	return (value ?? {}) as IDataObject;
}

/** The entries of a fixedCollection with several values (`headers.header`, …): `[]` when unset. */
export function checkedList(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	what: string,
): IDataObject[] {
	if (value === undefined || value === null || value === '') return [];
	const isEntry = (entry: unknown) =>
		typeof entry === 'object' && entry !== null && !Array.isArray(entry);
	const entries = Array.isArray(value) ? (value as unknown[]) : undefined;
	if (!entries?.every(isEntry)) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`${what} must be a list of entries, got ${shown(value)}`,
		);
	}
	return entries as IDataObject[];
}
