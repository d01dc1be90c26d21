/** pacing/: the rate plan's limiters, the run's limits (waiting budget, breaker), waits, repeats. */
export { PACING } from './rateLimiter';
export { RETRY_POLICY } from './waits';
