/**
 * What n8n surely received, and what a crash of n8n may have lost (the state's `unconfirmed`).
 *
 * n8n saves the static data of a poll that emits without waiting for the save, and creates the
 * execution separately: killed in between, the saved state may say "emitted" with no execution,
 * or the execution may exist with the state of before. Unless n8n's durable poll cursors are on:
 * - the state keeps what the polls of this n8n life (this process) emitted since the last poll
 *   began; the next poll of the same life confirms it (n8n created those executions meanwhile);
 * - a poll of another life (n8n started again, another main took over) takes the state over: what
 *   is unconfirmed waits to be emitted again (pending.ts: read again when kept short), and every
 *   order created before the state changed lives is emitted marked `possibleDuplicate: true`,
 *   until no window reaches back to that time and none of those orders is pending.
 * With durable poll cursors, n8n commits the state with the execution (nothing to confirm), but
 * not the state of the poll at activation: the start of the order stream is also kept in the
 * workflow's global static data (saved after activation), and a later poll that finds no state
 * starts from there (however long after: the stream names what it is for).
 */
import type { IDataObject, INode, IPollFunctions } from 'n8n-workflow';

import { POSSIBLE_DUPLICATE, startNewLifeForTests, thisLife } from '../shared';

import { entryOf } from './pending';
import {
	LOOKBACK_MS,
	MAX_ENTRY_CHARS,
	startState,
	type Listed,
	type PollState,
	type Unconfirmed,
} from './state';

// This n8n life (one per loaded package) is the shared layer's, also read by the webhook trigger.
export { POSSIBLE_DUPLICATE, startNewLifeForTests };

/** n8n-core's poll context carries its `Workflow` (a property of the class, not of the API). */
interface WithWorkflow {
	workflow?: { getStaticData?: (type: 'node', node: INode) => unknown };
}

/**
 * Whether n8n's durable poll cursors are on: the node's static data is then a snapshot committed
 * with the execution, not the workflow's own object (n8n 2.41 `resolveNodeStaticData`). A context
 * without its workflow (another n8n) counts as without.
 */
export function durableCursors(ctx: IPollFunctions): boolean {
	const workflow = (ctx as unknown as WithWorkflow).workflow;
	if (typeof workflow?.getStaticData !== 'function') return false;
	return workflow.getStaticData('node', ctx.getNode()) !== ctx.getWorkflowStaticData('node');
}

/**
 * Before a poll lists: confirms what this life emitted, or takes the state over from another
 * life (its unconfirmed orders pending again, the marks from now on). A service clock may run up
 * to `LOOKBACK_MS` ahead of n8n's: orders created (by its clock) up to that long after this life
 * began are marked too. With durable cursors nothing new is kept unconfirmed (what another life
 * left without them is still taken over), and the kept stream start is dropped once the state
 * went past it.
 */
export function confirmEmitted(ctx: IPollFunctions, state: PollState): void {
	const durable = durableCursors(ctx);
	if (durable) dropStart(ctx, state);
	const kept = state.unconfirmed;
	if (kept?.life === thisLife().id) {
		kept.orders = {};
		return;
	}
	if (durable && !Object.keys(kept?.orders ?? {}).length) {
		delete state.unconfirmed;
		return;
	}
	let marksBefore = Math.max(thisLife().startedAt + LOOKBACK_MS, kept?.marksBefore ?? 0);
	for (const [key, { createdAt, order }] of Object.entries(kept?.orders ?? {})) {
		marksBefore = Math.max(marksBefore, createdAt + 1);
		if (!(key in state.pending)) state.pending[key] = { createdAt, attempts: 0, order };
	}
	state.unconfirmed = { life: thisLife().id, marksBefore, orders: {} };
}

/**
 * After a poll settled and recorded its read: marks the orders it emits created before
 * `marksBefore`, and (without durable cursors) keeps them unconfirmed beside what overlapping
 * polls emitted. The marks end once no window reaches back before that time and no order created
 * before it is pending.
 */
