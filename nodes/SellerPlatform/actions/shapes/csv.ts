/**
 * A streaming CSV reader (RFC 4180) for Read Rows From a CSV File (csvFile.ts): text goes in by
 * pieces of any size, complete rows come out; nothing but the row being read is kept.
 * - Fields are separated by the delimiter, rows by CR, LF or CRLF; a field in double quotes may
 *   hold the delimiter, line breaks and doubled quotes (`""` is one `"`).
 * - A UTF-8 byte order mark at the start of the file is skipped; empty lines are skipped.
 * - A quote inside an unquoted field is kept as text (`5" screen`); a character other than the
 *   delimiter or a line break after a closing quote is refused, as is a file that ends inside
 *   quotes, a field over MAX_CSV_FIELD_LENGTH characters and a row over MAX_CSV_ROW_LENGTH (its
 *   delimiters counted: a row of bare delimiters holds at most MAX_CSV_ROW_LENGTH + 1 fields).
 * - Each row carries the line it starts on (line 1 is the first line of the file; a line break
 *   inside quotes counts, so lines are what a text editor shows).
 */

/** The longest field, in characters (the longest text a parameter takes). */
export const MAX_CSV_FIELD_LENGTH = 64 * 1024;
/** The longest row, in characters, its delimiters and line breaks inside quotes included. */
export const MAX_CSV_ROW_LENGTH = 1024 * 1024;

export interface CsvRow {
	/** The line the row starts on (1: the file's first line). */
	line: number;
	fields: string[];
}

/** A file the reader refuses: what is wrong, and the line where it is. */
export class CsvProblem extends Error {
	constructor(
		message: string,
		readonly line: number,
	) {
		super(message);
	}
}

const QUOTE = 34;
const CR = 13;
const LF = 10;
const BOM = 0xfeff;

/** Where the reader is: at a field's start, in an unquoted field, in quotes, after a quote in quotes. */
const At = { FieldStart: 0, Unquoted: 1, Quoted: 2, QuoteInQuoted: 3 } as const;
type At = (typeof At)[keyof typeof At];

export class CsvReader {
	private at: At = At.FieldStart;
	private field = '';
	private fields: string[] = [];
	/** Characters of the row so far. */
	private rowLength = 0;
	/** The row has begun (a field, a delimiter or a quote read): an empty line has not. */
	private started = false;
	private line = 1;
	private rowLine = 1;
	/** The last character was a CR: an LF right after it is the same line break. */
	private afterCr = false;
	private first = true;
	private readonly delimiter: number;

	constructor(delimiter: string) {
		this.delimiter = delimiter.charCodeAt(0);
	}

	/** Reads `text`; each row it completes is added to `rows`. */
	push(text: string, rows: CsvRow[]): void {
		let from = 0;
		if (this.first && text.length) {
			this.first = false;
			if (text.charCodeAt(0) === BOM) from = 1;
		}
		// `start`: where the current field's text begins in `text` (kept by slicing, not by char).
		let start = from;
		for (let i = from; i < text.length; i++) {
			const code = text.charCodeAt(i);
			if (this.afterCr) {
				this.afterCr = false;
				if (code === LF) {
					// In quotes the LF is text (the line was counted at the CR); outside, it is skipped.
					if (this.at !== At.Quoted) start = i + 1;
					continue;
				}
			}
			if (this.at === At.Quoted || this.at === At.QuoteInQuoted) {
				const next = this.inQuotes(text, code, i, start);
				if (next !== undefined) {
					start = next;
					continue;
				}
			}
			if (code === this.delimiter) {
				this.append(text, start, i);
				this.count(1);
				this.endField();
				start = i + 1;
			} else if (code === CR || code === LF) {
				this.append(text, start, i);
				this.endLine(rows, code === CR);
				start = i + 1;
			} else if (this.at === At.FieldStart && code === QUOTE) {
				this.at = At.Quoted;
				this.started = true;
				start = i + 1;
			} else if (this.at === At.FieldStart) {
				this.at = At.Unquoted;
				this.started = true;
			}
		}
		this.append(text, start, text.length);
	}

	/**
	 * A character in quotes, or right after a quote in quotes: where the field's text now starts,
	 * or undefined when the quote closed the field (the character then ends the field or the row).
	 */
	private inQuotes(text: string, code: number, i: number, start: number): number | undefined {
		if (this.at === At.Quoted) {
			if (code === QUOTE) {
				this.append(text, start, i);
				this.at = At.QuoteInQuoted;
				return i + 1;
			}
			if (code === CR || code === LF) {
				this.line++;
				if (code === CR) this.afterCr = true;
			}
			return start;
		}
		// A doubled quote: one quote of the text (from here), still in quotes.
		if (code === QUOTE) {
			this.at = At.Quoted;
			return i;
		}
		if (code !== this.delimiter && code !== CR && code !== LF) {
			throw new CsvProblem(
				`a character after the closing quote of a field (${JSON.stringify(text[i])}): a quoted field ends at a delimiter or a line break`,
				this.line,
			);
		}
		return undefined;
	}

	/** The end of the file: its last row, if it has no line break after it. */
	end(rows: CsvRow[]): void {
		if (this.at === At.Quoted) {
			throw new CsvProblem(
				`the file ends inside a quoted field that starts on line ${this.rowLine}: a closing quote is missing`,
				this.rowLine,
			);
		}
		if (this.started || this.fields.length) {
			this.endField();
			this.emit(rows);
		}
	}

	/** Adds `text[from, to)` to the current field, within the limits. */
	private append(text: string, from: number, to: number) {
		if (to <= from) return;
		if (this.field.length + to - from > MAX_CSV_FIELD_LENGTH) {
			throw new CsvProblem(
				`a field longer than ${MAX_CSV_FIELD_LENGTH} characters (the longest a field may be)`,
				this.rowLine,
			);
		}
		this.count(to - from);
		this.field += text.slice(from, to);
	}

	/** Counts `length` characters (a field's text, a delimiter) toward the row's limit. */
	private count(length: number) {
		this.rowLength += length;
		if (this.rowLength > MAX_CSV_ROW_LENGTH) {
			throw new CsvProblem(
				`a row longer than ${MAX_CSV_ROW_LENGTH} characters, its delimiters included (the longest a row may be)`,
				this.rowLine,
			);
		}
	}

	private endField() {
		this.fields.push(this.field);
		this.field = '';
		this.at = At.FieldStart;
		this.started = true;
	}

	private endLine(rows: CsvRow[], cr: boolean) {
		if (this.started) {
			this.endField();
			this.emit(rows);
		}
		this.line++;
		this.rowLine = this.line;
		this.afterCr = cr;
	}

	private emit(rows: CsvRow[]) {
		const fields = this.fields;
		// A row of empty fields only (`,,,`, what sheets export for an empty row) is an empty line.
		if (fields.some((field) => field !== '')) rows.push({ line: this.rowLine, fields });
		this.fields = [];
		this.field = '';
		this.started = false;
		this.rowLength = 0;
		this.at = At.FieldStart;
	}
}
