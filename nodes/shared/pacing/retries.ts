/**
 * Repeating: waits out 429 answers and repeats transient failures of repeatable endpoints, within
 * the run's limits (policy.ts): its waiting budget, its circuit breaker, the user's stop.
 */
import { abortable, DeadlineExceeded, ExecutionStopped } from '../common/abort';
import { classify, type Failure } from '../errors/errors';
import { isRateLimitEcho } from './paced';
import { RunPolicy } from './policy';
import { backoffDelay, parseRetryAfter, rateLimitDelay, RETRY_POLICY } from './waits';

/** Connection failures a repeat may cure, for API requests and the login (auth/login.ts). */
export const CONNECTION_FAILURES: ReadonlySet<string> = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'EPIPE',
	'EAI_AGAIN',
]);

/** Worth a repeat of an API request: those and socket time-outs (never for the login). */
const TRANSIENT_CODES: ReadonlySet<string> = new Set([
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
		if (!isRateLimitEcho(failed)) policy.record(failure);
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
