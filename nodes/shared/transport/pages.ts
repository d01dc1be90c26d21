/**
 * The pages of a list that follows the service's `next_token`: Get Many of the action node, the
 * editor's warehouse list (warehouses.ts) and the poll trigger's order listing read their pages
 * here, each asking for a page its own way (`fetchPage`: the token in the query or the body, its
 * own page cap, time and room). One guard for all of them: a token given before in the same
 * listing is never followed (the pages would go round in a loop), nor one too long to be a token
 * (kept while the listing runs); either fails the listing.
 */
import { NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';

import type { Endpoint } from '../gateway/endpoints';

/** A page: its answer, the token it was asked with ('' the first) and the next one ('' the last). */
export interface Page {
	answer: IDataObject;
	token: string;
	next: string;
}

/** How one listing asks for its pages. */
export interface PageWalk {
	endpoint: Endpoint;
	/**
	 * The answer of the page of `token` ('' for the first page, asked for without one), or
	 * undefined to stop before it (a page cap or a budget spent: the listing ends there, unfinished).
	 */
	fetchPage(token: string): Promise<IDataObject | undefined>;
	/** The token of the first page, for a listing that goes on where an earlier one stopped. */
	from?: string;
	/** The input item the list is read for (the error names it). */
	itemIndex?: number;
}

/**
 * The longest page token followed. Tokens are kept while a listing runs (the guard) and the poll
 * trigger saves one in its position; a service's real tokens are short opaque strings.
 */
export const MAX_PAGE_TOKEN_LENGTH = 4096;

function oversizedToken(node: INode, walk: PageWalk, length: number): NodeOperationError {
	return new NodeOperationError(
		node,
		`The service gave a page token (next_token) of ${length} characters, more than the ${MAX_PAGE_TOKEN_LENGTH} followed: the list stops here`,
		{
			itemIndex: walk.itemIndex,
			description: `${walk.endpoint} answered a next_token too long to be a page token. Nothing of this list is used; try again later.`,
		},
	);
}

/** The answer's `next_token`: '' when it is empty, absent or not text (the last page). */
const nextTokenOf = (answer: IDataObject): string =>
	typeof answer.next_token === 'string' ? answer.next_token : '';

function repeatedToken(node: INode, walk: PageWalk, pages: number): NodeOperationError {
	return new NodeOperationError(
		node,
		`The service repeated a page token (next_token) after ${pages} ${pages === 1 ? 'page' : 'pages'}: the list would never end`,
		{
			itemIndex: walk.itemIndex,
			description: `${walk.endpoint} gave a next_token it had given before, so following it would read the same pages again. Nothing of this list is used; try again later.`,
		},
	);
}

/**
 * The pages of one listing, in order, until one without a next token, or until `fetchPage` stops.
 * The caller may leave at any page (a limit reached). Bounded by the caller's cap: each token is
 * followed at most once (the tokens followed are kept for the listing only).
 */
export async function* pages(ctx: { getNode(): INode }, walk: PageWalk): AsyncGenerator<Page> {
	let token = walk.from ?? '';
	const followed = new Set<string>([token]);
	for (let read = 1; ; read++) {
		const answer = await walk.fetchPage(token);
		if (answer === undefined) return;
		const next = nextTokenOf(answer);
		yield { answer, token, next };
		if (next === '') return;
		if (next.length > MAX_PAGE_TOKEN_LENGTH) throw oversizedToken(ctx.getNode(), walk, next.length);
		if (followed.has(next)) throw repeatedToken(ctx.getNode(), walk, read);
		followed.add(next);
		token = next;
	}
}
