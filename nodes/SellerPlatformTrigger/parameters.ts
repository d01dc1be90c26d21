/**
 * Reading the trigger's parameters with the package's rules (nodes/shared/common/values.ts): a value the
 * rules refuse fails the activation with a NodeOperationError naming the parameter, before the
 * destination is touched. The "Options" the node shows are defined here, beside their readers.
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
	numberProblem,
	parseBoolean,
	quoted,
	shown,
	textProblem,
} from '../shared';

type TriggerContext = IHookFunctions | IWebhookFunctions;

/** The default of the option "Accept the Previous Secret For (Minutes)" (secretGraceMinutes). */
export const DEFAULT_SECRET_GRACE_MINUTES = 10;

/**
 * The option "Accept the Previous Secret For (Minutes)" of the node's "Options", here beside
 * `checkTriggerOptions` and `secretGraceMs`, which read it.
 */
export const SECRET_GRACE_OPTION = {
	displayName: 'Accept the Previous Secret For (Minutes)',
	name: 'secretGraceMinutes',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: DEFAULT_SECRET_GRACE_MINUTES,
	description:
		'When the workflow is registered again (publishing a new version, re-activating), its secret header is kept if the re-registration comes within this time, and deliveries sent with the previous secret are accepted for this long',
} satisfies INodeProperties;

/**
 * The option "Drop Duplicate Deliveries" of the node's "Options". `deduplicates` falls back to its
 * default, which stays a literal here (n8n's lint wants a boolean literal).
 */
export const DEDUPLICATE_OPTION = {
	displayName: 'Drop Duplicate Deliveries',
	name: 'deduplicate',
	type: 'boolean',
	default: true,
	description:
		'Whether to start nothing for a delivery already received (the service delivers at least once, so the same event can arrive twice). Deliveries are recognised by metadata.message_id, or by their content.',
} satisfies INodeProperties;

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

/** The chosen event types plus the custom ones, each NAMESPACE::EVENT_NAME, sorted, unique. */
export function chosenEvents(ctx: IHookFunctions): string[] {
	const events = textListParameter(ctx, 'events', 'Events');
	const custom = textParameter(ctx, 'customEvents', 'Custom Events')
		.split(/[\s,]+/)
		.map((e) => e.trim())
		.filter(Boolean);
	const all = [...new Set([...events, ...custom])].sort();
	const wrong = all.find((event) => !EVENT_TYPE_PATTERN.test(event));
	if (wrong !== undefined) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The event type ${quoted(wrong)} must have the form NAMESPACE::EVENT_NAME, e.g. FBPI::ORDER_SYNC`,
		);
	}
	if (!all.length) {
		throw new NodeOperationError(
			ctx.getNode(),
			'Choose at least one event type in "Events" or "Custom Events"',
		);
	}
	return all;
}

/** The Destination Code parameter, which must not be empty. */
export function destinationCode(ctx: IHookFunctions): string {
	const code = textParameter(ctx, 'destinationCode', 'Destination Code');
	if (!code) {
		throw new NodeOperationError(
			ctx.getNode(),
			'The parameter "Destination Code" (destinationCode) must not be empty',
		);
	}
	return code;
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
	return parseBoolean(value) ?? DEDUPLICATE_OPTION.default;
}

/** How long a released secret is still accepted, in milliseconds (the activation checked it). */
export function secretGraceMs(ctx: IHookFunctions): number {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const minutes = Number(options.secretGraceMinutes ?? DEFAULT_SECRET_GRACE_MINUTES);
	return Number.isFinite(minutes) && minutes >= 0
		? minutes * 60_000
		: DEFAULT_SECRET_GRACE_MINUTES * 60_000;
}
