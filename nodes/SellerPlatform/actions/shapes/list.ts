/**
 * A list read (a `getMany` operation): one listing per input item, following the service's
 * `next_token` from page to page, each entry of the list one output item paired with its input
 * item. Example: FBPI Order → Get Many.
 *
 * The interface (`listOperation(declaration)`):
 * - `properties` lists the operation's parameters and, where they are shown, `listProperties`
 *   (Return All, and Limit shown when Return All is off: n8n's convention for lists);
 * - `endpoint`, and `read(ctx, itemIndex)`: the item's first request (path values, body, query
 *   parameters), every parameter checked there, before anything is sent;
 * - `entries`: the answer's field that holds the page's entries (`orders`, `warehouses`);
 * - `token`: where the next page's token goes, `query` (the `next_token` query parameter,
 *   ListFbpiOrders) or `body` (the body field `next_token`, ListWarehouses); the first page is
 *   sent without one; an answer whose `next_token` is empty or absent is the last page;
 * - `noun`: what an entry is, for messages and the hint (`orders`);
 * - `maxPages` (default `MAX_PAGES`): pages one item may read; more fails the item;
 * - `pageSize` (the FBN lists): the most entries the endpoint gives per page; each page then asks
 *   for `page_size` (a query parameter): that most with Return All, else no more than the limit
 *   still wants. Without it (ListFbpiOrders, ListWarehouses) no page size is sent;
 * - `total` (the FBN lists): the answer's field that counts the entries across all pages
 *   (`total_count`, `total_sku_count`): the note says "N in total", and the Include Total option
 *   adds it to each output item under that name. The last page read gives it, so Limit 1 counts
 *   a list in one request of one entry. An answer without a whole number there gives no total;
 * - `simplified` (optional): the Simplify parameter and each entry's short form (simplify.ts);
 * - `whenEmpty` (optional): a check when the list came back empty, which may fail the item (an
 *   FBPI order list for a warehouse code the project does not have, read by an AI model).
 *
 * Bounded: at most `maxPages` pages per item and the Timeout option for all of an item's pages
 * (checked before each page after the first; each request has its own time-out besides); a stop
 * of the execution ends it before the next page. A token the service gave before in the same
 * listing fails the item (the shared layer's page loop: the pages would go round in a loop). The
 * first entry's output carries a note with the pages read (the run's hints, hints.ts).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	apiRequest,
	monotonicNow,
	named,
	pages,
	propertyIn,
	quotedName,
	shown,
	type Endpoint,
} from '../../../shared';
import {
	readBooleanField,
	checkBoolean,
	checkNumber,
	invalidParameter,
	readNumberField,
} from '../parameters';
import { readOptions } from '../options';
import { perItem, type Operation, type TaskOutput } from '../runner';
import { describe, type Declaration } from './declaration';
import { readSimplify, simplifyProperties, type Simplified } from './simplify';

/** Pages one item may read unless the declaration says otherwise. */
export const MAX_PAGES = 1000;
const DEFAULT_TIMEOUT_SECONDS = 300;

/** Return All and Limit, as n8n's lists have them. */
export const listProperties: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/** The Timeout option of a listing: all of an item's pages. */
export const listTimeoutOption: INodeProperties = {
	displayName: 'Timeout (Seconds)',
	name: 'timeoutSeconds',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: DEFAULT_TIMEOUT_SECONDS,
	description:
		'Longest time all the pages of one item may take. When it passes, the item fails (no partial list); narrow the filters or set a limit.',
};

/** The Include Total option of a list whose answer counts its entries (`total`). */
export const includeTotalOption = (total: ListTotal): INodeProperties => ({
	displayName: 'Include Total',
	name: 'includeTotal',
	type: 'boolean',
	default: false,
	description: `Whether to add the service's ${total.field} (${total.counts}) to each output item. With Return All off and a Limit of 1, one request of one entry gives the count.`,
});

/** The answer's field that counts a list's entries across all pages, and what it counts. */
export interface ListTotal {
	field: string;
	counts: string;
}

/** An item's first request. */
export interface ListRequest {
	pathParams?: Record<string, string>;
	body?: IDataObject;
	query?: Record<string, string>;
}

