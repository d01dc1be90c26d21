/**
 * Reading the trigger's parameters with the package's rules (nodes/api/values.ts): a value the
 * rules refuse fails the activation with a NodeOperationError naming the parameter, before the
 * destination is touched.
 */
import {
	NodeOperationError,
	type IDataObject,
	type IHookFunctions,
	type IWebhookFunctions,
} from 'n8n-workflow';

import {
	booleanProblem,
	collectionProblem,
	numberProblem,
	parseBoolean,
	shown,
	textProblem,
} from '../api/values';

type TriggerContext = IHookFunctions | IWebhookFunctions;

function refused(ctx: TriggerContext, message: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message);
}

/** A text parameter, trimmed ('' when unset). */
export function textParameter(ctx: IHookFunctions, name: string, label: string): string {
	const value = ctx.getNodeParameter(name, '') as unknown;
	const problem = textProblem(value, `The parameter "${label}" (${name})`);
	if (problem) throw refused(ctx, problem);
	return value === undefined || value === null ? '' : String(value).trim();
}

/** A multiOptions parameter: a list of texts, each trimmed. */
export function textListParameter(ctx: IHookFunctions, name: string, label: string): string[] {
	const value = ctx.getNodeParameter(name, []) as unknown;
	if (value === undefined || value === null || value === '') return [];
	const what = `The parameter "${label}" (${name})`;
	if (!Array.isArray(value)) throw refused(ctx, `${what} must be a list, got ${shown(value)}`);
	return value.map((entry: unknown) => {
		const problem =
			typeof entry === 'string'
				? textProblem(entry, `An entry of ${what}`)
				: `An entry of ${what} must be text, got ${shown(entry)}`;
		if (problem) throw refused(ctx, problem);
		return (entry as string).trim();
	});
}

function optionsOf(ctx: TriggerContext): unknown {
	return ctx.getNodeParameter('options', {}) as unknown;
}

/**
 * Checks the trigger's options at activation: "Drop Duplicate Deliveries" is true or false (or
 * the text "true" / "false"), "Accept the Previous Secret For (Minutes)" a number of at least 0.
 */
export function checkTriggerOptions(ctx: IHookFunctions): void {
	const options = optionsOf(ctx);
	const problem =
		collectionProblem(options, 'The parameter "Options" (options)') ??
		numberProblem(
			(options as IDataObject | undefined)?.secretGraceMinutes,
			'The option "Accept the Previous Secret For (Minutes)" (secretGraceMinutes)',
		);
	const deduplicate = (options as IDataObject | undefined)?.deduplicate;
	const flag =
		deduplicate === undefined
			? undefined
			: booleanProblem(deduplicate, 'The option "Drop Duplicate Deliveries" (deduplicate)');
	if (problem ?? flag) throw refused(ctx, (problem ?? flag) as string);
}

/** Whether deliveries are de-duplicated (on by default; the activation refused odd values). */
export function deduplicates(ctx: IWebhookFunctions): boolean {
	const options = optionsOf(ctx);
	const value =
		options && typeof options === 'object' ? (options as IDataObject).deduplicate : undefined;
	return parseBoolean(value) ?? true;
}
