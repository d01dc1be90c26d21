/**
 * The warehouses a credential may choose from in the editor: the `searchWarehouses` list search
 * of every node with a Warehouse Code (each node registers it in `methods.listSearch`).
 *
 * ListWarehouses has a plan of its own, far below the others (30 per 60 s, at most 15 in any
 * 30 s, per project): every editor that opens a warehouse list and every execution that asks
 * would spend it. So the list is read whole (page after page, through the shared pipeline and
 * its pacing, logged in with the credential as any request) and kept per credential for a while:
 * callers asking at once share one read, later ones get the kept list until it expires. A read
 * that fails is dropped at once for the editor, so its next call reads again; a check that can do
 * without the list (`knownWarehouses`) skips reading for a while after a failure. A read that ended
 * because the execution that started it was stopped is no failure for the others that shared it:
 * they read again.
 */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { loginFingerprint } from '../auth/login';
import { monotonicNow } from '../common/clock';
import { pages } from './pages';
import { apiRequest } from './request';
import type { RequestContext } from './run';
import { connectionSettings } from './settings';

/** A credential's warehouses, as a read found them. */
export interface WarehouseList {
	entries: WarehouseEntry[];
	/** Whether the read reached the end of the list (it stops after `maxPages` pages). */
	complete: boolean;
}

/** A warehouse as the lists show it. */
export interface WarehouseEntry {
	code: string;
	name: string;
	active: boolean;
}

/** How the kept lists behave (tests tune them, the clock included). */
export const WAREHOUSE_LISTS = {
	/** How long a list read serves later calls (ms). */
	lifetimeMs: 5 * 60_000,
	/** Credentials whose lists are kept at once; the oldest list goes first. */
	maxCredentials: 50,
	/** Pages of ListWarehouses one read follows at most (up to 500 warehouses each). */
	maxPages: 20,
	/** Warehouses the kept lists hold in all; the oldest list goes first beyond it. */
	maxEntries: 20_000,
	/** A longer warehouse code is no code the API gives: such an entry is left out. */
	maxCodeLength: 100,
	/** Characters of a warehouse's name kept (and shown); a longer one is cut. */
	maxNameLength: 100,
	/** Entries one list search answer holds; the editor asks for more with its token. */
	pageSize: 100,
	/** How long after a failed read `knownWarehouses` does without the list (ms). */
	failureHoldMs: 30_000,
	now: monotonicNow,
};

interface KeptList {
	/** When the read ended; undefined while it runs (a running read never expires). */
	readAt?: number;
	/** How many warehouses the read gave; 0 while it runs. */
	entries: number;
	list: Promise<WarehouseList>;
	/**
	 * The stop of the execution that started the read, while it runs: that stop ends the read,
	 * for the others too. (The signal only: the execution itself is not kept.)
	 */
	stop?: AbortSignal;
	/** The read failed (kept `failureHoldMs` for `knownWarehouses`, never served). */
	failed?: boolean;
}

/**
 * The warehouse lists, keyed by the credential's login identity (Base URL, key, project: 64
 * characters; so two credentials of two projects, or two keys, never share one). Bound:
 * `maxCredentials` lists (the oldest dropped first, expired ones on every new read), each of at
 * most `maxPages` × 500 warehouses, `maxEntries` warehouses in all (the longest lists dropped
 * first when a read ends, the one just read included, never a running one: a credential whose
 * server lists many warehouses does not push out the others'), each warehouse a code of at most
 * `maxCodeLength` and a name of at most `maxNameLength` characters (at most about 10 MB in all),
 * each list for `lifetimeMs` (a failed read, its error only, as long). Who fills it: any
 * credential whose Base URL is a server of its own, through the editor's list.
 */
const lists = new Map<string, KeptList>();

/**
 * A name trimmed, of at most `maxNameLength` characters, as a text of its own (a part of a longer
 * text would keep the whole one in memory).
 */
function shortened(name: string): string {
	const max = WAREHOUSE_LISTS.maxNameLength;
	const trimmed = name.trim();
	if (name.length <= max) return trimmed;
	return Array.from(trimmed.slice(0, max + 1))
		.slice(0, max)
		.join('');
}

/** A page's warehouses; entries without a code, or with one too long for a code, are left out. */
function entriesOf(answer: IDataObject): WarehouseEntry[] {
	const warehouses = Array.isArray(answer.warehouses) ? (answer.warehouses as unknown[]) : [];
	return warehouses.flatMap((warehouse) => {
		if (typeof warehouse !== 'object' || warehouse === null) return [];
		const {
			warehouse_code: code,
			display_name: name,
			is_active: active,
		} = warehouse as IDataObject;
		if (typeof code !== 'string' || code.trim() === '') return [];
		if (code.length > WAREHOUSE_LISTS.maxCodeLength) return [];
		const shown = typeof name === 'string' ? shortened(name) : '';
		return [{ code, name: shown || code, active: active !== false }];
	});
}

/**
 * Every warehouse of the credential, page after page (at most `maxPages`; a token the service
 * gave before fails the read, pages.ts).
 */
