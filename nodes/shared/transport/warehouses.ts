/**
 * The warehouses a credential may choose from in the editor: the `searchWarehouses` list search
 * of every node with a Warehouse Code (each node registers it in `methods.listSearch`).
 *
 * ListWarehouses has a plan of its own, far below the others (30 per 60 s, at most 15 in any
 * 30 s, per project): every editor that opens a warehouse list and every execution that asks
 * would spend it. So the list is read whole (page after page, through the shared pipeline and
 * its pacing, logged in with the credential as any request) and kept per credential for a while:
 * callers asking at once share one read, later ones get the kept list until it expires. A read
 * that fails is dropped at once, so the next call reads again.
 */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { loginFingerprint } from '../auth/login';
import { monotonicNow } from '../common/clock';
import { pages } from './pages';
import { apiRequest } from './request';
import type { RequestContext } from './run';
import { connectionSettings } from './settings';

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
	now: monotonicNow,
};

interface KeptList {
	/** When the read ended; undefined while it runs (a running read never expires). */
	readAt?: number;
	/** How many warehouses the read gave; 0 while it runs. */
	entries: number;
	list: Promise<WarehouseEntry[]>;
}

/**
 * The warehouse lists, keyed by the credential's login identity (Base URL, key, project: 64
 * characters; so two credentials of two projects, or two keys, never share one). Bound:
 * `maxCredentials` lists (the oldest dropped first, expired ones on every new read), each of at
 * most `maxPages` × 500 warehouses, `maxEntries` warehouses in all (the oldest lists dropped
 * first when a read ends, never a running one), each warehouse a code of at most
 * `maxCodeLength` and a name of at most `maxNameLength` characters (at most about 10 MB in all),
 * each list for `lifetimeMs`; a failed read is dropped at once. Who fills it: any credential
 * whose Base URL is a server of its own, through the editor's list.
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
async function readWarehouses(ctx: RequestContext): Promise<WarehouseEntry[]> {
	const entries: WarehouseEntry[] = [];
	let asked = 0;
	const fetchPage = async (token: string) => {
		if (asked++ >= WAREHOUSE_LISTS.maxPages) return undefined;
		const body: IDataObject = token ? { next_token: token } : {};
		return await apiRequest.call(ctx, 'ListWarehouses', { body });
	};
	for await (const { answer } of pages(ctx, { endpoint: 'ListWarehouses', fetchPage })) {
		entries.push(...entriesOf(answer));
	}
	return entries;
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

/** Drops the oldest ended lists but `kept` while the kept lists hold more than `maxEntries`. */
function keepWithinEntries(kept: KeptList) {
	let total = 0;
	for (const list of lists.values()) total += list.entries;
	for (const [key, list] of lists) {
		if (total <= WAREHOUSE_LISTS.maxEntries) break;
		if (list === kept || list.readAt === undefined) continue;
		total -= list.entries;
		lists.delete(key);
	}
}

/** The credential's list: the kept one while it lasts, else one read shared by every caller. */
export async function warehousesOf(ctx: RequestContext): Promise<WarehouseEntry[]> {
	const settings = await connectionSettings(ctx, 0);
	const key = loginFingerprint(settings.data);
	const now = WAREHOUSE_LISTS.now();
	const found = lists.get(key);
	if (found && (found.readAt === undefined || now - found.readAt < WAREHOUSE_LISTS.lifetimeMs)) {
		return await found.list;
	}
	lists.delete(key);
	makeRoom(now);
	const kept: KeptList = { entries: 0, list: readWarehouses(ctx) };
	lists.set(key, kept);
	kept.list.then(
		(entries) => {
			kept.readAt = WAREHOUSE_LISTS.now();
			kept.entries = entries.length;
			keepWithinEntries(kept);
		},
		() => {
			if (lists.get(key) === kept) lists.delete(key);
		},
	);
	return await kept.list;
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
	const warehouses = await warehousesOf(this);
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
