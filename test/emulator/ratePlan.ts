/**
 * Rate plan: a strict sliding window. At most `limit` requests are accepted in any period of
 * `windowMs`; rejected requests do not count. The emulator keys windows by project and operation.
 */
import { invalidArgument } from './errors';

export interface RatePlan {
	limit: number;
	windowMs: number;
}

/** The documented plan: 1500 requests per 60 seconds per operation, quota per project. */
export const DEFAULT_RATE_PLAN: Readonly<RatePlan> = { limit: 1500, windowMs: 60_000 };

export type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Checks a rate plan given as untrusted input (control API); `null` disables rate limiting. */
export function validateRatePlan(plan: unknown): RatePlan | null {
	if (plan === null) return null;
	const { limit, windowMs } = (plan ?? {}) as Partial<Record<keyof RatePlan, unknown>>;
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
		throw invalidArgument('rate plan limit must be an integer >= 1');
	}
	if (typeof windowMs !== 'number' || !Number.isFinite(windowMs) || windowMs <= 0) {
		throw invalidArgument('rate plan windowMs must be a number > 0');
	}
	return { limit, windowMs };
}

/** Acceptance times of one key, oldest first; a moving head avoids O(n) shifts. */
class TimestampQueue {
	private items: number[] = [];
	private head = 0;

	get size(): number {
		return this.items.length - this.head;
	}

	get oldest(): number {
		return this.items[this.head];
	}

	push(time: number): void {
		this.items.push(time);
	}

	/** Drops the times at or before `cutoff`. */
	dropUntil(cutoff: number): void {
		while (this.head < this.items.length && this.items[this.head] <= cutoff) this.head++;
		if (this.head > 1024 && this.head * 2 > this.items.length) {
			this.items = this.items.slice(this.head);
			this.head = 0;
		}
	}
}

export class SlidingWindowLimiter {
	private readonly windows = new Map<string, TimestampQueue>();

	constructor(private currentPlan: RatePlan | null) {}

	get plan(): RatePlan | null {
		return this.currentPlan;
	}

	/** Replaces the plan and forgets every window, so a new plan starts from a clean slate. */
	setPlan(plan: RatePlan | null): void {
		this.currentPlan = plan;
		this.windows.clear();
	}

	/** Accepts (and counts) a request for `key` at `now`, or says how long until a slot frees. */
	take(key: string, now: number): RateDecision {
		const plan = this.currentPlan;
		if (!plan) return { allowed: true };
		let window = this.windows.get(key);
		if (!window) {
			window = new TimestampQueue();
			this.windows.set(key, window);
		}
		window.dropUntil(now - plan.windowMs);
		if (window.size < plan.limit) {
			window.push(now);
			return { allowed: true };
		}
		return { allowed: false, retryAfterMs: window.oldest + plan.windowMs - now };
	}
}