async function readWarehouses(ctx: RequestContext): Promise<WarehouseList> {
	const entries: WarehouseEntry[] = [];
	let asked = 0;
	let complete = true;
	const fetchPage = async (token: string) => {
		if (asked++ >= WAREHOUSE_LISTS.maxPages) {
			complete = false;
			return undefined;
		}
		const body: IDataObject = token ? { next_token: token } : {};
		return await apiRequest.call(ctx, 'ListWarehouses', { body });
	};
	for await (const { answer } of pages(ctx, { endpoint: 'ListWarehouses', fetchPage })) {
		entries.push(...entriesOf(answer));
	}
	return { entries, complete };
}

/** Drops the expired lists, then the oldest ones beyond the bound (leaving room for one). */
function makeRoom(now: number) {
	for (const [key, kept] of lists) {
		if (kept.readAt !== undefined && now - kept.readAt >= WAREHOUSE_LISTS.lifetimeMs)
			lists.delete(key);
	}
	for (const key of lists.keys()) {
		if (lists.size < WAREHOUSE_LISTS.maxCredentials) break;
		lists.delete(key);
	}
}

/**
 * Drops the longest ended lists while the kept lists hold more than `maxEntries` (the one just
 * read too: a long list does not push out the others'); of lists as long, the oldest first.
 */
function keepWithinEntries() {
	let total = 0;
	for (const list of lists.values()) total += list.entries;
	const ended = [...lists].filter(([, list]) => list.readAt !== undefined);
	ended.sort(([, a], [, b]) => b.entries - a.entries);
	for (const [key, list] of ended) {
		if (total <= WAREHOUSE_LISTS.maxEntries) break;
		total -= list.entries;
		lists.delete(key);
	}
}

/** The stop of the execution of `ctx` (the editor's lists have none). */
function stopOf(ctx: RequestContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal?.() : undefined;
}

/** A read's end: kept, or failed (dropped at once when its starter was stopped). */
function settle(key: string, kept: KeptList) {
	kept.list.then(
		({ entries }) => {
			Object.assign(kept, {
				readAt: WAREHOUSE_LISTS.now(),
				entries: entries.length,
				stop: undefined,
			});
			keepWithinEntries();
		},
		() => {
			if (lists.get(key) !== kept) return;
			if (kept.stop?.aborted) lists.delete(key);
			else Object.assign(kept, { failed: true, readAt: WAREHOUSE_LISTS.now() });
		},
	);
}

/** The kept list's read for `ctx`: when it ended with its starter's stop, a read of its own. */
async function shared(ctx: RequestContext, kept: KeptList): Promise<WarehouseList> {
	const read = await kept.list.then(
		(list) => ({ list }),
		() => undefined,
	);
	if (read) return read.list;
	const mine = stopOf(ctx);
	if (kept.stop?.aborted && kept.stop !== mine && !mine?.aborted) return await warehouseList(ctx);
	return await kept.list; // the read's own error
}

const keyOf = async (ctx: RequestContext) =>
	loginFingerprint((await connectionSettings(ctx, 0)).data);

/** The credential's list: the kept one while it lasts, else one read shared by every caller. */
async function warehouseList(ctx: RequestContext): Promise<WarehouseList> {
	const key = await keyOf(ctx);
	const now = WAREHOUSE_LISTS.now();
	const found = lists.get(key);
	const fresh = found?.readAt === undefined || now - found.readAt < WAREHOUSE_LISTS.lifetimeMs;
	if (found && fresh && !found.failed) return await shared(ctx, found);
	lists.delete(key);
	makeRoom(now);
	const kept: KeptList = { entries: 0, list: readWarehouses(ctx), stop: stopOf(ctx) };
	lists.set(key, kept);
	settle(key, kept);
	return await kept.list;
}

/**
 * The credential's list for a check that can do without it: undefined when it cannot be read now
 * (the read fails, or one failed less than `failureHoldMs` ago: no read then).
 */
export async function knownWarehouses(ctx: RequestContext): Promise<WarehouseList | undefined> {
	const found = lists.get(await keyOf(ctx));
	const now = WAREHOUSE_LISTS.now();
	if (found?.failed && now - (found.readAt ?? now) < WAREHOUSE_LISTS.failureHoldMs)
		return undefined;
	return await warehouseList(ctx).catch(() => undefined);
}

/** How a warehouse is listed: its name and code, and whether it is inactive. */
function label(warehouse: WarehouseEntry): string {
	const named =
		warehouse.name === warehouse.code ? warehouse.code : `${warehouse.name} (${warehouse.code})`;
	return warehouse.active ? named : `${named} [inactive]`;
}

/**
 * The list search: the credential's warehouses whose name or code contains the search text (any
 * case), `pageSize` at a time; the value is the code.
 */
export async function searchWarehouses(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const { entries: warehouses } = await warehouseList(this);
	const wanted = (filter ?? '').trim().toLowerCase();
	const matching = wanted
		? warehouses.filter(
				(w) => w.code.toLowerCase().includes(wanted) || w.name.toLowerCase().includes(wanted),
			)
		: warehouses;
	const from = Number(paginationToken);
	const start = Number.isSafeInteger(from) && from > 0 ? from : 0;
	const end = start + WAREHOUSE_LISTS.pageSize;
	return {
		results: matching.slice(start, end).map((w) => ({ name: label(w), value: w.code })),
		paginationToken: end < matching.length ? String(end) : undefined,
	};
}
