/**
 * Each endpoint's documented rate plan (gateway/endpoints.ts), paced per endpoint and per rate
 * scope (gateway/url.ts `rateScope`; pacing/limiters.ts, pacing/rateLimiter.ts), on virtual time.
 */
import { COMMON_PLAN } from '../../dist/nodes/shared/credential/plan';
import { ENDPOINTS } from '../../dist/nodes/shared/gateway/endpoints';
import { rateScope } from '../../dist/nodes/shared/gateway/url';
import {
	limiters,
	MAX_LIMITERS,
	pacedPlan,
	RateLimiterRegistry,
} from '../../dist/nodes/shared/pacing/limiters';
import { PlanLimiter } from '../../dist/nodes/shared/pacing/rateLimiter';
import { maxInWindow } from '../helpers/sharingModel';
import { VirtualClock } from '../helpers/virtualTime';

/** Asks for `count` slots at once (as fast as the limiter allows), each answered when granted. */
function load(limiter: PlanLimiter, clock: VirtualClock, count: number): number[] {
	const granted: number[] = [];
	for (let i = 0; i < count; i++) {
		void limiter.acquire().then((slot) => {
			granted.push(clock.now());
			slot.finished();
		});
	}
	return granted;
}

/**
 * The fewest starts in any `windowMs` that begins at a start and ends before the last one (0 when
 * no such window fits: the load was too short to tell).
 */
function leastInWindow(times: number[], windowMs: number): number {
	let least = Infinity;
	for (let i = 0, j = 0; i < times.length && times[i] + windowMs <= times[times.length - 1]; i++) {
		while (j < times.length && times[j] < times[i] + windowMs) j++;
		least = Math.min(least, j - i);
	}
	return least === Infinity ? 0 : least;
}

const production = { baseUrl: 'https://noon-api-gateway.noon.partners', projectCode: 'PRJ1' };
const sandbox = {
	baseUrl: 'https://noon-sandbox-api-gateway.noon.partners/ ',
	projectCode: ' PRJ1 ',
};
/** The same project at a local server (an emulator, a co-tenant's server): its own plan. */
const local = { baseUrl: 'http://127.0.0.1:8080', projectCode: 'PRJ1' };
const otherProject = { baseUrl: 'https://noon-api-gateway.noon.partners', projectCode: 'PRJ2' };

describe('the endpoint table', () => {
	it('gives every endpoint its documented plan: the common 1500 per 60 s, ListWarehouses its own', () => {
		expect(COMMON_PLAN).toEqual({
			requests: 1500,
			windowSeconds: 60,
			burst: 1500,
			burstWindowSeconds: 60,
		});
		const seed = [
			'ExchangeToken',
			'GetExportStatus',
			'GetPurchaseOrder',
			'GetFbpiOrderCustomerData',
			'CreateSandboxOrder',
			'CreateBarcodeImport',
			'GetImportStatus',
			'CreateCredential',
			'UpdateDestination',
		] as const;
		// Exports and identity.
		const exportsAndIdentity = [
			'CreateExport',
			'GetExportCategoryList',
			'RemoveCredentials',
			'CreateToken',
		] as const;
		for (const endpoint of [...seed, ...exportsAndIdentity, 'Login', 'Whoami'] as const) {
			expect(ENDPOINTS[endpoint].plan).toEqual(COMMON_PLAN);
		}
		expect(ENDPOINTS.ListWarehouses.plan).toEqual({
			requests: 30,
			windowSeconds: 60,
			burst: 15,
			burstWindowSeconds: 30,
		});
	});
});

