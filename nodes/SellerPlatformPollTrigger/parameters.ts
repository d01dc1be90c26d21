/**
 * Reading the poll trigger's parameters with the package's rules (nodes/shared/common/values.ts):
 * a value the rules refuse fails the poll (and so the activation) with a NodeOperationError naming
 * the parameter, before anything is sent.
 */
import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

import {
	allowedValues,
	collectionProblem,
	named,
	numberProblem,
	optionProblem,
	parseNumber,
	textProblem,
} from '../shared';
import {
	eventProperty,
	lateListingOption,
	MAX_LATE_LISTING_HOURS,
	optionsProperty,
	warehouseProperty,
} from './description';

function refused(ctx: IPollFunctions, message: string, description?: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { description });
}

/** The Event parameter: one of its options. */
export function eventParameter(ctx: IPollFunctions): string {
	const value = ctx.getNodeParameter(eventProperty.name, eventProperty.default) as unknown;
	const problem = optionProblem(value, allowedValues(eventProperty), named(eventProperty));
	if (problem) throw refused(ctx, problem);
	return value as string;
}

/** The Warehouse Code parameter (from the list or by code), trimmed, never blank. */
export function warehouseParameter(ctx: IPollFunctions): string {
	const value = ctx.getNodeParameter(warehouseProperty.name, '', {
		extractValue: true,
	}) as unknown;
	const what = named(warehouseProperty);
	const problem = textProblem(value, what);
	if (problem) throw refused(ctx, problem);
	const code = value === undefined || value === null ? '' : String(value).trim();
	if (!code) {
		throw refused(
			ctx,
			`${what} must not be empty`,
			`Choose a warehouse from the list, or set "${warehouseProperty.displayName}" by code.`,
		);
	}
	return code;
}

/**
 * "Catch Orders Listed Late Up To (Hours)" of the Options, in ms: a number (or text holding one)
 * from 0 to `MAX_LATE_LISTING_HOURS`; unset (a workflow saved without it): its default.
 */
export function lateListingMs(ctx: IPollFunctions): number {
	const options = ctx.getNodeParameter(optionsProperty.name, {}) as unknown;
	const problem = collectionProblem(options, named(optionsProperty));
	if (problem) throw refused(ctx, problem);
	const value = options ? (options as IDataObject)[lateListingOption.name] : undefined;
	const what = named(lateListingOption, 'option');
	const hours = parseNumber(value) ?? lateListingOption.default;
	const wrong =
		numberProblem(value, what) ??
		(hours > MAX_LATE_LISTING_HOURS
			? `${what} must be at most ${MAX_LATE_LISTING_HOURS}, got ${hours}`
			: undefined);
	if (wrong) throw refused(ctx, wrong);
	return Math.round(hours * 3600_000);
}
