/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * pacing/ (policy.ts, budget.ts, breaker.ts, retries.ts, paced.ts, waits.ts), the run's limits: how long to wait after a 429 or a failure (Retry-After, backoff),
 * the waiting budget, the circuit breaker, cancellation. Real timers, short waits.
 */
import { ExecutionStopped } from '../../dist/nodes/shared/common/abort';
import { PolicyStop } from '../../dist/nodes/shared/errors/errors';
import { limiters } from '../../dist/nodes/shared/pacing/limiters';
import { paced } from '../../dist/nodes/shared/pacing/paced';
import { RunPolicy } from '../../dist/nodes/shared/pacing/policy';
import { PlanLimiter, type Slot } from '../../dist/nodes/shared/pacing/rateLimiter';
import { withRetries } from '../../dist/nodes/shared/pacing/retries';
import {
	backoffDelay,
	parseRetryAfter,
	rateLimitDelay,
	RETRY_POLICY,
} from '../../dist/nodes/shared/pacing/waits';
import { VirtualClock } from '../helpers/virtualTime';

/** The shape of an HTTP answer as n8n's request helpers reject with it. */
const answer = (status: number, headers: Record<string, string> = {}) =>
	Object.assign(new Error(`Request failed with status code ${status}`), {
		response: { status, headers, data: { message: `HTTP ${status}` } },
	});

describe('waiting budget', () => {
	it('fails a wait beyond the budget at once, saying when the service takes requests again', async () => {
		const policy = new RunPolicy(undefined, 5_000);
		const started = Date.now();
		const error = await policy.waitOut(3_600_000, 429, true).catch((e: unknown) => e);
		// Idle: a few ms. Waiting out the budget first would take 5 s, the Retry-After an hour.
		expect(Date.now() - started).toBeLessThan(1000);
		expect(error).toBeInstanceOf(PolicyStop);
		expect((error as PolicyStop).message).toMatch(
			/takes requests again at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d.\d{3}Z \(Retry-After 3600 s\), beyond this run's waiting budget/,
		);
		expect((error as PolicyStop).description).toContain('Waiting Budget (Seconds)');
		expect((error as PolicyStop).httpStatus).toBe(429);
	});

	it('counts waits that overlap once (wall time), and spends the budget across items', async () => {
		// The third wait fits only if the two overlapping ones counted once (400 ms spent, not
		// 800): room for timers up to 200 ms late on a loaded machine.
		const policy = new RunPolicy(undefined, 1000);
		await Promise.all([policy.waitOut(400, 429, true), policy.waitOut(400, 429, true)]);
		await policy.waitOut(400, 429, true); // about 800 ms spent, not 1200
		await expect(policy.waitOut(400, 429, true)).rejects.toBeInstanceOf(PolicyStop);
	});

	it('makes withRetries fail the item when a Retry-After is beyond it', async () => {
		let calls = 0;
		const send = async () => {
			calls++;
			throw answer(429, { 'retry-after': '3600' });
		};
		await expect(withRetries(true, send, new RunPolicy(undefined, 10_000))).rejects.toBeInstanceOf(
			PolicyStop,
		);
		expect(calls).toBe(1);
	});
});

describe('circuit breaker', () => {
	it('stops after N consecutive 429/5xx answers across items and sends nothing more', async () => {
		const policy = new RunPolicy(undefined, 60_000, 3);
		let calls = 0;
		const failing = async () => {
			calls++;
			throw answer(503);
		};
		const first = await withRetries(true, failing, policy).catch((e: unknown) => e);
		expect(first).toBeInstanceOf(PolicyStop);
		expect((first as PolicyStop).message).toBe(
			'Stopped after 3 consecutive failed answers (HTTP 503) from the Seller Platform API',
		);
		expect(calls).toBe(3);
		const ok = jest.fn(async () => 'never sent');
		await expect(withRetries(true, ok, policy)).rejects.toBeInstanceOf(PolicyStop);
		expect(ok).not.toHaveBeenCalled();
	});

	it('closes again on a success: only consecutive failures count', async () => {
		const policy = new RunPolicy(undefined, 60_000, 3);
		const answers = [503, 503, 200, 503, 503, 200];
		let i = 0;
		const send = async () => {
			const status = answers[i++];
			if (status !== 200) throw answer(status);
			return status;
		};
		expect(await withRetries(true, send, policy)).toBe(200);
		expect(await withRetries(true, send, policy)).toBe(200);
		expect(i).toBe(6);
	});
});

