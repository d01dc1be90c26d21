/**
 * The rows of a CSV file that failed (csvFile.ts): counted, the first FAILURES_SHOWN kept for the
 * summary, and every one listed in the failedRows CSV file (line, key columns, reason) up to
 * FAILED_ROWS_MAX_BYTES; rows beyond are counted, and the file's last line says how many. No
 * cell starts as a spreadsheet formula (`inertCell`).
 */
import { NodeApiError, type IDataObject } from 'n8n-workflow';

/** The failures the summary lists. */
export const FAILURES_SHOWN = 100;
/** The largest failedRows file (about 100,000 rows); rows beyond are counted, not listed. */
export const FAILED_ROWS_MAX_BYTES = 8 * 1024 * 1024;

/** What came of one row sent: its error, or none (the service applied it). */
export interface RowOutcome {
	line: number;
	error?: Error;
	/** The request failed as a whole: the lines it carried (`lines 2 to 200`). */
	request?: string;
}

/** A field as RFC 4180 writes it: in quotes when it holds a quote, the delimiter or a line break. */
export function csvField(value: string, delimiter = ','): string {
	const needs = value.includes('"') || value.includes(delimiter) || /[\r\n]/.test(value);
	return needs ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * A cell a spreadsheet reads as text, never as a formula (OWASP "CSV injection"): one starting
 * with `=`, `+`, `-`, `@`, a tab or a CR gets a `'` before it (`'=HYPERLINK(…)`).
 */
export function inertCell(value: string): string {
	return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** The service's status_code of a row's error, or the HTTP code of a request's. */
function codeOf(error: Error): { status_code?: string; http_code?: string } {
	if (!(error instanceof NodeApiError)) return {};
	const status = (error.context as IDataObject | undefined)?.statusCode;
	if (typeof status === 'string' && status) return { status_code: status };
	return error.httpCode ? { http_code: String(error.httpCode) } : {};
}

export class Failures {
	count = 0;
	readonly shown: IDataObject[] = [];
	private readonly pieces: Buffer[] = [];
	private bytes = 0;
	private unlisted = 0;

	constructor(
		private readonly key: Array<{ field: string }>,
		private readonly delimiter = ',',
	) {
		const header = ['line', ...key.map(({ field }) => field), 'reason', 'code'];
		this.push(header.join(delimiter));
	}

	/** Adds a row that failed (its `error` set). */
	add({ line, error = new Error('failed'), request }: RowOutcome, row: IDataObject) {
		this.count++;
		const message = request ? `The request of ${request} failed: ${error.message}` : error.message;
		const key: IDataObject = {};
		for (const { field } of this.key) key[field] = row[field] ?? null;
		const code = codeOf(error);
		if (this.shown.length < FAILURES_SHOWN) this.shown.push({ line, key, message, ...code });
		const cells = [String(line), ...this.key.map(({ field }) => String(row[field] ?? ''))];
		cells.push(message, code.status_code ?? code.http_code ?? '');
		const text = cells
			.map((cell) => csvField(inertCell(cell), this.delimiter))
			.join(this.delimiter);
		if (this.bytes + Buffer.byteLength(text) + 1 > FAILED_ROWS_MAX_BYTES) this.unlisted++;
		else this.push(text);
	}

	/** The failedRows file's content. */
	file(): Buffer {
		if (this.unlisted) {
			const note = `${this.unlisted} more rows failed and are not listed (the file stops at ${FAILED_ROWS_MAX_BYTES} bytes)`;
			this.pieces.push(Buffer.from(`${csvField(note, this.delimiter)}\n`));
			this.unlisted = 0;
		}
		return Buffer.concat(this.pieces);
	}

	private push(text: string) {
		const piece = Buffer.from(`${text}\n`);
		this.bytes += piece.length;
		this.pieces.push(piece);
	}
}
