/**
 * The node options of a run's limits, each with its default: the run's waiting budget (budget.ts)
 * and its circuit breaker (breaker.ts). The action node lists them among every operation's
 * options; the messages that name them read their labels here.
 */
import type { INodeProperties } from 'n8n-workflow';

export const waitingBudgetOption = {
	displayName: 'Waiting Budget (Seconds)',
	name: 'waitingBudgetSeconds',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 300,
	description:
		'How long this run may wait in all for a throttling or failing service (Retry-After and backoff, however many items wait at once). A Retry-After beyond what is left fails the item at once, saying when the service takes requests again. Also the longest an export download waits for a free download place.',
} satisfies INodeProperties;

export const stopAfterFailuresOption = {
	displayName: 'Stop After Consecutive Failures',
	name: 'stopAfterFailures',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 20,
	description:
		'After this many 429 or 5xx answers in a row, across items, the run stops sending and fails the remaining items with a message saying so',
} satisfies INodeProperties;
