/**
 * Gateways other than the emulator's models, for the adversarial virtual-time tests of the rate
 * share controller (test/unit/otherGateways.test.ts): a gateway answers each request with a
 * status and, for a 429, the raw Retry-After header (a number of seconds, an HTTP date, or none).
 * A process sends through a real `PlanLimiter` the way `paced.ts` and `retries.ts` do (as
 * `startProcess` of sharingModel.ts, plus: the header read by `parseRetryAfter` against the wall
 * clock, the evidence rule of `paced.ts` with the default waiting budget, and a 5xx answered and
 * repeated with backoff).
 */
import { PlanLimiter } from '../../dist/nodes/shared/pacing/rateLimiter';
import {
	backoffDelay,
	parseRetryAfter,
	rateLimitDelay,
	RETRY_POLICY,
} from '../../dist/nodes/shared/pacing/waits';
import { SlidingWindowLimiter, type RateModel } from '../emulator/ratePlan';
import { modelRequest, runItems, seededRandom } from './sharingModel';
import { VirtualClock } from './virtualTime';

/** What the gateway answers: 200, a 429 with its raw Retry-After header (absent: none), a 5xx. */
export type OtherAnswer = { status: 200 } | { status: 429; retryAfter?: string } | { status: 503 };

export interface Arrival {
	at: number;
	process: number;
	status: number;
}

/** A gateway: answers a request of `process` at `now`. */
export interface OtherGateway {
	readonly arrivals: Arrival[];
	take(now: number, process: number): OtherAnswer;
}

/** Builds a gateway from an answering rule; records every arrival. */
export function gatewayOf(answer: (now: number, process: number, n: number) => OtherAnswer) {
	const arrivals: Arrival[] = [];
	return {
		arrivals,
		take(now: number, process: number): OtherAnswer {
			const a = answer(now, process, arrivals.length);
			arrivals.push({ at: now, process, status: a.status });
			return a;
		},
	} satisfies OtherGateway;
}

/**
 * A plan of `limit` per `windowMs` in `model` (the emulator's counter), answering 429 with
 * `retryAfter(waitMs)` as its header (undefined: none).
 */
export function windowGateway(
	limit: number,
	windowMs: number,
	model: RateModel,
	retryAfter: (waitMs: number) => string | undefined,
) {
	const counter = new SlidingWindowLimiter({ limit, windowMs, model });
	return gatewayOf((now) => {
		const decision = counter.take('plan', now);
		if (decision.allowed) return { status: 200 };
		return { status: 429, retryAfter: retryAfter(decision.retryAfterMs) };
	});
}

export interface OtherProcess {
	readonly limiter: PlanLimiter;
	done: number;
	/** Items the node would have failed (429 retries or the circuit breaker), sent on anyway. */
	failed: number;
	stop(): void;
	finished: Promise<void>;
}

/**
 * Starts a process sending `items` (Infinity: until stopped) through its limiter with the
 * automatic concurrency; `wallNow` is the wall clock the Retry-After date is read against.
 */
export function startOther(
	clock: VirtualClock,
	gateway: OtherGateway,
	options: {
		id: number;
		plan: number;
		items?: number;
		latencyMs?: number;
		jitterMs?: number;
		limiter?: PlanLimiter;
		seed?: number;
		wallNow?: () => number;
	},
): OtherProcess {
	const limiter = options.limiter ?? new PlanLimiter(options.plan, clock);
	const random = seededRandom(options.seed ?? options.id + 1);
	const trip = { latencyMs: options.latencyMs ?? 50, jitterMs: options.jitterMs ?? 10, random };
	const take = () => gateway.take(clock.now(), options.id);
	const wallNow = options.wallNow ?? (() => 1_750_000_000_000 + clock.now());
	const proc: OtherProcess = {
		limiter,
		done: 0,
		failed: 0,
		stop: () => {},
		finished: Promise.resolve(),
	};
	let inARow = 0;
	const sendOne = async () => {
		let failed = false;
		// Counted when the node would have failed the item; the model sends it on (the pressure stays).
		const fail = () => {
			if (!failed) proc.failed++;
			failed = true;
		};
		let rateLimited = 0;
		let transient = 0;
		for (;;) {
			const { slot, answer } = await modelRequest(clock, limiter, take, trip);
			if (answer.status === 200) {
				inARow = 0;
				slot.finished(undefined, 'answered');
				return;
			}
			if (answer.status === 503) {
				slot.finished(undefined, 'answered');
				inARow++;
				if (transient >= RETRY_POLICY.maxTransientRetries) fail();
				const attempt = Math.min(transient++, RETRY_POLICY.maxTransientRetries);
				await clock.sleep(backoffDelay(attempt, random));
				continue;
			}
			const retryAfterMs = parseRetryAfter(answer.retryAfter, wallNow());
			const pauseMs = rateLimitDelay(retryAfterMs, 0, random);
			// paced.ts: a pause the run cannot afford (default budget) is no evidence of sharing.
			const evidence = pauseMs <= Math.min(RETRY_POLICY.waitingBudgetMs, 60_000);
			const kind = limiter.rateLimited(slot, pauseMs, evidence, retryAfterMs !== undefined);
			slot.finished(undefined, 'answered');
			if (kind === 'new') inARow++;
			if (rateLimited >= RETRY_POLICY.maxRateLimitRetries) fail();
			if (inARow >= RETRY_POLICY.circuitBreakerLimit) fail();
			await clock.sleep(Math.min(60_000, rateLimitDelay(retryAfterMs, rateLimited++, random)));
		}
	};
	runItems(proc, options.items ?? Infinity, sendOne);
	return proc;
}

/** Accepted and refused arrivals of `process` (all: undefined) in [from, to). */
export function countOf(arrivals: Arrival[], from: number, to: number, process?: number) {
	const seen = arrivals.filter(
		(a) => a.at >= from && a.at < to && (process === undefined || a.process === process),
	);
	const accepted = seen.filter((a) => a.status === 200).length;
	const refused = seen.filter((a) => a.status === 429).length;
	return { accepted, refused, all: seen.length };
}
