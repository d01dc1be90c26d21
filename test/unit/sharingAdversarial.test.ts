/**
 * An adversarial review of the rate share controller (rateController.ts, rateLimiter.ts) on
 * virtual time: gateways other than the emulator's models (test/helpers/otherGateways.ts), a
 * hostile or unlucky co-tenant, a wall clock that steps, a process starved by another that never
 * backs off, and plans at the edges. Each `it.failing` shows a finding: it passes while the
 * controller still misses the target it states, and fails the day it meets it (then make it `it`).
 */
import { limiters, RateLimiterRegistry } from '../../dist/nodes/shared/pacing/limiters';
import { PlanLimiter, type Slot } from '../../dist/nodes/shared/pacing/rateLimiter';
import { SlidingWindowLimiter } from '../emulator/ratePlan';
import {
	countOf,
	gatewayOf,
	startOther,
	windowGateway,
	type OtherGateway,
	type OtherProcess,
} from '../helpers/otherGateways';
import { seededRandom } from '../helpers/sharingModel';
import { VirtualClock } from '../helpers/virtualTime';

const PLAN = 1500;
const PER_SECOND = PLAN / 60;
const noRetryAfter = () => undefined;

/** Moves time on until every process, stopped, has no request left in flight. */
async function settle(clock: VirtualClock, processes: OtherProcess[]) {
	processes.forEach((p) => p.stop());
	let done = false;
	void Promise.all(processes.map((p) => p.finished)).then(() => (done = true));
	while (!done) await clock.advance(1000);
}

/** Two processes busy together for `busyMs` against `gateway`: their figures. */
async function twoTogether(gateway: OtherGateway, busyMs = 180_000) {
	const clock = new VirtualClock(3_700);
	const start = clock.now();
	const processes = [0, 1].map((id) =>
		startOther(clock, gateway, { id, plan: PLAN, seed: 7 + id }),
	);
	await clock.runUntil(start + busyMs);
	await settle(clock, processes);
	const busy = countOf(gateway.arrivals, start, start + busyMs);
	const all = countOf(gateway.arrivals, 0, Infinity);
	return {
		together: busy.accepted / (busyMs / 1000) / PER_SECOND,
		rejected: all.refused / all.all,
		failed: processes.reduce((sum, p) => sum + p.failed, 0),
	};
}

/** Grants one slot at the virtual clock's time (moving it on until the limiter lets it go). */
async function slotAt(limiter: PlanLimiter, clock: VirtualClock): Promise<Slot> {
	let slot: Slot | undefined;
	void limiter.acquire().then((granted) => (slot = granted));
	while (!slot) await clock.advance(1);
	return slot;
}

/** Sends `perSecond` requests a second (each answered at once) for `ms`. */
async function sendFor(limiter: PlanLimiter, clock: VirtualClock, ms: number, perSecond: number) {
	const end = clock.now() + ms;
	while (clock.now() < end) {
		(await slotAt(limiter, clock)).finished();
		await clock.advance(1000 / perSecond);
	}
}

