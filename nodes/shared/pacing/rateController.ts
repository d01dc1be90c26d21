/**
 * How much of the rate plan this process takes (its share, 1 = the whole plan), learnt from the
 * service's 429 answers and forgotten when it no longer holds.
 *
 * The design follows CUBIC as the AWS SDKs' adaptive retry mode uses it (botocore
 * `retries/adaptive.py`, `throttling.py`): a congestion event (one throttling episode, however many
 * 429 answers it brings) takes the share to `beta` times the share measured before it (`wMax`);
 * after the episode the share grows back along a cubic: up to a plateau near `wMax` (where the
 * others left room last time), flat there for most of the way back, then faster (probing for more).
 *
 * The way back is short whatever came before: a 429 says how much room there was then, not how
 * long the others (or a gateway that allows less than the plan) stay. The share is whole again
 * `horizon` after the episode ended: `loneRecoveryMs` after a lone episode (a gateway hiccup, a
 * short burst of another tool), at most `maxRecoveryMs` after episodes that recur or say that
 * others share the plan. Sharing holds because the others are still there at the end of the
 * plateau: the probe above it brings the next 429 (one per process about every `maxRecoveryMs`),
 * which cuts the share to what is left again. When they have gone, nothing cuts it: the plan is
 * back within `maxRecoveryMs` of the last episode, however long it lasted and however low it went
 * (a longer way back after long throttling held a process at a fraction of the plan for minutes
 * after the others, or the gateway's cut, had gone).
 *
 * Episodes less than `periodGapMs` apart form one period of throttling: episodes recur (`recurring`:
 * others use the plan, for the run's hints), and the way back is the period's duration so far,
 * between `loneRecoveryMs` and `maxRecoveryMs`.
 *
 * A 429 also tells how much the others use when this process had sent only a part of the window
 * that overflowed (`measureShare`): its share drops to that part at once (processes that start
 * together settle near their share after the first episode, not after several), and the episode
 * is sharing from the start: the way back takes `maxRecoveryMs`. After a 429 from a full window
 * the share is that part again at every episode, not the lowest level learnt so far: the parts of
 * the processes add up to the window, so together they keep taking (nearly) the plan, where a
 * level that only went down left a tenth of it unused. Which window overflowed, the 10 s one or
 * the minute's, the gateway says only in its Retry-After (over 10 s: the minute's; a 10 s
 * window's is 10 s at most) or by how long it keeps refusing (an episode of 20 s or more: the
 * minute's, and the share is cut again at its end to this process's part of the minute's starts
 * when it began); otherwise the 10 s one, and when this process had filled that alone, the 429
 * is a hiccup, not sharing.
 *
 * A 429 without a Retry-After says nothing of when the window has room: the pause is backoff
 * (`Episodes.backoffPause`), doubled at each failed probe; for an episode soon after another, at
 * least half as long as that one lasted, unless this process sent the last 10 s itself (its own
 * requests leave the window as fast as they came); and when this process filled a 10 s window
 * with others, until that window surely has room (probing every 250-500 ms met a full minute's
 * window some twenty times per episode, a full 10 s window three or four times per process). Once
 * an episode has refused this process longer than a 10 s window, the window is the minute's, and
 * the probe goes when that window has room (`Episodes.minuteRoom`): doubling pauses probed a
 * minute that processes filled together six times each before it had room, and came back up to
 * 20 s after.
 */
