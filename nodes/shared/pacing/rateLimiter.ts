import type { RatePlan } from '../credential/plan';
import {
	Episodes,
	measureShare,
	ShareController,
	SHARING,
	type ThrottleKind,
} from './rateController';
import { RoundTrips } from './roundTrips';

export type { ThrottleKind };

/**
 * Client-side pacing, so that the rate plan alone sets the speed: bulk runs stay under the plan
 * instead of provoking 429s, reach it whatever the latency, and share it with whoever else uses it.
 *
 * The plan is "N requests per window" (60 s for almost every endpoint) and "B per burst window"
 * (per rate scope and endpoint, limiters.ts). One `PlanLimiter` per plan is shared by every
 * execution of this n8n process; it
 * - never starts more than the plan in any window, nor the burst in any burst window, nor a sixth
 *   of the plan in any sixth of the window (10 s of a 60 s plan: so a gateway that counts the plan
 *   in 10 s windows never sees a burst), each window stretched by 1% (a margin for the spread of
 *   arrival times at the gateway);
 * - spreads the requests over the window: the window is cut into k equal slices (k the largest
 *   divisor of N that is at most 60) and at most N/k requests start in any sliding slice; within
 *   a slice, starts are at least 90% of the slice's even spacing apart;
 * - takes only its share of the plan (rateController.ts) in the 10 s windows and the slices: the
 *   share learnt from 429 answers, whole unless the service said otherwise (its 10 s window
 *   counted from the last episode's first 429: the window that was full then is over when the
 *   pause is);
 * - dates each request at the moment it was granted, or at the end of a login it had to wait for
 *   (it left after that): a request's dating never depends on the latency or its jitter;
 * - measures round trips, from which the node sizes its requests in flight (Little's law:
 *   in flight = rate x round trip; see `suggestedConcurrency` and roundTrips.ts);
 * - treats the 429 answers of one throttling episode as one event: the first pauses every request
 *   of the process until its Retry-After and cuts the share once; the answers to requests already
 *   on their way, and the repeated Retry-After of the same episode, only lengthen the pause. After
 *   the pause one request (the probe) goes alone: when it is answered without a 429, the episode
 *   is over and the others follow; when it gets a 429, the pause starts again (a wait behind the
 *   pause or the probe spends the caller's waiting budget; an episode no request came for within
 *   a window after its pause, its run stopped, is abandoned: `Episodes.abandonStale`). A 429
 *   whose pause the run cannot afford (beyond its waiting budget) pauses without cutting the
 *   share: it says when the service is back, not that others share the plan.
 */

