/**
 * Client-side pacing, so that the rate plan alone sets the speed: bulk runs stay under the plan
 * instead of provoking 429s, reach it whatever the latency, and share it with whoever else uses it.
 *
 * The plan is "N requests per 60 s" (per gateway, project and operation). One `PlanLimiter` per
 * plan is shared by every execution of this n8n process. It
 * - spreads the requests over the minute: the minute is cut into k equal slices (k the largest
 *   divisor of N that is at most 60) and at most N/k requests start in any sliding slice, and
 *   never more than N in any minute; each window is stretched by 1% (a margin for the spread of
 *   arrival times at the gateway); within a slice, starts are spread out (at least 90% of the
 *   slice's even spacing apart), so a slice's requests never leave in one burst;
 * - dates each request at the moment it was granted, or at the end of a login it had to wait for
 *   (it left after that): a request's dating never depends on the latency or its jitter;
 * - measures round trips, from which the node sizes its requests in flight (Little's law:
 *   in flight = rate x round trip; see `suggestedConcurrency`);
 * - adapts to others using the same plan (n8n queue mode workers, other n8n instances, other
 *   tools): on a 429 it pauses until the Retry-After, and its share of the plan becomes 90% of
 *   what it sent in the last window (the window was full, so the processes together then send
 *   90% of the plan), never less than half of the share it had. The share grows back by a tenth
 *   of the plan per window without a 429, and is the whole plan again after a window without a
 *   request of its own (what it learnt is then stale).
 */

export interface Clock {
	now(): number;
	/** Waits `ms`; rejects when `signal` aborts. */
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A granted request. Call `finished` when its answer (or failure) is in. */
export interface Slot {
	/** When the request was granted. */
	readonly granted: number;
	/** `sentAfter`: a time the request is known to have left no earlier than (a login's end). */
	finished(sentAfter?: number): void;
}

export const PACING = {
	windowMs: 60_000,
	/** The window is stretched by 1%: arrival times at the gateway differ from our send times. */
	safetyFactor: 1.01,
	/** After a 429: this share of what this process sent in the last window... */
	backOff: 0.9,
	/** ...but at least half the share it had, and never below this. */
	minShare: 0.05,
	/** Share of the plan regained per window without a 429. */
	recoveryPerWindow: 0.1,
	/** A pause for a 429 lasts at most a window (a longer Retry-After fails the run that got it). */
	maxPauseMs: 60_000,
	/** Round trips kept for the concurrency estimate. */
	roundTripSamples: 64,
	/** Starts within a slice are at least this share of the slice's even spacing apart. */
	spacing: 0.9,
	/** Requests in flight before any round trip is known, and the ceiling. */
	initialConcurrency: 8,
	maxConcurrency: 64,
};

export class PlanLimiter {
	/** Dated starts of the last window, oldest first. */
	private readonly starts: number[] = [];
	private queue: Promise<void> = Promise.resolve();
	/** The plan's slice: at most `limit` starts in any `windowMs` (with the margin). */
	readonly slice: { limit: number; windowMs: number };
	private pausedUntil = -Infinity;
	private lastGrant = -Infinity;
	/** The share of the plan after the last cut, and when it was cut. */
	private cutShare = 1;
	private cutAt = -Infinity;
	private readonly roundTrips: number[] = [];
	private roundTripIndex = 0;
	/** The window of the dated starts, with the margin. */
	readonly windowMs: number;

	constructor(
		/** Requests per window (the plan). */
		readonly plan: number,
		private readonly clock: Clock,
		windowMs: number = PACING.windowMs,
	) {
		if (!(plan >= 1) || !(windowMs > 0)) throw new Error('Invalid rate limit');
		this.windowMs = Math.ceil(windowMs * PACING.safetyFactor);
		const slice = planSlices(plan, windowMs);
		this.slice = { limit: slice.limit, windowMs: Math.ceil(slice.windowMs * PACING.safetyFactor) };
	}

	/** This process's share of the plan now (1: the whole plan). */
	share(now = this.clock.now()): number {
		if (this.cutShare >= 1) return 1;
		const share = this.cutShare + (PACING.recoveryPerWindow * (now - this.cutAt)) / this.windowMs;
		return Math.min(1, share);
	}

	/** Requests this process may start per window now. */
	allowance(now = this.clock.now()): number {
		return Math.max(1, this.plan * this.share(now));
	}

	/** Requests per second this process may start now. */
	rate(): number {
		return (this.allowance() * 1000) / this.windowMs;
	}

	/** Mean round trip of the recent requests, in ms (undefined before the first answer). */
	meanRoundTrip(): number | undefined {
		if (!this.roundTrips.length) return undefined;
		return this.roundTrips.reduce((sum, value) => sum + value, 0) / this.roundTrips.length;
	}

	/**
	 * Requests in flight that keep the plan busy (Little's law: rate x round trip), with headroom
	 * for jitter: 1.5 times that plus 2, at most the ceiling.
	 */
	suggestedConcurrency(): number {
		const roundTrip = this.meanRoundTrip();
		if (roundTrip === undefined) return PACING.initialConcurrency;
		const needed = Math.ceil(((this.rate() * roundTrip) / 1000) * 1.5) + 2;
		return Math.max(1, Math.min(PACING.maxConcurrency, needed));
	}