export function recordEmitted(ctx: IPollFunctions, state: PollState, emit: readonly Listed[]) {
	const durable = durableCursors(ctx);
	const own = state.unconfirmed?.life === thisLife().id ? state.unconfirmed : undefined;
	const kept: Unconfirmed | undefined =
		own ?? (durable ? undefined : { life: thisLife().id, orders: {} });
	if (!kept) return;
	const before = kept.marksBefore;
	for (const { key, createdAt, order } of emit) {
		if (before !== undefined && createdAt < before) order[POSSIBLE_DUPLICATE] = true;
		if (durable) continue;
		const entry = entryOf(order);
		if (JSON.stringify(entry).length <= MAX_ENTRY_CHARS)
			kept.orders[key] = { createdAt, order: entry };
	}
	if (before !== undefined && marksEnd(state, before)) delete kept.marksBefore;
	if (durable && kept.marksBefore === undefined) delete state.unconfirmed;
	else state.unconfirmed = kept;
}

/**
 * Whether no window reaches back before `before`, no order created before it is pending, and
 * (with a lateness covered) a sweep begun since then has ended: a sweep lists again, however
 * long after the takeover, the late orders a lost save had emitted.
 */
const marksEnd = (state: PollState, before: number) =>
	state.readUpTo - LOOKBACK_MS > before &&
	Object.values(state.pending).every(({ createdAt }) => createdAt >= before) &&
	(state.lateMs <= 0 || (state.sweptAt >= before && !state.sweep));

/** The global static data's field for the start of this node's stream (durable poll cursors). */
const startKey = (ctx: IPollFunctions) => `sellerPlatformPollTrigger:${ctx.getNode().id}`;

interface StreamStart {
	stream: string;
	at: number;
}

function keptStart(ctx: IPollFunctions): StreamStart | undefined {
	const value = ctx.getWorkflowStaticData('global')[startKey(ctx)] as Partial<StreamStart>;
	if (!value || typeof value !== 'object' || typeof value.stream !== 'string') return undefined;
	return typeof value.at === 'number' && Number.isFinite(value.at)
		? (value as StreamStart)
		: undefined;
}

/**
 * A fresh start: in this life nothing is unconfirmed; with durable cursors, the start of the
 * stream is kept in the workflow's global static data (one entry per node: `{ stream, at }`).
 */
export function noteStart(ctx: IPollFunctions, state: PollState, at: number): void {
	if (!durableCursors(ctx)) {
		state.unconfirmed = { life: thisLife().id, orders: {} };
		return;
	}
	const start: StreamStart = { stream: state.stream, at };
	ctx.getWorkflowStaticData('global')[startKey(ctx)] = start as unknown as IDataObject;
}

/**
 * With durable cursors and no state, the state of the stream's start kept for this node and
 * stream, however long ago: the orders created after it are new (n8n did not keep the state of the
 * poll at activation). Otherwise undefined: the poll starts afresh.
 */
export function startedBefore(
	ctx: IPollFunctions,
	data: IDataObject,
	stream: string,
	warehouseCode: string,
	now: number,
	lateMs: number,
): PollState | undefined {
	if (!durableCursors(ctx)) return undefined;
	const start = keptStart(ctx);
	if (start?.stream !== stream || start.at > now) return undefined;
	const state = startState(data, stream, warehouseCode, start.at, lateMs);
	state.floor = start.at - 1;
	return state;
}

/**
 * Drops the kept stream start once a poll of the node's state read past it (a state just started
 * from it has read nothing yet), or when it is of another stream.
 */
function dropStart(ctx: IPollFunctions, state: PollState): void {
	const start = keptStart(ctx);
	if (!start) return;
	const read = state.readUpTo > start.at || Object.keys(state.seen).length > 0;
	if (start.stream !== state.stream || read)
		delete ctx.getWorkflowStaticData('global')[startKey(ctx)];
}
