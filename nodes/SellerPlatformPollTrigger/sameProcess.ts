/**
 * The polls of one trigger node in this n8n process, with n8n's durable poll cursors.
 *
 * n8n 2.41's scheduler may run two polls of one node at once: after a restart, a poll whose
 * lease lapsed while n8n was down runs again beside the current one. Each starts from the cursor
 * stored when it began, and each stores what it emitted with its execution: both would start the
 * workflow with the same orders, unmarked (seen in the crash soak). So:
 * - a poll that begins while another poll of the same node runs in this process (within its poll
 *   budget) emits nothing and changes nothing (the next poll goes on from what the other stored);
 * - an order that a poll of this node in this process emitted in the last `RECENT_MS`, emitted
 *   again, comes `possibleDuplicate: true`: a cursor read before the other poll's was stored, or
 *   the other poll's result dropped by n8n (its poll timed out, the workflow deactivated
 *   meanwhile, the execution not stored), which cannot be told apart here.
 * Polls in another process (queue mode with several mains) are not seen here.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { monotonicNow, POSSIBLE_DUPLICATE } from '../shared';
import { pollBudgetMs } from './listing';
import type { Listed } from './state';

/** How long an emitted order is remembered (ms, monotonic). */
export const RECENT_MS = 10 * 60_000;
/** Orders remembered, across nodes (the oldest forgotten first): ten polls' most. */
export const MAX_RECENT_ORDERS = 20_000;
/**
 * The nodes with a poll running in this process, each until when it holds the node: n8n's poll
 * budget (`pollBudgetMs`; n8n 2.41 gives up on a poll soon after), so a poll that hangs delays
 * the next ones by that much at most.
 * Bound: one entry per node polling now.
 */
const running = new Map<string, { until: number }>();
/**
 * The orders polls emitted lately: node, stream and order key → when (oldest first).
 * Bound: `MAX_RECENT_ORDERS` keys (order keys of 64 characters at most), for `RECENT_MS`.
 */
const recent = new Map<string, number>();

const nodeKey = (ctx: IPollFunctions) => `${ctx.getWorkflow().id ?? ''}\u0000${ctx.getNode().id}`;

/**
 * Runs `poll`, or gives null when another poll of the node runs in this process and is within
 * its poll budget.
 */
export async function alone<T>(ctx: IPollFunctions, poll: () => Promise<T>): Promise<T | null> {
	const key = nodeKey(ctx);
	const now = monotonicNow();
	if ((running.get(key)?.until ?? -Infinity) > now) return null;
	const mine = { until: now + pollBudgetMs(ctx) };
	running.set(key, mine);
	try {
		return await poll();
	} finally {
		if (running.get(key) === mine) running.delete(key);
	}
}

/** Drops the orders emitted more than `RECENT_MS` before `now`, and beyond the bound. */
function forgetOld(now: number): void {
	for (const [order, at] of recent) {
		if (now - at <= RECENT_MS && recent.size <= MAX_RECENT_ORDERS) return;
		recent.delete(order);
	}
}

/**
 * Marks the orders of `emit` that a poll of this node in this process emitted lately from the
 * same order `stream` (state.ts), and remembers `emit`'s.
 */
export function markRepeats(ctx: IPollFunctions, stream: string, emit: readonly Listed[]): void {
	const prefix = `${nodeKey(ctx)}\u0000${stream}\u0000`;
	const now = monotonicNow();
	forgetOld(now);
	for (const { key, order } of emit) {
		if (recent.delete(prefix + key)) order[POSSIBLE_DUPLICATE] = true;
		recent.set(prefix + key, now);
	}
	forgetOld(now);
}
