/**
 * Listing a warehouse's orders for the poll trigger (ListFbpiOrders, following `next_token`),
 * within the poll's page and time budget (details.ts reads the entries without their items).
 * Windows go by creation time, `YYYY-MM-DDTHH:MM:SSZ`, both ends included (the reference's form).
 * An `order_created_at` without a zone designator is UTC, whatever n8n's time zone.
 */
import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IPollFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { apiRequest, monotonicNow, pages } from '../shared';
import { orderKey, type Listed, type Position } from './state';

/** Orders in one page of ListFbpiOrders (the reference's page size). */
export const ORDERS_PER_PAGE = 50;
/** Pages one poll reads at most (`ORDERS_PER_PAGE` orders each). */
export const MAX_PAGES_PER_POLL = 40;
/** Pages one listing reads at most across polls before it starts again (as Get Many). */
export const MAX_LISTING_PAGES = 1000;
/** Times a listing starts again before the poll fails (the next poll starts it again). */
export const MAX_RESTARTS = 2;
/**
 * Share of n8n's poll budget (`getPollBudgetMs`) spent listing before the poll stops early, and
 * at most waiting on 429 answers and backoff.
 */
const BUDGET_SHARE = 0.5;
/** n8n's poll budget where the context does not say it (n8n 1.x). */
const DEFAULT_POLL_BUDGET_MS = 5 * 60_000;

/**
 * New orders a poll may still take, each of which could wait for its details (`MAX_PENDING`),
 * whatever a page holds (a service may ignore the page size), and which orders are new.
 */
export interface Room {
	orders: number;
	isNew: (listed: Listed) => boolean;
}

/**
 * What a poll may still read: pages, a time (`monotonicNow`) after which no page is asked for and
 * no order's details are read (details.ts), and (an active workflow's poll) the room for new
 * orders.
 */
export interface PageBudget {
	pages: number;
	until: number;
	room?: Room;
}

/** n8n's poll budget (ms): how long n8n gives a poll before it gives up on it. */
export function pollBudgetMs(ctx: IPollFunctions): number {
	// n8n 2.x says it; the 1.x context has no such method (its types neither).
	const { getPollBudgetMs } = ctx as { getPollBudgetMs?: () => number };
	const budget = typeof getPollBudgetMs === 'function' ? getPollBudgetMs.call(ctx) : NaN;
	return Number.isFinite(budget) && budget > 0 ? budget : DEFAULT_POLL_BUDGET_MS;
}

/**
 * The time a poll may spend waiting out 429 answers and backoff (`BUDGET_SHARE` of n8n's poll
 * budget): a service that asks for longer fails the poll at once, and the next poll goes on.
 */
export function pollWaitingBudgetMs(ctx: IPollFunctions): number {
	return pollBudgetMs(ctx) * BUDGET_SHARE;
}

export function pageBudget(ctx: IPollFunctions): PageBudget {
	const until = monotonicNow() + pollBudgetMs(ctx) * BUDGET_SHARE;
	return { pages: MAX_PAGES_PER_POLL, until };
}

/** Whole seconds (down), as the filters take them. */
export const toSecond = (ms: number) => Math.floor(ms / 1000) * 1000;
const timestamp = (ms: number) => new Date(toSecond(ms)).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A window of creation times; `before` undefined: no end. */
export interface Window {
	after?: number;
	before?: number;
}

/** The failure as n8n's error: itself when it is one, else a NodeApiError of it. */
export function nodeError(ctx: IPollFunctions, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeApiError(ctx.getNode(), error as JsonObject);
}

function oddAnswer(ctx: IPollFunctions, message: string): NodeApiError {
	return new NodeApiError(ctx.getNode(), { message } as JsonObject, { message });
}

/** `YYYY-MM-DDTHH:MM:SS`, fractions of a second, a zone (Z or ±hh:mm) or none. */
const ISO_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/i;

