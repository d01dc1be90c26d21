/**
 * The ASNs of the FBN shipment operations: their statuses, the page size of their list, and the
 * list search of the ASN Number (`searchAsns`; the parameter itself is nodes/shared/parameters,
 * shared with the FBN item operations).
 */
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';

import { apiRequest, COUNTRY_CODES } from '../../../shared';

/** The most ASNs a page of their list holds (the reference's maximum `page_size`). */
export const ASN_PAGE_SIZE = 200;

/** The statuses of an ASN, as a filter offers them (the unspecified one is no status). */
export const ASN_STATUS_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Canceled', value: 'ASN_STATUS_CANCELED' },
	{ name: 'Created', value: 'ASN_STATUS_CREATED', description: 'A draft: items can change' },
	{ name: 'Expired', value: 'ASN_STATUS_EXPIRED' },
	{ name: 'Inbounded', value: 'ASN_STATUS_INBOUNDED', description: 'Received in full' },
	{ name: 'Receiving', value: 'ASN_STATUS_RECEIVING', description: 'Being received' },
	{ name: 'Scheduled', value: 'ASN_STATUS_SCHEDULED', description: 'Has a warehouse and slot' },
	{ name: 'Sealed', value: 'ASN_STATUS_SEALED', description: 'Final items, not yet scheduled' },
];

/** Pages of ASNs one list search reads at most while none matches (then it answers with a token). */
const SEARCH_PAGES_PER_CALL = 5;

/** Where a list search goes on: the country (index in COUNTRY_CODES) and its page token. */
interface AsnCursor {
	country: number;
	token: string;
}

const cursorText = (cursor: AsnCursor) => `${cursor.country}:${cursor.token}`;

function cursorOf(paginationToken: string | undefined): AsnCursor {
	const match = /^(\d+):([\s\S]*)$/.exec(paginationToken ?? '');
	return match ? { country: Number(match[1]), token: match[2] } : { country: 0, token: '' };
}

/** An ASN header as the list offers it: number, status and country; the reference below. */
function asnResult(entry: IDataObject): INodeListSearchItems | undefined {
	const { asn_nr: number, exref_nr: reference, status, country_code: country } = entry;
	if (typeof number !== 'string' || number.trim() === '') return undefined;
	const label = ASN_STATUS_OPTIONS.find((option) => option.value === status)?.name ?? status;
	const about = [label, country].filter((part) => typeof part === 'string' && part !== '');
	return {
		name: about.length ? `${number} (${about.join(', ')})` : number,
		value: number,
		description: typeof reference === 'string' && reference ? `Reference ${reference}` : undefined,
	};
}

/** One page of one country's ASNs: those whose number or reference contains `wanted`. */
async function searchPage(ctx: ILoadOptionsFunctions, cursor: AsnCursor, wanted: string) {
	const query: Record<string, string> = {
		country_code: COUNTRY_CODES[cursor.country].toUpperCase(),
		page_size: String(ASN_PAGE_SIZE),
	};
	if (cursor.token) query.next_token = cursor.token;
	const answer = await apiRequest.call(ctx, 'AsnService_ListShipments', { query });
	const entries = Array.isArray(answer.shipments) ? (answer.shipments as IDataObject[]) : [];
	const results = entries
		.filter((entry) => typeof entry === 'object' && entry !== null)
		.filter(({ asn_nr: number, exref_nr: reference }) =>
			[number, reference].some((v) => typeof v === 'string' && v.toLowerCase().includes(wanted)),
		)
		.flatMap((entry) => asnResult(entry) ?? []);
	const next = typeof answer.next_token === 'string' ? answer.next_token : '';
	return { results, next };
}

/**
 * Where the search goes on after a page of `cursor` that gave `next`: that country's next page,
 * else (no token, or one this search already asked with: a service repeating its token would
 * list the same page for ever) the next country's first, else nowhere.
 */
function advance(cursor: AsnCursor, next: string, asked: Set<string>): AsnCursor | undefined {
	if (next && !asked.has(next)) return { country: cursor.country, token: next };
	if (cursor.country + 1 < COUNTRY_CODES.length) return { country: cursor.country + 1, token: '' };
	return undefined;
}

/**
 * The list search of ASN Number: the ASNs of each marketplace country in turn (ListShipments, the
 * most a page holds), those whose number or reference contains the search text (any case). Pages
 * without a match are skipped, up to SEARCH_PAGES_PER_CALL; the token says where to go on.
 */
export async function searchAsns(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const wanted = (filter ?? '').trim().toLowerCase();
	const results: INodeListSearchItems[] = [];
	let cursor: AsnCursor | undefined = cursorOf(paginationToken);
	// The tokens of this search's country asked with (from the call's own token on).
	const asked = new Set<string>();
	for (let pages = 0; cursor && pages < SEARCH_PAGES_PER_CALL && results.length === 0; pages++) {
		if (cursor.country >= COUNTRY_CODES.length) return { results };
		if (cursor.token === '') asked.clear();
		asked.add(cursor.token);
		const page: Awaited<ReturnType<typeof searchPage>> = await searchPage(this, cursor, wanted);
		results.push(...page.results);
		cursor = advance(cursor, page.next, asked);
	}
	return { results, paginationToken: cursor ? cursorText(cursor) : undefined };
}
