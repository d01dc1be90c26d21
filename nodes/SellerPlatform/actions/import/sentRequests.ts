/**
 * What the node sent under each client_reference and the service accepted, so that a refused
 * reference replays the import only when it is provably this very request (reuse.ts): an import's
 * status record shows its source and settings but not its mappings, only how many there are.
 *
 * The proof is a digest: sha256 of the request in one canonical form (gateway, project and import
 * prefix; client reference; source; settings; every mapping in order; absent, '' and false count
 * as one, as in proto3). It is kept only once the service accepted the request (a create that got
 * no answer proves nothing), in two places:
 * - the node's workflow static data (`importRequests`: [client reference, scope tag, digest], the
 *   newest `MAX_SAVED_IMPORT_REQUESTS`): n8n saves it after production executions, so it outlives
 *   a restart and reaches the other processes of queue mode through the database;
 * - this process's memory (`importRequests`, the newest 2,000 references): n8n
 *   does not save static data after manual executions.
 * A request is the same when a place knows its digest and none knows another one.
 */
import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { connectionSettings } from '../../../shared';

/** Client references whose request the node's static data keeps: the newest this many. */
export const MAX_SAVED_IMPORT_REQUESTS = 500;

/** What is known of the request that made the import holding a client reference. */
export type SentBefore = 'same' | 'other' | 'unknown';

/** Client references whose request this process remembers: the newest this many. */
export const MAX_REMEMBERED_IMPORT_REQUESTS = 2000;

/**
 * What the Create Barcode Import operation sent under each client reference and the service
 * accepted: the digest of the request, keyed by the digest of `<gateway and project>\0<client_reference>`
 * (the reference is the user's text, of any length), oldest first. The memory that proves a
 * re-run of a manual execution (whose static data n8n does not save) is the same request; the
 * node's static data is the other. Bound: the newest `MAX_REMEMBERED_IMPORT_REQUESTS` references
 * of this process, each a key and a value of 43 characters (about 0.3 MB in all).
 */
export const importRequests = new Map<string, string>();

type SavedRequest = [reference: string, scopeTag: string, digest: string];

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const flag = (value: unknown): boolean => value === true;
const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

/** The request in one canonical form: what the service keeps of it, in a fixed order. */
export function canonicalRequest(scope: string, body: IDataObject): string {
	const config = (body.config ?? {}) as IDataObject;
	const data = (body.items as { data?: IDataObject[] } | undefined)?.data;
	return JSON.stringify([
		'CreateBarcodeImport/1',
		scope,
		text(body.client_reference),
		text(body.file_url),
		text(body.bq_table),
		flag(config.is_notification_required),
		flag(config.force_sync),
		data?.map((m) => [text(m.partner_sku), text(m.barcode), flag(m.force_sync)]) ?? null,
	]);
}

interface Sent {
	/** The memory's key: the digest of scope and client reference. */
	key: string;
	reference: string;
	/** The scope, hashed: static data keeps no address or project code. */
	scopeTag: string;
	digest: string;
}

async function describeRequest(
	ctx: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): Promise<Sent> {
	const settings = await connectionSettings(ctx, itemIndex);
	const scope = `${settings.scope}|${settings.prefixes.importPrefix}`;
	const reference = text(body.client_reference);
	return {
		key: sha256(`${scope}\u0000${reference}`),
		reference,
		scopeTag: sha256(scope).slice(0, 16),
		digest: sha256(canonicalRequest(scope, body)),
	};
}

/** The node's saved requests, oldest first; entries of another shape are left out. */
function savedRequests(ctx: IExecuteFunctions): SavedRequest[] {
	const list = (ctx.getWorkflowStaticData('node') as IDataObject).importRequests;
	if (!Array.isArray(list)) return [];
	return list.filter(
		(entry): entry is SavedRequest =>
			Array.isArray(entry) && entry.length === 3 && entry.every((e) => typeof e === 'string'),
	);
}

/** Remembers a request the service accepted (a new import), in memory and in static data. */
export async function rememberRequest(
	ctx: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): Promise<void> {
	const sent = await describeRequest(ctx, body, itemIndex);
	importRequests.delete(sent.key);
	importRequests.set(sent.key, sent.digest);
	if (importRequests.size > MAX_REMEMBERED_IMPORT_REQUESTS) {
		importRequests.delete(importRequests.keys().next().value as string);
	}
	const kept = savedRequests(ctx).filter(
		([reference, scopeTag]) => reference !== sent.reference || scopeTag !== sent.scopeTag,
	);
	const entry: SavedRequest = [sent.reference, sent.scopeTag, sent.digest];
	// A new list, set on the node's static data: n8n then sees the change and saves it.
	(ctx.getWorkflowStaticData('node') as IDataObject).importRequests = [...kept, entry].slice(
		-MAX_SAVED_IMPORT_REQUESTS,
	);
}

/** Whether this request, another one, or nothing known was sent under its client reference. */
export async function sentBefore(
	ctx: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): Promise<SentBefore> {
	const sent = await describeRequest(ctx, body, itemIndex);
	const saved = savedRequests(ctx).find(
		([reference, scopeTag]) => reference === sent.reference && scopeTag === sent.scopeTag,
	);
	const known = [importRequests.get(sent.key), saved?.[2]].filter(
		(digest): digest is string => digest !== undefined,
	);
	if (!known.length) return 'unknown';
	return known.every((digest) => digest === sent.digest) ? 'same' : 'other';
}
