/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/** Exports (impex): status, and the files behind download links. */
import { Readable } from 'node:stream';
import { EXPORT_FILES_PATH } from '../state/exports';
import { requiredString } from '../validate';
import type { RouteModule } from './types';

export const DOWNLOAD_EXPORT_OPERATION = 'DownloadExport';

export const exportRoutes: RouteModule = () => [
	{
		operation: 'GetExportStatus',
		method: 'POST',
		path: '/impex/v1/export/status',
		auth: 'session',
		rateLimited: true,
		handler: ({ state, body, session, baseUrl, now }) => ({
			body: state.exports.status(
				session!.projectCode,
				requiredString(body, 'export_code'),
				baseUrl,
				now,
			),
		}),
	},
	{
		// Like a signed cloud storage link: no session, the token in the query is the authorisation.
		operation: DOWNLOAD_EXPORT_OPERATION,
		method: 'GET',
		path: `${EXPORT_FILES_PATH}/{file}`,
		auth: 'public',
		rateLimited: false,
		userAgent: 'optional',
		handler: ({ state, params, query, now }) => {
			const { fileName, csv, sizeBytes } = state.exports.download(
				params.file,
				query.get('token'),
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
		},
	},
];

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
