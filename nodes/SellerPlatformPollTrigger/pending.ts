/**
 * Orders taken as new whose details are still to read (the state's `pending`, state.ts): the
 * work of one poll's detail reads (pending orders first, then the new ones), and what their
 * outcome does to the state. Each order is emitted once: when its details are read (or its list
 * entry has them), or, once `MAX_DETAIL_ATTEMPTS` polls failed to read them over at least
 * `DETAIL_PATIENCE_MS` since the first of them, as listed with `detailsUnavailable` (a short
 * outage of GetFbpiOrder, at any poll interval, sends no order without its items). One the
 * poll's budget did not reach waits, with its count unchanged.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	isNew,
	LOOKBACK_MS,
	MAX_ENTRY_CHARS,
	MAX_PENDING,
	remember,
	type Listed,
	type Pending,
	type PollState,
} from './state';

/** Polls that fail to read an order's details before it is emitted as listed, marked. */
export const MAX_DETAIL_ATTEMPTS = 3;
/**
 * Time from the first poll that failed to read an order's details before it is emitted as listed,
 * marked (and `MAX_DETAIL_ATTEMPTS` failed polls): as long as each poll looks back for late orders.
 */
export const DETAIL_PATIENCE_MS = LOOKBACK_MS;
/** The field that marks an order emitted without its details: `{ message, attempts }`. */
export const DETAILS_UNAVAILABLE = 'detailsUnavailable';

/**
 * An order to emit once its details are read; `attempts`: polls that failed to read them,
 * `since`: when the first of them failed (ms; undefined while none did).
 */
export interface Work {
	listed: Listed;
	attempts: number;
	since?: number;
}

/** What one poll's detail reads gave. */
export interface Outcome {
	/** Details read, or the list entry had them. */
	ready: Work[];
	/** The read failed: the error's message (no secret: the request layer redacts it). */
	failed: Array<Work & { message: string }>;
	/** Not read: the poll's budget ended first, or the run could send no more. */
	unreached: Work[];
}

/** An order emitted without its details, as `settle` reports it. */
export interface GivenUp {
	fbpiOrderNr: string;
	attempts: number;
	message: string;
}

/** The pending orders and then the new ones, each once, oldest first within each. */
export function workOf(state: PollState, fresh: readonly Listed[]): Work[] {
	const work: Work[] = Object.entries(state.pending)
		.map(([key, { createdAt, attempts, since, order }]) => ({
			listed: { key, createdAt, order: { ...order } },
			attempts,
			since,
		}))
		.sort((a, b) => a.listed.createdAt - b.listed.createdAt);
	const keys = new Set(work.map((item) => item.listed.key));
	for (const listed of fresh) {
		if (keys.has(listed.key)) continue;
		keys.add(listed.key);
		work.push({ listed, attempts: 0 });
	}
	return work;
}

/** The list entry a pending order keeps: whole up to `MAX_ENTRY_CHARS`, else number and time. */
export function entryOf(order: IDataObject): IDataObject {
	if (JSON.stringify(order).length <= MAX_ENTRY_CHARS) return order;
	const { fbpi_order_nr, order_created_at } = order;
	return { fbpi_order_nr, order_created_at };
}

/**
 * Keeps the order pending; otherwise gives why it cannot wait: `MAX_PENDING` are already waiting,
 * or even its number and time are longer than `MAX_ENTRY_CHARS` (the bound of the static data).
 */
function keep(
	state: PollState,
	{ key, createdAt, order }: Listed,
	{ attempts, since }: Pick<Work, 'attempts' | 'since'>,
): string | undefined {
	if (!(key in state.pending) && Object.keys(state.pending).length >= MAX_PENDING)
		return `More than ${MAX_PENDING} orders wait for their details`;
	const entry = entryOf(order);
	if (JSON.stringify(entry).length > MAX_ENTRY_CHARS)
		return `Its number and creation time are longer than ${MAX_ENTRY_CHARS} characters: it is not kept to read again`;
	const pending: Pending = { createdAt, attempts, order: entry };
	if (since !== undefined) pending.since = since;
	state.pending[key] = pending;
	return undefined;
}

/** The order as listed, marked: its details could not be read. */
function unavailable(listed: Listed, message: string, attempts: number): Listed {
	const order = { ...listed.order, [DETAILS_UNAVAILABLE]: { message, attempts } };
	return { ...listed, order };
}

/**
 * A failed read counted with what the state has now: another poll that overlapped this one may
 * have counted its failure already (then this one is not counted again); the first failure's
 * time is the earliest known, never after `now` (a clock moved back does not postpone it).
 */
function failedAgain(stored: Pending | undefined, { attempts, since }: Work, now: number) {
	return {
		attempts: Math.max(attempts + 1, stored?.attempts ?? 0),
		since: Math.min(now, since ?? now, stored?.since ?? now),
	};
}

/** Whether an order failed long enough to be emitted as listed, marked. */
const givesUp = ({ attempts, since }: { attempts: number; since: number }, now: number) =>
	attempts >= MAX_DETAIL_ATTEMPTS && now - since >= DETAIL_PATIENCE_MS;

/**
 * Applies a poll's outcome to the state as it is now (another poll may have settled some since),
 * at `now` (ms): gives the orders to emit, oldest first, and those emitted without their details.
 */
export function settle(
	state: PollState,
	outcome: Outcome,
	now: number,
): { emit: Listed[]; givenUp: GivenUp[] } {
	const emit: Listed[] = [];
	const givenUp: GivenUp[] = [];
	const taken = (listed: Listed) => isNew(state, listed) || listed.key in state.pending;
	const emitOnce = (listed: Listed) => {
		delete state.pending[listed.key];
		remember(state, listed);
		emit.push(listed);
	};
	const giveUp = (listed: Listed, message: string, attempts: number) => {
		const fbpiOrderNr = String(listed.order.fbpi_order_nr);
		givenUp.push({ fbpiOrderNr, attempts, message });
		emitOnce(unavailable(listed, message, attempts));
	};
	for (const { listed } of outcome.ready) if (taken(listed)) emitOnce(listed);
	for (const item of outcome.failed) {
		if (!taken(item.listed)) continue;
		const failed = failedAgain(state.pending[item.listed.key], item, now);
		if (givesUp(failed, now) || keep(state, item.listed, failed) !== undefined)
			giveUp(item.listed, item.message, failed.attempts);
	}
	for (const item of outcome.unreached) {
		if (!taken(item.listed) || item.listed.key in state.pending) continue;
		const why = keep(state, item.listed, item);
		if (why !== undefined) giveUp(item.listed, why, item.attempts);
	}
	emit.sort((a, b) => a.createdAt - b.createdAt || (a.key < b.key ? -1 : 1));
	return { emit, givenUp };
}
