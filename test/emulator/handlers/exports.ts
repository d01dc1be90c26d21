/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/** The files behind the download links of exports. */
import { Readable } from 'node:stream';

import type { ApiResult, EndpointContext } from '../endpoint';
import { invalidArgument } from '../errors';
import { EXPORT_CATEGORIES, type ExportCategorySeed } from '../seed';

export const DOWNLOAD_EXPORT_OPERATION = 'DownloadExport';

/** A served export file: like a signed cloud storage link, the token in the query authorises it. */
export function downloadExport({ state, params, query, now }: EndpointContext): ApiResult {
	const { fileName, csv, sizeBytes } = state.exports.download(
		params.file,
		query.token ?? null,
		now,
	);
	return {
		body: sizeBytes === undefined ? csv : generatedCsv(sizeBytes),
		contentType: 'text/csv; charset=utf-8',
		headers: {
			'Content-Disposition': `attachment; filename="${fileName}"`,
			...(sizeBytes === undefined ? {} : { 'Content-Length': String(sizeBytes) }),
		},
	};
}

/** `size` bytes of CSV rows, produced as the reader asks for them. */
function generatedCsv(size: number): Readable {
	let sent = 0;
	let row = 0;
	return new Readable({
		read() {
			if (sent >= size) return void this.push(null);
			let chunk = '';
			while (chunk.length < 64 * 1024)
				chunk += `ORD-${++row},SKU-${row % 997},${row % 13},AED,${(row % 500) + 0.99}\n`;
			const piece = Buffer.from(chunk).subarray(0, Math.min(chunk.length, size - sent));
			sent += piece.length;
			this.push(piece);
		},
	});
}

// --- Exports: CreateExport and GetExportCategoryList ---------------------------------------------

export interface CreateExportBody {
	export_category_code: string;
	params: Record<string, unknown>;
}

/** GetExportCategoryList: every category, with the parameters it takes. */
export function exportCategoryList(): unknown {
	return { export_categories: EXPORT_CATEGORIES };
}

/** What is wrong with `params` for the category, or null: its parameters only, required ones set. */
function paramsProblem(
	category: ExportCategorySeed,
	params: Record<string, unknown>,
): string | null {
	const code = category.export_category_code;
	for (const [name, value] of Object.entries(params)) {
		const spec = Object.hasOwn(category.params, name) ? category.params[name] : undefined;
		if (!spec) {
			const known = Object.keys(category.params).join(', ') || 'none';
			return `params.${name} is not a parameter of ${code} (it takes: ${known})`;
		}
		if (typeof value !== spec.type) return `params.${name} must be a ${spec.type}`;
	}
	const missing = Object.entries(category.params).find(
		([name, spec]) => spec.required && (params[name] === undefined || params[name] === ''),
	);
	return missing ? `params.${missing[0]} is required for ${code}` : null;
}

/** CreateExport: a known category and its parameters; the export starts at once. */
export function createExport({
	state,
	body,
	session,
	projectCode,
	now,
}: EndpointContext<CreateExportBody>): ApiResult {
	const category = EXPORT_CATEGORIES.find(
		(c) => c.export_category_code === body.export_category_code,
	);
	if (!category) {
		const codes = EXPORT_CATEGORIES.map((c) => c.export_category_code).join(', ');
		throw invalidArgument(
			`export_category_code ${JSON.stringify(body.export_category_code)} is not an export category (one of ${codes})`,
		);
	}
	const problem = paramsProblem(category, body.params);
	if (problem) throw invalidArgument(problem);
	const created = state.exports.create(
		projectCode,
		session?.userCode ?? '',
		category.export_category_code,
		body.params,
		now,
	);
	return { body: created };
}