describe('another gateway', () => {
	// A Retry-After of 0 (or an HTTP date in the past) is read as none: the pause is backoff,
	// doubled at each failed probe and held until the minute's window has room. Read as a pause of
	// 250-500 ms, every failed probe paused that again: two processes sharing a sliding minute had
	// 5.4 % of requests answered 429 and 24 items per process past the node's 429 retries or its
	// circuit breaker.
	it.each(['0', 'Wed, 21 Oct 2015 07:28:00 GMT'])(
		'Retry-After %s from a full minute: two processes meet <= 1 %% 429 and fail no item',
		async (header) => {
			const figures = await twoTogether(windowGateway(PLAN, 60_000, 'sliding', () => header));
			expect(figures.failed).toBe(0);
			expect(figures.rejected).toBeLessThanOrEqual(0.01);
		},
	);

	// Finding: the controller reads every 429 as the plan's. A gateway that refuses one request
	// in 200 for a reason of its own (0.5 %, no Retry-After) holds a process that is alone at
	// 53 % of the plan (one in 50: 12 %): each lone episode cuts to 0.85 of the rate just
	// measured, already cut, and the next 429 comes before the way back ends.
	it.failing(
		'one request in 200 refused for a reason of its own: a lone process stays >= 90 % of the plan',
		async () => {
			const clock = new VirtualClock(1_000);
			const gateway = gatewayOf((_now, _p, n) =>
				n % 200 === 199 ? { status: 429 } : { status: 200 },
			);
			const run = startOther(clock, gateway, { id: 0, plan: PLAN });
			await clock.runUntil(121_000);
			await settle(clock, [run]);
			const late = countOf(gateway.arrivals, 61_000, 121_000);
			expect(late.accepted / 60 / PER_SECOND).toBeGreaterThanOrEqual(0.9);
		},
	);

	// Finding: once an episode has refused the process longer than 10 s, the controller takes the
	// gateway's window for a minute and waits until a minute's room (up to 30 s) before probing.
	// A gateway counting the same rate in a sliding 30 s window (750 per 30 s) has room long
	// before: two processes took 58-67 % of the plan together over 4 jitter seeds (76-78 % before
	// this change; the target of every matrix cell: 90 %).
	it.failing(
		'a sliding 30 s window (750 per 30 s): two processes take >= 90 % of the plan together',
		async () => {
			const figures = await twoTogether(windowGateway(750, 30_000, 'sliding', noRetryAfter));
			expect(figures.rejected).toBeLessThanOrEqual(0.01);
			expect(figures.together).toBeGreaterThanOrEqual(0.9);
		},
	);

	// Finding: a fixed 30 s window (750 per 30 s) without Retry-After: 1.3-1.4 % of requests
	// answered 429 in 2 of 4 jitter seeds (1.2 % before this change), together 76-102 %.
	it.failing('a fixed 30 s window (750 per 30 s): two processes meet <= 1 % 429', async () => {
		const figures = await twoTogether(windowGateway(750, 30_000, 'fixed-60s', noRetryAfter));
		expect(figures.rejected).toBeLessThanOrEqual(0.01);
		expect(figures.failed).toBe(0);
	});

	it('120 s windows (3000 per 120 s), sliding or fixed: <= 1 % 429, no item failed', async () => {
		for (const model of ['sliding', 'fixed-60s'] as const) {
			const figures = await twoTogether(windowGateway(3000, 120_000, model, noRetryAfter));
			expect(figures.rejected).toBeLessThanOrEqual(0.01);
			expect(figures.failed).toBe(0);
		}
	});

	it("a 503 storm (3 in 10 requests for 2 minutes) mixed with a full minute's 429s: <= 1 % of the other answers are 429", async () => {
		for (const model of ['sliding', 'fixed-60s', 'sliding-10s'] as const) {
			const counter = new SlidingWindowLimiter({ limit: PLAN, windowMs: 60_000, model });
			const random = seededRandom(5);
			const gateway = gatewayOf((now) => {
				if (now > 60_000 && now < 180_000 && random() < 0.3) return { status: 503 };
				return counter.take('plan', now).allowed ? { status: 200 } : { status: 429 };
			});
			await twoTogether(gateway);
			const storm = gateway.arrivals.filter((a) => a.at > 60_000 && a.at < 180_000);
			const refused = storm.filter((a) => a.status === 429).length;
			const other = storm.filter((a) => a.status !== 503).length;
			expect(refused / other).toBeLessThanOrEqual(0.01);
		}
	});
});