describe('an endpoint documented below the common plan', () => {
	it('ListWarehouses, the credential at 1500: never over 30 in any 60 s nor 15 in any 30 s, and near 30 per 60 s', async () => {
		const clock = new VirtualClock();
		const limiter = new RateLimiterRegistry(clock).get('PRJ1', 'ListWarehouses', 1500);
		const granted = load(limiter, clock, 200);
		await clock.runUntil(600_000);
		expect(granted).toHaveLength(200);
		expect(maxInWindow(granted, 60_000)).toBeLessThanOrEqual(30);
		expect(maxInWindow(granted, 30_000)).toBeLessThanOrEqual(15);
		// Warmed up from the first start: every 60 s of the run carries at least 28.
		expect(leastInWindow(granted, 60_000)).toBeGreaterThanOrEqual(28);
	});

	it('holds a burst limit tighter than its slices: 60 per 60 s with at most 5 in any 10 s', async () => {
		const clock = new VirtualClock();
		const plan = { requests: 60, windowSeconds: 60, burst: 5, burstWindowSeconds: 10 };
		const limiter = new PlanLimiter(plan, clock);
		const granted = load(limiter, clock, 100);
		await clock.runUntil(600_000);
		expect(granted).toHaveLength(100);
		expect(maxInWindow(granted, 10_000)).toBeLessThanOrEqual(5);
		// The burst, not the plan, sets the pace: 5 per 10 s (with the margin) is 29 or 30 per 60 s.
		expect(maxInWindow(granted, 60_000)).toBeLessThanOrEqual(30);
		expect(leastInWindow(granted, 60_000)).toBeGreaterThanOrEqual(28);
	});

	it("takes the credential's rate when it is lower, never the endpoint's plan when it is higher", () => {
		const warehouses = ENDPOINTS.ListWarehouses.plan;
		expect(pacedPlan(warehouses, 1500)).toEqual(warehouses);
		expect(pacedPlan(warehouses, 1_000_000)).toEqual(warehouses);
		expect(pacedPlan(warehouses, 20)).toEqual({ ...warehouses, requests: 20, burst: 15 });
		expect(pacedPlan(warehouses, 10)).toEqual({ ...warehouses, requests: 10, burst: 10 });
		// N per minute over a 30 s window: N / 2 (the echo service's plan, 10 per 30 s, burst 5 per 10 s).
		const echo = { requests: 10, windowSeconds: 30, burst: 5, burstWindowSeconds: 10 };
		expect(pacedPlan(echo, 8)).toEqual({ ...echo, requests: 4, burst: 4 });
	});
});

describe("the credential's Requests per Minute on the common plan", () => {
	it('keeps 600 per 60 s (a sixth in any 10 s) for an endpoint documented at 1500 per 60 s', async () => {
		const clock = new VirtualClock();
		const limiter = new RateLimiterRegistry(clock).get('PRJ1', 'GetPurchaseOrder', 600);
		expect(limiter.plan).toBe(600);
		expect(limiter.windowMs).toBe(60_600);
		const granted = load(limiter, clock, 1500);
		await clock.runUntil(200_000);
		expect(granted).toHaveLength(1500);
		expect(maxInWindow(granted, 60_000)).toBeLessThanOrEqual(600);
		expect(maxInWindow(granted, 10_000)).toBeLessThanOrEqual(100);
		expect(leastInWindow(granted, 60_000)).toBeGreaterThanOrEqual(590);
	});

	it('keeps a rate above 1500 where the user set one (the common plan is paced at the credential)', () => {
		expect(pacedPlan(COMMON_PLAN, 1_000_000)).toEqual({
			...COMMON_PLAN,
			requests: 1_000_000,
			burst: 1_000_000,
		});
	});
});

