/**
 * The sweep: beside each poll's short window (the orders created since `LOOKBACK_MS` before
 * `readUpTo`), every `SWEEP_EVERY_MS` the orders created over the lateness covered ("Catch
 * Orders Listed Late Up To") are listed again, so an order that first shows in the list later
 * than the short window looked is still taken. A sweep lists from `lateMs` before the previous
 * sweep's start (never before the floor) to the short window's start: an order first listed up
 * to `lateMs` after its creation is listed by the first sweep that starts after it shows. A
 * sweep lists `SWEEP_SLICE_MS` of creation time at a time (each a listing of its own, at most
 * `MAX_LISTING_PAGES` pages), and goes on across polls from its own token, `SWEEP_PAGES_PER_POLL`
 * pages a poll at most, within the poll's time and the room for new orders left after the short
 * window.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { listPosition, toSecond, type PageBudget } from './listing';
import { LOOKBACK_MS, type Listed, type PollState, type Sweep } from './state';

/** A sweep starts at most this often (ms). */
export const SWEEP_EVERY_MS = 30 * 60_000;
/** Pages a sweep reads at most in one poll (`ORDERS_PER_PAGE` orders each). */
export const SWEEP_PAGES_PER_POLL = 40;
/** Creation time a sweep lists in one listing (then the next slice, to its end). */
export const SWEEP_SLICE_MS = 6 * 60 * 60_000;

/** What a poll's part of a sweep read. */
export interface Swept {
	orders: Listed[];
	unnamed: number;
	/** The sweep left unfinished. */
	sweep?: Sweep;
	/** When a sweep this poll started began. */
	sweptAt?: number;
}

/**
 * The sweep to go on with (a copy of the state's), or a new one when the last started
 * `SWEEP_EVERY_MS` ago or more; undefined when no lateness is covered or the window is empty.
 */
export function sweepToRun(
	state: PollState,
	lateMs: number,
	now: number,
): { sweep: Sweep; startedAt?: number } | undefined {
	if (lateMs <= 0) return undefined;
	if (state.sweep) return { sweep: { ...state.sweep } };
	if (now - state.sweptAt < SWEEP_EVERY_MS) return undefined;
	const after = toSecond(Math.max(state.sweptAt - lateMs, state.floor + 1));
	const end = state.readUpTo - LOOKBACK_MS;
	if (after >= end) return undefined;
	return { sweep: sliceFrom(after, end), startedAt: now };
}

/** The slice of a sweep from `after` (`SWEEP_SLICE_MS` at most, up to `end`). */
function sliceFrom(after: number, end: number): Sweep {
	const before = Math.min(after + SWEEP_SLICE_MS, end);
	return { after, before, end, token: '', pages: 0, restarts: 0 };
}

/** The poll's part of the sweep (none when none is due). */
export async function readSweep(
	ctx: IPollFunctions,
	warehouseCode: string,
	state: PollState,
	lateMs: number,
	now: number,
	budget: PageBudget,
): Promise<Swept> {
	const run = sweepToRun(state, lateMs, now);
	if (!run) return { orders: [], unnamed: 0 };
	const own: PageBudget = { ...budget, pages: SWEEP_PAGES_PER_POLL };
	const swept: Swept = { orders: [], unnamed: 0, sweptAt: run.startedAt };
	let sweep = run.sweep;
	let live = state.sweep;
	for (;;) {
		const listed = await listPosition(ctx, warehouseCode, sweep, own, 'sweep', live);
		swept.orders.push(...listed.orders);
		swept.unnamed += listed.unnamed;
		if (!listed.complete) return { ...swept, sweep };
		if (sweep.before >= sweep.end) return swept;
		sweep = sliceFrom(sweep.before, sweep.end);
		live = undefined;
	}
}
