/**
 * Where the poll trigger stands, kept in the node's static data (`newFbpiOrder`), n8n saves it
 * with the workflow after a poll that emits orders, after activation, and (durable poll cursors)
 * with the execution it starts:
 * - `stream`: the order stream it is for (`streamKey`: gateway and project of the credential,
 *   and the warehouse; a hash, no secret). Another stream starts afresh; a state of the previous
 *   version (no `stream`, same `warehouseCode`) is adopted, stamped with the current stream;
 * - `warehouseCode`: the warehouse it is for;
 * - `readUpTo`: every order created up to this time (ms, whole seconds) was listed; the next poll
 *   lists from `LOOKBACK_MS` before it, so late orders and a clock of the service behind or ahead
 *   of n8n's by up to that much are still seen;
 * - `lateMs`: the lateness covered ("Catch Orders Listed Late Up To", ms) the state was kept for;
 * - `sweptAt`: when the last sweep started (or the activation): every `SWEEP_EVERY_MS` a sweep
 *   lists the orders created from `lateMs` before the previous one's start, so an order first
 *   listed up to `lateMs` after its creation is seen by the next sweep (sweep.ts);
 * - `sweep`: the sweep under way (the slice it lists, its token, pages and restarts, as
 *   `resume`, and where it ends);
 * - `seen`: fbpi_order_nr → creation time (ms) of the orders emitted (or history) at or after
 *   `reach` (`reachOf`: what the next window or sweep lists): those are never emitted again; one
 *   listed again is remembered with the later of its times (`listedAgain`);
 * - `floor`: an order created at or before it is never new. Entries of `seen` older than the
 *   reach are dropped, and `floor` rises to just before it (never down: a lateness raised later
 *   does not bring back history): an order a server lists although it is older than asked
 *   (filters shifted or ignored), or later than the lateness covered, is not new. Past
 *   `MAX_SEEN` entries, those of the oldest creation times are dropped and `floor` rises to the
 *   newest of them (whatever the order the service lists in; the lateness covered shrinks);
 * - `pending`: order key → an order taken as new whose details are still to read (a GetFbpiOrder
 *   that failed, or one the poll's time budget did not reach), with its list entry, how many
 *   polls failed to read it and when the first of them did (`since`): each is emitted once, when
 *   read or after `MAX_DETAIL_ATTEMPTS` failed polls over `DETAIL_PATIENCE_MS`, marked
 *   `detailsUnavailable` (pending.ts);
 * - `resume`: a listing the poll's page budget cut short, or the room for new orders (no more
 *   new orders are listed than `MAX_PENDING` less those pending, counted by order whatever a
 *   page holds), continued by the next poll from its `next_token` (same filters; a page cut in
 *   its middle from its own), with the pages read in it and its restarts (listing.ts,
 *   `MAX_LISTING_PAGES`): a window with more orders than one poll reads still ends.
 * Bound: at most `MAX_SEEN` entries in `seen`, each key at most `MAX_KEY_LENGTH` characters (or a
 * hash); at most `MAX_PENDING` pending orders, each its list entry of at most `MAX_ENTRY_CHARS`
 * characters as JSON (a longer one: its number and creation time only; when even those are
 * longer, it is not kept but emitted at once, marked); two tokens (`resume`, `sweep`).
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/** How far back each poll lists again: clock skew and orders that appear late. */
export const LOOKBACK_MS = 15 * 60_000;
/**
 * Orders remembered at most: 50,000 orders a day over 24 hours of lateness plus a sweep's
 * interval and duration fit four times over (about 6.5 MB of static data when full).
 */
export const MAX_SEEN = 200_000;
/** Orders at most waiting for their details (a poll lists no more new orders than there is room). */
export const MAX_PENDING = 2000;
/** A pending order's list entry kept whole up to this size (JSON); else its number and time. */
export const MAX_ENTRY_CHARS = 2000;
/** Longer order numbers are remembered by their hash. */
export const MAX_KEY_LENGTH = 64;
/** The static data field. */
export const STATE_KEY = 'newFbpiOrder';

/**
 * Where a listing stands across polls: its window, the token to go on from ('' for its start),
 * the pages read since its start, and how often it was started again (`MAX_LISTING_PAGES`).
 */
export interface Position {
	after: number;
	/** undefined: the window has no end. */
	before?: number;
	token: string;
	pages: number;
	restarts: number;
}

/** The short window's listing the page budget cut short: the next poll goes on from `token`. */
export interface Resume extends Position {
	/** `readUpTo` once the window is read whole. */
	upTo: number;
}

/** The sweep under way (sweep.ts): the slice it lists (`after`, `before`) and where it ends. */
export interface Sweep extends Position {
	before: number;
	end: number;
}

