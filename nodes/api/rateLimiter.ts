/**
 * Client-side pacing so bulk runs stay under the service's rate plan instead of provoking 429s.
 *
 * The plan is "N requests per 60 s". A limiter that lets N go at once and then waits a minute
 * would be bursty; instead the minute is cut into k equal slices (k the largest divisor of N that
 * is at most 60) and at most N/k requests start in any sliding slice. Any 60 s window then holds
 * at most N requests, and a long run reaches exactly the plan's ceiling of N per minute.
 */

export interface Clock {
	now(): number;
	/** Waits `ms`; rejects when `signal` aborts. */
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A granted request. Call `finished` when its answer (or failure) is in. */
export interface Slot {
	finished(): void;
}

/** At most `limit` starts in any window of `windowMs`, first come first served. */
export class SlidingWindowLimiter {
	private readonly starts: number[] = [];
	private queue: Promise<void> = Promise.resolve();
	private shortestRoundTrip = Infinity;

	constructor(
		readonly limit: number,
		readonly windowMs: number,
		private readonly clock: Clock,
	) {
		if (!(limit >= 1) || !(windowMs > 0)) throw new Error('Invalid rate limit');
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
		// Requests granted before any round trip is known (typically while the first login runs)
		// are counted from their end.
		const known = Number.isFinite(this.shortestRoundTrip);
		let done = false;
		return {
			finished: () => {
				if (done) return;
				done = true;
				const end = this.clock.now();
				const estimate = known ? end - this.shortestRoundTrip : end;
				this.shortestRoundTrip = Math.min(this.shortestRoundTrip, end - granted);
				this.restamp(granted, estimate);
			},
		};
	}

	/** How long the next caller would wait now (0 when a slot is free). */
	delayUntilFree(): number {
		this.prune(this.clock.now());
		if (this.starts.length < this.limit) return 0;
		return this.starts[this.starts.length - this.limit] + this.windowMs - this.clock.now();
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
		return now;
	}

	/** Moves one recorded start to a later time (keeping the list sorted). */
	private restamp(start: number, time: number) {
		if (time <= start) return;
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

/** Splits "N per minute" into the finest equal slices (see the comment at the top). */
export function planSlices(requestsPerMinute: number): { limit: number; windowMs: number } {
	const perMinute = Math.max(1, Math.floor(requestsPerMinute));
	let slices = 1;
	for (let k = Math.min(60, perMinute); k >= 1; k--) {
		if (perMinute % k === 0) {
			slices = k;
			break;
		}
	}
	return { limit: perMinute / slices, windowMs: 60_000 / slices };
}

/** Each slice is stretched by 1%: arrival times at the server differ slightly from our send times. */
const SAFETY_FACTOR = 1.01;

/**
 * One limiter per (gateway, project, operation), shared by every execution in this n8n process
 * (module state lives as long as the loaded package).
 */
export class RateLimiterRegistry {
	private readonly limiters = new Map<string, SlidingWindowLimiter>();

	constructor(private readonly clock: Clock) {}

	get(scope: string, operation: string, requestsPerMinute: number): SlidingWindowLimiter {
		const plan = planSlices(requestsPerMinute);
		const limit = plan.limit;
		const windowMs = Math.ceil(plan.windowMs * SAFETY_FACTOR);
		// The plan is part of the key: two credentials of one project with different plans must not
		// keep replacing each other's limiter (and so forget each other's history).
		const key = `${scope}\u0000${operation}\u0000${limit}/${windowMs}`;
		let limiter = this.limiters.get(key);
		if (!limiter) {
			limiter = new SlidingWindowLimiter(limit, windowMs, this.clock);
			this.limiters.set(key, limiter);
		}
		return limiter;
	}
}
