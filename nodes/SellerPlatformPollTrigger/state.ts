/**
 * Where the poll trigger stands, kept in the node's static data (`newFbpiOrder`), n8n saves it
 * with the workflow after a poll that emits orders, after activation, and (durable poll cursors)
 * with the execution it starts:
 * - `warehouseCode`: the warehouse it is for (another one starts afresh);
 * - `readUpTo`: every order created up to this time (ms, whole seconds) was listed; the next poll
 *   lists from `LOOKBACK_MS` before it, so late orders and a clock of the service behind or ahead
 *   of n8n's by up to that much are still seen;
 * - `seen`: fbpi_order_nr → creation time (ms) of the orders listed at or after the start of the
 *   next window: those are never emitted again. Older ones no window reaches any more are dropped;
 * - `floor`: when more than `MAX_SEEN` orders are in the overlap, the oldest are dropped and
 *   `floor` rises to the newest dropped one's time: an order created at or before it is never
 *   emitted (never twice; one listed late behind so many others could be missed).
 * - `resume`: a listing the poll's page budget cut short, continued by the next poll from its
 *   `next_token` (same filters): a window with more orders than one poll reads still ends.
 * Bound: at most `MAX_SEEN` entries, each key at most `MAX_KEY_LENGTH` characters; one token.
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/** How far back each poll lists again: clock skew and orders that appear late. */
export const LOOKBACK_MS = 15 * 60_000;
/** Orders remembered at most (the overlap of one warehouse; see `floor`). */
export const MAX_SEEN = 5000;
/** Longer order numbers are remembered by their hash. */
export const MAX_KEY_LENGTH = 64;
/** The static data field. */
export const STATE_KEY = 'newFbpiOrder';

/** A listing the page budget cut short: the next poll goes on from `token`, same window. */
export interface Resume {
	after: number;
	/** undefined: the window has no end. */
	before?: number;
	token: string;
	/** `readUpTo` once the window is read whole. */
	upTo: number;
}

export interface PollState {
	warehouseCode: string;
	readUpTo: number;
	floor: number;
	seen: Record<string, number>;
	resume?: Resume;
}

/** An order as the state remembers it. */
export interface Listed {
	key: string;
	createdAt: number;
	order: IDataObject;
}

/** The key an order is remembered by: its number, hashed when long. */
export function orderKey(orderNr: string): string {
	return orderNr.length <= MAX_KEY_LENGTH
		? orderNr
		: `sha256:${createHash('sha256').update(orderNr).digest('hex')}`;
}

const finite = (value: unknown): value is number =>
	typeof value === 'number' && Number.isFinite(value);

/**
 * The saved state for `warehouseCode`, undefined when there is none, it is for another warehouse,
 * or it is of another shape (then the trigger starts afresh: no order is emitted twice). Entries
 * of `seen` of another shape are dropped.
 */
export function savedState(data: IDataObject, warehouseCode: string): PollState | undefined {
	const value = data[STATE_KEY] as Partial<PollState> | undefined;
	if (!value || typeof value !== 'object' || value.warehouseCode !== warehouseCode)
		return undefined;
	if (!finite(value.readUpTo) || !finite(value.floor)) return undefined;
	const seen = value.seen;
	if (!seen || typeof seen !== 'object' || Array.isArray(seen)) return undefined;
	for (const [key, at] of Object.entries(seen)) {
		if (!finite(at) || key.length > MAX_KEY_LENGTH + 7) delete seen[key];
	}
	const resume = value.resume;
	const validResume =
		resume &&
		typeof resume.token === 'string' &&
		finite(resume.after) &&
		finite(resume.upTo) &&
		(resume.before === undefined || finite(resume.before));
	if (resume !== undefined && !validResume) delete value.resume;
	return value as PollState;
}

/** The state of a first activation: everything listed so far is history. */
export function startState(data: IDataObject, warehouseCode: string, readUpTo: number): PollState {
	const state: PollState = { warehouseCode, readUpTo, floor: 0, seen: {} };
	data[STATE_KEY] = state as unknown as IDataObject;
	return state;
}

/** Whether the state would emit the order: not seen, and created after the floor. */
export function isNew(state: PollState, listed: Listed): boolean {
	return !(listed.key in state.seen) && listed.createdAt > state.floor;
}

/**
 * Records the orders and what was read (`readUpTo`, never moved back), in one go: gives those
 * new to the state as it is now (another poll may have recorded some since), oldest first.
 */
export function record(
	state: PollState,
	orders: readonly Listed[],
	readUpTo: number,
	resume?: Resume,
): Listed[] {
	const fresh: Listed[] = [];
	for (const listed of orders) {
		if (!isNew(state, listed)) continue;
		state.seen[listed.key] = listed.createdAt;
		fresh.push(listed);
	}
	state.readUpTo = Math.max(state.readUpTo, readUpTo);
	if (resume) state.resume = resume;
	else delete state.resume;
	prune(state);
	return fresh.sort((a, b) => a.createdAt - b.createdAt || (a.key < b.key ? -1 : 1));
}

/** Drops what no window reaches any more, then the oldest beyond `MAX_SEEN` (raising `floor`). */
function prune(state: PollState): void {
	const reach = state.readUpTo - LOOKBACK_MS;
	const kept = Object.entries(state.seen).filter(([, at]) => at >= reach);
	kept.sort((a, b) => a[1] - b[1]);
	const dropped = kept.splice(0, Math.max(0, kept.length - MAX_SEEN));
	if (dropped.length) state.floor = Math.max(state.floor, dropped[dropped.length - 1][1]);
	state.seen = Object.fromEntries(kept);
}
