/** Barcode imports (catalog): create, and status by import_reference or client_reference. */
import { invalidArgument } from '../errors';
import type { BarcodeImportRequest, BarcodeMapping } from '../state/imports';
import {
	at,
	isObject,
	optionalBoolean,
	optionalObject,
	optionalString,
	requiredString,
	type JsonObject,
} from '../validate';
import type { RouteModule } from './types';

export const MAX_IMPORT_ITEMS = 10_000;
export const MAX_CLIENT_REFERENCE_LENGTH = 100;
const SOURCES = ['file_url', 'bq_table', 'items'] as const;
const CLOUD_STORAGE = /^(gs|s3):\/\/[^/\s]+\/\S+$/;
const BQ_TABLE = /^[A-Za-z0-9_-]+[.:][A-Za-z0-9_-]+(\.[A-Za-z0-9_$-]+)?$/;

function fileUrlProblem(url: string): string | null {
	if (CLOUD_STORAGE.test(url)) return null;
	try {
		const { protocol } = new URL(url);
		if (protocol === 'http:' || protocol === 'https:') return null;
	} catch {
		// fall through
	}
	return `file_url must be an http(s) address or a cloud storage path (gs://bucket/path, s3://bucket/path), got ${JSON.stringify(url)}`;
}

/** The inline mappings: each needs partner_sku and barcode; 1 to 10,000 of them. */
function parseMappings(items: JsonObject): BarcodeMapping[] {
	const data = items.data;
	if (data === undefined || data === null || (Array.isArray(data) && data.length === 0)) {
		throw invalidArgument('items.data must list at least one barcode mapping');
	}
	if (!Array.isArray(data))
		throw invalidArgument('items.data must be a list of {partner_sku, barcode} objects');
	if (data.length > MAX_IMPORT_ITEMS) {
		throw invalidArgument(
			`items.data has ${data.length} entries: at most ${MAX_IMPORT_ITEMS} per import`,
		);
	}
	const mappings: BarcodeMapping[] = new Array(data.length);
	for (let i = 0; i < data.length; i++) {
		const entry = data[i];
		if (!isObject(entry))
			throw invalidArgument(`${at('items.data', i)} must be an object {partner_sku, barcode}`);
		const { partner_sku: sku, barcode, force_sync: forceSync } = entry;
		if (typeof sku !== 'string' || sku === '') {
			throw invalidArgument(
				`${at('items.data', i, 'partner_sku')} is required${sku == null || sku === '' ? '' : ' (a string)'}`,
			);
		}
		if (typeof barcode !== 'string' || barcode === '') {
			throw invalidArgument(
				`${at('items.data', i, 'barcode')} is required${barcode == null || barcode === '' ? '' : ' (a string)'}`,
			);
		}
		if (forceSync !== undefined && forceSync !== null && typeof forceSync !== 'boolean') {
			throw invalidArgument(`${at('items.data', i, 'force_sync')} must be a boolean`);
		}
		mappings[i] = { partner_sku: sku, barcode };
	}
	return mappings;
}

function parseBarcodeImport(body: JsonObject): BarcodeImportRequest {
	// proto3: an empty string is an absent field.
	const present = SOURCES.filter(
		(field) => body[field] !== undefined && body[field] !== null && body[field] !== '',
	);
	if (present.length !== 1) {
		throw invalidArgument(
			present.length === 0
				? 'exactly one of file_url, bq_table or items is required; none was given'
				: `exactly one of file_url, bq_table or items is allowed; got ${present.join(' and ')}`,
		);
	}
	const clientReference = requiredString(body, 'client_reference');
	if (clientReference.length > MAX_CLIENT_REFERENCE_LENGTH) {
		throw invalidArgument(
			`client_reference must be at most ${MAX_CLIENT_REFERENCE_LENGTH} characters, got ${clientReference.length}`,
		);
	}
	const config = optionalObject(body, 'config') ?? {};
	const parsedConfig = {
		is_notification_required:
			optionalBoolean(config, 'is_notification_required', 'config.is_notification_required') ??
			false,
		force_sync: optionalBoolean(config, 'force_sync', 'config.force_sync') ?? false,
	};

	let source: BarcodeImportRequest['source'];
	switch (present[0]) {
		case 'file_url': {
			const url = optionalString(body, 'file_url') as string;
			const problem = fileUrlProblem(url);
			if (problem) throw invalidArgument(problem);
			source = { kind: 'file_url', value: url };
			break;
		}
		case 'bq_table': {
			const table = optionalString(body, 'bq_table') as string;
			if (!BQ_TABLE.test(table)) {
				throw invalidArgument(
					`bq_table must be a table reference like project.dataset.table, got ${JSON.stringify(table)}`,
				);
			}
			source = { kind: 'bq_table', value: table };
			break;
		}
		case 'items': {
			const items = body.items;
			if (!isObject(items))
				throw invalidArgument('items must be an object {data: [{partner_sku, barcode}, ...]}');
			source = { kind: 'items', data: parseMappings(items) };
			break;
		}
	}
	return { client_reference: clientReference, config: parsedConfig, source };
}

export const importRoutes: RouteModule = ({ prefixes }) => [
	{
		operation: 'CreateBarcodeImport',
		method: 'POST',
		path: `${prefixes.imports}/v1/import/barcode`,
		auth: 'session',
		rateLimited: true,
		handler: ({ state, body, session, now }) => ({
			body: state.imports.create(
				session!.projectCode,
				session!.userCode,
				parseBarcodeImport(body),
				now,
			),
		}),
	},
	{
		operation: 'GetImportStatus',
		method: 'GET',
		path: `${prefixes.imports}/v1/import/status/{reference}`,
		auth: 'session',
		rateLimited: true,
		handler: ({ state, params, session, now }) => ({
			body: state.imports.status(session!.projectCode, params.reference, now),
		}),
	},
];
