/**
 * A model of processes sharing one rate plan, on virtual time: each process is a real
 * `PlanLimiter` with workers that send through it the way `paced.ts` and `retries.ts` do (wait out
 * the pause, take a slot, report a 429 to the limiter, wait out the Retry-After or back off, send
 * again), against the emulator's own gateway models (test/emulator/ratePlan.ts: the plan in a
 * sliding or fixed window of 60 s, a sixth of it in one of 10 s, or both; 429 with or without a
 * Retry-After). For the fake-clock tests of the controller; the benchmarks measure the real thing
 * (separate Node processes, the emulator, n8n-core).
 */
// dist/ exists once the package is built (npm test builds first; lint runs before the build).
import { PlanLimiter } from '../../dist/nodes/shared/pacing/rateLimiter';
import { rateLimitDelay, RETRY_POLICY } from '../../dist/nodes/shared/pacing/waits';
import { SlidingWindowLimiter, type RateModel } from '../emulator/ratePlan';
import { VirtualClock } from './virtualTime';

export type GatewayModel = RateModel;

/**
 * A seeded source of numbers in [0, 1) (mulberry32): the model's jitter and the Retry-After's
 * jittered minimum, the same in every run for the same seed (a failure reproduces).
 */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** A gateway answer: accepted, or a 429 with its Retry-After in seconds (absent: none sent). */
export type GatewayAnswer = { ok: true } | { ok: false; retryAfterS?: number };

/** The gateway: `limit` per `windowMs` counted in `model` (the emulator's), 429 with or without Retry-After. */
export class GatewayModelServer {
	private readonly counter: SlidingWindowLimiter;
	readonly arrivals: Array<{ at: number; process: number; status: number }> = [];

	constructor(
		public limit: number,
		public windowMs = 60_000,
		public model: GatewayModel = 'sliding',
		public retryAfter = true,
	) {
		this.counter = new SlidingWindowLimiter({ limit, windowMs, model, retryAfter });
	}

	/** Accepts a request at `now`, or refuses it (with the emulator's Retry-After, unless told not to). */
	take(now: number, process: number): GatewayAnswer {
		const decision = this.counter.take('plan', now);
		this.arrivals.push({ at: now, process, status: decision.allowed ? 200 : 429 });
		if (decision.allowed) return { ok: true };
		if (!this.retryAfter) return { ok: false };
		return { ok: false, retryAfterS: Math.max(1, Math.ceil(decision.retryAfterMs / 1000)) };
	}
}

/**
 * One request of a model process, as the node sends it: it waits out the plan's pause, takes a
 * slot, and `take` is the gateway's answer, back after a round trip of `latencyMs` ± `jitterMs`.
 */
export async function modelRequest<A>(
	clock: VirtualClock,
	limiter: PlanLimiter,
	take: () => A,
	trip: { latencyMs: number; jitterMs: number; random: () => number },
) {
	const pause = limiter.pauseLeft();
	if (pause > 0) await clock.sleep(pause);
	const slot = await limiter.acquire();
	const answer = take();
	await clock.sleep(trip.latencyMs + (trip.random() * 2 - 1) * trip.jitterMs);
	return { slot, answer };
}

export interface ModelProcess {
	readonly limiter: PlanLimiter;
	/** Items answered with success. */
	done: number;
	/**
	 * Items the node would have failed: more 429s than it waits out for one request
	 * (`RETRY_POLICY.maxRateLimitRetries`), or a run of answers that would open its circuit
	 * breaker (`RETRY_POLICY.circuitBreakerLimit` 429s in a row, echoes not counted). The model
	 * sends them on (so the pressure stays), and counts them here.
	 */
	failed: number;
	/** Stops taking new items (those in flight finish). */
	stop(): void;
	/** Resolves when `items` are done, or after `stop()` when those in flight are. */
	finished: Promise<void>;
}

/**
 * Starts a process that sends `items` requests (Infinity: until stopped) through its own limiter,
 * with its own automatic concurrency, each answered `latencyMs` later.
 */
export function startProcess(
	clock: VirtualClock,
	gateway: GatewayModelServer,
	options: {
		id: number;
		plan: number;
		items?: number;
		latencyMs?: number;
		jitterMs?: number;
		limiter?: PlanLimiter;
		/** Seeds the jitter (default: the process's id). */
		seed?: number;
	},
): ModelProcess {
	const limiter = options.limiter ?? new PlanLimiter(options.plan, clock);
	const random = seededRandom(options.seed ?? options.id + 1);
	const trip = { latencyMs: options.latencyMs ?? 50, jitterMs: options.jitterMs ?? 0, random };
	const take = () => gateway.take(clock.now(), options.id);
	const process: ModelProcess = {
		limiter,
		done: 0,
		failed: 0,
		stop: () => {},
		finished: Promise.resolve(),
	};
	let inARow = 0;
	const sendOne = async () => {
		let failed = false;
		for (let attempt = 0; ; attempt++) {
			const { slot, answer } = await modelRequest(clock, limiter, take, trip);
			if (answer.ok) {
				inARow = 0;
				slot.finished(undefined, 'answered');
				if (failed) process.failed++;
				return;
			}
			// As paced.ts: the plan pauses for the 429's own wait (backoff's first step without a
			// Retry-After); as retries.ts: the request waits its Retry-After, or backs off.
			const retryAfterMs = answer.retryAfterS === undefined ? undefined : answer.retryAfterS * 1000;
			const pauseMs = rateLimitDelay(retryAfterMs, 0, random);
			const kind = limiter.rateLimited(slot, pauseMs, true, retryAfterMs !== undefined);
			slot.finished(undefined, 'answered');
			if (kind === 'new') inARow++;
			const gaveUp = attempt >= RETRY_POLICY.maxRateLimitRetries;
			if (gaveUp || inARow >= RETRY_POLICY.circuitBreakerLimit) failed = true;
			await clock.sleep(rateLimitDelay(retryAfterMs, attempt, random));
		}
	};
	runItems(process, options.items ?? Infinity, sendOne);
	return process;
}

/**
 * Sends `items` (Infinity: until stopped) with `sendOne`, as many at once as the process's limiter's
 * automatic concurrency, and more workers as it grows (as the node's runner does); sets the
 * process's `stop` (no new item; those in flight finish) and `finished`.
 */
export function runItems(
	process: Pick<ModelProcess, 'limiter' | 'done' | 'stop' | 'finished'>,
	items: number,
	sendOne: () => Promise<void>,
): void {
	const { limiter } = process;
	let remaining = items;
	let stopped = false;
	let active = 0;
	process.stop = () => (stopped = true);
	const worker = async (): Promise<void> => {
		while (!stopped && remaining > 0) {
			remaining--;
			await sendOne();
			process.done++;
			while (active < limiter.suggestedConcurrency() && !stopped && remaining > 0) spawn();
		}
	};
	const workers: Promise<void>[] = [];
	const spawn = () => {
		active++;
		workers.push(worker().finally(() => active--));
	};
	for (let i = 0; i < limiter.suggestedConcurrency(); i++) spawn();
	process.finished = (async () => {
		let seen = 0;
		while (seen < workers.length) {
			seen = workers.length;
			await Promise.all(workers);
		}
	})();
}

/** The most arrivals (of `status`, or all) in any window of `windowMs`. */
export function maxInWindow(times: number[], windowMs: number): number {
	let best = 0;
	for (let i = 0, j = 0; i < times.length; i++) {
		while (times[i] - times[j] >= windowMs) j++;
		best = Math.max(best, i - j + 1);
	}
	return best;
}
