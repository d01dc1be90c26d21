/**
 * A client_reference is an idempotency key: it replays only the import it was first used for.
 * When the service refuses a reference because an import already has it, that import is returned
 * only if its status record shows this very request (same source, same file or table, same
 * settings, same number of mappings where the report gives one); otherwise the run fails, naming
 * the import that holds the reference.
 */
import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';

import { apiRequest } from '../../../api/request';

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

/**
 * The service's refusal, kept (message, HTTP code, status_code), naming the import that holds the
 * reference and how it differs from this request.
 */
export function reusedReferenceError(
	refused: NodeApiError,
	record: IDataObject,
	clientReference: string,
	found: string[],
): NodeApiError {
	const importReference = text(record.import_reference) || '(reference not returned)';
	const existing = `import ${importReference} (client reference ${clientReference})`;
	if (!refused.message.includes(importReference)) {
		refused.message = `${refused.message} (existing import ${importReference}, client reference ${clientReference})`;
	}
	const note = `The client reference is already used by ${existing}, which differs from this request: ${found.join('; ')}. A client reference replays only the import it was first used for, so this data was not imported. Use a new Client Reference for new data.`;
	refused.description = refused.description ? `${note}\n\n${refused.description}` : note;
	Object.assign(refused.context, {
		existingImport: { import_reference: importReference, client_reference: clientReference },
		differences: found,
	});
	return refused;
}

/**
 * After the service refused `body`: the import that holds its client_reference, when it is this
 * very request (marked `alreadyExisted`, `mappings_count` as its report gives it); otherwise the
 * refusal, naming that import.
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
	if (found.length)
		throw reusedReferenceError(refused as NodeApiError, record, clientReference, found);
	const count = reportedCount(record);
	return {
		...record,
		client_reference: clientReference,
		alreadyExisted: true,
		...(body.items && count !== undefined ? { mappings_count: count } : {}),
	};
}