describe('stopping the execution', () => {
	it('ends a Retry-After wait within a moment', async () => {
		const controller = new AbortController();
		const policy = new RunPolicy(controller.signal);
		const send = async () => {
			throw answer(429, { 'retry-after': '60' });
		};
		const started = Date.now();
		setTimeout(() => controller.abort(), 50);
		await expect(withRetries(true, send, policy)).rejects.toBeInstanceOf(ExecutionStopped);
		// The stop comes at 50 ms; a missed one waits the 60 s Retry-After.
		expect(Date.now() - started).toBeLessThan(2000);
	});

	it('ends a wait for a slot of the rate plan, and sends nothing', async () => {
		const limiter = new PlanLimiter(1, {
			now: () => Date.now(),
			sleep: async (ms, signal) => {
				await new Promise((resolve, reject) => {
					const timer = setTimeout(resolve, ms);
					signal?.addEventListener('abort', () => {
						clearTimeout(timer);
						reject(new Error('aborted'));
					});
				});
			},
		});
		(await limiter.acquire()).finished(); // the plan's one slot of this minute is used
		const controller = new AbortController();
		const send = jest.fn(async () => 'sent');
		setTimeout(() => controller.abort(), 50);
		const started = Date.now();
		await expect(paced(limiter, send, new RunPolicy(controller.signal))).rejects.toBeInstanceOf(
			ExecutionStopped,
		);
		// The stop comes at 50 ms; a missed one waits for the next slot, a minute away.
		expect(Date.now() - started).toBeLessThan(2000);
		expect(send).not.toHaveBeenCalled();
		expect(limiter.delayUntilFree()).toBeGreaterThan(50_000); // the aborted turn took no slot
	});

	it('ends a wait in the shared limiter of the package too', async () => {
		const limiter = limiters.get('test-scope', 'GetPurchaseOrder', 1);
		(await limiter.acquire()).finished();
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 50);
		await expect(
			paced(limiter, async () => 'sent', new RunPolicy(controller.signal)),
		).rejects.toBeInstanceOf(ExecutionStopped);
	});
});

describe('waiting', () => {
	it('reads Retry-After in seconds or as an HTTP date; 0 or a date in the past is none', () => {
		const now = Date.UTC(2026, 0, 1);
		expect(parseRetryAfter('3', now)).toBe(3000);
		expect(parseRetryAfter(['0.5'], now)).toBe(500);
		expect(parseRetryAfter(new Date(now + 4000).toUTCString(), now)).toBe(4000);
		expect(parseRetryAfter(new Date(now - 60_000).toUTCString(), now)).toBeUndefined();
		expect(parseRetryAfter('0', now)).toBeUndefined();
		expect(parseRetryAfter('0.2', now)).toBeUndefined();
		expect(parseRetryAfter('0.25', now)).toBe(RETRY_POLICY.minRetryAfterMs);
		expect(parseRetryAfter('100000', now)).toBe(100_000_000);
		expect(parseRetryAfter(undefined, now)).toBeUndefined();
		expect(parseRetryAfter('soon', now)).toBeUndefined();
	});

	it('reads a Retry-After date against the wall clock, and shows a wait as a wall date, when the wall clock steps', async () => {
		// The machine's clock set back an hour: the service's date 30 s ahead of that clock is 30 s
		// (the service and the machine agree on what the date is), and the time a user reads is on
		// the machine's clock. Pacing itself measures elapsed time (clock.ts).
		const real = Date.now;
		Date.now = () => real() - 3_600_000;
		try {
			const date = new Date(Date.now() + 30_000).toUTCString(); // whole seconds: 29-30 s
			expect(parseRetryAfter(date)).toBeGreaterThan(28_900);
			expect(parseRetryAfter(date)).toBeLessThanOrEqual(30_000);
			const error = await new RunPolicy(undefined, 5_000)
				.waitOut(600_000, 429, true)
				.catch((e: unknown) => e as PolicyStop);
			const shown = Date.parse(/again at (\S+) /.exec((error as PolicyStop).message)![1]);
			expect(Math.abs(shown - (Date.now() + 600_000))).toBeLessThan(1000);
		} finally {
			Date.now = real;
		}
	});

	it('backs off, with jitter, on Retry-After 0 or a past date, and waits a short Retry-After at least the floor', () => {
		const floor = RETRY_POLICY.minRetryAfterMs;
		const past = new Date(Date.now() - 60_000).toUTCString();
		for (const header of ['0', past]) {
			expect(rateLimitDelay(parseRetryAfter(header), 2, () => 1)).toBe(
				4 * RETRY_POLICY.baseDelayMs,
			);
		}
		expect(rateLimitDelay(floor, 0, () => 0)).toBe(floor);
		expect(rateLimitDelay(floor, 0, () => 1)).toBe(2 * floor);
		const samples = Array.from({ length: 50 }, () => rateLimitDelay(floor, 0));
		expect(new Set(samples).size).toBeGreaterThan(1);
		expect(Math.min(...samples)).toBeGreaterThanOrEqual(floor);
		expect(rateLimitDelay(3000, 0)).toBe(3000);
		expect(rateLimitDelay(undefined, 0, () => 1)).toBe(RETRY_POLICY.baseDelayMs);
	});

	it('backs off exponentially with jitter between half and all of the step, capped', () => {
		expect(backoffDelay(0, () => 0)).toBe(RETRY_POLICY.baseDelayMs / 2);
		expect(backoffDelay(0, () => 1)).toBe(RETRY_POLICY.baseDelayMs);
		expect(backoffDelay(3, () => 1)).toBe(RETRY_POLICY.baseDelayMs * 8);
		expect(backoffDelay(30, () => 1)).toBe(RETRY_POLICY.maxDelayMs);
		const samples = Array.from({ length: 50 }, () => backoffDelay(2));
		expect(new Set(samples).size).toBeGreaterThan(1);
		expect(Math.min(...samples)).toBeGreaterThanOrEqual(1000);
		expect(Math.max(...samples)).toBeLessThanOrEqual(2000);
	});
});

