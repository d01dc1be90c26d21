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
 * - `seen`: fbpi_order_nr → creation time (ms) of the orders emitted (or history) at or after the
 *   start of the next window (`readUpTo - LOOKBACK_MS`): those are never emitted again; one listed
 *   again is remembered with the later of its times (`listedAgain`);
 * - `floor`: an order created at or before it is never new. Entries of `seen` older than the next
 *   window are dropped, and `floor` rises to just before that window's start: an order a server
 *   lists although it is older than the window asked (filters shifted or ignored) is not new.
 *   When more than `MAX_SEEN` orders are in the overlap, the oldest are dropped too and `floor`
 *   rises to the newest dropped one's time (never twice; one listed late behind so many others
 *   could be missed);
 * - `pending`: order key → an order taken as new whose details are still to read (a GetFbpiOrder
 *   that failed, or one the poll's time budget did not reach), with its list entry, how many
 *   polls failed to read it and when the first of them did (`since`): each is emitted once, when
 *   read or after `MAX_DETAIL_ATTEMPTS` failed polls over `DETAIL_PATIENCE_MS`, marked
 *   `detailsUnavailable` (pending.ts);
 * - `resume`: a listing the poll's page budget cut short, or the room for new orders (no more
 *   new orders are listed than `MAX_PENDING` less those pending, counted by order whatever a
 *   page holds), continued by the next poll from its `next_token` (same filters; a page cut in
 *   its middle from its own): a window with more orders than one poll reads still ends.
 * Bound: at most `MAX_SEEN` entries in `seen`, each key at most `MAX_KEY_LENGTH` characters (or a
 * hash); at most `MAX_PENDING` pending orders, each its list entry of at most `MAX_ENTRY_CHARS`
 * characters as JSON (a longer one: its number and creation time only; when even those are
 * longer, it is not kept but emitted at once, marked); one token.
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/** How far back each poll lists again: clock skew and orders that appear late. */
export const LOOKBACK_MS = 15 * 60_000;
/** Orders remembered at most (the overlap of one warehouse; see `floor`). */
export const MAX_SEEN = 5000;
/** Orders at most waiting for their details (a poll lists no more new orders than there is room). */
export const MAX_PENDING = 2000;
/** A pending order's list entry kept whole up to this size (JSON); else its number and time. */
export const MAX_ENTRY_CHARS = 2000;
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
	seen: Record<string, number>;
	pending: Record<string, Pending>;
	resume?: Resume;
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
	if (!validResume(value.resume)) delete value.resume;
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

function validResume(resume: Resume | undefined): boolean {
	return (
		!!resume &&
		typeof resume.token === 'string' &&
		finite(resume.after) &&
		finite(resume.upTo) &&
		(resume.before === undefined || finite(resume.before))
	);
}

/** The state of a first activation: everything listed so far is history. */
export function startState(
	data: IDataObject,
	stream: string,
	warehouseCode: string,
	readUpTo: number,
): PollState {
	const state: PollState = { stream, warehouseCode, readUpTo, floor: 0, seen: {}, pending: {} };
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

/**
 * Records what was read (`readUpTo`, never moved back) and the listing left unfinished, then
 * drops what no window reaches any more.
 */
export function recordRead(state: PollState, readUpTo: number, resume?: Resume): void {
	state.readUpTo = Math.max(state.readUpTo, readUpTo);
	if (resume) state.resume = resume;
	else delete state.resume;
	prune(state);
}

/**
 * Drops what no window reaches any more (the floor rises to just before the next window), then
 * the oldest beyond `MAX_SEEN` (the floor rises to the newest of them).
 */
function prune(state: PollState): void {
	const reach = state.readUpTo - LOOKBACK_MS;
	const all = Object.entries(state.seen);
	const kept = all.filter(([, at]) => at >= reach);
	if (kept.length < all.length) state.floor = Math.max(state.floor, reach - 1);
	kept.sort((a, b) => a[1] - b[1]);
	const dropped = kept.splice(0, Math.max(0, kept.length - MAX_SEEN));
	if (dropped.length) state.floor = Math.max(state.floor, dropped[dropped.length - 1][1]);
	state.seen = Object.fromEntries(kept);
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
