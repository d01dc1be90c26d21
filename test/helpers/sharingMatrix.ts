/**
 * The sharing matrix, one definition for the virtual-time test (test/unit/sharingMatrix.test.ts)
 * and the bench (test/bench/sharing.ts): each gateway window model of the emulator, 429 with and
 * without Retry-After, 2, 3 and 4 processes started together or staggered; and its targets.
 */
import { limitsOf, type RateModel } from '../emulator/ratePlan';

/** The four window models: the plan (or a sixth of it) in a sliding or fixed window of 60 s (10 s). */
export const WINDOW_MODELS: ReadonlyArray<{ name: string; model: RateModel }> = [
	{ name: 'sliding 10 s', model: 'sliding-10s' },
	{ name: 'fixed 10 s', model: 'fixed-10s' },
	{ name: 'sliding 60 s', model: 'sliding' },
	{ name: 'fixed 60 s', model: 'fixed-60s' },
];

/** Staggered starts: each process starts this long after the one before (5 to 20 s apart). */
export const STAGGER_MS = [8_000, 5_000, 12_000];

/**
 * The one left alone must be back at 90 % of the plan this long after the others stopped: its
 * accepted requests in the 10 s from then.
 */
export const BACK_WITHIN_MS = 30_000;

/**
 * The first turn of `model`'s fixed window (the plan of `windowMs` counted in it: 10 s or 60 s,
 * aligned to multiples of its length on the gateway's clock) at or after `at`; `at` itself for a
 * model without a fixed window. In a fixed window the one left alone has room again only from the
 * turn after the others stopped (they may have filled the window they stopped in): its figure
 * "alone after the turn" is measured from `BACK_WITHIN_MS` after this moment.
 */
export function windowTurnAtOrAfter(model: RateModel, windowMs: number, at: number): number {
	const fixed = limitsOf({ limit: 1, windowMs, model }).filter((l) => l.kind === 'fixed');
	return Math.max(at, ...fixed.map((l) => Math.ceil(at / l.windowMs) * l.windowMs));
}

/** The targets of every cell. */
export const MATRIX_TARGETS = {
	/** Accepted requests while all are busy, as a share of the plan, at least. */
	together: 0.9,
	/** Requests answered 429, as a share of all requests, at most. */
	rejected: 0.01,
	/** The one left alone: its accepted requests in the 10 s from `BACK_WITHIN_MS` on, at least. */
	alone: 0.9,
};

export interface MatrixCell {
	/** Its name in test titles and bench rows: "sliding 10 s, without Retry-After, 2 processes together". */
	name: string;
	/** Its key for selecting it: "sliding-10s no-retry-after 2 together". */
	key: string;
	model: RateModel;
	retryAfter: boolean;
	processes: number;
	staggered: boolean;
	/** Seeds the virtual-time model's jitter. */
	seed: number;
}

export const MATRIX_CELLS: readonly MatrixCell[] = WINDOW_MODELS.flatMap(({ name, model }, m) =>
	[true, false].flatMap((retryAfter, r) =>
		[2, 3, 4].flatMap((processes) =>
			[false, true].map((staggered, s) => {
				const answer = retryAfter ? 'with Retry-After' : 'without Retry-After';
				const start = staggered ? 'staggered' : 'together';
				return {
					name: `${name}, ${answer}, ${processes} processes ${start}`,
					key: `${model} ${retryAfter ? 'retry-after' : 'no-retry-after'} ${processes} ${start}`,
					model,
					retryAfter,
					processes,
					staggered,
					seed: 1000 * (m + 1) + 100 * r + 10 * processes + s,
				};
			}),
		),
	),
);

/** When each of `cell`'s processes starts, in ms after the first. */
export function startOffsets(cell: MatrixCell): number[] {
	let at = 0;
	return Array.from({ length: cell.processes }, (_, i) => {
		if (cell.staggered && i > 0) at += STAGGER_MS[i - 1];
		return at;
	});
}