export const SHARING = {
	/** After an episode the share is this much of the share measured before it (CUBIC's beta). */
	beta: 0.85,
	/**
	 * The curve flattens at this much of the share measured before the episode: the processes
	 * together overflowed the plan there, so each settles a little below it, then probes upward.
	 */
	plateau: 0.96,
	/** The share never goes below this. */
	minShare: 0.02,
	/** The way back after a lone episode: whole again this long after it ended. */
	loneRecoveryMs: 20_000,
	/**
	 * The way back after any episode, however long the throttling lasted: whole again at most this
	 * long after it ended (so at least 90 % of the plan from the 30th second). Not shorter: while
	 * others share the plan, each way back ends in a probe that brings the next 429 (about one per
	 * process and way back, the 429s to its requests in flight included).
	 */
	maxRecoveryMs: 30_000,
	/**
	 * The share reaches the plateau at this part of the way back, and probes above it in the rest:
	 * processes that share the plan meet the next 429 late, about once per way back each.
	 */
	plateauAt: 0.75,
	/** Episodes less than this apart belong to one period of throttling... */
	periodGapMs: 90_000,
	/** ...unless the share was back at this much of the plan before the next one. */
	whole: 0.97,
	/**
	 * A 429 that comes while this process had sent between these shares of the plan's window
	 * (of its 10 s or of its minute, the larger) says that others used the rest: the episode is
	 * sharing, not a lone hiccup (below the lower bound it may be either: a small plan, a burst of
	 * another tool when a run starts; above the upper one this process filled the window itself).
	 */
	othersEvidence: { from: 0.1, to: 0.9 },
};

/**
 * A Retry-After counts whole seconds, rounded up: the window it speaks of ends within the second
 * before the pause's end. Its part is counted from this long and a 10 s window (with the margin)
 * before the pause's end: from the middle of that second. Counted from the pause's end, a part
 * missed up to the window's first second, much of a window that processes starting together fill
 * in a few seconds: four processes measured 74-84 % of it together, and shared 86-90 % of the plan.
 * The limit: a Retry-After that is exact takes up to half a second of the window before, one given
 * as a date (which may round down) up to a second and a half; the parts then add up to a little
 * more than the window (about 0.1 point more 429s measured on virtual time).
 */
const RETRY_AFTER_ROUNDING_MS = 400;

/** What this process used of the plan before a 429 (`measureShare`). */
export interface MeasuredShare {
	/** The share of the plan it used. */
	share: number;
	/** Whether the 429 says that others used the rest of the window (`SHARING.othersEvidence`). */
	others: boolean;
	/** Whether the share is this process's part of the window that the 429 said was full. */
	window?: boolean;
	/** Its part of the minute's starts (what the share is when the window proves the minute's). */
	ofMinute?: number;
	/** Whether the share is already that part. */
	byMinute?: boolean;
}

/**
 * Whether an episode of `lengthMs` says the window that overflowed is the minute's: it kept the
 * process out for twice the 10 s window (`tenthMs`) or more (a 10 s window has room again within
 * 10 s, found within twice that by backoff).
 */
export function keptOut(lengthMs: number, tenthMs: number): boolean {
	return lengthMs >= 2 * tenthMs;
}

/** The plan's windows, as the limiter counts them (with its margin). */
interface PlanWindows {
	plan: number;
	windowMs: number;
	tenth: { limit: number; windowMs: number };
}

/** Starts in `starts` (oldest first) after `since`. */
function startsAfter(starts: readonly number[], since: number): number {
	let count = 0;
	for (let i = starts.length - 1; i >= 0 && starts[i] > since; i--) count++;
	return count;
}

/**
 * What this process used of the plan before a 429 at `now` that pauses it `pauseMs` (`retryAfter`:
 * the pause is the service's Retry-After, not backoff), from its `starts` (oldest first). The 429
 * says that a window of the gateway is full, and its share is its part of that window, whose rest
 * the others used: the parts of the processes that share the plan add up to the whole window, so
 * each takes its own part again, whatever it learnt before (`window`).
 * - Its part of the 10 s window (a sixth of the plan): when a Retry-After of 10 s or less says
 *   when that window ends, the 10 s before then (a fixed window's start;
 *   `RETRY_AFTER_ROUNDING_MS`); else the last 10 s.
 * - When it sent (nearly) all of that 10 s window itself and a Retry-After over 10 s says
 *   that the full window is the minute's, its part of the minute's starts; the same, whatever its
 *   10 s count, when the last episode, recent, kept it out for 20 s or more (`lastEpisodeMs`),
 *   unless it sent the whole last 10 s itself and the Retry-After is 10 s or less: the minute
 *   filled at its own pace, with what the others sent before they stopped (its part of that
 *   minute held the one left alone at half the plan for a minute after the others had gone).
 * - Otherwise it filled the window alone (a gateway's hiccup, a newcomer's first requests): its
 *   rate in the last 10 s (over less when it began sending later), and no evidence of others.
 * Whether others used the plan: its part lies within `SHARING.othersEvidence`.
 */
