/** Numbers: under a rule (`numberProblem`, nodes/shared/common/values.ts), and the amounts of a price row. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	named,
	numberAdvice,
	numberProblem,
	parseNumber,
	type Kind,
	type NumberRule,
} from '../../../shared';
import { invalidParameter, type ParameterSource } from './source';

/** A number under `rule` (see `numberProblem`); unset gives `fallback`. */
export function checkNumber(
	ctx: ParameterSource,
	itemIndex: number,
	value: unknown,
	what: string,
	rule: NumberRule,
	fallback: number,
): number {
	const problem = numberProblem(value, what, rule);
	if (problem) throw invalidParameter(ctx, itemIndex, problem, numberAdvice(rule));
	return parseNumber(value) ?? fallback;
}

/** The number field `property` of a collection's `values` under `rule`; unset gives its default. */
export function readNumberField(
	ctx: ParameterSource,
	itemIndex: number,
	values: IDataObject,
	property: INodeProperties,
	kind: Kind,
	rule: NumberRule,
): number {
	const what = named(property, kind);
	const fallback = property.default as number;
	return checkNumber(ctx, itemIndex, values[property.name], what, rule, fallback);
}

/**
 * An optional number parameter (default '', as n8n's own nodes declare one): `undefined` when
 * unset (undefined, null, ''), else a number under `rule` and at most `max`, or refused.
 */
export function readOptionalNumber(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
	rule: NumberRule & { max?: number },
): number | undefined {
	const value = ctx.getNodeParameter(property.name, itemIndex, property.default) as unknown;
	const what = named(property);
	const problem = numberProblem(value, what, rule);
	if (problem) throw invalidParameter(ctx, itemIndex, problem, numberAdvice(rule));
	const number = parseNumber(value);
	if (number !== undefined && rule.max !== undefined && number > rule.max) {
		throw invalidParameter(ctx, itemIndex, `${what} must be at most ${rule.max}, got ${number}`);
	}
	// -0 is sent as 0: JSON has no negative zero.
	return number === undefined ? undefined : number + 0;
}

/**
 * The amounts of a price row (fields by API name → their properties): the ones set, or refused
 * when none is ("Item 3 sets nothing").
 */
export function readAmounts(
	ctx: ParameterSource,
	amounts: Record<string, INodeProperties>,
	itemIndex: number,
): IDataObject {
	const values: IDataObject = {};
	for (const [field, property] of Object.entries(amounts)) {
		const value = readOptionalNumber(ctx, property, itemIndex, {});
		if (value !== undefined) values[field] = value;
	}
	if (Object.keys(values).length === 0) {
		const names = Object.values(amounts).map((property) => named(property));
		throw invalidParameter(
			ctx,
			itemIndex,
			`Item ${itemIndex} sets nothing: ${names.join(' and ')} are both empty`,
			'Set the price, the MSRP, or both.',
		);
	}
	return values;
}
