/**
 * The one clock that measures elapsed time (pacing windows, pauses, round trips, waiting budgets,
 * deadlines, time limits, cache lifetimes): a monotonic one, so that a wall clock set back or
 * forward (a time server's correction, a machine resumed from a snapshot, a clock set by hand)
 * neither stalls nor hurries anything. Real dates (a Retry-After date, an order's creation time,
 * what is saved in a workflow's static data) stay on the wall clock, `Date.now()`.
 */

/** Now on the monotonic clock, in ms: only its differences mean something. */
export const monotonicNow = (): number => performance.timeOrigin + performance.now();

/** A monotonic instant as a wall date in ms, for what a user reads (an ISO time). */
export const wallDateOf = (instant: number): number => Date.now() + (instant - monotonicNow());

/** A clock that measures elapsed time and shows its instants as wall dates. */
export interface ElapsedClock {
	now(): number;
	dateOf(instant: number): number;
}

/** The monotonic clock, as an `ElapsedClock`. */
export const MONOTONIC: ElapsedClock = { now: monotonicNow, dateOf: wallDateOf };