describe('the quota is the project’s at the gateways, whatever the host', () => {
	it('two gateway hosts of one project share one plan: their sum stays within it', async () => {
		const clock = new VirtualClock();
		const registry = new RateLimiterRegistry(clock);
		const viaProduction = registry.get(rateScope(production), 'GetPurchaseOrder', 60);
		const viaSandbox = registry.get(rateScope(sandbox), 'GetPurchaseOrder', 60);
		expect(viaSandbox).toBe(viaProduction);
		const a = load(viaProduction, clock, 100);
		const b = load(viaSandbox, clock, 100);
		await clock.runUntil(120_000);
		const both = [...a, ...b].sort((x, y) => x - y);
		expect(maxInWindow(both, 60_000)).toBeLessThanOrEqual(60);
		expect(leastInWindow(both, 60_000)).toBeGreaterThanOrEqual(58);
		// Both were served, in the order they asked (the first's 100 before the second's).
		expect(a).toHaveLength(100);
		expect(b.length).toBeGreaterThan(0);
		expect(Math.min(...b)).toBeGreaterThan(Math.max(...a));
	});

	it('two projects do not: each gets its own plan', async () => {
		const clock = new VirtualClock();
		const registry = new RateLimiterRegistry(clock);
		const ours = registry.get(rateScope(production), 'GetPurchaseOrder', 60);
		const theirs = registry.get(rateScope(otherProject), 'GetPurchaseOrder', 60);
		expect(theirs).not.toBe(ours);
		const a = load(ours, clock, 100);
		const b = load(theirs, clock, 100);
		await clock.runUntil(120_000);
		for (const granted of [a, b]) {
			expect(maxInWindow(granted, 60_000)).toBeLessThanOrEqual(60);
			expect(leastInWindow(granted, 60_000)).toBeGreaterThanOrEqual(58);
		}
	});

	it('a local Base URL of the same project is its own plan: neither holds the other back', async () => {
		const clock = new VirtualClock();
		const registry = new RateLimiterRegistry(clock);
		const gateway = registry.get(rateScope(production), 'GetPurchaseOrder', 60);
		const own = registry.get(rateScope(local), 'GetPurchaseOrder', 60);
		expect(own).not.toBe(gateway);
		// Its 429 with a long Retry-After pauses its own plan only.
		own.rateLimited(await own.acquire(), 3_600_000);
		expect(own.pauseLeft()).toBeGreaterThan(0);
		const a = load(gateway, clock, 100);
		await clock.runUntil(120_000);
		expect(gateway.pauseLeft()).toBe(0);
		expect(maxInWindow(a, 60_000)).toBeLessThanOrEqual(60);
		expect(leastInWindow(a, 60_000)).toBeGreaterThanOrEqual(58);
	});

	it('one endpoint’s plan is not another’s: a busy endpoint holds no other back', () => {
		const registry = new RateLimiterRegistry(new VirtualClock());
		const project = rateScope(production);
		expect(registry.get(project, 'ListWarehouses', 1500)).not.toBe(
			registry.get(project, 'GetPurchaseOrder', 1500),
		);
	});
});

describe("the process's limiters have a bound", () => {
	it('10,000 credentials of made-up projects (and plans) keep the limiters used last, the oldest forgotten', () => {
		const kept = limiters.get('PRJ-IN-USE', 'GetPurchaseOrder', 1500);
		const first = limiters.get('made-up-0', 'GetPurchaseOrder', 1500);
		for (let i = 1; i < 10_000; i++) {
			limiters.get(`made-up-${i}`, 'GetPurchaseOrder', 1 + (i % 700));
			// A project in use stays: it is used again and again meanwhile.
			if (i % 500 === 0) expect(limiters.get('PRJ-IN-USE', 'GetPurchaseOrder', 1500)).toBe(kept);
		}
		expect(limiters.size).toBeLessThanOrEqual(MAX_LIMITERS);
		expect(limiters.get('PRJ-IN-USE', 'GetPurchaseOrder', 1500)).toBe(kept);
		// The first made-up project's limiter was forgotten: a new one stands in its place.
		expect(limiters.get('made-up-0', 'GetPurchaseOrder', 1500)).not.toBe(first);
	});

	it('over the bound, drops the limiter used longest ago that nothing holds: a 429 pause stays, the one handed out stays, one with only starts in its window may go', async () => {
		const clock = new VirtualClock();
		const registry = new RateLimiterRegistry(clock, 2);
		const sending = registry.get('PRJ-SENDING', 'GetPurchaseOrder', 1500);
		(await sending.acquire()).finished();
		const paused = registry.get('PRJ-PAUSED', 'GetPurchaseOrder', 1500);
		paused.rateLimited(await paused.acquire(), 30_000);
		// A third: it is handed out and kept; the one used longest ago that no caller waits for and
		// no throttling episode holds goes (its starts in the window do not keep it).
		const added = registry.get('PRJ-NEW', 'GetPurchaseOrder', 1500);
		expect(registry.get('PRJ-NEW', 'GetPurchaseOrder', 1500)).toBe(added);
		expect(registry.get('PRJ-PAUSED', 'GetPurchaseOrder', 1500)).toBe(paused);
		expect(registry.get('PRJ-SENDING', 'GetPurchaseOrder', 1500)).not.toBe(sending);
		// Once the pause is over, the paused one may go too.
		await clock.runUntil(clock.now() + 5 * 60_000);
		for (let i = 0; i < 4; i++) registry.get(`PRJ-NEW-${i}`, 'GetPurchaseOrder', 1500);
		expect(registry.size).toBeLessThanOrEqual(2);
	});
});
