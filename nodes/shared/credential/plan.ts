/**
 * The rate plans the reference documents, per project: the endpoint table gives each endpoint its
 * plan (gateway/endpoints.ts), the limiters pace by it (pacing/limiters.ts), and the credential's
 * Requests per Minute stands for the common plan (its default is this plan's rate).
 */

/**
 * An operation's rate plan as the reference documents it, per project: at most `requests` in any
 * `windowSeconds` (`x-max-requests` per `x-time-window`) and at most `burst` in any
 * `burstWindowSeconds` (`x-burst` per `x-burst-time-window`).
 */
export interface RatePlan {
	requests: number;
	windowSeconds: number;
	burst: number;
	burstWindowSeconds: number;
}

/**
 * The plan of almost every operation: 1500 per 60 s, burst 1500 per 60 s (the seed spec gives
 * its operations this plan too).
 */
export const COMMON_PLAN: RatePlan = Object.freeze({
	requests: 1500,
	windowSeconds: 60,
	burst: 1500,
	burstWindowSeconds: 60,
});
