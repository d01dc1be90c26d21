/**
 * Rate plan: `limit` requests per `windowMs` (the documented 1500 per 60 s), counted per project
 * and operation in one of the gateway models below (`RATE_MODEL_WINDOWS`); rejected requests do
 * not count. An accepted request counts in every window of its model.
 *
 * - `sliding` (the default): the plan in any period of `windowMs` (a sliding 60 s window);
 * - `strict`: `sliding`, and at most `floor(limit / 6)` (at least 1) in each fixed sixth of the
 *   window (10 s), aligned to multiples of that length on the emulator's clock;
 * - `sliding-10s`: only a sixth of the plan in any sixth of the window (250 in any 10 s);
 * - `fixed-10s`: only a sixth of the plan in each fixed sixth of the window;
 * - `fixed-60s`: only the plan in each fixed window (aligned to multiples of `windowMs`).
 *
 * A refusal is a 429 with a Retry-After (the wait until the window that refused it has room,
 * rounded up to whole seconds), or without one when the plan says `retryAfter: false` (a gateway
 * that only says no: the client backs off).
 *
 * An operation the reference documents with a plan of its own (ListWarehouses: 30 per 60 s, burst
 * 15 per 30 s) is paced by that plan instead (its endpoint entry's `ratePlan`), in the model of
 * the emulator's plan; its `burst` is one more sliding window. Turning the plan off turns off
 * these too.
 */
import { invalidArgument } from './errors';

/** A strict plan cuts its window into this many fixed windows (and the 10 s models count a sixth). */
export const STRICT_FIXED_WINDOWS = 6;

/** One window of a gateway model: sliding or fixed, the plan's window divided by `parts`. */
interface ModelWindow {
	kind: 'sliding' | 'fixed';
	/** 1: the plan in its window; 6: a sixth of the plan in a sixth of the window. */
	parts: 1 | typeof STRICT_FIXED_WINDOWS;
}

/** The gateway models and the windows each counts the plan in (see the top of the file). */
export const RATE_MODEL_WINDOWS = {
	sliding: [{ kind: 'sliding', parts: 1 }],
	strict: [
		{ kind: 'sliding', parts: 1 },
		{ kind: 'fixed', parts: STRICT_FIXED_WINDOWS },
	],
	'sliding-10s': [{ kind: 'sliding', parts: STRICT_FIXED_WINDOWS }],
	'fixed-10s': [{ kind: 'fixed', parts: STRICT_FIXED_WINDOWS }],
	'fixed-60s': [{ kind: 'fixed', parts: 1 }],
} as const satisfies Record<string, readonly ModelWindow[]>;

export type RateModel = keyof typeof RATE_MODEL_WINDOWS;

export const RATE_MODELS = Object.keys(RATE_MODEL_WINDOWS) as readonly RateModel[];

export interface RatePlan {
	limit: number;
	windowMs: number;
	/** Absent: `sliding`. */
	model?: RateModel;
	/** `false`: a refusal is a 429 without a Retry-After header. Absent: with one. */
	retryAfter?: boolean;
	/** A second, shorter sliding window (`x-burst` per `x-burst-time-window`): at most `limit` per `windowMs`. */
	burst?: { limit: number; windowMs: number };
}

/** An operation's own documented plan (an endpoint entry's `ratePlan`); the model is the emulator's. */
export type OwnRatePlan = Omit<RatePlan, 'model' | 'retryAfter'>;

/** The documented plan: 1500 requests per 60 seconds per operation, quota per project. */
export const DEFAULT_RATE_PLAN: Readonly<RatePlan> = { limit: 1500, windowMs: 60_000 };

/** One limit of a plan: at most `limit` accepted requests per `windowMs`. */
export interface RateLimit {
	/** `sliding`: in any period of `windowMs`; `fixed`: in each aligned window of `windowMs`. */
	kind: 'sliding' | 'fixed';
	limit: number;
	windowMs: number;
}

/** The limits `plan` counts in (its model's windows, then its burst). */
export function limitsOf(plan: RatePlan): RateLimit[] {
	const limits: RateLimit[] = RATE_MODEL_WINDOWS[plan.model ?? 'sliding'].map(
		({ kind, parts }) => ({
			kind,
			limit: Math.max(1, Math.floor(plan.limit / parts)),
			windowMs: plan.windowMs / parts,
		}),
	);
	if (plan.burst) limits.push({ kind: 'sliding', ...plan.burst });
	return limits;
}

/** One line on `plan` (the CLI's banner, the benches' rows). */
export function describeRatePlan(plan: RatePlan): string {
	const limits = limitsOf({ ...plan, burst: undefined }).map(
		(l) => `${l.limit} per ${l.windowMs / 1000} s (${l.kind})`,
	);
	const answer = plan.retryAfter === false ? 'without Retry-After' : 'with Retry-After';
	return `${limits.join(' and ')}, 429 ${answer} (${plan.model ?? 'sliding'})`;
}

/** A refusal waits `retryAfterMs` (the later of the waits of the limits in `exceeded`). */
export type RateDecision =
	{ allowed: true } | { allowed: false; retryAfterMs: number; exceeded: RateLimit[] };

/** Checks a rate plan given as untrusted input (control API); `null` disables rate limiting. */
export function validateRatePlan(plan: unknown): RatePlan | null {
	if (plan === null) return null;
	const { limit, windowMs, model, retryAfter } = (plan ?? {}) as Partial<
		Record<keyof RatePlan, unknown>
	>;
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
		throw invalidArgument('rate plan limit must be an integer >= 1');
	}
	if (typeof windowMs !== 'number' || !Number.isFinite(windowMs) || windowMs <= 0) {
		throw invalidArgument('rate plan windowMs must be a number > 0');
	}
	if (retryAfter !== undefined && typeof retryAfter !== 'boolean') {
		throw invalidArgument('rate plan retryAfter must be true or false');
	}
	const answer = retryAfter === false ? { retryAfter } : {};
	if (model === undefined) return { limit, windowMs, ...answer };
	if (typeof model !== 'string' || !(RATE_MODELS as readonly string[]).includes(model)) {
		throw invalidArgument(`rate plan model must be one of ${RATE_MODELS.join(', ')}`);
	}
	return { limit, windowMs, model: model as RateModel, ...answer };
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
		const counts = limitsOf(plan).map((limit, i) => this.countOf(`${key}\u0000${i}`, limit, now));
		const exceeded: RateLimit[] = [];
		let retryAfterMs = 0;
		for (const { limit, size, freesAt } of counts) {
			if (size < limit.limit) continue;
			exceeded.push(limit);
			retryAfterMs = Math.max(retryAfterMs, freesAt - now);
		}
		if (exceeded.length > 0) return { allowed: false, retryAfterMs, exceeded };
		for (const count of counts) count.add();
		return { allowed: true };
	}

	/** What `limit` counts for `key` at `now`: how many, when one frees, and how to count one more. */
	private countOf(key: string, limit: RateLimit, now: number) {
		if (limit.kind === 'sliding') {
			const window = this.windowOf(key);
			window.dropUntil(now - limit.windowMs);
			const freesAt = window.oldest + limit.windowMs;
			return { limit, size: window.size, freesAt, add: () => window.push(now) };
		}
		const start = Math.floor(now / limit.windowMs) * limit.windowMs;
		let fixed = this.fixedWindows.get(key);
		if (!fixed || fixed.start !== start) {
			fixed = { start, count: 0 };
			this.fixedWindows.set(key, fixed);
		}
		const counted = fixed;
		return {
			limit,
			size: counted.count,
			freesAt: start + limit.windowMs,
			add: () => counted.count++,
		};
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
