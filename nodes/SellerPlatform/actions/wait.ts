/** Waiting for a long job (an import, an export): the wait options and the polling. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { wait } from '../../api/abort';
import { invalidParameter } from './parameters';

export interface WaitSettings {
	enabled: boolean;
	intervalMs: number;
	timeoutMs: number;
	/** The execution's cancel signal: stopping the execution ends the wait at once. */
	signal?: AbortSignal;
}

export function readWaitSettings(ctx: IExecuteFunctions, itemIndex: number): WaitSettings {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const interval = Number(options.pollIntervalSeconds ?? 5);
	const timeout = Number(options.timeoutSeconds ?? 300);
	if (!(interval > 0) || !(timeout > 0)) {
		throw invalidParameter(
			ctx,
			itemIndex,
			'The options "Poll Interval (Seconds)" and "Timeout (Seconds)" must be positive numbers',
		);
	}
	return {
		enabled: options.waitForCompletion === true,
		intervalMs: interval * 1000,
		timeoutMs: timeout * 1000,
		signal: ctx.getExecutionCancelSignal?.(),
	};
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
		// Ends at once when the user stops the execution.
		await wait(Math.min(settings.intervalMs, left), settings.signal);
		status = await fetchStatus();
	}
	return { ...status, waitTimedOut: false };
}

/** A status value upper-cased and without its enum prefix: `IMPORT_STATUS_COMPLETED` → `COMPLETED`. */
export function normaliseStatus(value: unknown, prefix: string): string {
	const status = String(value ?? '').toUpperCase();
	return status.startsWith(prefix) ? status.slice(prefix.length) : status;
}
