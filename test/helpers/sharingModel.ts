/**
 * A model of processes sharing one rate plan, on virtual time: each process is a real
 * `PlanLimiter` with workers that send through it the way `policy.ts` does (wait out the pause,
 * take a slot, report a 429 to the limiter, wait out the Retry-After, send again), against a
 * gateway model that counts the plan in a sliding 60 s window (the emulator's default) or also in
 * fixed 10 s windows of a sixth of the plan (the emulator's strict model). For the fake-clock
 * tests of the controller; the benchmarks measure the real thing (separate Node processes, the
 * emulator, n8n-core).
 */
// dist/ exists once the package is built (npm test builds first; lint runs before the build).
import { PlanLimiter } from '../../dist/nodes/shared/pacing/rateLimiter';
import { rateLimitDelay } from '../../dist/nodes/shared/pacing/waits';
import { VirtualClock } from './virtualTime';

export type GatewayModel = 'sliding' | 'strict';

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

/** The gateway: `limit` per `windowMs` sliding, and in `strict` also `limit/6` per fixed sixth. */
export class GatewayModelServer {
	private accepted: number[] = [];
	private head = 0;
	private fixed = { start: -Infinity, count: 0 };
	readonly arrivals: Array<{ at: number; process: number; status: number }> = [];

	constructor(
		public limit: number,
		public windowMs = 60_000,
		public model: GatewayModel = 'sliding',
	) {}

	/** Accepts a request at `now`, or returns the Retry-After in seconds. */
	take(now: number, process: number): number | undefined {
		while (this.head < this.accepted.length && this.accepted[this.head] <= now - this.windowMs)
			this.head++;
		let retryMs: number | undefined;
		if (this.accepted.length - this.head >= this.limit) {
			retryMs = this.accepted[this.head] + this.windowMs - now;
		}
		if (this.model === 'strict') {
			const sixth = this.windowMs / 6;
			const start = Math.floor(now / sixth) * sixth;
			if (start !== this.fixed.start) this.fixed = { start, count: 0 };
			if (this.fixed.count >= Math.floor(this.limit / 6)) {
				retryMs = Math.max(retryMs ?? 0, start + sixth - now);
			}
		}
		if (retryMs !== undefined) {
			this.arrivals.push({ at: now, process, status: 429 });
			return Math.max(1, Math.ceil(retryMs / 1000));
		}
		this.accepted.push(now);
		if (this.model === 'strict') this.fixed.count++;
		this.arrivals.push({ at: now, process, status: 200 });
		return undefined;
	}
}

export interface ModelProcess {
	readonly limiter: PlanLimiter;
	/** Items answered with success. */
	done: number;
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
	const latency = options.latencyMs ?? 50;
	const jitter = options.jitterMs ?? 0;
	const random = seededRandom(options.seed ?? options.id + 1);
	let remaining = options.items ?? Infinity;
	let stopped = false;
	let active = 0;
	const process: ModelProcess = {
		limiter,
		done: 0,
		stop: () => (stopped = true),
		finished: Promise.resolve(),
	};
	const sendOne = async () => {
		for (let attempt = 0; ; attempt++) {
			const pause = limiter.pauseLeft();
			if (pause > 0) await clock.sleep(pause);
			const slot = await limiter.acquire();
			const retryAfter = gateway.take(clock.now(), options.id);
			await clock.sleep(latency + (random() * 2 - 1) * jitter);
			if (retryAfter === undefined) {
				slot.finished(undefined, 'answered');
				return;
			}
			const delay = rateLimitDelay(retryAfter * 1000, attempt, random);
			limiter.rateLimited(slot, delay);
			slot.finished(undefined, 'answered');
			await clock.sleep(delay);
		}
	};
	const worker = async (): Promise<void> => {
		while (!stopped && remaining > 0) {
			remaining--;
			await sendOne();
			process.done++;
			// More workers when the automatic concurrency grows (as the node's runner does).
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
	return process;
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
