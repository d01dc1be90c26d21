/**
 * The polls of one trigger node in this n8n process, with n8n's durable poll cursors.
 *
 * n8n 2.41's scheduler may run two polls of one node at once: after a restart, a poll whose
 * lease lapsed while n8n was down runs again beside the current one. Each starts from the cursor
 * stored when it began, and each stores what it emitted with its execution: both would start the
 * workflow with the same orders, unmarked (seen in the crash soak). So:
 * - a poll that begins while another poll of the same node runs in this process emits nothing
 *   and changes nothing (the next poll goes on from what the other stored);
 * - an order that a poll of this node in this process emitted in the last `RECENT_MS`, emitted
 *   again (a cursor read before the other poll's was stored, or an execution n8n failed to
 *   store), comes `possibleDuplicate: true`.
 * Polls in another process (queue mode with several mains) are not seen here.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { monotonicNow, POSSIBLE_DUPLICATE } from '../shared';
import type { Listed } from './state';

/** How long an emitted order is remembered (ms, monotonic). */
export const RECENT_MS = 10 * 60_000;
/** Orders remembered per node (the most a poll emits). */
export const MAX_RECENT_ORDERS = 2000;
/** Nodes remembered (the least recently emitting forgotten first). */
export const MAX_RECENT_NODES = 100;

/**
 * The nodes with a poll running in this process.
 * Bound: one entry per node polling now.
 */
const running = new Set<string>();
/**
 * Per node and order stream, the orders its polls emitted lately: order key → when (oldest first).
 * Bound: `MAX_RECENT_NODES` × `MAX_RECENT_ORDERS` keys (64 characters at most each).
 */
const recent = new Map<string, Map<string, number>>();

const nodeKey = (ctx: IPollFunctions) => `${ctx.getWorkflow().id ?? ''}\u0000${ctx.getNode().id}`;

/** Runs `poll`, or gives null when another poll of the node runs in this process. */
export async function alone<T>(ctx: IPollFunctions, poll: () => Promise<T>): Promise<T | null> {
	const key = nodeKey(ctx);
	if (running.has(key)) return null;
	running.add(key);
	try {
		return await poll();
	} finally {
		running.delete(key);
	}
}

/** Drops the orders emitted more than `RECENT_MS` before `now` (the map is oldest first). */
function forgetOld(orders: Map<string, number>, now: number): void {
	for (const [order, at] of orders) {
		if (now - at <= RECENT_MS) return;
		orders.delete(order);
	}
}

/**
 * Marks the orders of `emit` that a poll of this node in this process emitted lately from the
 * same order `stream` (state.ts), and remembers `emit`'s.
 */
export function markRepeats(ctx: IPollFunctions, stream: string, emit: readonly Listed[]): void {
	const key = `${nodeKey(ctx)}\u0000${stream}`;
	const now = monotonicNow();
	const orders = recent.get(key) ?? new Map<string, number>();
	recent.delete(key);
	forgetOld(orders, now);
	for (const { key: order, order: item } of emit) {
		if (orders.delete(order)) item[POSSIBLE_DUPLICATE] = true;
		orders.set(order, now);
	}
	for (const order of orders.keys()) {
		if (orders.size <= MAX_RECENT_ORDERS) break;
		orders.delete(order);
	}
	if (orders.size) recent.set(key, orders);
	for (const node of recent.keys()) {
		if (recent.size <= MAX_RECENT_NODES) break;
		recent.delete(node);
	}
}
