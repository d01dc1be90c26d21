/**
 * A client_reference is an idempotency key: it replays only the import it was first used for, and
 * only when this is provably the same request. When the service refuses a reference because an
 * import already has it, that import is returned only if its status record shows this request
 * (same source, same file or table, same settings, the same number of mappings where the report
 * gives one) and, for mappings, which the record does not show, the node knows that exactly these
 * mappings were sent under the reference before (sentRequests.ts). Otherwise the item fails,
 * naming the import that holds the reference: the number of mappings is no proof.
 */
import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';

import { apiRequest } from '../../../shared';
import { MAX_SAVED_IMPORT_REQUESTS, sentBefore, type SentBefore } from './sentRequests';

/** The service refused the client_reference because an import already uses it. */
export function referenceTaken(error: unknown): boolean {
	const { httpCode, context, message } = error as NodeApiError;
	return (
		httpCode === '409' ||
		context?.statusCode === 'ALREADY_EXISTS' ||
		/already used/i.test(String(message ?? ''))
	);
}

/** proto3 leaves out empty strings and false: absent, null and '' are the same. */
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const quoted = (value: string): string => (value ? JSON.stringify(value) : 'none');

/** The number of mappings the record's report gives, if it gives one. */
export function reportedCount(record: IDataObject): number | undefined {
	const report = record.report as IDataObject | undefined;
	const total = report && typeof report === 'object' ? report.total_count : undefined;
	return typeof total === 'number' && Number.isInteger(total) && total > 0 ? total : undefined;
}

/** How the existing import (its status record) differs from this request; empty when it does not. */
export function differences(body: IDataObject, record: IDataObject): string[] {
	const found: string[] = [];
	const type = text(record.import_type);
	if (type && !/barcode/i.test(type)) found.push(`import_type ${quoted(type)} instead of barcode`);
	for (const field of ['file_url', 'bq_table']) {
		const existing = text(record[field]);
		const wanted = text(body[field]);
		if (existing !== wanted)
			found.push(`${field} ${quoted(existing)} instead of ${quoted(wanted)}`);
	}
	const existingConfig = (record.config ?? {}) as IDataObject;
	const wantedConfig = (body.config ?? {}) as IDataObject;
	for (const field of ['is_notification_required', 'force_sync']) {
		const existing = existingConfig[field] === true;
		const wanted = wantedConfig[field] === true;
		if (existing !== wanted) found.push(`config.${field} ${existing} instead of ${wanted}`);
	}
	const mappings = (body.items as { data?: unknown[] } | undefined)?.data?.length;
	const count = reportedCount(record);
	if (mappings !== undefined && count !== undefined && count !== mappings) {
		found.push(`${count} mappings instead of ${mappings}`);
	}
	return found;
}

/** Why the mappings are not shown to be these, when the record shows nothing else. */
const MAPPINGS_NOT_SAME: Record<Exclude<SentBefore, 'same'>, string> = {
	other:
		'other mappings: the mappings sent under this client reference before are not exactly these (compared by a digest of every mapping, in order)',
	unknown: `nothing shows that its mappings are these: the service does not return an import's mappings, and this n8n has no record of what was sent under this client reference (it keeps that for the newest ${MAX_SAVED_IMPORT_REQUESTS} client references of the node, in the workflow's static data, saved after production executions; and in its memory until it restarts)`,
};

/**
 * The service's refusal, kept (message, HTTP code, status_code), naming the import that holds the
 * reference, how it differs from this request (or that nothing shows it is this request), and
 * what to do.
 */
export function reusedReferenceError(
	refused: NodeApiError,
	record: IDataObject,
	clientReference: string,
	found: string[],
	unproven = false,
): NodeApiError {
	const importReference = text(record.import_reference) || '(reference not returned)';
	const existing = `import ${importReference} (client reference ${clientReference})`;
	if (!refused.message.includes(importReference)) {
		refused.message = `${refused.message} (existing import ${importReference}, client reference ${clientReference})`;
	}
	const how = unproven
		? 'which is not shown to be this request'
		: 'which differs from this request';
	const todo = unproven
		? `Use a new Client Reference to import this data; to see what ${importReference} holds, use Import → Get Status with its reference.`
		: 'Use a new Client Reference for new data, or run again with exactly the request first sent under this one (same source, settings and mappings, in the same order) to find that import.';
	const note = `The client reference is already used by ${existing}, ${how}: ${found.join('; ')}. A client reference replays only the import it was first used for, and only when this is provably the same request, so this data was not imported. ${todo}`;
	refused.description = refused.description ? `${note}\n\n${refused.description}` : note;
	Object.assign(refused.context, {
		existingImport: { import_reference: importReference, client_reference: clientReference },
		differences: found,
	});
	return refused;
}

/**
 * After the service refused `body`: the import that holds its client_reference, when it is
 * provably this very request (marked `alreadyExisted`, with `mappings_count`, this request's);
 * otherwise the refusal, naming that import.
 */
export async function findReplayedImport(
	ctx: IExecuteFunctions,
	body: IDataObject,
	refused: unknown,
	itemIndex: number,
): Promise<IDataObject> {
	if (!referenceTaken(refused)) throw refused;
	const clientReference = String(body.client_reference);
	const record = await apiRequest.call(ctx, 'GetImportStatus', {
		pathParams: { reference: clientReference },
		itemIndex,
	});
	const found = differences(body, record);
	const mappings = (body.items as { data?: unknown[] } | undefined)?.data;
	// The record shows the source and the settings; the mappings only the node's memory can prove.
	const known = mappings ? await sentBefore(ctx, body, itemIndex) : 'same';
	if (
		known !== 'same' &&
		!found.some((difference) => difference.includes(' mappings instead of '))
	) {
		found.push(MAPPINGS_NOT_SAME[known]);
	}
	if (found.length) {
		const unproven = known === 'unknown' && found.length === 1;
		throw reusedReferenceError(refused as NodeApiError, record, clientReference, found, unproven);
	}
	return {
		...record,
		client_reference: clientReference,
		alreadyExisted: true,
		...(mappings ? { mappings_count: mappings.length } : {}),
	};
}
