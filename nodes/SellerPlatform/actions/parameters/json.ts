/** JSON object parameters, sent exactly as they say. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { named, shown, textProblem } from '../../../shared';
import { invalidParameter, type ParameterSource } from './source';
import { checkText } from './text';

/** Levels of nesting a JSON parameter may have (deeper ones are refused, not walked). */
const MAX_JSON_DEPTH = 32;

/** What is wrong with a value inside a JSON parameter, or undefined: JSON as it says, exactly. */
function jsonValueProblem(value: unknown, path: string, depth: number): string | undefined {
	const at = `the value at ${path}`;
	if (value === null || typeof value === 'boolean') return undefined;
	if (typeof value === 'string') return textProblem(value, at);
	if (typeof value === 'number') {
		if (!Number.isFinite(value) || Object.is(value, -0)) return `${at} is ${shown(value)}`;
		return Number.isInteger(value) && !Number.isSafeInteger(value)
			? `${at} is a number beyond 2^53 that cannot be sent exactly: write it as text`
			: undefined;
	}
	if (typeof value !== 'object') return `${at} is not a JSON value`;
	if (depth >= MAX_JSON_DEPTH) return `${at} is nested more than ${MAX_JSON_DEPTH} levels deep`;
	const entries = Array.isArray(value)
		? value.map((entry, i): [string, unknown] => [`${path}[${i}]`, entry])
		: Object.entries(value).map(([k, v]): [string, unknown] => [`${path}.${k}`, v]);
	for (const [where, entry] of entries) {
		const problem = jsonValueProblem(entry, where, depth + 1);
		if (problem) return problem;
	}
	return undefined;
}

/**
 * A JSON object parameter (`type: 'json'`): JSON text, or an object mapped by an expression.
 * Refused unless it is an object whose every value JSON carries exactly (no NaN, no number
 * beyond 2^53, no lone surrogate): it is sent as it says, never changed.
 */
export function readJsonObject(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): IDataObject {
	const what = named(property);
	const raw = ctx.getNodeParameter(property.name, itemIndex, property.default) as unknown;
	let value = raw;
	if (typeof raw === 'string') {
		const text = checkText(ctx, itemIndex, raw, what);
		try {
			value = JSON.parse(text) as unknown;
		} catch {
			const message = `${what} is not valid JSON: ${shown(text.slice(0, 60))}`;
			throw invalidParameter(ctx, itemIndex, message, 'Write a JSON object, such as {}.');
		}
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		const message = `${what} must be a JSON object, got ${shown(value)}`;
		throw invalidParameter(ctx, itemIndex, message, 'Write a JSON object, such as {}.');
	}
	const problem = jsonValueProblem(value, property.name, 0);
	if (problem) throw invalidParameter(ctx, itemIndex, `${what} is refused: ${problem}`);
	return value as IDataObject;
}
