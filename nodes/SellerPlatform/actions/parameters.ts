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
	const text = optionalString(ctx, name, itemIndex, label);
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

/** The longest text a parameter may hold. */
export const MAX_TEXT_LENGTH = 64 * 1024;

/** A UTF-16 half without its other half: not valid Unicode, and no JSON encoder keeps it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What is wrong with a value that should be text (a string, or a number that stays exact), or
 * undefined. `what` names it in the message, e.g. `The parameter "PO Number" (poNr)`.
 */
export function textProblem(value: unknown, what: string): string | undefined {
	if (typeof value === 'number') {
		if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
			return `${what} holds the number ${String(value)}, beyond 2^53: it cannot be sent exactly. Map it as text instead`;
		}
		return Number.isFinite(value) ? undefined : `${what} must be text, got ${String(value)}`;
	}
	if (typeof value === 'bigint') {
		return Number.isSafeInteger(Number(value))
			? undefined
			: `${what} holds a number beyond 2^53: map it as text instead`;
	}
	if (value !== null && typeof value === 'object') {
		return `${what} must be text, got ${Array.isArray(value) ? 'an array' : 'an object'}`;
	}
	if (typeof value !== 'string') return undefined;
	if (value.length > MAX_TEXT_LENGTH) {
		return `${what} is ${value.length} characters long, at most ${MAX_TEXT_LENGTH} are allowed`;
	}
	if (LONE_SURROGATE.test(value))
		return `${what} holds a lone surrogate (half of a UTF-16 character)`;
	return undefined;
}

/** `value` as text, trimmed; throws when it is no text (see `textProblem`). */
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

/** Reads an optional string parameter: trimmed, `undefined` when empty (so it is not sent). */
export function optionalString(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	label?: string,
): string | undefined {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	const what = `The parameter ${label ? `"${label}" (${name})` : `"${name}"`}`;
	const text = checkedText(ctx, itemIndex, value, what);
	return text === '' ? undefined : text;
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

/** Numeric options of every operation: label and whether the value must be whole. */
const NUMERIC_OPTIONS: Record<string, { label: string; whole: boolean }> = {
	concurrency: { label: 'Concurrency', whole: true },
	pollIntervalSeconds: { label: 'Poll Interval (Seconds)', whole: false },
	timeoutSeconds: { label: 'Timeout (Seconds)', whole: false },
	waitingBudgetSeconds: { label: 'Waiting Budget (Seconds)', whole: false },
	stopAfterFailures: { label: 'Stop After Consecutive Failures', whole: true },
};

/**
 * Checks the numeric options of the run (read at item 0, as the runner uses them): numbers, not
 * negative, whole where they count something, and never beyond 2^53 (refused, never rounded).
 */
export function checkNumericOptions(ctx: IExecuteFunctions): void {
	const options = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	for (const [name, { label, whole }] of Object.entries(NUMERIC_OPTIONS)) {
		const raw = options[name];
		if (raw === undefined || raw === null || raw === '') continue;
		// An expression may give the number as text.
		const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
		const what = `The option "${label}" (${name})`;
		let problem: string | undefined;
		if (typeof value !== 'number' || !Number.isFinite(value)) problem = `${what} must be a number`;
		else if (Math.abs(value) > Number.MAX_SAFE_INTEGER) problem = `${what} is beyond 2^53`;
		else if (value < 0) problem = `${what} must not be negative`;
		else if (whole && !Number.isInteger(value)) problem = `${what} must be a whole number`;
		if (problem) throw invalidParameter(ctx, 0, problem);
	}
}