export function measureShare(
	windows: PlanWindows,
	starts: readonly number[],
	at: {
		now: number;
		busySince: number;
		pauseMs: number;
		retryAfter?: boolean;
		/** How long the last episode lasted, when it ended recently (`Episodes.recentLength`). */
		lastEpisodeMs?: number;
	},
): MeasuredShare {
	const { plan, windowMs, tenth } = windows;
	const { from, to } = SHARING.othersEvidence;
	const saidTenth = at.retryAfter !== false && at.pauseMs < tenth.windowMs;
	// A window that kept this process out long is the minute's, and its 10 s count says little: it
	// was paused for most of them.
	const minute = keptOut(at.lastEpisodeMs ?? 0, tenth.windowMs);
	// That window ends up to a second before the pause does (`RETRY_AFTER_ROUNDING_MS`): the part
	// misses at most the window's first half second or takes at most the last half second of the
	// one before.
	const since = saidTenth
		? at.now + at.pauseMs - RETRY_AFTER_ROUNDING_MS - tenth.windowMs
		: at.now - tenth.windowMs;
	const ofTenth = startsAfter(starts, since) / tenth.limit;
	const saidMinute = at.retryAfter !== false && !saidTenth;
	const inTenth = startsAfter(starts, at.now - tenth.windowMs);
	// It sent the whole last 10 s itself, and the window is full for less than 10 s more: the
	// minute's window filled at its own pace, with what others sent before (they have stopped).
	const alone = saidTenth && inTenth / tenth.limit >= to;
	const byMinute = saidMinute || (minute && !alone);
	const ofMinute = starts.length / plan;
	const part = alone ? 1 : ofTenth < to && !minute ? ofTenth : byMinute ? ofMinute : 1;
	if (part < to) return { share: part, others: part >= from, window: true, ofMinute, byMinute };
	const span = Math.min(tenth.windowMs, Math.max(1000, at.now - at.busySince));
	const share = (inTenth * windowMs) / (span * plan);
	return { share, others: false, window: false, ofMinute, byMinute };
}

/**
 * What an episode that kept this process out long (the window was the minute's) says, when its
 * first 429 was `measured` otherwise: the share is its part of the minute's starts then, and
 * others used the rest. Undefined when it says nothing new.
 */
function minuteMeasure(measured: MeasuredShare | undefined): MeasuredShare | undefined {
	if (!measured || measured.byMinute || measured.ofMinute === undefined) return undefined;
	const { from, to } = SHARING.othersEvidence;
	const part = measured.ofMinute;
	if (part < from || part >= to) return undefined;
	return { share: part, others: true, window: true, ofMinute: part, byMinute: true };
}

/**
 * A share's curve after an episode, t in seconds since it ended: `wMax − drop·((k − t)/k)³` up to
 * the plateau at `k`, then `wMax + (1 − wMax)·((t − k)/(horizon − k))³`, whole at `horizon`.
 */
interface Curve {
	/** The share the episode said there was room for (`wMax` is the plateau below it). */
	used: number;
	wMax: number;
	drop: number;
	k: number;
	horizon: number;
	/** When the episode ended and the growth began (undefined: still in the episode). */
	from?: number;
}

/** The share on `curve` at `now`. */
function curveShare(curve: Curve, now: number): number {
	const t = curve.from === undefined ? 0 : Math.max(0, now - curve.from) / 1000;
	const { wMax, drop, k, horizon } = curve;
	if (t < k) return wMax - drop * ((k - t) / k) ** 3;
	return wMax + ((1 - wMax) * (Math.min(t, horizon) - k) ** 3) / (horizon - k) ** 3;
}

/**
 * The level `curve` learnt, when an episode at `now` ends its probe above the plateau (the share
 * not whole yet): the room is what it was, the probe found no more (the processes that probed
 * together measure more than their part). Otherwise undefined: nothing to keep.
 */
