/** CreateBarcodeImport: exactly one source (the field rules are in the endpoint table). */
import type { ApiResult, EndpointContext } from '../endpoint';
import { invalidArgument } from '../errors';
import type { BarcodeImportRequest, ImportConfig } from '../state/imports';

export const MAX_IMPORT_ITEMS = 10_000;
export const MAX_CLIENT_REFERENCE_LENGTH = 100;
const SOURCES = ['file_url', 'bq_table', 'items'] as const;
const CLOUD_STORAGE = /^(gs|s3):\/\/[^/\s]+\/\S+$/;
const BQ_TABLE = /^[A-Za-z0-9_-]+[.:][A-Za-z0-9_-]+(\.[A-Za-z0-9_$-]+)?$/;

export interface BarcodeImportBody {
	file_url?: string;
	bq_table?: string;
	items?: { data: Array<{ partner_sku: string; barcode: string; force_sync?: boolean }> };
	config?: Partial<ImportConfig>;
	client_reference: string;
}

export function fileUrlProblem(url: string, path: string): string | null {
	if (CLOUD_STORAGE.test(url)) return null;
	try {
		const { protocol } = new URL(url);
		if (protocol === 'http:' || protocol === 'https:') return null;
	} catch {
		// fall through
	}
	return `${path} must be an http(s) address or a cloud storage path (gs://bucket/path, s3://bucket/path), got ${JSON.stringify(url)}`;
}

export const bqTableProblem = (table: string, path: string): string | null =>
	BQ_TABLE.test(table)
		? null
		: `${path} must be a table reference like project.dataset.table, got ${JSON.stringify(table)}`;

function sourceOf(body: BarcodeImportBody): BarcodeImportRequest['source'] {
	// proto3: the table check already dropped empty strings, so a present field is a given source.
	const present = SOURCES.filter((field) => body[field] !== undefined);
	if (present.length !== 1) {
		throw invalidArgument(
			present.length === 0
				? 'exactly one of file_url, bq_table or items is required; none was given'
				: `exactly one of file_url, bq_table or items is allowed; got ${present.join(' and ')}`,
		);
	}
	if (body.items) {
		const data = body.items.data.map(({ partner_sku, barcode }) => ({ partner_sku, barcode }));
		return { kind: 'items', data };
	}
	return body.file_url !== undefined
		? { kind: 'file_url', value: body.file_url }
		: { kind: 'bq_table', value: body.bq_table as string };
}

export function createBarcodeImport({
	state,
	body,
	session,
	now,
}: EndpointContext<BarcodeImportBody>): ApiResult {
	const request: BarcodeImportRequest = {
		client_reference: body.client_reference,
		config: {
			is_notification_required: body.config?.is_notification_required ?? false,
			force_sync: body.config?.force_sync ?? false,
		},
		source: sourceOf(body),
	};
	return { body: state.imports.create(session!.projectCode, session!.userCode, request, now) };
}
