/**
 * Listing a warehouse's orders for the poll trigger (ListFbpiOrders, following `next_token`;
 * GetFbpiOrder for a list entry without its items), within the poll's page and time budget.
 * Windows go by creation time, `YYYY-MM-DDTHH:MM:SSZ`, both ends included (the reference's form).
 */
import { NodeApiError, type IDataObject, type IPollFunctions, type JsonObject } from 'n8n-workflow';

import { apiRequest } from '../shared';
import { orderKey, type Listed } from './state';

/** Pages one poll reads at most (50 orders each). */
export const MAX_PAGES_PER_POLL = 40;
/** Share of n8n's poll budget (`getPollBudgetMs`) spent listing before the poll stops early. */
const BUDGET_SHARE = 0.5;
/** n8n's poll budget where the context does not say it (n8n 1.x). */
const DEFAULT_POLL_BUDGET_MS = 5 * 60_000;

/** What a poll may still read: pages, and a time after which no page is asked for. */
export interface PageBudget {
	pages: number;
	until: number;
}

export function pageBudget(ctx: IPollFunctions, now: number): PageBudget {
	// n8n 2.x says it; the 1.x context has no such method (its types neither).
	const { getPollBudgetMs } = ctx as { getPollBudgetMs?: () => number };
	const budget = typeof getPollBudgetMs === 'function' ? getPollBudgetMs.call(ctx) : NaN;
	const ms = Number.isFinite(budget) && budget > 0 ? budget : DEFAULT_POLL_BUDGET_MS;
	return { pages: MAX_PAGES_PER_POLL, until: now + ms * BUDGET_SHARE };
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

/** An entry as the state remembers it; undefined when it names no order. */
function listedOf(entry: unknown, fallbackTime: number): Listed | undefined {
	if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
	const order = entry as IDataObject;
	if (typeof order.fbpi_order_nr !== 'string' || !order.fbpi_order_nr) return undefined;
	const at = typeof order.order_created_at === 'string' ? Date.parse(order.order_created_at) : NaN;
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

/** Each order whose list entry has no list of items, read whole (GetFbpiOrder). */
export async function withItems(ctx: IPollFunctions, orders: Listed[]): Promise<Listed[]> {
	for (const listed of orders) {
		if (Array.isArray(listed.order.items)) continue;
		const fbpi_order_nr = listed.order.fbpi_order_nr as string;
		listed.order = await apiRequest.call(ctx, 'GetFbpiOrder', { pathParams: { fbpi_order_nr } });
	}
	return orders;
}