export interface ListDeclaration extends Declaration {
	endpoint: Endpoint;
	entries: string;
	token: 'query' | 'body';
	noun: string;
	maxPages?: number;
	pageSize?: number;
	total?: ListTotal;
	simplified?: Simplified;
	read(ctx: IExecuteFunctions, itemIndex: number): ListRequest;
	/** Called when the list came back empty (before the item's empty output): may refuse it. */
	whenEmpty?(ctx: IExecuteFunctions, itemIndex: number, request: ListRequest): Promise<void>;
}

/** What one item's listing needs besides its request. */
interface Listing {
	request: ListRequest;
	/** Entries wanted; Infinity with Return All. */
	limit: number;
	maxPages: number;
	/** How long after the list began no further page is asked for (ms). */
	timeoutMs: number;
	/** The Include Total option: the total added to each output item. */
	includeTotal: boolean;
	/** Each entry's output: the entry, or its simplified form. */
	shape(entry: IDataObject): IDataObject;
}

function readLimit(ctx: IExecuteFunctions, properties: INodeProperties[], itemIndex: number) {
	const returnAllProperty = propertyIn(properties, 'returnAll');
	const limitProperty = propertyIn(properties, 'limit');
	const returnAll = checkBoolean(
		ctx,
		itemIndex,
		ctx.getNodeParameter(returnAllProperty.name, itemIndex, false),
		named(returnAllProperty),
		false,
	);
	if (returnAll) return Infinity;
	const fallback = limitProperty.default as number;
	const value = ctx.getNodeParameter(limitProperty.name, itemIndex, fallback);
	const rule = { min: 1, whole: true };
	return checkNumber(ctx, itemIndex, value, named(limitProperty), rule, fallback);
}

function readTimeoutMs(ctx: IExecuteFunctions, itemIndex: number): number {
	const options = readOptions(ctx, itemIndex);
	const rule = { min: 0, aboveMin: true };
	return readNumberField(ctx, itemIndex, options, listTimeoutOption, 'option', rule) * 1000;
}

/** The page's entries (its next token checked), or an error naming what the answer lacks. */
function pageOf(declaration: ListDeclaration, answer: IDataObject) {
	const entries = answer[declaration.entries];
	const token = answer.next_token;
	const odd = (what: string) =>
		new Error(
			`The answer of ${declaration.endpoint} is not a page of ${declaration.noun}: ${what}`,
		);
	if (!Array.isArray(entries)) throw odd(`"${declaration.entries}" is ${shown(entries)}`);
	const entry = entries.find((e) => typeof e !== 'object' || e === null || Array.isArray(e));
	if (entry !== undefined) throw odd(`an entry is ${shown(entry)}`);
	if (token !== undefined && token !== null && typeof token !== 'string')
		throw odd(`"next_token" is ${shown(token)}`);
	return { entries: entries as IDataObject[] };
}