describe('waiting for a slot behind a 429, on virtual time', () => {
	/** A run's policy on the virtual clock (its instants are dates already), its budget `budgetMs`. */
	const policyOn = (clock: VirtualClock, budgetMs: number) =>
		new RunPolicy(undefined, budgetMs, 20, { now: () => clock.now(), dateOf: (at) => at });

	/** A limiter whose episode's probe (another run's request) is out, its answer not in yet. */
	async function probeOut(clock: VirtualClock) {
		const limiter = new PlanLimiter(1500, clock);
		const first = await limiter.acquire();
		limiter.rateLimited(first, 400, true, false);
		first.finished();
		let probe: Slot | undefined;
		void limiter.acquire().then((slot) => (probe = slot));
		while (!probe) await clock.advance(10);
		expect(limiter.probeOut()).toBe(true);
		return { limiter, probe };
	}

	/** Starts one item of a run through `withRetries` and `paced`; its outcome and when it settled. */
	function oneItem(limiter: PlanLimiter, clock: VirtualClock, policy: RunPolicy) {
		const item: { outcome?: unknown; at?: number; sent: number } = { sent: 0 };
		const send = async () => {
			item.sent++;
			return 'sent';
		};
		void withRetries(true, async () => await paced(limiter, send, policy), policy).then(
			(result) => Object.assign(item, { outcome: result, at: clock.now() }),
			(error: unknown) => Object.assign(item, { outcome: error, at: clock.now() }),
		);
		return item;
	}

	/** Moves the virtual clock on `ms` in steps of 100 ms, letting real timers of 0 ms fire. */
	async function advance(clock: VirtualClock, ms: number) {
		for (let moved = 0; moved < ms; moved += 100) {
			await new Promise((resolve) => setTimeout(resolve, 0));
			await clock.advance(100);
		}
	}

	it("counts the wait behind another run's probe against the run's waiting budget: it ends with the budget's error", async () => {
		const clock = new VirtualClock(Date.UTC(2026, 0, 1));
		const { limiter, probe } = await probeOut(clock);
		const start = clock.now();
		const item = oneItem(limiter, clock, policyOn(clock, 20_000));
		// The probe's answer takes a minute (a request that hangs until its deadline).
		await advance(clock, 25_000);
		expect(item.outcome).toBeInstanceOf(PolicyStop);
		expect((item.outcome as PolicyStop).message).toBe(
			"The Seller Platform API kept failing (HTTP 429) beyond this run's waiting budget",
		);
		expect(item.at! - start).toBeGreaterThanOrEqual(20_000);
		expect(item.at! - start).toBeLessThanOrEqual(20_200);
		expect(item.sent).toBe(0);
		probe.finished();
	});

	it("fails at once when a pause that began while it waited for its slot lies beyond the run's budget", async () => {
		const clock = new VirtualClock(Date.UTC(2026, 0, 1));
		const { limiter, probe } = await probeOut(clock);
		const item = oneItem(limiter, clock, policyOn(clock, 20_000));
		await advance(clock, 5_000);
		// The probe is answered 429 with a Retry-After of a minute: beyond the 15 s left.
		limiter.rateLimited(probe, 60_000, true, true);
		probe.finished();
		const refused = clock.now();
		await advance(clock, 1_000);
		expect(item.outcome).toBeInstanceOf(PolicyStop);
		expect((item.outcome as PolicyStop).message).toMatch(/beyond this run's waiting budget$/);
		expect(item.at! - refused).toBeLessThanOrEqual(100);
		expect(item.sent).toBe(0);
	});
});

describe('a Retry-After far beyond any run, on virtual time', () => {
	/** The virtual clock's instants are dates already: shown as they are. */
	const datedClock = (clock: VirtualClock) => ({
		now: () => clock.now(),
		dateOf: (at: number) => at,
	});
	const DAY_S = 86_400;

	/** A run of `items` through `paced` and `withRetries`, on the limiter's virtual clock. */
	async function run(
		limiter: PlanLimiter,
		clock: VirtualClock,
		items: number,
		send: () => Promise<string>,
	) {
		const policy = new RunPolicy(undefined, RETRY_POLICY.waitingBudgetMs, 20, datedClock(clock));
		const results = Array.from({ length: items }, () =>
			withRetries(true, async () => await paced(limiter, send, policy), policy).catch(
				(error: unknown) => error as PolicyStop,
			),
		);
		await clock.advance(1000);
		return await Promise.all(results);
	}

	it('fails a run at once while the service is back only in a day, quoting the time; one probe a minute', async () => {
		const clock = new VirtualClock(Date.UTC(2026, 0, 1));
		const limiter = new PlanLimiter(1500, clock);
		const sent: number[] = [];
		let back = false;
		const send = async () => {
			sent.push(clock.now());
			if (back) return 'ok';
			throw answer(429, { 'retry-after': String(DAY_S) });
		};
		const until = new Date(clock.now() + DAY_S * 1000).toISOString();

		// The run that meets the 429: every item fails at once with the service's time.
		const first = await run(limiter, clock, 3, send);
		expect(sent).toHaveLength(1);
		for (const error of first) {
			expect(error).toBeInstanceOf(PolicyStop);
			expect((error as PolicyStop).message).toBe(
				`The Seller Platform API takes requests again at ${until} (Retry-After ${DAY_S} s), beyond this run's waiting budget`,
			);
		}

		// A run 10 s later learns it at once (before: it waited out the rest of the 60 s pause).
		await clock.advance(9000);
		const second = await run(limiter, clock, 3, send);
		expect(sent).toHaveLength(1);
		for (const error of second) {
			expect((error as PolicyStop).message).toBe(
				`The Seller Platform API takes requests again at ${until} (its Retry-After to an earlier request: ${DAY_S - 10} s from now), beyond this run's waiting budget`,
			);
			expect((error as PolicyStop).description).toContain('Nothing was sent');
		}

		// A minute after the refusal, a run sends one request (the probe) to find out.
		await clock.advance(60_000);
		const third = await run(limiter, clock, 3, send);
		expect(sent).toHaveLength(2);
		for (const error of third) {
			expect((error as PolicyStop).message).toMatch(
				/takes requests again at .* \(Retry-After 86400 s\)/,
			);
		}

		// The service is back: a run a minute later finds out with its probe, and all its items go.
		back = true;
		await clock.advance(60_000);
		const fourth = await run(limiter, clock, 3, send);
		expect(fourth).toEqual(['ok', 'ok', 'ok']);
		expect(sent).toHaveLength(5);
		expect(limiter.backAt()).toBe(-Infinity);
	});

	it("fails a run at once while the minute's probe is out, sending nothing", async () => {
		const clock = new VirtualClock(Date.UTC(2026, 0, 1));
		const limiter = new PlanLimiter(1500, clock);
		const sent: number[] = [];
		let answerProbe: (() => void) | undefined;
		const send = async () => {
			sent.push(clock.now());
			// The first request is answered at once; the probe a minute later takes 5 s.
			if (sent.length > 1) await new Promise<void>((resolve) => (answerProbe = resolve));
			throw answer(429, { 'retry-after': String(DAY_S) });
		};
		await run(limiter, clock, 1, send);
		await clock.advance(61_000);
		const policy = () =>
			new RunPolicy(undefined, RETRY_POLICY.waitingBudgetMs, 20, datedClock(clock));
		const probe = withRetries(true, async () => await paced(limiter, send, policy()), policy());
		const probeFailed = probe.catch((error: unknown) => error as PolicyStop);
		await clock.advance(100);
		expect(sent).toHaveLength(2);
		expect(limiter.probeOut()).toBe(true);

		// Another run starts while the probe is out: it fails at once and sends nothing.
		const later = await Promise.race([
			withRetries(true, async () => await paced(limiter, send, policy()), policy()).catch(
				(error: unknown) => error as PolicyStop,
			),
			clock.advance(1000).then(() => 'still waiting'),
		]);
		expect(later).toBeInstanceOf(PolicyStop);
		expect((later as PolicyStop).message).toMatch(
			/takes requests again at .* beyond this run's waiting budget/,
		);
		expect(sent).toHaveLength(2);

		answerProbe!();
		expect(await probeFailed).toBeInstanceOf(PolicyStop);
	});

	it('reads a Retry-After of hundreds of digits as a finite wait', () => {
		const ms = parseRetryAfter('9'.repeat(400), 0);
		expect(Number.isFinite(ms)).toBe(true);
		expect(ms).toBeGreaterThan(1e300);
	});
});