/** An order whose details are still to read. */
export interface Pending {
	createdAt: number;
	/** Polls that failed to read its details. */
	attempts: number;
	/** When the first of them failed (ms); absent while none did. */
	since?: number;
	/** The list entry (`MAX_ENTRY_CHARS`). */
	order: IDataObject;
}

export interface PollState {
	stream: string;
	warehouseCode: string;
	readUpTo: number;
	floor: number;
	lateMs: number;
	sweptAt: number;
	seen: Record<string, number>;
	pending: Record<string, Pending>;
	resume?: Resume;
	sweep?: Sweep;
	/** What n8n may not have received yet (confirmation.ts). */
	unconfirmed?: Unconfirmed;
}

/** An order as the state remembers it. */
export interface Listed {
	key: string;
	createdAt: number;
	order: IDataObject;
}

/**
 * The order stream of a credential's gateway and project (`scope`, nodes/shared `gatewayScope`)
 * and a warehouse, as the state keeps it: a hash (no Base URL or key id in clear).
 */
export function streamKey(scope: string, warehouseCode: string): string {
	const text = JSON.stringify([scope, warehouseCode]);
	return `sha256:${createHash('sha256').update(text).digest('hex')}`;
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
 * The saved state of `stream`, undefined when there is none, it is for another stream, or it is
 * of another shape (then the trigger starts afresh: no order is emitted twice). A state without a
 * stream (the previous version's) of the same warehouse is adopted. Entries of `seen` and
 * `pending` of another shape are dropped.
 */
export function savedState(
	data: IDataObject,
	stream: string,
	warehouseCode: string,
): PollState | undefined {
	const value = data[STATE_KEY] as Partial<PollState> | undefined;
	if (!value || typeof value !== 'object' || value.warehouseCode !== warehouseCode)
		return undefined;
	if (value.stream !== stream && value.stream !== undefined) return undefined;
	if (!finite(value.readUpTo) || !finite(value.floor)) return undefined;
	const seen = value.seen;
	if (!seen || typeof seen !== 'object' || Array.isArray(seen)) return undefined;
	for (const [key, at] of Object.entries(seen)) {
		if (!finite(at) || key.length > MAX_KEY_LENGTH + 7) delete seen[key];
	}
	value.stream = stream;
	value.pending = pendingOf(value.pending);
	// A state of the previous version: the lateness it covered was `LOOKBACK_MS`.
	if (!finite(value.lateMs)) value.lateMs = 0;
	if (!finite(value.sweptAt)) value.sweptAt = value.readUpTo;
	value.resume = positionOf(value.resume, finite(value.resume?.upTo)) as Resume | undefined;
	const sweepShaped = finite(value.sweep?.before) && finite(value.sweep?.end);
	value.sweep = positionOf(value.sweep, sweepShaped) as Sweep | undefined;
	if (!value.resume) delete value.resume;
	if (!value.sweep) delete value.sweep;
	if (!validUnconfirmed(value.unconfirmed)) delete value.unconfirmed;
	return value as PollState;
}

/** The saved pending orders, those of another shape dropped (at most `MAX_PENDING`). */
function pendingOf(value: unknown): Record<string, Pending> {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
	const valid = Object.entries(value as Record<string, Partial<Pending>>).filter(
		([key, entry]) =>
			key.length <= MAX_KEY_LENGTH + 7 &&
			!!entry &&
			finite(entry.createdAt) &&
			finite(entry.attempts) &&
			(entry.since === undefined || finite(entry.since)) &&
			!!entry.order &&
			typeof entry.order === 'object' &&
			typeof entry.order.fbpi_order_nr === 'string',
	);
	return Object.fromEntries(valid.slice(0, MAX_PENDING)) as Record<string, Pending>;
}

/** A saved position, undefined when of another shape; counts of the previous version: 0. */
function positionOf(value: Partial<Position> | undefined, valid: boolean): Position | undefined {
	const shaped =
		valid &&
		!!value &&
		typeof value.token === 'string' &&
		finite(value.after) &&
		(value.before === undefined || finite(value.before));
	if (!shaped) return undefined;
	const count = (n: unknown) => (finite(n) && n >= 0 ? n : 0);
	return { ...value, pages: count(value.pages), restarts: count(value.restarts) } as Position;
}

/**
 * The state of a first activation at `readUpTo`: everything listed so far is history, and so is
 * every order created more than `LOOKBACK_MS` before, even one listed later.
 */
export function startState(
	data: IDataObject,
	stream: string,
	warehouseCode: string,
	readUpTo: number,
	lateMs: number,
): PollState {
	const state: PollState = {
		stream,
		warehouseCode,
		readUpTo,
		floor: readUpTo - LOOKBACK_MS - 1,
		lateMs,
		sweptAt: readUpTo,
		seen: {},
		pending: {},
	};
	data[STATE_KEY] = state as unknown as IDataObject;
	return state;
}

/** Whether the order is new to the state: not seen, not pending, and created after the floor. */
export function isNew(state: PollState, listed: Listed): boolean {
	const known = listed.key in state.seen || listed.key in state.pending;
	return !known && listed.createdAt > state.floor;
}

/**
 * An order seen before and listed again is remembered as long as it is listed: its time in `seen`
 * rises to the listed one when later (a time the trigger cannot read is the listing's, an order
 * the service lists with a new time), so pruning never forgets an order the service still lists
 * and the floor does not keep it out.
 */
export function listedAgain(state: PollState, listed: Listed): void {
	const at = state.seen[listed.key];
	if (at !== undefined && listed.createdAt > at) state.seen[listed.key] = listed.createdAt;
}

/** Remembers an order as emitted (or history): never new again. */
export function remember(state: PollState, listed: Listed): void {
	state.seen[listed.key] = listed.createdAt;
}

/** What a poll read: `readUpTo`, the listing left unfinished, the sweep's position. */
export interface Read {
	readUpTo: number;
	resume?: Resume;
	/** The sweep left unfinished (undefined: none, or it ended). */
	sweep?: Sweep;
	/** When a sweep this poll started began (ms). */
	sweptAt?: number;
}

/**
 * Records what was read (`readUpTo`, never moved back), the listings left unfinished and the
 * lateness covered, then drops what no window reaches any more. Gives the orders dropped beyond
 * `MAX_SEEN` (0: none) and the floor.
 */
export function recordRead(state: PollState, read: Read, lateMs: number): number {
	state.readUpTo = Math.max(state.readUpTo, read.readUpTo);
	state.lateMs = lateMs;
	if (read.sweptAt !== undefined) state.sweptAt = Math.max(state.sweptAt, read.sweptAt);
	setOrDelete(state, 'resume', read.resume);
	setOrDelete(state, 'sweep', lateMs > 0 ? read.sweep : undefined);
	return prune(state);
}

function setOrDelete<K extends 'resume' | 'sweep'>(state: PollState, key: K, value: PollState[K]) {
	if (value) state[key] = value;
	else delete state[key];
}

/**
 * The oldest creation time a later window or sweep still lists: `LOOKBACK_MS` before `readUpTo`,
 * or with a lateness covered, `lateMs` before it, before the last sweep's start (the next sweep
 * starts there) and the sweep under way's start.
 */
export function reachOf(state: PollState): number {
	const short = state.readUpTo - LOOKBACK_MS;
	if (state.lateMs <= 0) return short;
	const late = Math.min(state.readUpTo, state.sweptAt) - state.lateMs;
	return Math.min(short, late, state.sweep?.after ?? late);
}

/**
 * Drops the entries older than the reach (the floor rises to just before it), then, beyond
 * `MAX_SEEN`, those of the oldest creation times (the floor rises to the newest of them). Gives
 * how many were dropped beyond `MAX_SEEN`.
 */
function prune(state: PollState): number {
	const reach = reachOf(state);
	state.floor = Math.max(state.floor, reach - 1);
	const kept = Object.entries(state.seen).filter(([, at]) => at >= reach);
	if (kept.length <= MAX_SEEN) {
		state.seen = Object.fromEntries(kept);
		return 0;
	}
	kept.sort((a, b) => a[1] - b[1]);
	const dropped = kept.splice(0, kept.length - MAX_SEEN);
	state.floor = Math.max(state.floor, dropped[dropped.length - 1][1]);
	state.seen = Object.fromEntries(kept);
	return dropped.length;
}

// --- What n8n may not have received yet (confirmation.ts) ---

/**
 * The orders the polls of one n8n life emitted since the last poll of that life began (key → list
 * entry, `MAX_ENTRY_CHARS`), and from when orders are marked as possible duplicates.
 * Bound: what one poll emits (at most `MAX_PENDING`) for each poll of the life running at once.
 */
export interface Unconfirmed {
	/** The n8n life that owns the state. */
	life: string;
	/** Orders created before this time (ms) are emitted marked; absent: none. */
	marksBefore?: number;
	orders: Record<string, { createdAt: number; order: IDataObject }>;
}

/** Whether a saved `unconfirmed` has its shape; its orders of another shape are dropped. */
function validUnconfirmed(value: Partial<Unconfirmed> | undefined): boolean {
	if (!value || typeof value !== 'object' || typeof value.life !== 'string') return false;
	if (value.marksBefore !== undefined && !finite(value.marksBefore)) return false;
	const orders = value.orders;
	if (!orders || typeof orders !== 'object' || Array.isArray(orders)) return false;
	for (const [key, entry] of Object.entries(orders)) {
		const valid =
			key.length <= MAX_KEY_LENGTH + 7 &&
			!!entry &&
			finite(entry.createdAt) &&
			!!entry.order &&
			typeof entry.order === 'object' &&
			typeof entry.order.fbpi_order_nr === 'string';
		if (!valid) delete orders[key];
	}
	return true;
}
