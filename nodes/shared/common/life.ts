/**
 * This n8n life: the running n8n that loaded the package (an n8n started again, or another main
 * instance, is another life). Both triggers mark what may have reached n8n in an earlier life
 * (`possibleDuplicate`), and both read "this life" here.
 */
import { randomUUID } from 'crypto';

import { monotonicNow } from './clock';

/** The field that marks what n8n may have received before it stopped (both triggers' output). */
export const POSSIBLE_DUPLICATE = 'possibleDuplicate';

export interface Life {
	/** A random id, saved in static data to tell a later life from this one. */
	id: string;
	/** When it began, on the wall clock (ms): compared with the service's dates. */
	startedAt: number;
	/** When it began, on the monotonic clock: for how long it has run. */
	startedInstant: number;
}

const lifeSince = (agoMs: number): Life => ({
	id: randomUUID(),
	startedAt: Date.now() - agoMs,
	startedInstant: monotonicNow() - agoMs,
});

/**
 * This life, begun when this module loaded.
 * Bound: one id and two times.
 */
let life: Life = lifeSince(0);

export const thisLife = (): Life => life;

/** How long this life has run (ms, monotonic). */
export const lifeAge = (): number => monotonicNow() - life.startedInstant;

/**
 * For tests only: plays n8n started again (a new life) within one test run, `agoMs` ago (0: now).
 */
export function startNewLifeForTests(agoMs = 0): void {
	life = lifeSince(agoMs);
}