/** ms of an `order_created_at`: without a zone designator, UTC (not n8n's local time). */
export function creationTime(text: string): number {
	const parts = ISO_TIME.exec(text.trim());
	if (!parts) return Date.parse(text);
	const [, date, time, fraction = '', zone = 'Z'] = parts;
	const ms = fraction ? `.${fraction.slice(0, 3).padEnd(3, '0')}` : '';
	const offset = /^[+-]\d{4}$/.test(zone) ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
	return Date.parse(`${date}T${time}${ms}${offset.toUpperCase()}`);
}

/** An entry's order number: a non-empty string, or a finite number as its decimal string. */
function orderNrOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value || undefined;
	if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
	return Number.isInteger(value) ? BigInt(value).toString() : String(value);
}

/** An entry as the state remembers it (its number a string); undefined when it names no order. */
function listedOf(entry: unknown, fallbackTime: number): Listed | undefined {
	if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
	const fbpi_order_nr = orderNrOf((entry as IDataObject).fbpi_order_nr);
	if (fbpi_order_nr === undefined) return undefined;
	const order: IDataObject = { ...(entry as IDataObject), fbpi_order_nr };
	const at =
		typeof order.order_created_at === 'string' ? creationTime(order.order_created_at) : NaN;
	return {
		key: orderKey(fbpi_order_nr),
		createdAt: Number.isFinite(at) ? at : fallbackTime,
		order,
	};
}

/** One page's entries, up to the room's new orders (`cut`: it had more); `unnamed`: no number. */
function takePage(entries: unknown[], room: Room | undefined) {
	const orders: Listed[] = [];
	let unnamed = 0;
	for (const entry of entries) {
		const listed = listedOf(entry, Date.now());
		if (!listed) {
			unnamed++;
			continue;
		}
		if (room?.isNew(listed)) {
			if (room.orders <= 0) return { orders, unnamed, cut: true };
			room.orders--;
		}
		orders.push(listed);
	}
	return { orders, unnamed, cut: false };
}

/** What `listWindow` gives. */
export interface WindowListing {
	orders: Listed[];
	/** false: the budget or the room ended first (go on from `token`, the same window). */
	complete: boolean;
	token: string;
	/** Entries that name no order (no `fbpi_order_nr` string or number): skipped. */
	unnamed: number;
}

/** Whether the budget (pages, time, room for new orders) lets the poll ask for another page. */
function mayAsk(budget: PageBudget): boolean {
	const full = budget.room !== undefined && budget.room.orders <= 0;
	return budget.pages > 0 && monotonicNow() <= budget.until && !full;
}

/** Where a listing is: the token to go on from ('' for the start) and the pages read so far. */
export interface Cursor {
	token: string;
	pages: number;
}

/**
 * The orders of the window, every page from the cursor's token (the first without one);
 * `complete` false when the budget ended first, or the room: the orders read until then are
 * given, and `token` is where the listing goes on (with the same window, as the service asks).
 * A page with more new orders than the room is given up to the room, and listed again from its
 * own token. The cursor follows each page read. A token the service gave before in the listing
 * fails the poll (the shared page loop).
 */
export async function listWindow(
	ctx: IPollFunctions,
	warehouseCode: string,
	window: Window,
	budget: PageBudget,
	cursor: Cursor = { token: '', pages: 0 },
): Promise<WindowListing> {
	const body: IDataObject = { warehouse_code: warehouseCode };
	if (window.after !== undefined) body.created_after = timestamp(window.after);
	if (window.before !== undefined) body.created_before = timestamp(window.before);
	const fetchPage = async (token: string) => {
		if (!mayAsk(budget)) return undefined;
		budget.pages--;
		const query = token ? { next_token: token } : undefined;
		return await apiRequest.call(ctx, 'ListFbpiOrders', { body, query });
	};
	const orders: Listed[] = [];
	let unnamed = 0;
	let ended = false;
	const from = cursor.token;
	for await (const page of pages(ctx, { endpoint: 'ListFbpiOrders', fetchPage, from })) {
		if (!Array.isArray(page.answer.orders)) {
			throw oddAnswer(
				ctx,
				'The Seller Platform API answered ListFbpiOrders without a list of orders',
			);
		}
		cursor.pages++;
		const taken = takePage(page.answer.orders, budget.room);
		orders.push(...taken.orders);
		unnamed += taken.unnamed;
		if (taken.cut) {
			cursor.token = page.token;
			return { orders, complete: false, token: page.token, unnamed };
		}
		cursor.token = page.next;
		ended = page.next === '';
	}
	return { orders, complete: ended, token: cursor.token, unnamed };
}

