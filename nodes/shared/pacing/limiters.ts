/**
 * The rate plan's limiters of this n8n process (module state lasts as long as n8n keeps the
 * package loaded). Nothing here is shared between n8n processes (queue mode workers, webhook
 * processes): each paces at its share of the plan and adapts it from 429 answers
 * (rateController.ts). The README's "Running in n8n queue mode" says what follows.
 */
import { wait } from '../common/abort';
import { PlanLimiter, type Clock } from './rateLimiter';

/**
 * One limiter per (gateway, project, endpoint, plan), shared by every execution in this n8n
 * process (module state lives as long as the loaded package).
 */
export class RateLimiterRegistry {
	private readonly limiters = new Map<string, PlanLimiter>();

	constructor(private readonly clock: Clock) {}

	get(scope: string, endpoint: string, requestsPerMinute: number): PlanLimiter {
		const plan = Math.max(1, Math.floor(requestsPerMinute));
		// The plan is part of the key: two credentials of one project with different plans must not
		// keep replacing each other's limiter (and so forget each other's history).
		const key = `${scope}\u0000${endpoint}\u0000${plan}`;
		let limiter = this.limiters.get(key);
		if (!limiter) {
			limiter = new PlanLimiter(plan, this.clock);
			this.limiters.set(key, limiter);
		}
		return limiter;
	}
}

/**
 * Rate limiters, keyed (gateway and project, endpoint, plan): shared by every execution in this
 * process. Bound: credentials × 9 endpoints × plans in use; each limiter keeps at most one
 * window of start times, 64 round trips, and while a throttling episode is open the service's
 * last Retry-After (a later run fails at once while it lies beyond the run's waiting budget; a
 * minute after the last refusal one request probes, and an answer without a 429 clears it).
 */
export const limiters = new RateLimiterRegistry({
	now: () => Date.now(),
	sleep: async (ms, signal) => await wait(ms, signal),
});