export interface Clock {
	now(): number;
	/** Waits `ms`; rejects when `signal` aborts. */
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** How a granted request ended, for the limiter. */
export type SlotOutcome =
	/** Answered without a 429 (a success or another error: the service took it). */
	| 'answered'
	/** Never answered (stopped by the user, a network failure): says nothing of the plan. */
	| 'abandoned';

/** A granted request. Call `finished` when its answer (or failure) is in. */
export interface Slot {
	/** When the request was granted. */
	readonly granted: number;
	/**
	 * `sentAfter`: a time the request is known to have left no earlier than (a login's end).
	 * A 429 answer is reported with `PlanLimiter.rateLimited` before this.
	 */
	finished(sentAfter?: number, outcome?: SlotOutcome): void;
}

/**
 * A caller's run's waiting budget (budget.ts), for its wait for a slot behind a 429's pause or its
 * probe: that wait is waiting on a 429 like any other, and ends when the budget does.
 */
export interface HeldWait {
	/** What is left of the budget now (ms). */
	left(): number;
	/** The caller is held from now (`true`) or no more (`false`): the budget counts it. */
	holding(on: boolean): void;
	/** The error of a hold of `ms` beyond what is left. */
	beyond(ms: number): Error;
}

export const PACING = {
	/** The window of a plan given as a number: "N per minute". */
	windowMs: 60_000,
	/** The plan's finer window, a sixth of the window: at most a sixth of the plan in any 10 s. */
	tenthWindowMs: 10_000,
	/** The window is stretched by 1%: arrival times at the gateway differ from our send times. */
	safetyFactor: 1.01,
	/** A pause for a 429 lasts at most a window (a longer Retry-After fails the run that got it). */
	maxPauseMs: 60_000,
	/** A pause for a 429 without a Retry-After doubles at each failed probe up to this. */
	maxBackoffMs: 30_000,
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
	/** Callers waiting for a slot. */
	private waiting = 0;
	/** The plan's slice: at most `limit` starts in any `windowMs` (with the margin). */
	readonly slice: { limit: number; windowMs: number };
	/** The plan's 10 s window (a sixth of the window, with the margin). */
	readonly tenth: { limit: number; windowMs: number };
	/** The plan's burst limit: at most `limit` starts in any `windowMs` (with the margin). */
	readonly burst: { limit: number; windowMs: number };
	private lastGrant = -Infinity;
	/** Since when this process has been sending or paused without a break of 10 s. */
	private busySince = -Infinity;
	private busyUntil = -Infinity;
	readonly controller = new ShareController();
	private readonly episodes = new Episodes(this.controller);
	private readonly roundTrips = new RoundTrips();
	/** The plan's window, with the margin. */
	readonly windowMs: number;
	/** Requests per window (the plan). */
	readonly plan: number;

	/**
	 * `plan`: the rate plan, or a number N for "N per minute" (its burst the same N per minute):
	 * the windows below are cut from the plan's window as they are from a minute. The burst window
	 * is at most the window (the dated starts cover one window).
	 */
	constructor(
		plan: number | RatePlan,
		private readonly clock: Clock,
	) {
		const { requests, windowSeconds, burst, burstWindowSeconds } =
			typeof plan === 'number' ? perMinute(plan) : plan;
		const windowMs = windowSeconds * 1000;
		const burstMs = burstWindowSeconds * 1000;
		const valid = requests >= 1 && windowMs > 0 && burst >= 1 && burstMs > 0 && burstMs <= windowMs;
		if (!valid) throw new Error('Invalid rate limit');
		this.plan = requests;
		this.windowMs = stretched(windowMs);
		const slice = planSlices(requests, windowMs);
		this.slice = { limit: slice.limit, windowMs: stretched(slice.windowMs) };
		const tenthMs = (windowMs * PACING.tenthWindowMs) / PACING.windowMs;
		this.tenth = { limit: Math.max(1, Math.floor(requests / 6)), windowMs: stretched(tenthMs) };
		this.burst = { limit: burst, windowMs: stretched(burstMs) };
	}

	/** This process's share of the plan now (1: the whole plan). */
	share(now = this.clock.now()): number {
		return this.controller.share(now);
	}

	/** Requests this process may start per window now. */
	allowance(now = this.clock.now()): number {
		return Math.max(1, this.plan * this.share(now));
	}

	/** Requests per second this process may start now. */
	rate(): number {
		return (this.allowance() * 1000) / this.windowMs;
	}

	/** The round trip of the recent requests, in ms (undefined before the first answer). */
	meanRoundTrip(): number | undefined {
		return this.roundTrips.estimate();
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
	 * no slot (and rejects); callers race the signal themselves to leave the queue at once. Its turn
	 * held by a 429's pause or its probe counts against `budget`, and ends with its error when the
	 * budget would run out.
	 */
	async acquire(signal?: AbortSignal, budget?: HeldWait): Promise<Slot> {
		this.waiting++;
		const turn = this.queue.then(async () => await this.waitForSlot(signal, budget));
		this.queue = turn.then(
			() => undefined,
			() => undefined,
		);
		try {
			return await turn;
		} finally {
			this.waiting--;
		}
	}

	/** Whether callers wait for a slot or a throttling episode is open (its Retry-After kept). */
	held(): boolean {
		this.episodes.abandonStale(this.clock.now(), this.windowMs);
		return this.waiting > 0 || this.episodes.active;
	}

	/**
	 * Whether dropping this limiter forgets nothing: no caller waits, no start lies in its window
	 * and no throttling episode is open.
	 */
	idle(now = this.clock.now()): boolean {
		this.episodes.abandonStale(now, this.windowMs);
		return this.waiting === 0 && !this.episodes.active && now - this.lastGrant >= this.windowMs;
	}

	/** A slot granted now; the probe of the episode when one is open (its pause is over). */
	private grant(now: number): Slot {
		if (now - this.busyUntil > this.tenth.windowMs) this.busySince = now;
		this.busyUntil = Math.max(this.busyUntil, now);
		this.starts.push(now);
		this.lastGrant = now;
		let done = false;
		const slot: Slot = {
			granted: now,
			finished: (sentAfter?: number, outcome: SlotOutcome = 'answered') => {
				if (done) return;
				done = true;
				const end = this.clock.now();
				if (sentAfter !== undefined && sentAfter > now) {
					this.redate(now, Math.min(sentAfter, end));
				} else if (outcome === 'answered') {
					this.roundTrips.record(end - now);
				}
				this.episodes.finished(slot, outcome === 'answered', end, this.tenth.windowMs);
			},
		};
		this.episodes.sent(slot);
		return slot;
	}

	/**
	 * A request (its `slot`) was answered 429 with a pause of `pauseMs` (its Retry-After, or when it
	 * had none, `retryAfter` false, the backoff's first step: `Episodes.backoffPause` lengthens it,
	 * up to `PACING.maxBackoffMs`). The first 429 of an
	 * episode pauses every request of this process and, when `evidence` (the pause is one a run
	 * can wait out), cuts the share; the episode's later 429s only lengthen the pause. Returns
	 * `new` for the episode's first 429 and for a failed probe (answers the service gave anew),
	 * `echo` for the others (one event, counted once by the circuit breaker).
	 */
	rateLimited(
		slot: Pick<Slot, 'granted'>,
		pauseMs: number,
		evidence = true,
		retryAfter = true,
	): ThrottleKind {
		const now = this.clock.now();
		const waits = {
			firstMs: Math.max(0, pauseMs),
			maxMs: PACING.maxBackoffMs,
			roomMs: this.roomMs(now),
			tenthMs: this.tenth.windowMs,
			windowMs: this.windowMs,
			minuteRoomAt: this.minuteRoomAt(now),
			filledTenth: this.tenthPart(now) >= SHARING.othersEvidence.to,
		};
		const wait = retryAfter ? waits.firstMs : this.episodes.backoffPause(slot, now, waits);
		const until = now + Math.min(wait, PACING.maxPauseMs);
		const pause = { until, backAt: now + wait, minuteRoomAt: waits.minuteRoomAt };
		this.busyUntil = Math.max(this.busyUntil, pause.until);
		const measured = () =>
			measureShare(this, this.starts, {
				now,
				busySince: this.busySince,
				pauseMs,
				retryAfter,
				lastEpisodeMs: this.episodes.recentLength(now),
			});
		return this.episodes.throttled(slot, slot.granted, now, pause, evidence, measured);
	}

	/**
	 * How long until a 10 s window this process filled together with others has room again at the
	 * latest: 10 s after its first start in the last 10 s, when it sent a part of that window that
	 * says others sent the rest (`SHARING.othersEvidence`; a newcomer's first requests say nothing
	 * of when the others' window frees); else 0.
	 */
	private roomMs(now: number): number {
		const part = this.tenthPart(now);
		if (part < SHARING.othersEvidence.from || part >= SHARING.othersEvidence.to) return 0;
		const first = this.starts.find((start) => start > now - this.tenth.windowMs) ?? now;
		return first + this.tenth.windowMs - now;
	}

	/** Its starts in the last 10 s, as a part of the plan's 10 s window. */
	private tenthPart(now: number): number {
		const since = now - this.tenth.windowMs;
		let count = 0;
		for (let i = this.starts.length - 1; i >= 0 && this.starts[i] > since; i--) count++;
		return count / this.tenth.limit;
	}

	/**
	 * When its oldest start in the plan's window leaves it: a sliding minute's window has room then
	 * (-Infinity: no start in it). The last episode's refused probes never counted in it.
	 */
	private minuteRoomAt(now: number): number {
		const oldest = this.starts.find(
			(start) => start > now - this.windowMs && !this.episodes.refusedProbe(start),
		);
		return oldest === undefined ? -Infinity : oldest + this.windowMs;
	}

	/** How long the pause for a 429 lasts from now (0: none). */
	pauseLeft(): number {
		return Math.max(0, this.episodes.pausedUntil - this.clock.now());
	}

	/**
	 * When the service said it takes requests again (its last Retry-After, which may reach far
	 * beyond the pause; -Infinity when no throttling episode is open).
	 */
	backAt(): number {
		return this.episodes.backAt;
	}

	/** Whether the probe of an open throttling episode is out: the others wait for its answer. */
	probeOut(): boolean {
		return this.episodes.probing;
	}

	/**
	 * How long the next caller would wait now (0 when it may go; Infinity while a probe is out:
	 * the caller waits for its answer).
	 */
	delayUntilFree(): number {
		const now = this.clock.now();
		this.prune(now);
		this.episodes.abandonStale(now, this.windowMs);
		if (!this.starts.length && !this.episodes.active && now - this.lastGrant >= this.windowMs) {
			this.controller.forget();
		}
		if (this.episodes.probing) return Infinity;
		const share = this.share(now);
		const sliceLimit = Math.max(1, Math.ceil(this.slice.limit * share));
		const shareOfTenth = Math.max(1, Math.floor(this.tenth.limit * share));
		const spacing = (PACING.spacing * this.slice.windowMs) / sliceLimit;
		let wait = Math.max(this.episodes.pausedUntil, this.lastGrant + spacing) - now;
		// The share's 10 s window counts from the last episode's first 429: the window that was full
		// then is over when its pause is (the 429's Retry-After), and the share was cut to what is
		// left of the next one. The whole sixth of the plan counts every start.
		const cut = this.episodes.beganAt;
		const limits = [
			{ limit: this.plan, windowMs: this.windowMs, since: -Infinity },
			{ limit: this.burst.limit, windowMs: this.burst.windowMs, since: -Infinity },
			{ limit: this.tenth.limit, windowMs: this.tenth.windowMs, since: -Infinity },
			{ limit: shareOfTenth, windowMs: this.tenth.windowMs, since: cut },
			{ limit: sliceLimit, windowMs: this.slice.windowMs, since: -Infinity },
		];
		for (const { limit, windowMs, since } of limits) {
			if (this.starts.length < limit) continue;
			const start = this.starts[this.starts.length - limit];
			if (start < since) continue;
			wait = Math.max(wait, start + windowMs - now);
		}
		return Math.max(0, wait);
	}

	private async waitForSlot(signal?: AbortSignal, budget?: HeldWait): Promise<Slot> {
		for (;;) {
			if (signal?.aborted) throw new Error('aborted');
			const wait = this.delayUntilFree();
			if (wait <= 0) break;
			const held = wait === Infinity ? Infinity : this.pauseLeft();
			if (budget && held > 0) await this.heldOut(held, budget, signal);
			else if (wait === Infinity) await this.probeAnswered(signal);
			else await this.clock.sleep(wait, signal);
		}
		return this.grant(this.clock.now());
	}

	/**
	 * Waits `ms` of a 429's pause (Infinity: until the probe out now is answered), counted against
	 * `budget`: a pause beyond what is left fails at once, a wait for the probe when it runs out.
	 */
	private async heldOut(ms: number, budget: HeldWait, signal?: AbortSignal) {
		const left = budget.left();
		if (ms > left && ms !== Infinity) throw budget.beyond(ms);
		budget.holding(true);
		try {
			if (ms !== Infinity) await this.clock.sleep(ms, signal);
			else if (!(await this.probeAnsweredWithin(left, signal))) throw budget.beyond(0);
		} finally {
			budget.holding(false);
		}
	}

	/** Waits until the probe out now is answered (true), at most `ms` (false). */
	private async probeAnsweredWithin(ms: number, signal?: AbortSignal): Promise<boolean> {
		const done = new AbortController();
		const stop = AbortSignal.any([done.signal, ...(signal ? [signal] : [])]);
		try {
			const answered = this.probeAnswered(stop).then(() => true);
			return await Promise.race([answered, this.clock.sleep(ms, stop).then(() => false)]);
		} finally {
			done.abort();
		}
	}

	/** Waits until the probe out now is answered (or abandoned). */
	private async probeAnswered(signal?: AbortSignal) {
		await new Promise<void>((resolve, reject) => {
			const onAbort = () => reject(new Error('aborted'));
			this.episodes.onProbeDone = () => {
				this.episodes.onProbeDone = () => {};
				signal?.removeEventListener('abort', onAbort);
				resolve();
			};
			signal?.addEventListener('abort', onAbort, { once: true });
		});
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

/** "N per minute", its burst the same. */
function perMinute(requests: number): RatePlan {
	const seconds = PACING.windowMs / 1000;
	return { requests, windowSeconds: seconds, burst: requests, burstWindowSeconds: seconds };
}

/** A window stretched by the margin (see `PACING.safetyFactor`). */
function stretched(windowMs: number): number {
	return Math.ceil(windowMs * PACING.safetyFactor);
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
