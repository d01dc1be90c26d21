/** Waiting for a long job (an import, an export): the polling (its options: options.ts). */
import type { IDataObject } from 'n8n-workflow';

import { MAX_TIMER_MS, monotonicNow, wait } from '../../shared';
import type { WaitSettings } from './options';

/**
 * Waits `ms` in steps a timer takes (a longer delay would fire at once): `sleep` never gets more
 * than MAX_TIMER_MS. Ends at once when the user stops the execution.
 */
async function pause(ms: number, signal?: AbortSignal): Promise<void> {
	const end = monotonicNow() + ms;
	for (let left = ms; left > 0; left = end - monotonicNow()) {
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
	const deadline = monotonicNow() + settings.timeoutMs;
	let status = await fetchStatus();
	while (!isFinal(status)) {
		const left = deadline - monotonicNow();
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
