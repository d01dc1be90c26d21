/**
 * Rate plan: a sliding window (the default model, `sliding`). At most `limit` requests are accepted in any period of
 * `windowMs`; rejected requests do not count. The emulator keys windows by project and operation.
 *
 * The `strict` model adds fixed windows of `windowMs / 6`, aligned to multiples of that length on
 * the emulator's clock, each admitting at most `floor(limit / 6)` requests (at least 1) per key. A
 * request is accepted only if both the sliding window and the current fixed window allow it, and
 * an accepted request counts in both.
 *
 * An operation the reference documents with a plan of its own (ListWarehouses: 30 per 60 s, burst
 * 15 per 30 s) is paced by that plan instead (its endpoint entry's `ratePlan`), in the model of
 * the emulator's plan; its `burst` is one more sliding window. Turning the plan off turns off
 * these too.
 */
import { invalidArgument } from './errors';

/** `sliding` (the default): the sliding window alone; `strict`: plus fixed sixths of the window. */
export type RateModel = 'sliding' | 'strict';

export const RATE_MODELS: readonly RateModel[] = ['sliding', 'strict'];

/** A strict plan cuts its window into this many fixed windows. */
export const STRICT_FIXED_WINDOWS = 6;

export interface RatePlan {
	limit: number;
	windowMs: number;
	/** Absent: `sliding`. */
	model?: RateModel;
	/** A second, shorter sliding window (`x-burst` per `x-burst-time-window`): at most `limit` per `windowMs`. */
	burst?: { limit: number; windowMs: number };
}

/** An operation's own documented plan (an endpoint entry's `ratePlan`); the model is the emulator's. */
export type OwnRatePlan = Omit<RatePlan, 'model'>;

/** The documented plan: 1500 requests per 60 seconds per operation, quota per project. */
export const DEFAULT_RATE_PLAN: Readonly<RatePlan> = { limit: 1500, windowMs: 60_000 };

/** One limit of a plan: at most `limit` accepted requests per `windowMs`. */
export interface RateLimit {
	/** `sliding`: in any period of `windowMs`; `fixed`: in each aligned window of `windowMs`. */
	kind: 'sliding' | 'fixed';
	limit: number;
	windowMs: number;
}

/** The fixed windows of a strict plan; `null` for a sliding one. */
export function fixedWindowOf(plan: RatePlan): RateLimit | null {
	if (plan.model !== 'strict') return null;
	return {
		kind: 'fixed',
		limit: Math.max(1, Math.floor(plan.limit / STRICT_FIXED_WINDOWS)),
		windowMs: plan.windowMs / STRICT_FIXED_WINDOWS,
	};
}

/** A refusal waits `retryAfterMs` (the later of the waits of the limits in `exceeded`). */
export type RateDecision =
	{ allowed: true } | { allowed: false; retryAfterMs: number; exceeded: RateLimit[] };

/** Checks a rate plan given as untrusted input (control API); `null` disables rate limiting. */
export function validateRatePlan(plan: unknown): RatePlan | null {
	if (plan === null) return null;
	const { limit, windowMs, model } = (plan ?? {}) as Partial<Record<keyof RatePlan, unknown>>;
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
		throw invalidArgument('rate plan limit must be an integer >= 1');
	}
	if (typeof windowMs !== 'number' || !Number.isFinite(windowMs) || windowMs <= 0) {
		throw invalidArgument('rate plan windowMs must be a number > 0');
	}
	if (model === undefined) return { limit, windowMs };
	if (typeof model !== 'string' || !(RATE_MODELS as readonly string[]).includes(model)) {
		throw invalidArgument(`rate plan model must be one of ${RATE_MODELS.join(', ')}`);
	}
	return { limit, windowMs, model: model as RateModel };
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

/** The fixed window a key is in and the requests it accepted there. */
interface FixedWindowCount {
	start: number;
	count: number;
}

export class SlidingWindowLimiter {
	private readonly windows = new Map<string, TimestampQueue>();
	private readonly fixedWindows = new Map<string, FixedWindowCount>();

	constructor(private currentPlan: RatePlan | null) {}

	get plan(): RatePlan | null {
		return this.currentPlan;
	}

	/** Replaces the plan and forgets every window, so a new plan starts from a clean slate. */
	setPlan(plan: RatePlan | null): void {
		this.currentPlan = plan;
		this.windows.clear();
		this.fixedWindows.clear();
	}

	/**
	 * Accepts (and counts) a request for `key` at `now`, or says how long until a slot frees.
	 * `own`: the operation's own documented plan, in place of the emulator's (when that is on).
	 */
	take(key: string, now: number, own?: OwnRatePlan): RateDecision {
		if (!this.currentPlan) return { allowed: true };
		const plan: RatePlan = own ? { ...own, model: this.currentPlan.model } : this.currentPlan;
		const sliding: RateLimit = { kind: 'sliding', limit: plan.limit, windowMs: plan.windowMs };
		const windows: Array<[TimestampQueue, RateLimit]> = [[this.windowOf(key), sliding]];
		if (plan.burst) {
			const burst: RateLimit = { kind: 'sliding', ...plan.burst };
			windows.push([this.windowOf(`${key}\u0000burst`), burst]);
		}
		const exceeded: RateLimit[] = [];
		let retryAfterMs = 0;
		for (const [window, limit] of windows) {
			window.dropUntil(now - limit.windowMs);
			if (window.size < limit.limit) continue;
			exceeded.push(limit);
			retryAfterMs = Math.max(retryAfterMs, window.oldest + limit.windowMs - now);
		}
		const fixed = fixedWindowOf(plan);
		let fixedCount: FixedWindowCount | undefined;
		if (fixed) {
			const start = Math.floor(now / fixed.windowMs) * fixed.windowMs;
			fixedCount = this.fixedWindows.get(key);
			if (!fixedCount || fixedCount.start !== start) {
				fixedCount = { start, count: 0 };
				this.fixedWindows.set(key, fixedCount);
			}
			if (fixedCount.count >= fixed.limit) {
				exceeded.push(fixed);
				retryAfterMs = Math.max(retryAfterMs, start + fixed.windowMs - now);
			}
		}
		if (exceeded.length > 0) return { allowed: false, retryAfterMs, exceeded };
		for (const [window] of windows) window.push(now);
		if (fixedCount) fixedCount.count++;
		return { allowed: true };
	}

	private windowOf(key: string): TimestampQueue {
		let window = this.windows.get(key);
		if (!window) {
			window = new TimestampQueue();
			this.windows.set(key, window);
		}
		return window;
	}
}
