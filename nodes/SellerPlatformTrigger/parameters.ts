/**
 * Reading the trigger's parameters with the package's rules (nodes/shared/common/values.ts): a value the
 * rules refuse fails the activation with a NodeOperationError naming the parameter, before the
 * destination is touched. Labels, names and defaults come from the properties of description.ts.
 */
import {
	NodeOperationError,
	type IDataObject,
	type IHookFunctions,
	type INodeProperties,
	type IWebhookFunctions,
} from 'n8n-workflow';

import {
	booleanProblem,
	collectionProblem,
	EVENT_TYPE_PATTERN,
	named,
	numberProblem,
	parseBoolean,
	quoted,
	shown,
	textProblem,
} from '../shared';
import {
	customEventsProperty,
	deduplicateOption,
	destinationCodeProperty,
	eventsProperty,
	noonSendersOption,
	optionsProperty,
	secretGraceOption,
} from './description';

type TriggerContext = IHookFunctions | IWebhookFunctions;

function refused(ctx: TriggerContext, message: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message);
}

/** A text parameter, trimmed ('' when unset). */
export function textParameter(ctx: IHookFunctions, property: INodeProperties): string {
	const value = ctx.getNodeParameter(property.name, property.default) as unknown;
	const problem = textProblem(value, named(property));
	if (problem) throw refused(ctx, problem);
	return value === undefined || value === null ? '' : String(value).trim();
}

/** A multiOptions parameter: a list of texts, each trimmed ([] when unset). */
export function textListParameter(ctx: IHookFunctions, property: INodeProperties): string[] {
	const value = ctx.getNodeParameter(property.name, []) as unknown;
	if (value === undefined || value === null || value === '') return [];
	const what = named(property);
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

/** The chosen event types plus the custom ones, each NAMESPACE::EVENT_NAME, sorted, unique. */
export function chosenEvents(ctx: IHookFunctions): string[] {
	const events = textListParameter(ctx, eventsProperty);
	const custom = textParameter(ctx, customEventsProperty)
		.split(/[\s,]+/)
		.map((e) => e.trim())
		.filter(Boolean);
	const all = [...new Set([...events, ...custom])].sort();
	const wrong = all.find((event) => !EVENT_TYPE_PATTERN.test(event));
	if (wrong !== undefined) {
		throw refused(
			ctx,
			`The event type ${quoted(wrong)} must have the form NAMESPACE::EVENT_NAME, e.g. FBPI::ORDER_SYNC`,
		);
	}
	if (!all.length) {
		const where = `"${eventsProperty.displayName}" or "${customEventsProperty.displayName}"`;
		throw refused(ctx, `Choose at least one event type in ${where}`);
	}
	return all;
}

/** The Destination Code parameter, which must not be empty. */
export function destinationCode(ctx: IHookFunctions): string {
	const code = textParameter(ctx, destinationCodeProperty);
	if (!code) throw refused(ctx, `${named(destinationCodeProperty)} must not be empty`);
	return code;
}

/** The node's "Options" as set (not checked). */
function optionsOf(ctx: TriggerContext): unknown {
	return ctx.getNodeParameter(optionsProperty.name, optionsProperty.default) as unknown;
}

/** One option's value, undefined when unset or when "Options" is no collection. */
function optionValue(ctx: TriggerContext, option: INodeProperties): unknown {
	const options = optionsOf(ctx);
	return options && typeof options === 'object' ? (options as IDataObject)[option.name] : undefined;
}

/** A boolean option's problem (true or false, or the text "true" / "false"), if any. */
function flagProblem(ctx: IHookFunctions, option: INodeProperties): string | undefined {
	const value = optionValue(ctx, option);
	return value === undefined ? undefined : booleanProblem(value, named(option, 'option'));
}

/**
 * Checks the trigger's options at activation: "Drop Duplicate Deliveries" and "Only Accept Noon's
 * Sender Addresses" true or false (or the text "true" / "false"), "Accept the Previous Secret For
 * (Minutes)" a number of at least 0.
 */
export function checkTriggerOptions(ctx: IHookFunctions): void {
	const problem =
		collectionProblem(optionsOf(ctx), named(optionsProperty)) ??
		numberProblem(optionValue(ctx, secretGraceOption), named(secretGraceOption, 'option')) ??
		flagProblem(ctx, deduplicateOption) ??
		flagProblem(ctx, noonSendersOption);
	if (problem) throw refused(ctx, problem);
}

/** Whether only deliveries from noon's documented addresses are taken (off by default). */
export function noonSendersOnly(ctx: IWebhookFunctions): boolean {
	return parseBoolean(optionValue(ctx, noonSendersOption)) ?? noonSendersOption.default;
}

/** Whether deliveries are de-duplicated (on by default; the activation refused odd values). */
export function deduplicates(ctx: IWebhookFunctions): boolean {
	return parseBoolean(optionValue(ctx, deduplicateOption)) ?? deduplicateOption.default;
}

/** How long a released secret is still accepted, in milliseconds (the activation checked it). */
export function secretGraceMs(ctx: IHookFunctions): number {
	const fallback = secretGraceOption.default;
	const minutes = Number(optionValue(ctx, secretGraceOption) ?? fallback);
	return (Number.isFinite(minutes) && minutes >= 0 ? minutes : fallback) * 60_000;
}
