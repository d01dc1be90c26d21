/** Yes/no and options parameters: a value one of the allowed ones, or refused naming it. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	allowedValues,
	booleanProblem,
	named,
	optionProblem,
	parseBoolean,
	type Kind,
} from '../../../shared';
import { invalidParameter, type ParameterSource } from './source';

/** A yes/no field: true, false, "true" or "false" (see `parseBoolean`); unset gives `fallback`. */
export function checkBoolean(
	ctx: ParameterSource,
	itemIndex: number,
	value: unknown,
	what: string,
	fallback: boolean,
): boolean {
	if (value === undefined) return fallback;
	const problem = booleanProblem(value, what);
	if (problem) throw invalidParameter(ctx, itemIndex, problem, 'Give true or false.');
	return parseBoolean(value) as boolean;
}

/** The yes/no field `property` of a collection's `values`; unset gives its default. */
export function readBooleanField(
	ctx: ParameterSource,
	itemIndex: number,
	values: IDataObject,
	property: INodeProperties,
	kind: Kind,
): boolean {
	const what = named(property, kind);
	return checkBoolean(ctx, itemIndex, values[property.name], what, property.default as boolean);
}

/** One of the values of an options parameter; unset gives `fallback`. */
export function checkOption<T extends string>(
	ctx: ParameterSource,
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

/** The options field `property` of a collection's `values`, one of its values; unset: its default. */
export function readOptionField(
	ctx: ParameterSource,
	itemIndex: number,
	values: IDataObject,
	property: INodeProperties,
	kind: Kind,
): string {
	const fallback = property.default as string;
	const what = named(property, kind);
	return checkOption(
		ctx,
		itemIndex,
		values[property.name],
		what,
		allowedValues(property),
		fallback,
	);
}

/** The options parameter `property` of an item, one of its values. */
export function readOption(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string {
	const value = ctx.getNodeParameter(property.name, itemIndex, property.default) as unknown;
	return readOptionField(
		ctx,
		itemIndex,
		{ [property.name]: value as IDataObject },
		property,
		'parameter',
	);
}

/**
 * An optional yes/no parameter (an options parameter whose '' means "leave as it is"):
 * `undefined` when unset (undefined, null, ''), else true or false (see `parseBoolean`).
 */
export function readOptionalBoolean(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): boolean | undefined {
	const value = ctx.getNodeParameter(property.name, itemIndex, property.default) as unknown;
	if (value === undefined || value === null || value === '') return undefined;
	return checkBoolean(ctx, itemIndex, value, named(property), false);
}
