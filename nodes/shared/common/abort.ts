/**
 * Waits that end when the user stops the execution. n8n 2.x hands nodes an abort signal
 * (`getExecutionCancelSignal`); n8n 1.x's `sleep` ignores a signal, so every wait here races the
 * signal itself and ends within a moment either way.
 */
import { sleep, type IHttpRequestOptions } from 'n8n-workflow';

import { PolicyStop } from '../errors/errors';
import { monotonicNow } from './clock';

/** The longest delay a timer takes (2^31 - 1 ms, about 24.8 days); beyond it Node fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

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

/** A request or wait that outlived its deadline: shown as it is, never repeated (pacing/retries.ts). */
export class DeadlineExceeded extends PolicyStop {
	constructor(message: string, description: string) {
		super(message, description);
		this.name = 'DeadlineExceeded';
	}
}

/**
 * A total deadline: its `signal` aborts once `ms` have passed (the whole answer, body included,
 * not only a silence between two bytes), or at once when `cancel` (the execution's cancel
 * signal) aborts.
 */
export interface Deadline {
	readonly ms: number;
	readonly signal: AbortSignal;
	/** True once the time is up (not when the user stopped the execution). */
	passed(): boolean;
	/** Milliseconds left, 0 once passed. */
	left(): number;
}

export function deadline(ms: number, cancel?: AbortSignal): Deadline {
	const end = monotonicNow() + ms;
	const timer = AbortSignal.timeout(Math.min(Math.max(1, ms), MAX_TIMER_MS));
	return {
		ms,
		signal: cancel ? AbortSignal.any([cancel, timer]) : timer,
		passed: () => timer.aborted,
		left: () => (timer.aborted ? 0 : Math.max(1, end - monotonicNow())),
	};
}

/**
 * Runs `task` within `limit` and settles by then whatever the task does: rejects with
 * `timedOut()` when the time is up, with `ExecutionStopped` when the user stops the execution.
 * The task gets the deadline's signal: a request given it as `abortSignal` is closed then too.
 * (Requests sent through `httpRequestWithAuthentication` get it back in the credential's
 * `authenticate`: see `withSignal`.) For any wait or request of the package, the export download
 * included.
 */
export async function withinDeadline<T>(
	limit: Deadline,
	task: (signal: AbortSignal) => Promise<T>,
	timedOut: () => Error,
): Promise<T> {
	if (limit.signal.aborted) throw new ExecutionStopped();
	let failed: unknown;
	try {
		return await abortable(task(limit.signal), limit.signal);
	} catch (error) {
		failed = error;
	}
	if (limit.passed()) throw timedOut();
	// Stopped by the user: the same error whether the wait or the request noticed it first.
	if (limit.signal.aborted) throw new ExecutionStopped();
	throw failed;
}

/**
 * One task that several callers wait for, each with its own cancel signal: a caller whose signal
 * aborts leaves at once, and when the last caller leaves that way the task's own signal aborts
 * (its request is closed). A caller without a signal never leaves, so the task then runs on.
 */
export interface SharedTask<T> {
	readonly task: Promise<T>;
	/** Waits for the task, or leaves at once when `signal` aborts. */
	join(signal?: AbortSignal): Promise<T>;
	/** Every caller left: the task is ending, a newcomer should not join it. */
	abandoned(): boolean;
}

export function sharedTask<T>(run: (abandoned: AbortSignal) => Promise<T>): SharedTask<T> {
	const abandon = new AbortController();
	const task = run(abandon.signal);
	task.catch(() => undefined);
	let waiting = 0;
	return {
		task,
		abandoned: () => abandon.signal.aborted,
		async join(signal?: AbortSignal) {
			waiting++;
			try {
				return await abortable(task, signal);
			} finally {
				if (--waiting === 0 && signal?.aborted) abandon.abort();
			}
		},
	};
}

/** Where a request's options carry the signal of its deadline (a symbol: never sent, never shown). */
const DEADLINE_SIGNAL = Symbol('deadline signal');
type WithDeadline = IHttpRequestOptions & { [DEADLINE_SIGNAL]?: AbortSignal };

/**
 * Gives a request the signal of its deadline. n8n's `httpRequestWithAuthentication` replaces a
 * request's signal with the execution's cancel signal (which the deadline's includes), then hands
 * the same options to the credential's `authenticate`, which puts this one back (`signalOf`): so
 * the connection is closed at the deadline too, not only on a stop.
 */
export function withSignal(options: IHttpRequestOptions, signal: AbortSignal): IHttpRequestOptions {
	const marked: WithDeadline = options;
	marked.abortSignal = signal;
	marked[DEADLINE_SIGNAL] = signal;
	return marked;
}

/** The signal `withSignal` gave these request options, if any. */
export function signalOf(options: IHttpRequestOptions): AbortSignal | undefined {
	return (options as WithDeadline)[DEADLINE_SIGNAL];
}