/** The answer's count of all entries (`declaration.total`), when it is a whole number from 0. */
function totalOf(declaration: ListDeclaration, answer: IDataObject): number | undefined {
	const value = declaration.total ? answer[declaration.total.field] : undefined;
	return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/**
 * The request of a page: the first one as read, later ones with the token where it goes; with a
 * page size, `page_size` for the entries still wanted (`wanted`: Infinity with Return All).
 */
function pageRequest(
	declaration: ListDeclaration,
	request: ListRequest,
	token: string | undefined,
	wanted: number,
): ListRequest {
	const { pageSize } = declaration;
	const query = pageSize
		? { ...request.query, page_size: String(Math.min(pageSize, wanted)) }
		: request.query;
	if (token === undefined) return { ...request, query };
	if (declaration.token === 'query') return { ...request, query: { ...query, next_token: token } };
	return { ...request, query, body: { ...request.body, next_token: token } };
}

/** Fails the item when it may not ask for another page: stopped, too many pages, too late. */
function checkMayGoOn(ctx: IExecuteFunctions, itemIndex: number, state: PageState) {
	const { listing, pages, noun } = state;
	// The same message as a stop during a request (the shared layer's).
	if (ctx.getExecutionCancelSignal?.()?.aborted)
		throw invalidParameter(ctx, itemIndex, 'The execution was stopped');
	let reason: string | undefined;
	if (pages >= listing.maxPages) reason = `The list did not end within ${listing.maxPages} pages`;
	// The first page is always asked for: the timeout bounds the pages after it.
	else if (pages > 0 && monotonicNow() - state.started >= listing.timeoutMs)
		reason = `The list did not end within the ${quotedName(listTimeoutOption)} option, ${listing.timeoutMs / 1000} s (${pages} ${pages === 1 ? 'page' : 'pages'} read)`;
	if (reason) {
		const advice = 'Narrow the filters, or turn off "Return All" and set a limit.';
		throw invalidParameter(ctx, itemIndex, `${reason}: no ${noun} are returned`, advice);
	}
}

interface PageState {
	listing: Listing;
	pages: number;
	started: number;
	noun: string;
}

/** Reads the pages of one item's list until its end or the limit (pages.ts follows the tokens). */
async function readList(
	ctx: IExecuteFunctions,
	declaration: ListDeclaration,
	listing: Listing,
	itemIndex: number,
) {
	const state: PageState = { listing, pages: 0, started: monotonicNow(), noun: declaration.noun };
	const entries: IDataObject[] = [];
	let total: number | undefined;
	const fetchPage = async (token: string) => {
		checkMayGoOn(ctx, itemIndex, state);
		const wanted = listing.limit - entries.length;
		const request = pageRequest(declaration, listing.request, token || undefined, wanted);
		return await apiRequest.call(ctx, declaration.endpoint, { ...request, itemIndex });
	};
	const walk = { endpoint: declaration.endpoint, fetchPage, itemIndex };
	for await (const { answer } of pages(ctx, walk)) {
		state.pages++;
		const page = pageOf(declaration, answer);
		total = totalOf(declaration, answer);
		entries.push(...page.entries.slice(0, listing.limit - entries.length));
		if (entries.length >= listing.limit) break;
	}
	return { entries, pages: state.pages, total };
}

interface ListRead {
	entries: IDataObject[];
	pages: number;
	total: number | undefined;
}

/**
 * The output items of a listing: each entry (its short form with Simplify; with the total when
 * asked and known), the first with the note of the pages read and the total.
 */
function outputs(declaration: ListDeclaration, listing: Listing, read: ListRead) {
	const { entries, pages, total } = read;
	const field = listing.includeTotal && total !== undefined ? declaration.total?.field : undefined;
	const list: TaskOutput[] = entries.map((entry) => {
		const json = listing.shape(entry);
		return { json: field === undefined ? json : { ...json, [field]: total } };
	});
	const counted = total === undefined ? '' : `, ${total} in total`;
	const note = `${pages} ${pages === 1 ? 'page' : 'pages'} of ${declaration.noun} were read (${entries.length} in the output${counted})`;
	if (list.length > 0) list[0].notes = [note];
	return list;
}

/** The Include Total option of an item: off for a list whose answer has no total. */
function readIncludeTotal(ctx: IExecuteFunctions, declaration: ListDeclaration, itemIndex: number) {
	if (!declaration.total) return false;
	const option = includeTotalOption(declaration.total);
	return readBooleanField(ctx, itemIndex, readOptions(ctx, itemIndex), option, 'option');
}

export function listOperation(declaration: ListDeclaration): Operation {
	const totalOption = declaration.total ? [includeTotalOption(declaration.total)] : [];
	const options = [listTimeoutOption, ...totalOption, ...(declaration.options ?? [])];
	const { simplified } = declaration;
	const properties = simplified
		? [...declaration.properties, ...simplifyProperties(simplified)]
		: declaration.properties;
	return {
		description: describe({ ...declaration, properties, options }),
		plan: perItem(function (this: IExecuteFunctions, itemIndex) {
			const simplify = simplified && readSimplify(this, properties, itemIndex);
			const listing: Listing = {
				request: declaration.read(this, itemIndex),
				limit: readLimit(this, declaration.properties, itemIndex),
				maxPages: declaration.maxPages ?? MAX_PAGES,
				timeoutMs: readTimeoutMs(this, itemIndex),
				includeTotal: readIncludeTotal(this, declaration, itemIndex),
				shape: simplify ? simplified.shape : (entry) => entry,
			};
			return {
				send: async () => {
					const read = await readList(this, declaration, listing, itemIndex);
					if (!read.entries.length) await declaration.whenEmpty?.(this, itemIndex, listing.request);
					return { list: outputs(declaration, listing, read) };
				},
			};
		}),
	};
}
