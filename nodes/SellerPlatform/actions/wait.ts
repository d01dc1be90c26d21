/** Waiting for a long job (an import, an export): the wait options and the polling. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { MAX_TIMER_MS, wait } from '../../api/abort';
import { checkedBoolean, checkedNumber, collectionParameter } from './parameters';

/** The shortest poll interval: the description's minimum. */
export const MIN_POLL_INTERVAL_SECONDS = 0.1;

export interface WaitSettings {
	enabled: boolean;
	intervalMs: number;
	timeoutMs: number;
	/** The execution's cancel signal: stopping the execution ends the wait at once. */
	signal?: AbortSignal;
}

/** The wait options of one item, each checked for that item before anything is sent. */
export function readWaitSettings(ctx: IExecuteFunctions, itemIndex: number): WaitSettings {
	const options = collectionParameter(ctx, 'options', 'Options', itemIndex);
	const option = (label: string, name: string) => `The option "${label}" (${name})`;
	const enabled = checkedBoolean(
		ctx,
		itemIndex,
		options.waitForCompletion,
		option('Wait for Completion', 'waitForCompletion'),
		false,
	);
	const interval = checkedNumber(
		ctx,
		itemIndex,
		options.pollIntervalSeconds,
		option('Poll Interval (Seconds)', 'pollIntervalSeconds'),
		{ min: MIN_POLL_INTERVAL_SECONDS },
		5,
	);
	const timeout = checkedNumber(
		ctx,
		itemIndex,
		options.timeoutSeconds,
		option('Timeout (Seconds)', 'timeoutSeconds'),
		{ min: 0, aboveMin: true },
		300,
	);
	return {
		enabled,
		intervalMs: interval * 1000,
		timeoutMs: timeout * 1000,
		signal: ctx.getExecutionCancelSignal?.(),
	};
}

/**
 * Waits `ms` in steps a timer takes (a longer delay would fire at once): `sleep` never gets more
 * than MAX_TIMER_MS. Ends at once when the user stops the execution.
 */
async function pause(ms: number, signal?: AbortSignal): Promise<void> {
	const end = Date.now() + ms;
	for (let left = ms; left > 0; left = end - Date.now()) {
		await wait(Math.min(left, MAX_TIMER_MS), signal);
	}
}

/**
 * Reads a status once, or, when waiting is on, until `isFinal` says so or the timeout passes;
 * then returns the last status with `waitTimedOut` added.
 */
export async function pollUntilFinal(
	fetchStatus: () => Promise<IDataObject>,
	isFinal: (status: IDataObject) => boolean,
	settings: WaitSettings,
): Promise<IDataObject> {
	if (!settings.enabled) return await fetchStatus();
	const deadline = Date.now() + settings.timeoutMs;
	let status = await fetchStatus();
	while (!isFinal(status)) {
		const left = deadline - Date.now();
		if (left <= 0) return { ...status, waitTimedOut: true };
		await pause(Math.min(settings.intervalMs, left), settings.signal);
		status = await fetchStatus();
	}
	return { ...status, waitTimedOut: false };
}

/** A status value upper-cased and without its enum prefix: `IMPORT_STATUS_COMPLETED` → `COMPLETED`. */
export function normaliseStatus(value: unknown, prefix: string): string {
	const status = String(value ?? '').toUpperCase();
	return status.startsWith(prefix) ? status.slice(prefix.length) : status;
}