function failedProbe(curve: Curve | undefined, now: number): number | undefined {
	if (curve?.from === undefined) return undefined;
	const t = (now - curve.from) / 1000;
	return t >= curve.k && t < curve.horizon ? curve.used : undefined;
}

export class ShareController {
	private curve?: Curve;
	private periodStart = -Infinity;
	private lastEpisode = -Infinity;

	/** The share of the plan at `now`. */
	share(now: number): number {
		if (!this.curve) return 1;
		return Math.min(1, Math.max(SHARING.minShare, curveShare(this.curve, now)));
	}

	/** The horizon of the way back for an episode at `now` (ms), see the top of the file. */
	horizon(now: number): number {
		const period = now - this.periodStart;
		return Math.min(SHARING.maxRecoveryMs, Math.max(SHARING.loneRecoveryMs, period));
	}

	/**
	 * A throttling episode began at `now`; `measured` is the share this process used just before.
	 * The share drops to `beta` times its part of the full 10 s window (`measured.window`), else
	 * times the lowest of the measured share, the allowed one and, when the episode ends a probe
	 * above the plateau, the level learnt before it; and stays there until `ended`. When the 429
	 * says that others used the rest of the window, the way back is the longest (`maxRecoveryMs`),
	 * as after sharing that has lasted that long.
	 */
	congestion(now: number, measured: MeasuredShare): void {
		// A period of throttling ends when episodes stop for a while, or when the share was whole
		// again before this one (the others had gone: this is a new period).
		const whole = this.share(now) >= SHARING.whole;
		if (whole || now - this.lastEpisode > SHARING.periodGapMs) this.periodStart = now;
		if (measured.others) {
			this.periodStart = Math.min(this.periodStart, now - SHARING.maxRecoveryMs);
		}
		this.lastEpisode = now;
		const learnt = failedProbe(this.curve, now) ?? 1;
		const share = measured.window
			? measured.share
			: Math.min(this.share(now), measured.share, learnt);
		const used = Math.min(1, Math.max(SHARING.minShare, share));
		const wMax = SHARING.plateau * used;
		const drop = Math.max(0, wMax - Math.max(SHARING.minShare, SHARING.beta * used));
		const horizon = this.horizon(now) / 1000;
		this.curve = { used, wMax, drop, k: SHARING.plateauAt * horizon, horizon };
	}

	/** The episode ended at `now` (a request after it was answered): the share grows from here. */
	ended(now: number): void {
		if (this.curve && this.curve.from === undefined) this.curve.from = now;
	}

	/**
	 * Whether episodes recur (more than one in the current period of throttling): others use the
	 * plan. A lone episode is a hiccup, not sharing.
	 */
	get recurring(): boolean {
		return this.lastEpisode > this.periodStart;
	}

	/** Whether the share is below the whole plan. */
	get reduced(): boolean {
		return this.curve !== undefined;
	}

	/** Back to the whole plan, and no memory of past episodes (after a long idle time). */
	forget(): void {
		this.curve = undefined;
		this.periodStart = -Infinity;
		this.lastEpisode = -Infinity;
	}
}

/** What a 429 answer was, for the circuit breaker: a new event, or one more answer of it. */
export type ThrottleKind = 'new' | 'echo';

/**
 * Throttling episodes: from the first 429 until a request granted after the pause (the probe,
 * sent alone) is answered without one. Every 429 of an episode is one event: only its first cuts
 * the share (`controller.congestion`); the others lengthen the pause.
 */
export class Episodes {
	private open?: {
		pausedUntil: number;
		backAt: number;
		probe?: object;
		failedProbes: number;
		/** When the last probe failed (or the episode began): the window had no room then. */
		refusedAt: number;
		/** When the minute's window this process used before the first 429 surely has room. */
		minuteRoomAt: number;
		/** What its first 429 measured (when it was evidence). */
		measured?: MeasuredShare;
	};
	/** When the last episode ended: 429s to requests granted before it are stale echoes. */
	private lastEnd = -Infinity;
	private lastBegan = -Infinity;
	/** How long the last episode lasted, from its first 429 to its end. */
	private lastLength = 0;
	/**
	 * The last episode longer than a 10 s window: the minute's window had room again between its
	 * last refusal and its end.
	 */
	private turned = { after: -Infinity, by: -Infinity };
	/** Called when the probe's answer is in (or it was abandoned): the next caller may go. */
	onProbeDone: () => void = () => {};

