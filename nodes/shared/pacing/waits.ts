/**
 * How long a request waits: the bounds of the waiting and repeating, the backoff, the service's
 * `Retry-After` read (seconds or an HTTP date, whatever its size) and told back to the user, also
 * when it lies beyond any date (budget.ts does the waiting).
 */
import { PolicyStop } from '../errors/errors';
import { stopAfterFailuresOption, waitingBudgetOption } from './options';

/** Bounds of the waiting and repeating. */
export const RETRY_POLICY = {
	/** 429 answers waited out per request before giving up. */
	maxRateLimitRetries: 8,
	/** Repeats of a request to a repeatable endpoint after a 5xx, a reset connection or a timeout. */
	maxTransientRetries: 3,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
	/**
	 * The shortest `Retry-After` that says when the service takes requests again: a shorter one (0,
	 * a date in the past, a date read against a machine's clock set ahead) is read as none (backoff).
	 * A `Retry-After` just above it still waits at least this (plus jitter up to twice).
	 */
	minRetryAfterMs: 250,
	/**
	 * Deadline of one request: its whole answer, body included (request.ts). A request that timed
	 * out is not repeated: the wait stays within this deadline.
	 */
	requestTimeoutMs: 60_000,
	/** Defaults of the node options of a run's limits (options.ts). */
	waitingBudgetMs: waitingBudgetOption.default * 1000,
	circuitBreakerLimit: stopAfterFailuresOption.default,
};

/** Exponential backoff with jitter: a random delay in [d/2, d], d = base * 2^attempt, capped. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
	const ceiling = Math.min(RETRY_POLICY.maxDelayMs, RETRY_POLICY.baseDelayMs * 2 ** attempt);
	return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Reads a Retry-After header: delay in seconds or an HTTP date. Below `minRetryAfterMs` (0, a date
 * in the past) it says nothing of when the service has room: undefined, as without one, so the
 * pause is backoff, doubled at each failed probe (a pause of 250-500 ms again at every probe met a
 * full minute's window some twenty times). A delay too long for a number (hundreds of digits) is
 * the longest a number holds, never Infinity.
 */
export function parseRetryAfter(value: unknown, nowMs: number = Date.now()): number | undefined {
	const raw = Array.isArray(value) ? value[0] : value;
	if (raw === undefined || raw === null || String(raw).trim() === '') return undefined;
	const text = String(raw).trim();
	let ms: number;
	if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
	else {
		const date = Date.parse(text);
		if (Number.isNaN(date)) return undefined;
		ms = date - nowMs;
	}
	if (ms < RETRY_POLICY.minRetryAfterMs) return undefined;
	return Math.min(Number.MAX_VALUE, Math.round(ms));
}

/** How long to wait after a 429: its Retry-After (never less than a jittered minimum), else backoff. */
export function rateLimitDelay(
	retryAfterMs: number | undefined,
	attempt: number,
	random = Math.random,
) {
	if (retryAfterMs === undefined) return backoffDelay(attempt, random);
	const floor = RETRY_POLICY.minRetryAfterMs;
	return Math.max(retryAfterMs, Math.round(floor + random() * floor));
}

export const seconds = (ms: number) => `${Math.ceil(ms / 1000)} s`;

/** A time as ISO 8601, or undefined beyond the dates JavaScript can name (year 275760). */
export function isoTime(ms: number): string | undefined {
	const date = new Date(ms);
	return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** Where a wait comes from. */
export interface WaitReason {
	/** The service's Retry-After (else backoff after failures). */
	retryAfter: boolean;
	/** The Retry-After the service gave an earlier request of this process: back `at`. */
	earlier?: { at: number };
}

/**
 * The error of a wait of `ms` (until `at`, a wall date) beyond what is left of the run's budget (`leftMs` of
 * `budgetMs`): when the service takes requests again, however far away that is.
 */
/**
 * Whose waiting budget it is: an action node's run (the user sets it, "Waiting Budget") or a poll
 * of the poll trigger (a part of n8n's poll budget; the next poll tries again).
 */
export type BudgetOwner = 'run' | 'poll';

/** What the user can do when a wait would go beyond the budget of `owner`. */
function budgetAdvice(owner: BudgetOwner, again: string): string {
	if (owner === 'poll') return 'the next poll tries again';
	return `raise the node option "${waitingBudgetOption.displayName}" to wait longer, or run the workflow again ${again}`;
}

export function beyondBudget(
	wait: { ms: number; at: number; leftMs: number; budgetMs: number },
	reason: WaitReason,
	httpStatus: number | undefined,
	owner: BudgetOwner = 'run',
): PolicyStop {
	const until = isoTime(wait.at);
	const earlier = reason.earlier !== undefined;
	const said = earlier
		? `its Retry-After to an earlier request: ${seconds(wait.ms)} from now`
		: `Retry-After ${seconds(wait.ms)}`;
	const when = until ? `at ${until} (${said})` : `only after ${said}, beyond any date`;
	const message = reason.retryAfter
		? `The Seller Platform API takes requests again ${when}, beyond this ${owner}'s waiting budget`
		: `The Seller Platform API kept failing (HTTP ${httpStatus}) beyond this ${owner}'s waiting budget`;
	const again = until ? `after ${until}` : 'later';
	const probe = earlier
		? ' Nothing was sent: a run a minute after the last refusal sends one request to learn whether the service is back.'
		: '';
	return new PolicyStop(
		message,
		`This ${owner} may wait ${seconds(wait.budgetMs)} in all (${seconds(wait.leftMs)} left); ${budgetAdvice(owner, again)}.${probe}`,
		httpStatus,
	);
}