/**
 * The listing of a saved position (the short window's or the sweep's, `what`) from where it
 * stands: a token the service refuses is dropped (with a warning) and the window listed again
 * from its start, once, its pages counted on. A failure after that, or with a token of this
 * poll, fails the poll.
 */
async function listSaved(
	ctx: IPollFunctions,
	warehouseCode: string,
	position: Position,
	budget: PageBudget,
	what: string,
): Promise<WindowListing> {
	const window = { after: position.after, before: position.before };
	const saved = position.token;
	let failed: unknown;
	try {
		return await listWindow(ctx, warehouseCode, window, budget, position);
	} catch (error) {
		failed = error;
	}
	if (!saved || position.token !== saved) throw nodeError(ctx, failed);
	const message = failed instanceof Error ? failed.message : String(failed);
	ctx.logger.warn(
		`Seller Platform Poll Trigger: the saved next_token of the ${what} was refused (${message}); its window is listed again from its start`,
	);
	// Its pages still count (`MAX_LISTING_PAGES`): tokens that never live until the next poll,
	// in a window longer than a poll reads, fail the poll in the end rather than loop quietly.
	position.token = '';
	return await listWindow(ctx, warehouseCode, window, budget, position);
}

/**
 * Starts a listing of `MAX_LISTING_PAGES` pages again from its window's start, with a warning;
 * past `MAX_RESTARTS`, resets it (`live`: the state's own, so the next poll starts it again)
 * and fails the poll.
 */
function startAgain(
	ctx: IPollFunctions,
	position: Position,
	live: Position | undefined,
	what: string,
) {
	const reset = { token: '', pages: 0 };
	Object.assign(position, reset, { restarts: position.restarts + 1 });
	const message = `ListFbpiOrders did not end after ${MAX_LISTING_PAGES} pages, listed ${position.restarts} times from the start (the ${what})`;
	if (position.restarts <= MAX_RESTARTS) {
		ctx.logger.warn(`Seller Platform Poll Trigger: ${message}; listing it again from its start`);
		return;
	}
	if (live) Object.assign(live, reset, { restarts: 0 });
	throw new NodeApiError(ctx.getNode(), { message } as JsonObject, {
		message,
		description: `The service kept giving a next_token. The next poll lists that window again from its start.`,
	});
}

/**
 * The listing of `position` (a copy the poll works on; `live`: the state's) within the budget and
 * at most `MAX_LISTING_PAGES` pages across polls, then again from its start (`startAgain`).
 * The position follows the pages read.
 */
export async function listPosition(
	ctx: IPollFunctions,
	warehouseCode: string,
	position: Position,
	budget: PageBudget,
	what: string,
	live?: Position,
): Promise<WindowListing> {
	const all: WindowListing = { orders: [], complete: false, token: '', unnamed: 0 };
	for (;;) {
		if (position.pages >= MAX_LISTING_PAGES) startAgain(ctx, position, live, what);
		const part = { ...budget, pages: Math.min(budget.pages, MAX_LISTING_PAGES - position.pages) };
		const asked = part.pages;
		const listed = await listSaved(ctx, warehouseCode, position, part, what);
		budget.pages -= asked - part.pages;
		all.orders.push(...listed.orders);
		all.unnamed += listed.unnamed;
		const more = !listed.complete && position.pages >= MAX_LISTING_PAGES;
		if (!more) return { ...all, complete: listed.complete, token: position.token };
	}
}