	constructor(private readonly controller: ShareController) {}

	/** Until when every request waits (-Infinity: no pause). */
	get pausedUntil(): number {
		return this.open?.pausedUntil ?? -Infinity;
	}

	/**
	 * When the service said it takes requests again (its Retry-After, not capped like the pause;
	 * -Infinity: no episode). A failed probe's answer replaces what the earlier answers said.
	 */
	get backAt(): number {
		return this.open?.backAt ?? -Infinity;
	}

	get active(): boolean {
		return this.open !== undefined;
	}

	/** How long the last episode lasted when it ended less than `SHARING.periodGapMs` ago, else 0. */
	recentLength(now: number): number {
		return now - this.lastEnd < SHARING.periodGapMs ? this.lastLength : 0;
	}

	/** When the last episode began (its first 429; -Infinity: none yet). */
	get beganAt(): number {
		return this.lastBegan;
	}

	/**
	 * Whether a request granted at `granted` was a probe of the last episode (ended): its 429 left
	 * it out of the gateway's window.
	 */
	refusedProbe(granted: number): boolean {
		return granted >= this.lastBegan && granted < this.lastEnd;
	}

	/**
	 * The pause for a 429 without a Retry-After to `slot` at `now`, `firstMs` the backoff's first
	 * step: the service did not say when its window has room, and probing every 250-500 ms met a
	 * full minute's window some twenty times. A failed probe doubles it at each failure; a new
	 * episode less than `SHARING.periodGapMs` after the last one waits at least half as long as that
	 * one lasted (the gateway's window is alike), unless this process had filled the last 10 s
	 * itself (`filledTenth`), and at least `roomMs` (until the 10 s window this process filled with
	 * others surely has room); the other answers only say the pause goes on.
	 * A failed probe of an episode longer than a 10 s window (the minute's) waits until the minute's
	 * window has room when that is known (`minuteRoom`), and so does the first 429 of an episode
	 * soon after one that kept this process out (`keptOut`) when its own starts say when
	 * (`minuteRoomAt`, see `PlanLimiter.minuteRoomAt`). At most `maxMs`.
	 */
	backoffPause(
		slot: object,
		now: number,
		waits: {
			firstMs: number;
			maxMs: number;
			roomMs: number;
			tenthMs: number;
			windowMs: number;
			minuteRoomAt: number;
			filledTenth: boolean;
		},
	): number {
		const { firstMs, maxMs, roomMs, tenthMs } = waits;
		const open = this.open;
		let pause = firstMs;
		if (open?.probe === slot) {
			const doubled = firstMs * 2 ** (open.failedProbes + 1);
			const room = this.minuteRoom(open.minuteRoomAt, now, waits.windowMs);
			pause = now - this.lastBegan > tenthMs && room !== undefined ? room - now : doubled;
		} else if (!open) {
			const recent = this.recentLength(now);
			const minute = keptOut(recent, tenthMs) ? waits.minuteRoomAt - now : 0;
			// The last 10 s were this process's own requests: they leave the window as fast as they
			// came, whatever the last episode lasted (half of it held the one left alone, meeting the
			// others' last requests ageing out, long after the window had room).
			const echo = waits.filledTenth && minute <= 0 ? 0 : recent / 2;
			pause = Math.max(firstMs, roomMs, echo, minute);
		}
		return Math.min(pause, Math.max(firstMs, maxMs));
	}