describe('co-tenants', () => {
	it("another project's credential in the same process is never slowed by this one's episode", async () => {
		const clock = new VirtualClock(1_000);
		const registry = new RateLimiterRegistry(clock);
		const mine = registry.get('a'.repeat(64), 'GetFbpiOrder', PLAN);
		const theirs = registry.get('b'.repeat(64), 'GetFbpiOrder', PLAN);
		expect(theirs).not.toBe(mine);
		await sendFor(mine, clock, 30_000, 20);
		for (let i = 0; i < 4; i++) {
			await clock.advance(mine.pauseLeft());
			const probe = await slotAt(mine, clock);
			mine.rateLimited(probe, 400, true, false);
			probe.finished();
		}
		expect(mine.pauseLeft()).toBeGreaterThan(0);
		expect(mine.share()).toBeLessThan(1);
		expect(theirs.share()).toBe(1);
		expect(theirs.pauseLeft()).toBe(0);
		expect(theirs.delayUntilFree()).toBe(0);
	});

	it('one credential with five executions at once, sharing with another process: <= 1 % 429, >= 90 % of the plan, no item failed', async () => {
		for (const model of ['sliding', 'fixed-10s'] as const) {
			const clock = new VirtualClock(3_700);
			const gateway = windowGateway(PLAN, 60_000, model, noRetryAfter);
			const shared = new PlanLimiter(PLAN, clock);
			const start = clock.now();
			const processes = [0, 1, 2, 3, 4].map((id) =>
				startOther(clock, gateway, { id, plan: PLAN, limiter: shared, seed: id + 1 }),
			);
			processes.push(startOther(clock, gateway, { id: 9, plan: PLAN, seed: 99 }));
			await clock.runUntil(start + 180_000);
			await settle(clock, processes);
			const busy = countOf(gateway.arrivals, start, start + 180_000);
			const all = countOf(gateway.arrivals, 0, Infinity);
			expect(all.refused / all.all).toBeLessThanOrEqual(0.01);
			expect(busy.accepted / 180 / PER_SECOND).toBeGreaterThanOrEqual(0.9);
			expect(processes.reduce((sum, p) => sum + p.failed, 0)).toBe(0);
		}
	});

	it("an execution stopped during the minute's-room pause ends at once, not at the pause's end", async () => {
		const clock = new VirtualClock(1_000);
		const limiter = new PlanLimiter(PLAN, clock);
		await sendFor(limiter, clock, 30_000, 20);
		let slot = await slotAt(limiter, clock);
		limiter.rateLimited(slot, 400, true, false);
		slot.finished();
		// Failed probes until the episode is longer than a 10 s window: the pause is the minute's room.
		while (limiter.pauseLeft() < 10_000) {
			await clock.advance(limiter.pauseLeft());
			slot = await slotAt(limiter, clock);
			limiter.rateLimited(slot, 400, true, false);
			slot.finished();
		}
		const stop = new AbortController();
		let ended = false;
		void limiter.acquire(stop.signal).catch(() => (ended = true));
		await clock.advance(100);
		const at = clock.now();
		stop.abort();
		await clock.advance(0);
		expect(ended).toBe(true);
		expect(clock.now()).toBe(at);
	});

	// An episode whose run stopped during its pause (the user's stop, the waiting budget, the
	// circuit breaker) is abandoned a window after its pause ended: the limiter is idle again and
	// forgets it. Left open, an hour later the next run's first request was that episode's probe;
	// its answer ended an episode "an hour long", which said the window was the minute's and cut
	// the share again to the part of the minute it had an hour before: 46 % of the plan in its
	// first 10 s.
	it.each([
		['left open by a stopped run', false],
		['that ended', true],
	])(
		'an episode %s, then an hour idle: the next run goes at the plan at once',
		async (_, ended) => {
			const clock = new VirtualClock(1_000);
			const limiter = new PlanLimiter(PLAN, clock);
			await sendFor(limiter, clock, 30_000, 12.5); // half the plan: others sent the rest
			const slot = await slotAt(limiter, clock);
			limiter.rateLimited(slot, 400, true, false);
			slot.finished();
			if (ended) {
				await clock.advance(limiter.pauseLeft());
				(await slotAt(limiter, clock)).finished();
			}
			await clock.advance(3_600_000); // nothing more is sent for an hour
			const gateway = windowGateway(PLAN, 60_000, 'sliding', noRetryAfter);
			const start = clock.now();
			const run = startOther(clock, gateway, { id: 0, plan: PLAN, limiter });
			await clock.runUntil(start + 10_000);
			await settle(clock, [run]);
			expect(
				countOf(gateway.arrivals, start, start + 10_000).accepted / 250,
			).toBeGreaterThanOrEqual(0.9);
		},
	);

	it('keeps at most a window of start times, however long the process runs and however many episodes', async () => {
		const clock = new VirtualClock(3_700);
		const gateway = windowGateway(PLAN, 60_000, 'fixed-60s', noRetryAfter);
		const processes = [0, 1, 2].map((id) => startOther(clock, gateway, { id, plan: PLAN }));
		for (let minute = 0; minute < 10; minute++) {
			await clock.advance(60_000);
			for (const p of processes) {
				p.limiter.delayUntilFree(); // prunes
				const starts = (p.limiter as unknown as { starts: number[] }).starts;
				expect(starts.length).toBeLessThanOrEqual(PLAN);
			}
		}
		expect(gateway.arrivals.filter((a) => a.status === 429).length).toBeGreaterThan(5);
		await settle(clock, processes);
	});
});

