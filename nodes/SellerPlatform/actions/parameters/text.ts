/**
 * Text: `textProblem` (nodes/shared/common/values.ts) is the rule; `checkText` checks a value under
 * it (a field of a collection, a list entry); the readers read a text parameter: optional (unset
 * or blank is undefined), non-blank when set, required, as its description says, or one segment of
 * the request path.
 */
import type { INodeProperties } from 'n8n-workflow';

import { isDotSegment, isInputField, named, quoted, textProblem } from '../../../shared';
import { invalidParameter, type ParameterSource } from './source';

/** `value` as text, trimmed ('' when unset); throws when it is no text (see `textProblem`). */
export function checkText(
	ctx: ParameterSource,
	itemIndex: number,
	value: unknown,
	what: string,
): string {
	const problem = textProblem(value, what);
	if (problem) throw invalidParameter(ctx, itemIndex, problem);
	if (value === undefined || value === null) return '';
	return String(value).trim();
}

/**
 * A text parameter's value as n8n holds it; a resource locator's the chosen or typed value (or
 * the plain string a workflow saved before the parameter was a locator).
 */
export function rawText(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): unknown {
	if (property.type !== 'resourceLocator')
		return ctx.getNodeParameter(property.name, itemIndex, property.default) as unknown;
	return ctx.getNodeParameter(property.name, itemIndex, '', { extractValue: true }) as unknown;
}

/** An optional text parameter: trimmed, `undefined` when unset or blank (so it is not sent). */
export function readOptionalText(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string | undefined {
	const value = rawText(ctx, property, itemIndex);
	const text = checkText(ctx, itemIndex, value, named(property));
	return text === '' ? undefined : text;
}

/** A text parameter that may be unset (`undefined`), but not blank when it is set. */
export function readNonBlankText(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string | undefined {
	const raw = rawText(ctx, property, itemIndex);
	if (raw === '' || raw === undefined || raw === null) return undefined;
	const text = checkText(ctx, itemIndex, raw, named(property));
	if (text === '') {
		const message = `${named(property)} must not be blank when it is set`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	return text;
}

/** A required text parameter: not empty or blank, checked before any request. */
export function readRequiredText(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string {
	const text = readOptionalText(ctx, property, itemIndex);
	if (text === undefined) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`${named(property)} must not be empty`,
			isInputField(property)
				? fieldAdvice(property)
				: {
						editor: `Set "${property.displayName}" to a non-blank value, or map it from the input data with an expression.`,
						tool: 'Give a value that is not blank.',
					},
		);
	}
	return text;
}

/** What to do about a required input field that is blank (Map Automatically). */
export const fieldAdvice = (property: INodeProperties) =>
	(property as { column?: true }).column
		? `Give the row a value that is not blank in the "${property.name}" column.`
		: `Give the input item a "${property.name}" field that is not blank.`;

/** A text parameter as its description says: required (see above) or optional. */
export function readText(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string | undefined {
	return property.required
		? readRequiredText(ctx, property, itemIndex)
		: readOptionalText(ctx, property, itemIndex);
}

/**
 * Reads a parameter that becomes one segment of the request path: not blank, and not "." or ".."
 * (URL parsers would resolve those into another path). Any other character is URL-encoded.
 */
export function readPathSegment(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string {
	const value = readRequiredText(ctx, property, itemIndex);
	if (isDotSegment(value)) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`${named(property)} cannot be ${quoted(value)}`,
			`"${property.displayName}" becomes part of the request path, where "." and ".." are not allowed.`,
		);
	}
	return value;
}

/**
 * A parameter read by its description's type, as the shapes read body fields (shapes/): text
 * (or a resource locator's value), required or optional as the description says. Other types get a reader with their first user.
 */
export function readParameter(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): unknown {
	if (property.type === 'string' || property.type === 'resourceLocator')
		return readText(ctx, property, itemIndex);
	throw new Error(`No reader for the ${property.type} parameter "${property.name}"`);
}
