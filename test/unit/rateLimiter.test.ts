/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
import {
	PACING,
	PlanLimiter,
	RateLimiterRegistry,
	type Clock,
	type Slot,
} from '../../nodes/api/rateLimiter';

/** A clock whose time only moves when the test says so. */
class FakeClock implements Clock {
	private time = 0;
	private timers: Array<{ at: number; resolve: () => void }> = [];

	now() {
		return this.time;
	}

	async sleep(ms: number) {
		await new Promise<void>((resolve) => this.timers.push({ at: this.time + ms, resolve }));
	}

	/** Moves time forward in small steps, letting woken callers run between steps. */
	async advance(ms: number, step = 1) {
		const end = this.time + ms;
		while (this.time < end) {
			this.time = Math.min(end, this.time + step);
			const due = this.timers.filter((t) => t.at <= this.time);
			this.timers = this.timers.filter((t) => t.at > this.time);
			due.forEach((t) => t.resolve());
			await flush();
		}
	}
}

/** Lets every pending promise callback run (setImmediate comes after the microtask queue). */
const flush = async () => await new Promise<void>((resolve) => setImmediate(resolve));

/** Starts `count` acquisitions and records the fake time at which each was granted. */
function startAll(limiter: PlanLimiter, clock: FakeClock, count: number) {
	const granted: number[] = [];
	for (let i = 0; i < count; i++) void limiter.acquire().then(() => granted.push(clock.now()));
	return granted;
}

/** The largest number of grants inside any window of `windowMs`. */
function maxInWindow(times: number[], windowMs: number) {
	let best = 0;
	for (let i = 0; i < times.length; i++) {
		let j = i;
		while (j < times.length && times[j] < times[i] + windowMs) j++;
		best = Math.max(best, j - i);
	}
	return best;
}

/** Acquires a slot, moving the fake time on until it is granted. */
async function grant(limiter: PlanLimiter, clock: FakeClock) {
	let slot: Slot | undefined;
	void limiter.acquire().then((granted) => (slot = granted));
	while (!slot) await clock.advance(1);
	return slot;
}

/** Grants `count` requests one after the other, each answered `roundTrip(i)` ms later. */
async function runRequests(
	limiter: PlanLimiter,
	clock: FakeClock,
	count: number,
	roundTrip: (i: number) => number,
) {
	const granted: number[] = [];
	const pending: Array<{ end: number; finish: () => void }> = [];
	let started = 0;
	const next = () => {
		if (started >= count) return;
		started++;
		void limiter.acquire().then((slot) => {
			granted.push(clock.now());
			pending.push({ end: clock.now() + roundTrip(granted.length - 1), finish: slot.finished });
			next();
		});
	};
	next();
	while (granted.length < count || pending.length) {
		await clock.advance(10, 10);
		for (const entry of pending.filter((p) => p.end <= clock.now())) {
			entry.finish();
			pending.splice(pending.indexOf(entry), 1);
		}
	}
	return granted;
}

describe('PlanLimiter: pacing', () => {
	it('never lets more than a slice of the plan start in any slice, nor the plan in any minute', async () => {
		const clock = new FakeClock();
		const limiter = new PlanLimiter(1500, clock);
		// 1500 per minute: 60 slices of 25 per second, each window stretched by 1%.
		expect(limiter.slice).toEqual({ limit: 25, windowMs: 1010 });
		expect(limiter.windowMs).toBe(60_600);
		const granted = startAll(limiter, clock, 300);
		await clock.advance(12_000);
		expect(granted).toHaveLength(300);
		expect(maxInWindow(granted, 1010)).toBe(25);
		// Within a slice, starts are spread: at least 90% of 1010 / 25 ms apart.
		const gaps = granted.slice(1).map((t, i) => t - granted[i]);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(36);
		// 12 slices of 25, each spread over 24 gaps: the last start is at 11 × 1010 + 24 × 36.4 ms.
		expect(granted[299]).toBeGreaterThanOrEqual(11 * 1010 + 870);
		expect(granted[299]).toBeLessThanOrEqual(11 * 1010 + 900);
	});

	it('never lets more than the plan start in a minute', async () => {
		const clock = new FakeClock();
		const limiter = new PlanLimiter(6, clock);
		const granted = startAll(limiter, clock, 13);
		await clock.advance(130_000, 100);
		expect(granted).toHaveLength(13);
		expect(maxInWindow(granted, 60_600)).toBe(6);
		expect(granted[12]).toBeGreaterThanOrEqual(2 * 60_600);
	});

	it('serves callers in arrival order', async () => {
		const clock = new FakeClock();
		const limiter = new PlanLimiter(600, clock);
		const order: number[] = [];
		for (let i = 0; i < 5; i++) void limiter.acquire().then(() => order.push(i));
		await clock.advance(1000);
		expect(order).toEqual([0, 1, 2, 3, 4]);
	});

	it('dates a request by its grant: the jitter of the latency changes no start', async () => {
		const steady = new FakeClock();
		const jittery = new FakeClock();
		const a = await runRequests(new PlanLimiter(120, steady), steady, 150, () => 300);
		// Round trips between 100 and 1100 ms, as a far gateway with jitter answers.
		const b = await runRequests(
			new PlanLimiter(120, jittery),
			jittery,
			150,
			(i) => 100 + ((i * 397) % 1000),
		);
		expect(b).toEqual(a);
	});

	it("dates a request that waited for a login by the login's end", async () => {
		const clock = new FakeClock();
		const limiter = new PlanLimiter(1, clock);
		const first = await limiter.acquire(); // granted at 0, then the first login holds it back
		await clock.advance(3000);
		first.finished(2900); // the login ended at 2900: the request left after that
		const granted: number[] = [];
		void limiter.acquire().then(() => granted.push(clock.now()));
		await clock.advance(70_000, 10);
		expect(granted).toEqual([2900 + 60_600]);
	});
});

