/**
 * What one poll does: in an active workflow, the orders created since the last poll (each once);
 * for "Fetch Test Event", the most recent order. The state is in state.ts, the listing in
 * listing.ts, the detail reads in details.ts, the orders waiting for them in pending.ts.
 */
import {
	NodeOperationError,
	type INodeExecutionData,
	type IDataObject,
	type IPollFunctions,
} from 'n8n-workflow';

import { connectionSettings } from '../shared';
import {
	confirmEmitted,
	durableCursors,
	noteStart,
	recordEmitted,
	startedBefore,
} from './confirmation';
import { needsDetails, readDetails, readOrder } from './details';
import {
	listPosition,
	listWindow,
	nodeError,
	pageBudget,
	toSecond,
	type PageBudget,
} from './listing';
import { settle, workOf, type GivenUp } from './pending';
import { alone, markRepeats } from './sameProcess';
import { readSweep } from './sweep';
import {
	isNew,
	listedAgain,
	LOOKBACK_MS,
	MAX_PENDING,
	MAX_SEEN,
	recordRead,
	remember,
	savedState,
	startState,
	STATE_KEY,
	streamKey,
	type Listed,
	type PollState,
	type Read,
	type Resume,
} from './state';

/** Catching up after a pause, the orders are listed an hour of creation time at a time. */
export const SLICE_MS = 60 * 60_000;
/** How far back "Fetch Test Event" looks, widening until it finds an order (the last: all). */
const TEST_EVENT_SPANS = [60_000, 60 * 60_000, 24 * 60 * 60_000, 30 * 24 * 60 * 60_000, Infinity];
/** Pages "Fetch Test Event" reads of one window before it looks at its later half only. */
const TEST_EVENT_PAGES = 2;

/** The next window from `start`: an hour, or without an end when that reaches `now`. */
function windowFrom(start: number, now: number): Resume {
	const end = start + SLICE_MS;
	const position = { after: start, token: '', pages: 0, restarts: 0 };
	return end >= now ? { ...position, upTo: now } : { ...position, before: end, upTo: end };
}

/** What a poll listed: the orders, entries naming none, and what to record. */
interface Listing extends Read {
	orders: Listed[];
	unnamed: number;
}

/**
 * The orders created since the state's `readUpTo` (from `LOOKBACK_MS` before it; first the
 * listing a previous poll left unfinished), an hour at a time, the last window without an end.
 * Gives `readUpTo`, up to where every window was read whole, and the listing left unfinished.
 */
async function readSince(
	ctx: IPollFunctions,
	warehouseCode: string,
	state: PollState,
	now: number,
	budget: PageBudget,
): Promise<Listing> {
	const orders: Listed[] = [];
	let unnamed = 0;
	let readUpTo = state.readUpTo;
	let live = state.resume;
	let next = live ? { ...live } : windowFrom(readUpTo - LOOKBACK_MS, now);
	for (;;) {
		const listed = await listPosition(ctx, warehouseCode, next, budget, 'short window', live);
		orders.push(...listed.orders);
		unnamed += listed.unnamed;
		if (!listed.complete) return { orders, readUpTo, resume: next, unnamed };
		readUpTo = next.upTo;
		if (next.before === undefined) return { orders, readUpTo, unnamed };
		next = windowFrom(next.before, now);
		live = undefined;
	}
}

/**
 * The short window's orders (`readSince`), then the sweep's part (sweep.ts); a failure that is
 * no error of n8n's becomes a NodeApiError.
 */
async function readAll(
	ctx: IPollFunctions,
	warehouseCode: string,
	state: PollState,
	lateMs: number,
	budget: PageBudget,
): Promise<Listing> {
	const now = toSecond(Date.now());
	let failed: unknown;
	try {
		const read = await readSince(ctx, warehouseCode, state, now, budget);
		const swept = await readSweep(ctx, warehouseCode, state, lateMs, now, budget);
		const orders = [...read.orders, ...swept.orders];
		const unnamed = read.unnamed + swept.unnamed;
		return { ...read, orders, unnamed, sweep: swept.sweep, sweptAt: swept.sweptAt };
	} catch (error) {
		failed = error;
	}
	throw nodeError(ctx, failed);
}

