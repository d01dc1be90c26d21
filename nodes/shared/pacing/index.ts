/**
 * pacing/: the rate plan's limiters, the run's limits (waiting budget, breaker) and their node
 * options, waits, repeats.
 */
export { stopAfterFailuresOption, waitingBudgetOption } from './options';
export { PACING } from './rateLimiter';