	/**
	 * Resolves when the caller may send one request. When `signal` aborts, the caller's turn takes
	 * no slot (and rejects); callers race the signal themselves to leave the queue at once.
	 */
	async acquire(signal?: AbortSignal): Promise<Slot> {
		const turn = this.queue.then(async () => await this.waitForSlot(signal));
		this.queue = turn.then(
			() => undefined,
			() => undefined,
		);
		const granted = await turn;
		let done = false;
		return {
			granted,
			finished: (sentAfter?: number) => {
				if (done) return;
				done = true;
				const end = this.clock.now();
				if (sentAfter !== undefined && sentAfter > granted) {
					this.redate(granted, Math.min(sentAfter, end));
				} else {
					this.recordRoundTrip(end - granted);
				}
			},
		};
	}

	/**
	 * A request granted at `granted` was answered 429: pause every request of this process until
	 * the Retry-After (`pauseMs`), and cut the share, once for the requests sent before the cut.
	 * Returns whether this answer made the cut (false: an echo of a 429 already counted).
	 */
	rateLimited(granted: number, pauseMs: number): boolean {
		const now = this.clock.now();
		this.pausedUntil = Math.max(this.pausedUntil, now + Math.min(pauseMs, PACING.maxPauseMs));
		if (granted < this.cutAt) return false;
		this.prune(now);
		const current = this.share(now);
		const used = this.starts.length / this.plan;
		this.cutShare = Math.max(
			PACING.minShare,
			current / 2,
			Math.min(current, PACING.backOff * used),
		);
		this.cutAt = now;
		return true;
	}

	/** How long the pause for a 429 lasts from now (0: none). */
	pauseLeft(): number {
		return Math.max(0, this.pausedUntil - this.clock.now());
	}

	/** How long the next caller would wait now (0 when it may go). */
	delayUntilFree(): number {
		const now = this.clock.now();
		this.prune(now);
		if (!this.starts.length && now - this.lastGrant >= this.windowMs) this.cutShare = 1;
		const share = this.share(now);
		const sliceLimit = Math.max(1, Math.ceil(this.slice.limit * share));
		const spacing = (PACING.spacing * this.slice.windowMs) / sliceLimit;
		let wait = Math.max(this.pausedUntil, this.lastGrant + spacing) - now;
		const limits = [
			{ limit: Math.floor(this.allowance(now)), windowMs: this.windowMs },
			{ limit: sliceLimit, windowMs: this.slice.windowMs },
		];
		for (const { limit, windowMs } of limits) {
			if (this.starts.length < limit) continue;
			wait = Math.max(wait, this.starts[this.starts.length - limit] + windowMs - now);
		}
		return Math.max(0, wait);
	}

	private async waitForSlot(signal?: AbortSignal): Promise<number> {
		for (;;) {
			if (signal?.aborted) throw new Error('aborted');
			const wait = this.delayUntilFree();
			if (wait <= 0) break;
			await this.clock.sleep(wait, signal);
		}
		const now = this.clock.now();
		this.starts.push(now);
		this.lastGrant = now;
		return now;
	}

	private recordRoundTrip(ms: number) {
		this.roundTrips[this.roundTripIndex] = ms;
		this.roundTripIndex = (this.roundTripIndex + 1) % PACING.roundTripSamples;
	}

	/** Moves one dated start to a later time (keeping the list sorted). */
	private redate(start: number, time: number) {
		const index = this.starts.indexOf(start);
		if (index === -1) return;
		this.starts.splice(index, 1);
		let at = this.starts.length;
		while (at > 0 && this.starts[at - 1] > time) at--;
		this.starts.splice(at, 0, time);
	}

	private prune(now: number) {
		let drop = 0;
		while (drop < this.starts.length && this.starts[drop] + this.windowMs <= now) drop++;
		if (drop) this.starts.splice(0, drop);
	}
}

/** Splits "N per window" into the finest equal slices (see the comment at the top). */
export function planSlices(
	requests: number,
	windowMs: number = PACING.windowMs,
): { limit: number; windowMs: number } {
	const perWindow = Math.max(1, Math.floor(requests));
	let slices = 1;
	for (let k = Math.min(60, perWindow); k >= 1; k--) {
		if (perWindow % k === 0) {
			slices = k;
			break;
		}
	}
	return { limit: perWindow / slices, windowMs: windowMs / slices };
}

/**
 * One limiter per (gateway, project, operation, plan), shared by every execution in this n8n
 * process (module state lives as long as the loaded package).
 */
export class RateLimiterRegistry {
	private readonly limiters = new Map<string, PlanLimiter>();

	constructor(private readonly clock: Clock) {}

	get(scope: string, operation: string, requestsPerMinute: number): PlanLimiter {
		const plan = Math.max(1, Math.floor(requestsPerMinute));
		// The plan is part of the key: two credentials of one project with different plans must not
		// keep replacing each other's limiter (and so forget each other's history).
		const key = `${scope}\u0000${operation}\u0000${plan}`;
		let limiter = this.limiters.get(key);
		if (!limiter) {
			limiter = new PlanLimiter(plan, this.clock);
			this.limiters.set(key, limiter);
		}
		return limiter;
	}
}
