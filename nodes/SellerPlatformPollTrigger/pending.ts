/**
 * Orders taken as new whose details are still to read (the state's `pending`, state.ts): the
 * work of one poll's detail reads (pending orders first, then the new ones), and what their
 * outcome does to the state. Each order is emitted once: when its details are read (or its list
 * entry has them), or, after `MAX_DETAIL_ATTEMPTS` polls failed to read them, as listed with
 * `detailsUnavailable`. One the poll's budget did not reach waits, with its count unchanged.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	isNew,
	MAX_ENTRY_CHARS,
	MAX_PENDING,
	remember,
	type Listed,
	type Pending,
	type PollState,
} from './state';

/** Polls that fail to read an order's details before it is emitted as listed, marked. */
export const MAX_DETAIL_ATTEMPTS = 3;
/** The field that marks an order emitted without its details: `{ message, attempts }`. */
export const DETAILS_UNAVAILABLE = 'detailsUnavailable';

/** An order to emit once its details are read; `attempts`: polls that failed to read them. */
export interface Work {
	listed: Listed;
	attempts: number;
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
		.map(([key, { createdAt, attempts, order }]) => ({
			listed: { key, createdAt, order: { ...order } },
			attempts,
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
function entryOf(order: IDataObject): IDataObject {
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
	attempts: number,
): string | undefined {
	if (!(key in state.pending) && Object.keys(state.pending).length >= MAX_PENDING)
		return `More than ${MAX_PENDING} orders wait for their details`;
	const entry = entryOf(order);
	if (JSON.stringify(entry).length > MAX_ENTRY_CHARS)
		return `Its number and creation time are longer than ${MAX_ENTRY_CHARS} characters: it is not kept to read again`;
	const pending: Pending = { createdAt, attempts, order: entry };
	state.pending[key] = pending;
	return undefined;
}

/** The order as listed, marked: its details could not be read. */
function unavailable(listed: Listed, message: string, attempts: number): Listed {
	const order = { ...listed.order, [DETAILS_UNAVAILABLE]: { message, attempts } };
	return { ...listed, order };
}

/**
 * Applies a poll's outcome to the state as it is now (another poll may have settled some since):
 * gives the orders to emit, oldest first, and those emitted without their details.
 */
export function settle(state: PollState, outcome: Outcome): { emit: Listed[]; givenUp: GivenUp[] } {
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
	for (const { listed, attempts: before, message } of outcome.failed) {
		if (!taken(listed)) continue;
		const attempts = Math.max(before, state.pending[listed.key]?.attempts ?? 0) + 1;
		if (attempts >= MAX_DETAIL_ATTEMPTS || keep(state, listed, attempts) !== undefined)
			giveUp(listed, message, attempts);
	}
	for (const { listed, attempts } of outcome.unreached) {
		if (!taken(listed) || listed.key in state.pending) continue;
		const why = keep(state, listed, attempts);
		if (why !== undefined) giveUp(listed, why, attempts);
	}
	emit.sort((a, b) => a.createdAt - b.createdAt || (a.key < b.key ? -1 : 1));
	return { emit, givenUp };
}