describe('PlanLimiter: sharing the plan with others (a 429 answer)', () => {
	it('pauses every request until the Retry-After, then cuts its share to 90% of what it sent', async () => {
		const clock = new FakeClock();
		const limiter = new PlanLimiter(60, clock);
		const granted = startAll(limiter, clock, 60);
		await clock.advance(50_000, 10);
		const sent = granted.length;
		expect(sent).toBe(50);
		limiter.rateLimited(granted[sent - 1], 5000);
		expect(limiter.share()).toBeCloseTo(0.75, 5); // 90% of 50 of 60
		// It sent 50 in this window and may now send 45: it waits until its window has room.
		await clock.advance(10_000, 10);
		expect(granted).toHaveLength(sent);
	});

	it('never cuts by more than half, and sends again after the Retry-After', async () => {
		const clock = new FakeClock();
		const limiter = new PlanLimiter(60, clock);
		const granted = startAll(limiter, clock, 20);
		await clock.advance(9_000, 10);
		const sent = granted.length;
		expect(sent).toBe(9);
		limiter.rateLimited(granted[sent - 1], 5000);
		expect(limiter.share()).toBe(0.5); // 90% of 9 of 60 would be 0.135
		await clock.advance(4990, 10);
		expect(granted).toHaveLength(sent);
		await clock.advance(20, 10);
		expect(granted).toHaveLength(sent + 1);
	});

	it('cuts once for the requests sent before the cut, again for those sent after', async () => {
		const clock = new FakeClock();
		const limiter = new PlanLimiter(6000, clock);
		await clock.advance(1000);
		const before = await grant(limiter, clock);
		const alsoBefore = await grant(limiter, clock);
		await clock.advance(1000);
		expect(limiter.rateLimited(before.granted, 0)).toBe(true);
		expect(limiter.share()).toBe(0.5); // it had sent 2 of 6000: half its share is the floor
		expect(limiter.rateLimited(alsoBefore.granted, 0)).toBe(false);
		expect(limiter.share()).toBe(0.5);
		const after = await grant(limiter, clock);
		limiter.rateLimited(after.granted, 0);
		expect(limiter.share()).toBeCloseTo(0.25, 2);
		// Never below the floor.
		for (let i = 0; i < 10; i++) {
			const slot = limiter.acquire();
			await clock.advance(1000, 10);
			limiter.rateLimited((await slot).granted, 0);
		}
		expect(limiter.share()).toBeGreaterThanOrEqual(PACING.minShare);
		expect(limiter.share()).toBeLessThan(0.06);
	});

	it('regains a tenth of the plan per window without a 429, all of it after a quiet window', async () => {
		const clock = new FakeClock();
		const limiter = new PlanLimiter(100, clock);
		const slot = await limiter.acquire();
		limiter.rateLimited(slot.granted, 0);
		expect(limiter.share()).toBe(0.5);
		await clock.advance(30_300);
		expect(limiter.share()).toBeCloseTo(0.55, 2);
		expect(limiter.allowance()).toBeCloseTo(55, 0);
		// A window without a request of its own: what it learnt is stale, the plan is whole again.
		await clock.advance(31_000);
		expect(limiter.delayUntilFree()).toBe(0);
		expect(limiter.share()).toBe(1);
	});

	it('caps the pause at a window: a longer Retry-After fails the run that got it, not the others', async () => {
		const clock = new FakeClock();
		const limiter = new PlanLimiter(1500, clock);
		limiter.rateLimited((await limiter.acquire()).granted, 3_600_000);
		expect(limiter.delayUntilFree()).toBeLessThanOrEqual(60_000);
		expect(limiter.delayUntilFree()).toBeGreaterThan(59_000);
	});
});

describe("PlanLimiter: requests in flight (Little's law)", () => {
	it.each([
		[50, 4],
		[300, 14],
		[600, 25],
		[5000, 64],
	])(
		'at %i ms round trips suggests %i in flight for 1500 per minute',
		async (roundTrip, expected) => {
			const clock = new FakeClock();
			const limiter = new PlanLimiter(1500, clock);
			expect(limiter.suggestedConcurrency()).toBe(PACING.initialConcurrency);
			const slot = await limiter.acquire();
			await clock.advance(roundTrip, roundTrip);
			slot.finished();
			expect(limiter.meanRoundTrip()).toBe(roundTrip);
			expect(limiter.suggestedConcurrency()).toBe(expected);
		},
	);
});

describe('RateLimiterRegistry', () => {
	it('shares one limiter per scope and operation, and a new one when the plan changes', () => {
		const registry = new RateLimiterRegistry(new FakeClock());
		const a = registry.get('gw|PRJ1', 'GetPurchaseOrder', 1500);
		expect(registry.get('gw|PRJ1', 'GetPurchaseOrder', 1500)).toBe(a);
		expect(registry.get('gw|PRJ1', 'GetImportStatus', 1500)).not.toBe(a);
		expect(registry.get('gw|PRJ2', 'GetPurchaseOrder', 1500)).not.toBe(a);
		const slower = registry.get('gw|PRJ1', 'GetPurchaseOrder', 600);
		expect(slower).not.toBe(a);
		expect(slower.plan).toBe(600);
		expect(a.windowMs).toBe(60_600);
	});
});
