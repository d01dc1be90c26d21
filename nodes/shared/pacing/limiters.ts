/**
 * The rate plan's limiters of this n8n process (module state lasts as long as n8n keeps the
 * package loaded). Nothing here is shared between n8n processes (queue mode workers, webhook
 * processes): each paces at its share of the plan and adapts it from 429 answers
 * (rateController.ts). docs/queue-mode.md ("Running in n8n queue mode") says what follows.
 */
import { wait } from '../common/abort';
import { monotonicNow } from '../common/clock';
import { COMMON_PLAN, type RatePlan } from '../credential/plan';
import { ENDPOINTS, type Endpoint } from '../gateway/endpoints';
import { PlanLimiter, type Clock } from './rateLimiter';

/**
 * The plan an endpoint is paced by, from its documented plan and the credential's Requests per
 * Minute (`requestsPerMinute`):
 * - an endpoint documented at the common plan (1500 per 60 s, burst the same) is paced at the
 *   credential's rate per 60 s, whatever it is (its meaning since the first version: the
 *   project's plan per operation, lower to leave room for others, higher where noon granted more);
 * - an endpoint documented with its own plan is paced at min(credential's rate, its plan): the
 *   credential's rate over the plan's window (N per minute is N × window / 60 s per window), never
 *   above the documented requests per window, and its burst never above the documented burst
 *   nor the plan so paced.
 */
export function pacedPlan(documented: RatePlan, requestsPerMinute: number): RatePlan {
	const perMinute = Math.max(1, Math.floor(requestsPerMinute));
	const { windowSeconds, burstWindowSeconds } = documented;
	if (samePlan(documented, COMMON_PLAN)) {
		return { requests: perMinute, windowSeconds, burst: perMinute, burstWindowSeconds };
	}
	const ofCredential = Math.max(1, Math.floor((perMinute * windowSeconds) / 60));
	const requests = Math.min(documented.requests, ofCredential);
	return {
		requests,
		windowSeconds,
		burst: Math.min(documented.burst, requests),
		burstWindowSeconds,
	};
}

function samePlan(a: RatePlan, b: RatePlan): boolean {
	return (
		a.requests === b.requests &&
		a.windowSeconds === b.windowSeconds &&
		a.burst === b.burst &&
		a.burstWindowSeconds === b.burstWindowSeconds
	);
}

/** Limiters kept (`RateLimiterRegistry`): far more than the projects and endpoints one n8n uses. */
export const MAX_LIMITERS = 2000;

/**
 * One limiter per (rate scope, endpoint, plan), shared by every execution in this n8n process
 * (module state lives as long as the loaded package). The scope is whose quota it is
 * (gateway/url.ts `rateScope`): at the gateways the project's, whatever the host (noon counts
 * sandbox traffic against the same project's quota as production); elsewhere the Base URL's and
 * the project's, so a credential at a server of its own never paces another's requests.
 */
export class RateLimiterRegistry {
	private readonly limiters = new Map<string, PlanLimiter>();

	/**
	 * `maxLimiters`: the limiters kept, those used last; beyond it the idle one used longest ago
	 * is dropped (a run with made-up project codes would otherwise leave one each). A limiter held
	 * (callers waiting, a throttling episode open) is never dropped, so no project loses its
	 * Retry-After, up to twice the bound; the one handed out is never dropped.
	 */
	constructor(
		private readonly clock: Clock,
		private readonly maxLimiters = MAX_LIMITERS,
	) {}

	/** How many limiters are kept. */
	get size(): number {
		return this.limiters.size;
	}

	/** `scope`: the credential's rate scope (`rateScope`, gateway/url.ts: a fixed-size digest). */
	get(scope: string, endpoint: Endpoint, requestsPerMinute: number): PlanLimiter {
		const plan = pacedPlan(ENDPOINTS[endpoint].plan, requestsPerMinute);
		// The plan is part of the key: two credentials of one scope with different plans must not
		// keep replacing each other's limiter (and so forget each other's history).
		const key = [scope, endpoint, plan.requests, plan.burst].join('\u0000');
		const limiter = this.limiters.get(key) ?? new PlanLimiter(plan, this.clock);
		// Kept in the order of use: the first is the one used longest ago.
		this.limiters.delete(key);
		this.limiters.set(key, limiter);
		if (this.limiters.size > this.maxLimiters) this.dropOne(key);
		return limiter;
	}

	/**
	 * Drops the limiter used longest ago that no caller waits for and no throttling episode holds
	 * (starts in its window do not keep it: a co-tenant's thousands of one-request scopes would
	 * otherwise leave the new one alone to drop); past twice the bound, the one used longest ago.
	 * Never `keep`, the one being handed out.
	 */
	private dropOne(keep: string): void {
		for (const [key, limiter] of this.limiters) {
			if (key === keep || limiter.held()) continue;
			this.limiters.delete(key);
			return;
		}
		if (this.limiters.size <= 2 * this.maxLimiters) return;
		for (const key of this.limiters.keys()) {
			if (key === keep) continue;
			this.limiters.delete(key);
			return;
		}
	}
}

/**
 * Rate limiters, keyed (rate scope, endpoint, plan): shared by every execution in this n8n process (see below).
 * Bound: the `MAX_LIMITERS` (scope, endpoint, plan) keys used last (more only while they are in
 * use, at most twice that), each key under 100 characters (the scope is a digest); each limiter
 * keeps at most one window of start
 * times, 64 round trips, and while a throttling episode is open the service's last Retry-After (a
 * later run fails at once while it lies beyond the run's waiting budget; a minute after the last
 * refusal one request probes, and an answer without a 429 clears it).
 */
export const limiters = new RateLimiterRegistry({
	now: monotonicNow,
	sleep: async (ms, signal) => await wait(ms, signal),
});
