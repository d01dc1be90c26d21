/**
 * Listing a warehouse's orders for the poll trigger (ListFbpiOrders, following `next_token`),
 * within the poll's page and time budget (details.ts reads the entries without their items).
 * Windows go by creation time, `YYYY-MM-DDTHH:MM:SSZ`, both ends included (the reference's form).
 * An `order_created_at` without a zone designator is UTC, whatever n8n's time zone.
 */
import { NodeApiError, type IDataObject, type IPollFunctions, type JsonObject } from 'n8n-workflow';

import { apiRequest } from '../shared';
import { orderKey, type Listed } from './state';

/** Orders in one page of ListFbpiOrders (the reference's page size). */
export const ORDERS_PER_PAGE = 50;
/** Pages one poll reads at most (`ORDERS_PER_PAGE` orders each). */
export const MAX_PAGES_PER_POLL = 40;
/** Share of n8n's poll budget (`getPollBudgetMs`) spent listing before the poll stops early. */
const BUDGET_SHARE = 0.5;
/** n8n's poll budget where the context does not say it (n8n 1.x). */
const DEFAULT_POLL_BUDGET_MS = 5 * 60_000;

/**
 * What a poll may still read: pages, and a time after which no page is asked for and no order's
 * details are read (details.ts).
 */
export interface PageBudget {
	pages: number;
	until: number;
}

export function pageBudget(
	ctx: IPollFunctions,
	now: number,
	pages = MAX_PAGES_PER_POLL,
): PageBudget {
	// n8n 2.x says it; the 1.x context has no such method (its types neither).
	const { getPollBudgetMs } = ctx as { getPollBudgetMs?: () => number };
	const budget = typeof getPollBudgetMs === 'function' ? getPollBudgetMs.call(ctx) : NaN;
	const ms = Number.isFinite(budget) && budget > 0 ? budget : DEFAULT_POLL_BUDGET_MS;
	return { pages: Math.min(pages, MAX_PAGES_PER_POLL), until: now + ms * BUDGET_SHARE };
}

/** Whole seconds (down), as the filters take them. */
export const toSecond = (ms: number) => Math.floor(ms / 1000) * 1000;
const timestamp = (ms: number) => new Date(toSecond(ms)).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A window of creation times; `before` undefined: no end. */
export interface Window {
	after?: number;
	before?: number;
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

/** An entry as the state remembers it; undefined when it names no order. */
function listedOf(entry: unknown, fallbackTime: number): Listed | undefined {
	if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
	const order = entry as IDataObject;
	if (typeof order.fbpi_order_nr !== 'string' || !order.fbpi_order_nr) return undefined;
	const at =
		typeof order.order_created_at === 'string' ? creationTime(order.order_created_at) : NaN;
	return {
		key: orderKey(order.fbpi_order_nr),
		createdAt: Number.isFinite(at) ? at : fallbackTime,
		order,
	};
}

/**
 * The orders of the window, every page from `startToken` (the first without one); `complete`
 * false when the budget ended first: the orders read until then are given, and `token` is where
 * the listing goes on (with the same window, as the service asks).
 */
export async function listWindow(
	ctx: IPollFunctions,
	warehouseCode: string,
	window: Window,
	budget: PageBudget,
	startToken = '',
): Promise<{ orders: Listed[]; complete: boolean; token: string }> {
	const body: IDataObject = { warehouse_code: warehouseCode };
	if (window.after !== undefined) body.created_after = timestamp(window.after);
	if (window.before !== undefined) body.created_before = timestamp(window.before);
	const orders: Listed[] = [];
	const tokens = new Set<string>();
	let token = startToken;
	do {
		if (budget.pages <= 0 || Date.now() > budget.until) return { orders, complete: false, token };
		budget.pages--;
		const query = token ? { next_token: token } : undefined;
		const answer = await apiRequest.call(ctx, 'ListFbpiOrders', { body, query });
		if (!Array.isArray(answer.orders)) {
			throw oddAnswer(
				ctx,
				'The Seller Platform API answered ListFbpiOrders without a list of orders',
			);
		}
		for (const entry of answer.orders) {
			const listed = listedOf(entry, Date.now());
			if (listed) orders.push(listed);
		}
		token = typeof answer.next_token === 'string' ? answer.next_token : '';
		if (tokens.has(token)) {
			throw oddAnswer(ctx, 'The Seller Platform API gave a next_token of ListFbpiOrders twice');
		}
		tokens.add(token);
	} while (token);
	return { orders, complete: true, token: '' };
}
