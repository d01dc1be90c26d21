import {
	RateLimiterRegistry,
	SlidingWindowLimiter,
	planSlices,
	type Clock,
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
function startAll(limiter: SlidingWindowLimiter, clock: FakeClock, count: number) {
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

describe('SlidingWindowLimiter', () => {
	it('lets `limit` requests go at once, then one more each time a slot leaves the window', async () => {
		const clock = new FakeClock();
		const limiter = new SlidingWindowLimiter(3, 1000, clock);
		const granted = startAll(limiter, clock, 7);
		await flush();
		expect(granted).toEqual([0, 0, 0]);
		await clock.advance(999);
		expect(granted).toHaveLength(3);
		await clock.advance(1);
		expect(granted).toEqual([0, 0, 0, 1000, 1000, 1000]);
		await clock.advance(1000);
		expect(granted).toEqual([0, 0, 0, 1000, 1000, 1000, 2000]);
	});

	it('never lets more than `limit` start in any window, at a steady rate of limit/window', async () => {
		const clock = new FakeClock();
		const limiter = new SlidingWindowLimiter(25, 1000, clock);
		const granted = startAll(limiter, clock, 300);
		await clock.advance(12_000);
		expect(granted).toHaveLength(300);
		expect(maxInWindow(granted, 1000)).toBe(25);
		expect(maxInWindow(granted, 60_000)).toBeLessThanOrEqual(1500);
		// 12 windows of 25: the last one starts at 11 s (give or take the fake clock's 1 ms steps).
		expect(granted[299]).toBeGreaterThanOrEqual(11_000);
		expect(granted[299]).toBeLessThanOrEqual(11_012);
	});

	it('serves callers in arrival order', async () => {
		const clock = new FakeClock();
		const limiter = new SlidingWindowLimiter(1, 100, clock);
		const order: number[] = [];
		for (let i = 0; i < 5; i++) void limiter.acquire().then(() => order.push(i));
		await clock.advance(500);
		expect(order).toEqual([0, 1, 2, 3, 4]);
	});
});

describe('SlidingWindowLimiter, counting a request from its estimated arrival', () => {
	it('counts the first requests from their end, since their delay before sending is unknown', async () => {
		const clock = new FakeClock();
		const limiter = new SlidingWindowLimiter(1, 1000, clock);
		const first = await limiter.acquire(); // granted at 0, but (say) a login holds it back
		await clock.advance(300);
		first.finished(); // answered at 300: it may have arrived as late as that
		const granted: number[] = [];
		void limiter.acquire().then(() => granted.push(clock.now()));
		await clock.advance(1200);
		expect(granted).toEqual([1300]);
	});

	it('then estimates arrival as the end minus the shortest round trip seen', async () => {
		const clock = new FakeClock();
		const limiter = new SlidingWindowLimiter(1, 1000, clock);
		const quick = await limiter.acquire();
		await clock.advance(50);
		quick.finished(); // round trip 50 ms: counted from 50 (no earlier round trip known)

		await clock.advance(1000);
		const slow = await limiter.acquire(); // granted at 1050
		expect(clock.now()).toBe(1050);
		await clock.advance(80);
		slow.finished(); // ended at 1130, shortest round trip 50: arrived about 1080

		const granted: number[] = [];
		void limiter.acquire().then(() => granted.push(clock.now()));
		await clock.advance(1100);
		expect(granted).toEqual([2080]);
	});
});

describe('planSlices', () => {
	it.each([
		[1500, 25, 1000],
		[100, 2, 1200],
		[7, 1, 60_000 / 7],
		[3600, 60, 1000],
		[1, 1, 60_000],
	])('splits %i per minute into slices of %i per %f ms', (rpm, limit, windowMs) => {
		const plan = planSlices(rpm);
		expect(plan.limit).toBe(limit);
		expect(plan.windowMs).toBeCloseTo(windowMs);
		// Any minute holds at most the plan, and the long-run rate is exactly the plan.
		expect(plan.limit * (60_000 / plan.windowMs)).toBeCloseTo(rpm);
	});
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
		expect(slower.limit).toBe(10);
		// Each slice is stretched by 1% as a safety margin against arrival jitter.
		expect(a.windowMs).toBe(1010);
	});
});
