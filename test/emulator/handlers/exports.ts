/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/** The files behind the download links of exports. */
import { Readable } from 'node:stream';

import type { ApiResult, EndpointContext } from '../endpoint';

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
