/**
 * The options every operation shares, one home for each: its description, its default and the
 * reading that checks it, side by side. The run's options (concurrency and the reliability limits)
 * are read once per run, at item 0 (`readRunOptions`); the wait options for each item that waits
 * (`readWaitSettings`).
 */
import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import {
	PACING,
	parseBoolean,
	setRunLimits,
	stopAfterFailuresOption,
	suggestedConcurrency,
	waitingBudgetOption,
} from '../../shared';
import { readBooleanField, readCollection, readNumberField } from './parameters';

/** 0: automatic (the default). */
export const AUTO_CONCURRENCY = 0;
export const MAX_CONCURRENCY = PACING.maxConcurrency;

/** The wait options' defaults (the reliability options are the shared layer's, with theirs). */
const DEFAULT_POLL_INTERVAL_SECONDS = 5;
const DEFAULT_TIMEOUT_SECONDS = 300;

/** The shortest poll interval. */
export const MIN_POLL_INTERVAL_SECONDS = 0.1;

/** How many items are in flight at once. */
export const concurrencyOption: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: MAX_CONCURRENCY },
	default: AUTO_CONCURRENCY,
	description: `How many items are sent to the service at the same time. 0 (the default) sizes it automatically from the latency measured, up to ${MAX_CONCURRENCY}, so that the credential's rate plan alone sets the speed; a number from 1 to ${MAX_CONCURRENCY} pins it. Output keeps the input order.`,
};

/** Wait for Completion: a literal default (n8n's lint rule for booleans); the reader takes it. */
const waitForCompletionOption = {
	displayName: 'Wait for Completion',
	name: 'waitForCompletion',
	type: 'boolean',
	default: false,
	description:
		'Whether to keep asking for the status until the job reaches a final state (or the timeout), and return the last status',
} satisfies INodeProperties;

const pollIntervalOption: INodeProperties = {
	displayName: 'Poll Interval (Seconds)',
	name: 'pollIntervalSeconds',
	type: 'number',
	typeOptions: { minValue: MIN_POLL_INTERVAL_SECONDS, numberPrecision: 1 },
	default: DEFAULT_POLL_INTERVAL_SECONDS,
	description: 'Time between two status requests while waiting',
};

export const timeoutOption: INodeProperties = {
	displayName: 'Timeout (Seconds)',
	name: 'timeoutSeconds',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: DEFAULT_TIMEOUT_SECONDS,
	description:
		'Longest time to wait. When it passes, the last status is returned with waitTimedOut set to true.',
};

/** Options of the operations that can wait for a long job to finish. */
export const waitOptions: INodeProperties[] = [
	waitForCompletionOption,
	pollIntervalOption,
	timeoutOption,
];

/** Limits of a run's waiting on the service (pacing/options.ts), offered by every operation. */
export const reliabilityOptions: INodeProperties[] = [waitingBudgetOption, stopAfterFailuresOption];

/** The `options` collection every operation has (its fields: `optionsCollection`). */
const optionsProperty = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
} satisfies INodeProperties;

/** The fields of an item's `options` collection, `{}` when unset. */
export function readOptions(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return readCollection(ctx, optionsProperty, itemIndex);
}

/** The `options` collection of an operation (the reliability options included). */
export function optionsCollection(
	show: IDisplayOptions['show'],
	options: INodeProperties[],
): INodeProperties {
	return {
		...optionsProperty,
		displayOptions: { show },
		options: [...options, ...reliabilityOptions].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	};
}

export interface WaitSettings {
	enabled: boolean;
	intervalMs: number;
	timeoutMs: number;
	/** The execution's cancel signal: stopping the execution ends the wait at once. */
	signal?: AbortSignal;
}

/** The wait options of one item, each checked for that item before anything is sent. */
export function readWaitSettings(ctx: IExecuteFunctions, itemIndex: number): WaitSettings {
	const options = readOptions(ctx, itemIndex);
	const enabled = readBooleanField(ctx, itemIndex, options, waitForCompletionOption, 'option');
	const interval = readNumberField(ctx, itemIndex, options, pollIntervalOption, 'option', {
		min: MIN_POLL_INTERVAL_SECONDS,
	});
	const timeout = readNumberField(ctx, itemIndex, options, timeoutOption, 'option', {
		min: 0,
		aboveMin: true,
	});
	return {
		enabled,
		intervalMs: interval * 1000,
		timeoutMs: timeout * 1000,
		signal: ctx.getExecutionCancelSignal?.(),
	};
}

/**
 * The run's concurrency: the number set, or (0, the default) automatic: the requests in flight
 * that keep the rate plan busy at the latency measured (request.ts `suggestedConcurrency`), or the
 * ceiling for tasks that wait for a job to finish (they mostly wait). Read before each start.
 */
function concurrencyOf(ctx: IExecuteFunctions, options: IDataObject, set: number): () => number {
	if (set >= 1) {
		const fixed = Math.min(MAX_CONCURRENCY, Math.floor(set));
		return () => fixed;
	}
	if (parseBoolean(options.waitForCompletion) === true) return () => MAX_CONCURRENCY;
	return () => suggestedConcurrency(ctx);
}

/**
 * Reads the run's options once, at item 0: numbers, not negative, whole where they count
 * something, never beyond 2^53 (refused, never rounded). Hands the reliability limits to the API
 * layer for the run's requests and gives the concurrency.
 */
export function readRunOptions(ctx: IExecuteFunctions): { concurrency: () => number } {
	const options = readOptions(ctx, 0);
	const number = (property: INodeProperties, whole: boolean) =>
		readNumberField(ctx, 0, options, property, 'option', { whole });
	const concurrency = number(concurrencyOption, true);
	const budget = number(waitingBudgetOption, false);
	const failures = number(stopAfterFailuresOption, true);
	setRunLimits(ctx, {
		waitingBudgetMs: budget * 1000,
		circuitBreakerLimit: failures >= 1 ? failures : stopAfterFailuresOption.default,
	});
	return { concurrency: concurrencyOf(ctx, options, concurrency) };
}
