/**
 * What one poll does: in an active workflow, the orders created since the last poll (each once);
 * for "Fetch Test Event", the most recent order. The state is in state.ts, the listing in
 * listing.ts, the detail reads in details.ts, the orders waiting for them in pending.ts.
 */
import {
	NodeApiError,
	NodeOperationError,
	type INodeExecutionData,
	type IDataObject,
	type IPollFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { connectionSettings } from '../shared';
import { confirmEmitted, noteStart, recordEmitted, startedBefore } from './confirmation';
import { needsDetails, readDetails, readOrder } from './details';
import { listWindow, pageBudget, toSecond, type PageBudget } from './listing';
import { settle, workOf, type GivenUp } from './pending';
import {
	isNew,
	listedAgain,
	LOOKBACK_MS,
	MAX_PENDING,
	recordRead,
	remember,
	savedState,
	startState,
	STATE_KEY,
	streamKey,
	type Listed,
	type PollState,
	type Resume,
} from './state';

/** Catching up after a pause, the orders are listed an hour of creation time at a time. */
export const SLICE_MS = 60 * 60_000;
/** How far back "Fetch Test Event" looks, widening until it finds an order (the last: all). */
const TEST_EVENT_SPANS = [60 * 60_000, 24 * 60 * 60_000, 30 * 24 * 60 * 60_000, undefined];

/** The next window from `start`: an hour, or without an end when that reaches `now`. */
function windowFrom(start: number, now: number): Resume {
	const end = start + SLICE_MS;
	return end >= now
		? { after: start, token: '', upTo: now }
		: { after: start, before: end, token: '', upTo: end };
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
): Promise<{ orders: Listed[]; readUpTo: number; resume?: Resume; unnamed: number }> {
	const orders: Listed[] = [];
	let unnamed = 0;
	let readUpTo = state.readUpTo;
	let next = state.resume ?? windowFrom(readUpTo - LOOKBACK_MS, now);
	for (;;) {
		const window = { after: next.after, before: next.before };
		const listed = await listWindow(ctx, warehouseCode, window, budget, next.token);
		orders.push(...listed.orders);
		unnamed += listed.unnamed;
		if (!listed.complete) {
			return { orders, readUpTo, resume: { ...next, token: listed.token }, unnamed };
		}
		readUpTo = next.upTo;
		if (next.before === undefined) return { orders, readUpTo, unnamed };
		next = windowFrom(next.before, now);
	}
}

/**
 * `readSince`; on a failure, the listing left unfinished is given up (its token may be stale):
 * the next poll lists its window afresh.
 */
async function readOrForget(
	ctx: IPollFunctions,
	warehouseCode: string,
	state: PollState,
	now: number,
	budget: PageBudget,
): ReturnType<typeof readSince> {
	let failed: unknown;
	try {
		return await readSince(ctx, warehouseCode, state, now, budget);
	} catch (error) {
		failed = error;
	}
	delete state.resume;
	if (failed instanceof NodeApiError || failed instanceof NodeOperationError) throw failed;
	throw new NodeApiError(ctx.getNode(), failed as JsonObject);
}

/**
 * The first poll of an order stream: the orders already there (from `LOOKBACK_MS` back, no end)
 * are history, remembered and not emitted.
 */
async function startAfresh(
	ctx: IPollFunctions,
	stream: string,
	warehouseCode: string,
	now: number,
) {
	const budget = pageBudget(ctx, Date.now());
	const { orders, complete } = await listWindow(
		ctx,
		warehouseCode,
		{ after: now - LOOKBACK_MS },
		budget,
	);
	const state = startState(ctx.getWorkflowStaticData('node'), stream, warehouseCode, now);
	noteStart(ctx, state, now); // confirmation.ts
	// Too many to read: what was not read is history too.
	if (!complete) state.floor = now;
	for (const listed of orders) remember(state, listed);
	recordRead(state, now);
	return null;
}

/** A poll's listing budget: each new order could wait for its details (at most `MAX_PENDING`). */
function budgetWithRoom(ctx: IPollFunctions, state: PollState): PageBudget {
	const budget = pageBudget(ctx, Date.now());
	const orders = MAX_PENDING - Object.keys(state.pending).length;
	budget.room = { orders, isNew: (listed) => isNew(state, listed) };
	return budget;
}

/** Tells n8n's log of the orders emitted without their details, and of entries naming none. */
function warn(ctx: IPollFunctions, givenUp: readonly GivenUp[], unnamed: number) {
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

/** An active workflow's poll: one item per order new since the last poll, oldest first. */
export async function newOrders(
	ctx: IPollFunctions,
	warehouseCode: string,
): Promise<INodeExecutionData[][] | null> {
	const now = toSecond(Date.now());
	const data = ctx.getWorkflowStaticData('node');
	const stream = streamKey((await connectionSettings(ctx, 0)).scope, warehouseCode);
	const saved =
		savedState(data, stream, warehouseCode) ?? startedBefore(ctx, data, stream, warehouseCode, now); // confirmation.ts
	if (!saved) return await startAfresh(ctx, stream, warehouseCode, now);
	confirmEmitted(ctx, saved); // confirmation.ts
	const budget = budgetWithRoom(ctx, saved);
	const read = await readOrForget(ctx, warehouseCode, saved, now, budget);
	for (const listed of read.orders) listedAgain(saved, listed);
	const fresh = read.orders.filter((listed) => isNew(saved, listed));
	const outcome = await readDetails(ctx, workOf(saved, fresh), budget);
	// Recorded at once, after the last request: a poll that fails records nothing, and of two
	// overlapping polls the later one emits only what the earlier did not.
	const live = savedState(data, stream, warehouseCode) ?? saved;
	const { emit, givenUp } = settle(live, outcome, Date.now());
	recordRead(live, read.readUpTo, read.resume);
	recordEmitted(ctx, live, emit); // confirmation.ts
	// Set again on n8n's static data object: it notices changes to its own fields only (not inside
	// an object set on it later), and saves the static data only when it noticed one.
	data[STATE_KEY] = live as unknown as IDataObject;
	warn(ctx, givenUp, read.unnamed);
	return emit.length ? [emit.map((listed) => ({ json: listed.order }))] : null;
}

/** "Fetch Test Event": the most recent order of the warehouse; the state is not touched. */
export async function mostRecentOrder(
	ctx: IPollFunctions,
	warehouseCode: string,
): Promise<INodeExecutionData[][]> {
	const now = Date.now();
	const budget = pageBudget(ctx, now);
	for (const span of TEST_EVENT_SPANS) {
		const window = { after: span === undefined ? undefined : now - span };
		const { orders } = await listWindow(ctx, warehouseCode, window, budget);
		if (!orders.length) continue;
		const { order } = orders.reduce((a, b) => (b.createdAt > a.createdAt ? b : a));
		const fbpiOrderNr = order.fbpi_order_nr as string;
		return [[{ json: needsDetails(order) ? await readOrder(ctx, fbpiOrderNr) : order }]];
	}
	throw new NodeOperationError(ctx.getNode(), `No FBPI order in warehouse "${warehouseCode}" yet`, {
		description:
			'Create a sandbox order in this warehouse (FBPI Order → Create Sandbox Order) and fetch again.',
	});
}
