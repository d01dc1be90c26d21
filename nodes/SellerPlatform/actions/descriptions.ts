/** Parameter descriptions several operations share. */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { PACING } from '../../api/rateLimiter';

/** 0: automatic (the default). */
export const AUTO_CONCURRENCY = 0;
export const MAX_CONCURRENCY = PACING.maxConcurrency;

/** How many items are in flight at once. */
export const concurrencyOption: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: MAX_CONCURRENCY },
	default: AUTO_CONCURRENCY,
	description: `How many items are sent to the service at the same time. 0 (the default) sizes it automatically from the latency measured, up to ${MAX_CONCURRENCY}, so that the credential's rate plan alone sets the speed; a number from 1 to ${MAX_CONCURRENCY} pins it. Output keeps the input order.`,
};

/** Options of the operations that can wait for a long job to finish. */
export const waitOptions: INodeProperties[] = [
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: false,
		description:
			'Whether to keep asking for the status until the job reaches a final state (or the timeout), and return the last status',
	},
	{
		displayName: 'Poll Interval (Seconds)',
		name: 'pollIntervalSeconds',
		type: 'number',
		typeOptions: { minValue: 0.1, numberPrecision: 1 },
		default: 5,
		description: 'Time between two status requests while waiting',
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeoutSeconds',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 300,
		description:
			'Longest time to wait. When it passes, the last status is returned with waitTimedOut set to true.',
	},
];

/** Limits of a run's waiting on the service, offered by every operation. */
export const reliabilityOptions: INodeProperties[] = [
	{
		displayName: 'Waiting Budget (Seconds)',
		name: 'waitingBudgetSeconds',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 300,
		description:
			'How long this run may wait in all for a throttling or failing service (Retry-After and backoff, however many items wait at once). A Retry-After beyond what is left fails the item at once, saying when the service takes requests again.',
	},
	{
		displayName: 'Stop After Consecutive Failures',
		name: 'stopAfterFailures',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 20,
		description:
			'After this many 429 or 5xx answers in a row, across items, the run stops sending and fails the remaining items with a message saying so',
	},
];

/** The `options` collection of an operation (the reliability options included). */
export function optionsCollection(
	show: IDisplayOptions['show'],
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show },
		options: [...options, ...reliabilityOptions].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	};
}
