/**
 * Waits that end when the user stops the execution. n8n 2.x hands nodes an abort signal
 * (`getExecutionCancelSignal`); n8n 1.x's `sleep` ignores a signal, so every wait here races the
 * signal itself and ends within a moment either way.
 */
import { sleep } from 'n8n-workflow';

/** n8n-workflow 2.x's `sleep(ms, signal)` ends at the abort; 1.x's `sleep(ms)` ignores the signal. */
const sleepUntil = sleep as (ms: number, signal?: AbortSignal) => Promise<void>;

/** The execution was stopped while the node waited or sent. */
export class ExecutionStopped extends Error {
	constructor() {
		super('The execution was stopped');
		this.name = 'ExecutionStopped';
	}
}

/** Settles like `promise`, or rejects with `ExecutionStopped` as soon as `signal` aborts. */
export async function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
	if (!signal) return await promise;
	if (signal.aborted) {
		promise.catch(() => undefined);
		throw new ExecutionStopped();
	}
	let onAbort = () => {};
	const stopped = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(new ExecutionStopped());
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([promise, stopped]);
	} finally {
		signal.removeEventListener('abort', onAbort);
		promise.catch(() => undefined);
	}
}

/** Waits `ms`, or less when `signal` aborts (then rejects with `ExecutionStopped`). */
export async function wait(ms: number, signal?: AbortSignal): Promise<void> {
	await abortable(
		sleepUntil(ms, signal).catch(() => {
			throw new ExecutionStopped();
		}),
		signal,
	);
}