/**
 * The first poll of an order stream: the orders already there (from `LOOKBACK_MS` back, no end)
 * are history, remembered and not emitted.
 */
async function startAfresh(
	ctx: IPollFunctions,
	stream: string,
	warehouseCode: string,
	lateMs: number,
) {
	const now = toSecond(Date.now());
	const budget = pageBudget(ctx);
	const { orders, complete } = await listWindow(
		ctx,
		warehouseCode,
		{ after: now - LOOKBACK_MS },
		budget,
	);
	const data = ctx.getWorkflowStaticData('node');
	const state = startState(data, stream, warehouseCode, now, lateMs);
	noteStart(ctx, state, now); // confirmation.ts
	// Too many to read: what was not read is history too.
	if (!complete) state.floor = now;
	for (const listed of orders) remember(state, listed);
	recordRead(state, { readUpTo: now }, lateMs);
	return null;
}

/** A poll's listing budget: each new order could wait for its details (at most `MAX_PENDING`). */
function budgetWithRoom(ctx: IPollFunctions, state: PollState): PageBudget {
	const budget = pageBudget(ctx);
	const orders = MAX_PENDING - Object.keys(state.pending).length;
	budget.room = { orders, isNew: (listed) => isNew(state, listed) };
	return budget;
}

/**
 * Tells n8n's log of the orders emitted without their details, of entries naming none, and of
 * orders forgotten beyond `MAX_SEEN` (`dropped`).
 */
function warn(ctx: IPollFunctions, givenUp: readonly GivenUp[], unnamed: number, dropped: number) {
	if (dropped > 0) {
		ctx.logger.warn(
			`Seller Platform Poll Trigger: more than ${MAX_SEEN} orders to remember; the ${dropped} oldest were forgotten, so an order listed late is caught only when created after them`,
		);
	}
	for (const { fbpiOrderNr, attempts, message } of givenUp) {
		ctx.logger.warn(
			`Seller Platform Poll Trigger: FBPI order ${fbpiOrderNr} is emitted as listed, with detailsUnavailable: its details could not be read (${attempts} polls; last: ${message})`,
		);
	}
	if (unnamed > 0) {
		ctx.logger.warn(
			`Seller Platform Poll Trigger: ${unnamed} ${unnamed === 1 ? 'entry' : 'entries'} of ListFbpiOrders without an fbpi_order_nr (a string or a number) skipped`,
		);
	}
}

/**
 * An active workflow's poll: one item per order new since the last poll, oldest first. With
 * durable poll cursors, one poll of the node at a time in this process (sameProcess.ts).
 */
export async function newOrders(
	ctx: IPollFunctions,
	warehouseCode: string,
	lateMs: number,
): Promise<INodeExecutionData[][] | null> {
	if (!durableCursors(ctx)) return await pollOnce(ctx, warehouseCode, lateMs, false);
	return await alone(ctx, async () => await pollOnce(ctx, warehouseCode, lateMs, true));
}