describe('a lone process after a gateway outage', () => {
	/**
	 * Alone at the plan for 30 s, then `outageMs` of 429 without Retry-After (a stray 429
	 * `strayAfterMs` after, 0: none): its share of the plan from 30 to 40 s after the outage.
	 */
	async function afterOutage(outageMs: number, strayAfterMs: number) {
		const clock = new VirtualClock(1_000);
		const end = 31_000 + outageMs;
		let stray = strayAfterMs > 0;
		const gateway = gatewayOf((now) => {
			if (now >= 31_000 && now < end) return { status: 429 };
			if (stray && now >= end + strayAfterMs) {
				stray = false;
				return { status: 429 };
			}
			return { status: 200 };
		});
		const run = startOther(clock, gateway, { id: 0, plan: PLAN });
		await clock.runUntil(end + 40_000);
		await settle(clock, [run]);
		return countOf(gateway.arrivals, end + 30_000, end + 40_000).accepted / 250;
	}

	// Finding: the outage "kept it out" (20 s or more), so its end cuts the share to its part of
	// the minute's starts (0.5: it had sent for 30 s) and calls it sharing (the way back of 30 s),
	// though no one else sent: 47 % of the plan from 10 to 30 s after the outage, 82 % (206 of 250)
	// from 30 to 40 s. With one stray 429 20 s after a 40 s outage: 0 from 30 to 40 s after, 11 of
	// 250 from 50 to 60 s. Locally this outage looks like processes that start together and fill
	// a minute's window (each filled its own 10 s): counting the part over the time the process was
	// busy in the minute (1 here), or claiming others only when the first 429 said so, meets these
	// and misses one more sharing-matrix cell at seed 0 (sliding 60 s without Retry-After, 3
	// staggered: alone 86.4 %) and 1-3 more at seeds 1 and 3: not taken.
	it.failing.each([
		[25_000, 0],
		[40_000, 0],
		[40_000, 20_000],
	])(
		'alone, after %i ms of 429 without Retry-After (a stray 429 %i ms later): >= 90 %% of the plan 30 s after the outage',
		async (outageMs, strayAfterMs) => {
			expect(await afterOutage(outageMs, strayAfterMs)).toBeGreaterThanOrEqual(0.9);
		},
	);
});

describe('a wall clock that steps', () => {
	it("the process's limiters pace on the monotonic clock: a wall clock stepped back an hour or forward 5 hours mid-episode changes no pause", async () => {
		const limiter = limiters.get('c'.repeat(64), 'GetFbpiOrder', PLAN);
		const slot = await limiter.acquire();
		limiter.rateLimited(slot, 2_000, true, false);
		slot.finished();
		const before = limiter.pauseLeft();
		const wall = Date.now();
		const spy = jest.spyOn(Date, 'now');
		try {
			spy.mockReturnValue(wall - 3_600_000);
			expect(limiter.pauseLeft()).toBeLessThanOrEqual(before);
			expect(limiter.pauseLeft()).toBeGreaterThan(before - 1_000);
			spy.mockReturnValue(wall + 5 * 3_600_000);
			expect(limiter.pauseLeft()).toBeGreaterThan(before - 1_000);
			expect(limiter.delayUntilFree()).toBeLessThanOrEqual(2_000);
		} finally {
			spy.mockRestore();
		}
	});
});

describe('starvation', () => {
	it('alone against a loop that never backs off (the minute always full): each probe within 30 s, and its items fail (the node stops) instead of waiting for ever', async () => {
		const clock = new VirtualClock(1_000);
		// The other sender takes every slot that frees: this process's requests are all refused.
		const gateway = gatewayOf((now) => (now < 120_000 ? { status: 200 } : { status: 429 }));
		const run = startOther(clock, gateway, { id: 0, plan: PLAN });
		await clock.runUntil(720_000);
		const refused = gateway.arrivals.filter((a) => a.status === 429).map((a) => a.at);
		const gaps = refused.slice(1).map((at, i) => at - refused[i]);
		expect(Math.max(...gaps)).toBeLessThanOrEqual(30_000 + 200);
		// Probes only: a few a minute, not a storm.
		expect(refused.length).toBeLessThan(((720_000 - 120_000) / 60_000) * 8);
		expect(run.failed).toBeGreaterThan(0);
		run.stop();
		await clock.runUntil(800_000);
	});
});

describe('plans at the edges', () => {
	it.each([1, 7, 100_000])(
		'%i per 60 s: an episode without Retry-After longer than the minute keeps every wait a finite number',
		async (plan) => {
			const clock = new VirtualClock(1_000);
			const limiter = new PlanLimiter(plan, clock);
			await sendFor(limiter, clock, 20_000, Math.min(plan / 60, 1000));
			let slot = await slotAt(limiter, clock);
			limiter.rateLimited(slot, 300, true, false);
			slot.finished();
			const start = clock.now();
			while (clock.now() - start < 90_000) {
				const pause = limiter.pauseLeft();
				expect(Number.isFinite(pause)).toBe(true);
				expect(pause).toBeLessThanOrEqual(60_000);
				await clock.advance(pause);
				slot = await slotAt(limiter, clock);
				limiter.rateLimited(slot, 300, true, false);
				slot.finished();
			}
			await clock.advance(limiter.pauseLeft());
			(await slotAt(limiter, clock)).finished();
			expect(Number.isFinite(limiter.share())).toBe(true);
			expect(Number.isFinite(limiter.delayUntilFree())).toBe(true);
			// A second episode soon after (the minute's room from its first 429).
			slot = await slotAt(limiter, clock);
			limiter.rateLimited(slot, 300, true, false);
			slot.finished();
			expect(Number.isFinite(limiter.pauseLeft())).toBe(true);
			expect(limiter.pauseLeft()).toBeGreaterThan(0);
		},
	);
});
