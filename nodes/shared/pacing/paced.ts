/**
 * Pacing one request under its rate plan (rateLimiter.ts): it waits out a pause for a 429, waits
 * for a login of its credential that is running, takes its slot, and notes a 429 for the plan.
 */
import { abortable } from '../common/abort';
import { classify } from '../errors/errors';
import { RunPolicy } from './policy';
import { PACING, type PlanLimiter, type Slot, type SlotOutcome } from './rateLimiter';
import { parseRetryAfter, rateLimitDelay } from './waits';

/**
 * 429 answers to requests that were already on their way when an earlier 429 paused their plan:
 * one event, counted once by the circuit breaker (retries.ts), however many requests were in
 * flight. Bound: weak, gone with the error objects.
 */
const rateLimitEchoes = new WeakSet<object>();

/** Whether `error` is the 429 of a request already on its way when its plan paused. */
export function isRateLimitEcho(error: unknown): boolean {
	return typeof error === 'object' && error !== null && rateLimitEchoes.has(error);
}

/** The login of the request's credential, as pacing sees it (auth/session.ts `loginGate`). */
export interface LoginGate {
	/** The login running now, if any: the request takes its slot after it. */
	running(): Promise<unknown> | undefined;
	/** When the credential's last login ended (the request left no earlier). */
	endedAt(): number | undefined;
	/**
	 * Whether the credential's login identity is proven in this process (auth/proven.ts): only then
	 * does its 429 change what the plan's runs share.
	 */
	proven(): boolean;
	/** The request got an HTTP answer (`httpStatus`; a success: 200). */
	answered(httpStatus: number): void;
}

/**
 * Notes a failed request of `slot` for the plan and gives the slot's outcome. A 429 pauses every
 * request of this process that uses the plan and, once per throttling episode, cuts the process's
 * share of it (rateLimiter.ts), when the credential's login identity is proven here
 * (`LoginGate.proven`; without a gate, always). An unproven credential's 429 (a server of its
 * own, a made-up session) changes nothing shared and says nothing of the plan: its run alone
 * waits it out (retries.ts).
 */
function noteFailure(
	error: unknown,
	slot: Slot,
	limiter: PlanLimiter,
	policy: RunPolicy,
	login?: LoginGate,
): SlotOutcome {
	const failure = classify(error);
	if (failure.httpStatus === undefined) return 'abandoned';
	login?.answered(failure.httpStatus);
	if (failure.httpStatus !== 429) return 'answered';
	if (login?.proven() === false) return 'abandoned';
	const retryAfter = parseRetryAfter(failure.retryAfter);
	const pause = rateLimitDelay(retryAfter, 0);
	// A pause the run cannot afford says when the service is back, not that others share it.
	const evidence = pause <= Math.min(policy.budgetLeft(), PACING.maxPauseMs);
	const kind = limiter.rateLimited(slot, pause, evidence, retryAfter !== undefined);
	if (kind === 'echo' && typeof error === 'object' && error) rateLimitEchoes.add(error);
	return 'answered';
}

/**
 * Sends once the rate plan has room; a 429 is noted for the plan as `noteFailure` says, and the
 * caller (`withRetries`) waits it out. The request is dated by when it was granted, or by the end
 * of a login it waited for; no slot is taken while a login of the same credential (`login`) runs.
 * Another credential's login is never waited for.
 */
export async function paced<T>(
	limiter: PlanLimiter,
	send: () => Promise<T>,
	policy: RunPolicy = new RunPolicy(undefined),
	login?: LoginGate,
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
	const running = login?.running();
	if (running) await abortable(Promise.allSettled([running]), signal);
	const slot = await policy.untilStopped(
		async (until) => await limiter.acquire(until, policy.budget),
	);
	if (limiter.controller.recurring)
		policy.facts.lowestShare = Math.min(policy.facts.lowestShare, limiter.share());
	let outcome: SlotOutcome = 'abandoned';
	try {
		const sending = send();
		// Noted before the caller sees the failure (reactions run in the order they were added).
		sending.catch((error: unknown) => {
			outcome = noteFailure(error, slot, limiter, policy, login);
		});
		const result = await sending;
		outcome = 'answered';
		login?.answered(200);
		return result;
	} finally {
		slot.finished(login?.endedAt(), outcome);
	}
}
