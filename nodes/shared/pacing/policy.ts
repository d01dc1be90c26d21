/**
 * How requests wait: pacing under the rate plan before sending, waiting out 429 answers, and
 * repeating transient failures of repeatable endpoints. Every wait here has a bound: the run's
 * waiting budget, a circuit breaker after consecutive 429/5xx answers, and the user stopping the
 * execution (which ends every wait within a moment).
 */
import { abortable, DeadlineExceeded, ExecutionStopped, wait } from './abort';
import { classify, PolicyStop, type Failure } from './errors';
import { PACING, type PlanLimiter, type SlotOutcome } from './rateLimiter';
import { rateLimitEchoes, sessions } from './state';
import {
	backoffDelay,
	beyondBudget,
	parseRetryAfter,
	rateLimitDelay,
	RETRY_POLICY,
	type WaitReason,
} from './waits';

export { backoffDelay, parseRetryAfter, rateLimitDelay, RETRY_POLICY } from './waits';

/** Connection failures a repeat may cure, for API requests and the login (login.ts). */
export const CONNECTION_FAILURES: ReadonlySet<string> = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'EPIPE',
	'EAI_AGAIN',
]);

/** Worth a repeat of an API request: those and socket time-outs (never for the login). */
const TRANSIENT_CODES = new Set([
	...CONNECTION_FAILURES,
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

/** A 5xx answer or a connection failure; never a failed login. */
export function isTransient(failure: Failure): boolean {
	if (failure.loginError) return false;
	if (failure.httpStatus !== undefined) return failure.httpStatus >= 500;
	return failure.code !== undefined && TRANSIENT_CODES.has(failure.code);
}

/** What a run met on its way, for the hints n8n shows after it. */
export interface RunFacts {
	/** 429 answers the run's requests got. */
	rateLimited: number;
	/**
	 * The lowest share of the plan the run's requests were paced at while others used the plan
	 * (recurring throttling episodes: rateController.ts `shared`); 1 when they never did.
	 */
	lowestShare: number;
	/** The credential's login identity, and its count of logins when the run first sent. */
	login?: { identity: string; before: number };
}

/**
 * The limits of one node run, shared by its items: the waiting budget (wall time spent waiting
 * on 429s and backoff, however many items wait at once), the count of consecutive 429/5xx
 * answers, and the execution's cancel signal.
 */
export class RunPolicy {
	private consecutiveFailures = 0;
	private lastFailureStatus?: number;
	private waiters = 0;
	private waitingSince = 0;
	private spentMs = 0;
	/** Set once the service asked for a wait beyond the budget: the run stops trying. */
	private stopped?: PolicyStop;
	/** The run's login timed out: its later requests fail with that error, without a new login. */
	loginTimedOut?: Error;
	/** Ends the run's other waits when it stops trying. */
	private readonly stopping = new AbortController();
	/** What the run met, for its execution hints (runner.ts): never a secret. */
	readonly facts: RunFacts = { rateLimited: 0, lowestShare: 1 };

	constructor(
		readonly signal: AbortSignal | undefined,
		readonly waitingBudgetMs: number = RETRY_POLICY.waitingBudgetMs,
		readonly circuitBreakerLimit: number = RETRY_POLICY.circuitBreakerLimit,
		private readonly now: () => number = Date.now,
	) {}

	/** Refuses to send once the breaker is open: the run has stopped trying. */
	checkBreaker() {
		if (this.stopped) throw this.stopped;
		if (this.consecutiveFailures < this.circuitBreakerLimit) return;
		throw new PolicyStop(
			`Stopped after ${this.consecutiveFailures} consecutive failed answers (HTTP ${this.lastFailureStatus}) from the Seller Platform API`,
			`The service is overloaded or down, so the remaining items were not sent. Try again later; the limit is the node option "Stop After Consecutive Failures".`,
			this.lastFailureStatus,
		);
	}

	/** Counts an answer: 429 and 5xx in a row open the breaker, anything else closes it. */
	record(failure?: Failure) {
		const status = failure?.httpStatus;
		if (status !== undefined && (status === 429 || status >= 500)) {
			this.consecutiveFailures++;
			this.lastFailureStatus = status;
		} else if (!failure || status !== undefined) {
			this.consecutiveFailures = 0;
		}
	}

	/** The wall time the run has spent waiting on 429 answers and backoff so far (ms). */
	waitedMs(): number {
		return this.spent();
	}

	/** What is left of the run's waiting budget now (ms). */
	budgetLeft(): number {
		return Math.max(0, this.waitingBudgetMs - this.spent());
	}

	private spent(): number {
		return this.spentMs + (this.waiters ? this.now() - this.waitingSince : 0);
	}

	/**
	 * Waits `ms` out of the budget; fails at once when the wait would go beyond it, or when the
	 * service said it takes requests again only beyond it (`reason.earlier`). When the service's own
	 * time is beyond the budget, the run's other items fail at once too.
	 */
	async waitOut(ms: number, httpStatus: number | undefined, reason: WaitReason | boolean) {
		const why: WaitReason = typeof reason === 'boolean' ? { retryAfter: reason } : reason;
		const now = this.now();
		const at = Math.max(why.earlier?.at ?? -Infinity, now + ms);
		const leftMs = Math.max(0, this.waitingBudgetMs - this.spent());
		if (at - now > leftMs) {
			const wait = { ms: at - now, at, leftMs, budgetMs: this.waitingBudgetMs };
			const stop = beyondBudget(wait, why, httpStatus);
			if (why.retryAfter && !this.stopped) {
				this.stopped = stop;
				this.stopping.abort();
			}
			throw stop;
		}
		if (this.waiters++ === 0) this.waitingSince = this.now();
		try {
			await this.untilStopped(async (signal) => await wait(ms, signal));
		} finally {
			if (--this.waiters === 0) this.spentMs += this.now() - this.waitingSince;
		}
	}

	/**
	 * Runs a wait that ends when the user stops the execution, or when the run stops trying (with
	 * the run's reason): then every wait of the run ends at once, those for a plan's slot included.
	 */
	async untilStopped<T>(waiting: (signal: AbortSignal) => Promise<T>): Promise<T> {
		const signal = AbortSignal.any([this.stopping.signal, ...(this.signal ? [this.signal] : [])]);
		let failed: unknown;
		try {
			return await abortable(waiting(signal), signal);
		} catch (error) {
			failed = error;
		}
		throw this.stopped && !this.signal?.aborted ? this.stopped : failed;
	}
}

/**
 * Sends until it succeeds: waits out 429 answers (Retry-After, else backoff), and repeats
 * transient failures when the request is repeatable, within the run's limits. Rethrows the last
 * failure as it came (the caller turns it into the error the user sees: errors.ts `apiError`).
 */
export async function withRetries<T>(
	repeatable: boolean,
	send: () => Promise<T>,
	policy: RunPolicy = new RunPolicy(undefined),
): Promise<T> {
	let rateLimited = 0;
	let transient = 0;
	for (;;) {
		policy.checkBreaker();
		let failed: unknown;
		try {
			const result = await abortable(send(), policy.signal);
			policy.record();
			return result;
		} catch (error) {
			failed = error;
		}
		if (failed instanceof ExecutionStopped || failed instanceof DeadlineExceeded) throw failed;
		const failure = classify(failed);
		if (!(typeof failed === 'object' && failed && rateLimitEchoes.has(failed)))
			policy.record(failure);
		if (failure.httpStatus === 429) policy.facts.rateLimited++;
		if (failure.httpStatus === 429 && rateLimited < RETRY_POLICY.maxRateLimitRetries) {
			policy.checkBreaker();
			const retryAfter = parseRetryAfter(failure.retryAfter);
			await policy.waitOut(rateLimitDelay(retryAfter, rateLimited), 429, retryAfter !== undefined);
			rateLimited++;
			continue;
		}
		if (repeatable && isTransient(failure) && transient < RETRY_POLICY.maxTransientRetries) {
			policy.checkBreaker();
			await policy.waitOut(backoffDelay(transient), failure.httpStatus, false);
			transient++;
			continue;
		}
		throw failed;
	}
}

/**
 * Sends once the rate plan has room. A 429 pauses every request of this process that uses the
 * plan and, once per throttling episode, cuts the process's share of it (rateLimiter.ts); the
 * caller (`withRetries`) waits it out. The request is dated by when it was granted, or by the end
 * of a login it waited for; no slot is taken while a login of the same credential (`login`, its
 * fingerprint) runs. Another credential's login is never waited for.
 */
export async function paced<T>(
	limiter: PlanLimiter,
	send: () => Promise<T>,
	policy: RunPolicy = new RunPolicy(undefined),
	login?: string,
): Promise<T> {
	const signal = policy.signal;
	// A pause for a 429 (this run's or another's) is waiting on a 429: out of the run's budget.
	// When the service said it takes requests again only beyond the budget, the run fails at once,
	// during the pause and while the episode's probe is out alike (the minute's one probe is sent).
	const pause = limiter.pauseLeft();
	if (pause > 0 || limiter.probeOut()) {
		await policy.waitOut(pause, 429, { retryAfter: true, earlier: { at: limiter.backAt() } });
	}
	// While this credential logs in, requests would only queue up behind the login and then leave
	// together: they take their slots after it.
	const running = login === undefined ? undefined : sessions.inFlight.get(login);
	if (running) await abortable(Promise.allSettled([running.task]), signal);
	const slot = await policy.untilStopped(async (until) => await limiter.acquire(until));
	if (limiter.controller.recurring)
		policy.facts.lowestShare = Math.min(policy.facts.lowestShare, limiter.share());
	let outcome: SlotOutcome = 'abandoned';
	try {
		const sending = send();
		// Noted before the caller sees the failure (reactions run in the order they were added).
		sending.catch((error: unknown) => {
			const failure = classify(error);
			if (failure.httpStatus === undefined) return;
			outcome = 'answered';
			if (failure.httpStatus !== 429) return;
			const retryAfter = parseRetryAfter(failure.retryAfter);
			const pause = rateLimitDelay(retryAfter, 0);
			// A pause the run cannot afford says when the service is back, not that others share it.
			const evidence = pause <= Math.min(policy.budgetLeft(), PACING.maxPauseMs);
			const kind = limiter.rateLimited(slot, pause, evidence);
			if (kind === 'echo' && typeof error === 'object' && error) rateLimitEchoes.add(error);
		});
		const result = await sending;
		outcome = 'answered';
		return result;
	} finally {
		slot.finished(login === undefined ? undefined : sessions.lastLoginEnd.get(login), outcome);
	}
}
