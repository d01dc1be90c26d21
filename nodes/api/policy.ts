/**
 * How requests wait: pacing under the rate plan before sending, waiting out 429 answers, and
 * repeating transient failures of repeatable operations. Every wait here has a bound.
 */
import { sleep } from 'n8n-workflow';

import { classify, type Failure } from './errors';
import type { SlidingWindowLimiter } from './rateLimiter';

/** Bounds of the waiting and repeating. */
export const RETRY_POLICY = {
	/** 429 answers waited out per request before giving up. */
	maxRateLimitRetries: 8,
	/** Repeats of a repeatable operation after a 5xx, a reset connection or a timeout. */
	maxTransientRetries: 3,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
	/** A Retry-After longer than this is cut to it. */
	maxRetryAfterMs: 120_000,
	requestTimeoutMs: 60_000,
};

/** Exponential backoff with jitter: a random delay in [d/2, d], d = base * 2^attempt, capped. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
	const ceiling = Math.min(RETRY_POLICY.maxDelayMs, RETRY_POLICY.baseDelayMs * 2 ** attempt);
	return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Reads a Retry-After header: delay in seconds or an HTTP date. */
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
	return Math.min(Math.max(0, Math.round(ms)), RETRY_POLICY.maxRetryAfterMs);
}

const TRANSIENT_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
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
 * transient failures when the request is repeatable. Rethrows the last failure as it came.
 */
export async function withRetries<T>(repeatable: boolean, send: () => Promise<T>): Promise<T> {
	let rateLimited = 0;
	let transient = 0;
	for (;;) {
		let failed: unknown;
		try {
			return await send();
		} catch (error) {
			failed = error;
		}
		const failure = classify(failed);
		if (failure.httpStatus === 429 && rateLimited < RETRY_POLICY.maxRateLimitRetries) {
			await sleep(parseRetryAfter(failure.retryAfter) ?? backoffDelay(rateLimited));
			rateLimited++;
			continue;
		}
		if (repeatable && isTransient(failure) && transient < RETRY_POLICY.maxTransientRetries) {
			await sleep(backoffDelay(transient));
			transient++;
			continue;
		}
		// The caller turns it into the error the user sees (errors.ts: apiError).
		throw failed;
	}
}

/** Sends once a slot of the rate plan is free; the slot is dated by the answer. */
export async function paced<T>(limiter: SlidingWindowLimiter, send: () => Promise<T>): Promise<T> {
	const slot = await limiter.acquire();
	try {
		return await send();
	} finally {
		slot.finished();
	}
}