	/**
	 * When the minute's window surely has room next after `now` (undefined: not known): a sliding
	 * minute when the first of this process's starts in it before the episode leaves it
	 * (`minuteRoomAt`); a fixed minute a window (`windowMs`) or more after it turned, which it did
	 * between the last long episode's last refusal and its end (`turned`). The earliest of these.
	 */
	private minuteRoom(minuteRoomAt: number, now: number, windowMs: number): number | undefined {
		// No long episode yet (`turned` at -Infinity): no fixed minute's turn is known.
		const next = (at: number) =>
			Number.isFinite(at) ? at + Math.max(1, Math.ceil((now - at) / windowMs)) * windowMs : at;
		const { after, by } = this.turned;
		const rooms = [minuteRoomAt, next(after), next(by)].filter((at) => at > now);
		return rooms.length ? Math.min(...rooms) : undefined;
	}

	/** A probe is out: the others wait for its answer. */
	get probing(): boolean {
		return this.open?.probe !== undefined;
	}

	/** A request (`slot`, granted at `granted`) left: while an episode is open, it is the probe. */
	sent(slot: object): void {
		if (this.open) this.open.probe = slot;
	}

	/**
	 * A 429 for `slot` at `now`: a new episode (pause until `pause.until`, the service back at
	 * `pause.backAt`; the share is cut when `evidence`, from `measured()`), a failed probe (the
	 * pause starts again), or an echo.
	 */
	throttled(
		slot: object,
		granted: number,
		now: number,
		pause: { until: number; backAt: number; minuteRoomAt: number },
		evidence: boolean,
		measured: () => MeasuredShare,
	): ThrottleKind {
		if (granted < this.lastEnd) return 'echo';
		const open = this.open;
		if (!open) {
			this.lastBegan = now;
			const first = evidence ? measured() : undefined;
			const { until, backAt, minuteRoomAt } = pause;
			this.open = { pausedUntil: until, backAt, failedProbes: 0, refusedAt: now, minuteRoomAt };
			this.open.measured = first;
			if (first) this.controller.congestion(now, first);
			return 'new';
		}
		open.pausedUntil = Math.max(open.pausedUntil, pause.until);
		if (open.probe !== slot) {
			open.backAt = Math.max(open.backAt, pause.backAt);
			return 'echo';
		}
		open.backAt = pause.backAt;
		open.probe = undefined;
		open.failedProbes++;
		open.refusedAt = now;
		this.onProbeDone();
		return 'new';
	}

	/**
	 * Closes the episode when its pause ended more than `windowMs` (the plan's window) before `now`
	 * with no probe out: the run that waited on it stopped during the pause (the user's stop, its
	 * waiting budget, its circuit breaker) and no request came since. Abandoned, it says nothing of
	 * the gateway's window: no length, no turn, no cut; it ended when its pause did, so a window
	 * later the limiter is idle and forgets it (before, the next run, maybe hours later, ended an
	 * episode "hours long" and was cut to the part of a minute it had then).
	 */
	abandonStale(now: number, windowMs: number): void {
		const open = this.open;
		if (!open || open.probe !== undefined || now - open.pausedUntil <= windowMs) return;
		this.open = undefined;
		this.lastEnd = open.pausedUntil;
		this.lastLength = 0;
		this.controller.ended(open.pausedUntil);
	}

	/**
	 * A request's answer is in (`answered`: without a 429), or it never will be. An episode that
	 * kept the process out long (`keptOut`, `tenthMs` the plan's 10 s window) proves the window the
	 * minute's: the share is cut again to the part of it that the first 429 found.
	 */
	finished(slot: object, answered: boolean, now: number, tenthMs: number): void {
		const open = this.open;
		if (!open || open.probe !== slot) return;
		if (answered) {
			this.open = undefined;
			this.lastEnd = now;
			this.lastLength = now - this.lastBegan;
			// Refused for longer than a 10 s window: the window that had room again is the minute's.
			if (this.lastLength > tenthMs) this.turned = { after: open.refusedAt, by: now };
			const minute = keptOut(this.lastLength, tenthMs) ? minuteMeasure(open.measured) : undefined;
			if (minute) this.controller.congestion(now, minute);
			this.controller.ended(now);
		} else {
			open.probe = undefined;
		}
		this.onProbeDone();
	}
}