/** One poll (`newOrders`); `durable`: with durable poll cursors. */
async function pollOnce(
	ctx: IPollFunctions,
	warehouseCode: string,
	lateMs: number,
	durable: boolean,
): Promise<INodeExecutionData[][] | null> {
	const data = ctx.getWorkflowStaticData('node');
	const stream = streamKey((await connectionSettings(ctx, 0)).scope, warehouseCode);
	// confirmation.ts: with durable poll cursors, the state kept where the activation stood.
	const saved =
		savedState(data, stream, warehouseCode) ??
		startedBefore(ctx, data, stream, warehouseCode, toSecond(Date.now()), lateMs);
	if (!saved) return await startAfresh(ctx, stream, warehouseCode, lateMs);
	confirmEmitted(ctx, saved); // confirmation.ts
	const budget = budgetWithRoom(ctx, saved);
	const read = await readAll(ctx, warehouseCode, saved, lateMs, budget);
	for (const listed of read.orders) listedAgain(saved, listed);
	const fresh = read.orders.filter((listed) => isNew(saved, listed));
	const outcome = await readDetails(ctx, workOf(saved, fresh), budget);
	// Recorded at once, after the last request: a poll that fails records nothing, and of two
	// overlapping polls the later one emits only what the earlier did not.
	const live = savedState(data, stream, warehouseCode) ?? saved;
	const { emit, givenUp } = settle(live, outcome, Date.now());
	const dropped = recordRead(live, read, lateMs);
	recordEmitted(ctx, live, emit); // confirmation.ts
	if (durable) markRepeats(ctx, stream, emit); // sameProcess.ts
	// Set again on n8n's static data object: it notices changes to its own fields only (not inside
	// an object set on it later), and saves the static data only when it noticed one.
	data[STATE_KEY] = live as unknown as IDataObject;
	warn(ctx, givenUp, read.unnamed, dropped);
	return emit.length ? [emit.map((listed) => ({ json: listed.order }))] : null;
}

/** The newest of the orders (by creation time), undefined when none. */
const newestOf = (orders: readonly Listed[]) =>
	orders.reduce<Listed | undefined>((a, b) => (!a || b.createdAt > a.createdAt ? b : a), undefined);

/**
 * The newest order created from `after` on (no end: orders stamped ahead of n8n's clock too),
 * whatever the order the service lists in: a window listed whole within `TEST_EVENT_PAGES` pages
 * gives its newest; a longer one is halved at the second between `after` and `now`, the later half
 * first. Undefined when there is none, or the budget ended first (`seen`: the newest listed then).
 */
async function newestFrom(
	ctx: IPollFunctions,
	warehouseCode: string,
	window: { after: number; before?: number },
	now: number,
	budget: PageBudget,
	seen: Listed[],
): Promise<Listed | undefined> {
	const own = { ...budget, pages: Math.min(TEST_EVENT_PAGES, budget.pages) };
	const listed = await listWindow(ctx, warehouseCode, window, own);
	budget.pages -= Math.min(TEST_EVENT_PAGES, budget.pages) - own.pages;
	seen.push(...listed.orders);
	if (listed.complete) return newestOf(listed.orders);
	const middle = toSecond((window.after + Math.min(now, window.before ?? now)) / 2);
	if (middle <= window.after || budget.pages <= 0) return undefined;
	const later = { after: middle, before: window.before };
	const found = await newestFrom(ctx, warehouseCode, later, now, budget, seen);
	if (found || budget.pages <= 0) return found;
	return await newestFrom(ctx, warehouseCode, { ...window, before: middle }, now, budget, seen);
}

/**
 * "Fetch Test Event": the warehouse's most recent order, from windows ending now of growing
 * span (`newestFrom`); the state is not touched.
 */
export async function mostRecentOrder(
	ctx: IPollFunctions,
	warehouseCode: string,
): Promise<INodeExecutionData[][]> {
	const now = toSecond(Date.now());
	const budget = pageBudget(ctx);
	const seen: Listed[] = [];
	let newest: Listed | undefined;
	for (const span of TEST_EVENT_SPANS) {
		const after = Number.isFinite(span) ? now - span : 0;
		newest = await newestFrom(ctx, warehouseCode, { after }, now, budget, seen);
		if (newest || budget.pages <= 0) break;
	}
	newest ??= newestOf(seen);
	if (newest) {
		const { order } = newest;
		const fbpiOrderNr = order.fbpi_order_nr as string;
		return [[{ json: needsDetails(order) ? await readOrder(ctx, fbpiOrderNr) : order }]];
	}
	throw new NodeOperationError(ctx.getNode(), `No FBPI order in warehouse "${warehouseCode}" yet`, {
		description:
			'Create a sandbox order in this warehouse (FBPI Order → Create Sandbox Order) and fetch again.',
	});
}
