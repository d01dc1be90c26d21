/**
 * Read Rows From a CSV File (a batch operation's `mappingMode` `csvFile`, shapes/mapping.ts): the
 * rows come from a CSV file in each input item's binary field, read as a stream, never turned
 * into n8n items, so a catalog of 1,000,000 rows syncs in one run within a small heap.
 * - The file is UTF-8 with a header row naming its columns as the API names them (the fields of
 *   Map Automatically); other columns are ignored, but one named as a field apart from case, `-`
 *   or `_` (mapping.ts `resembledField`) refuses the file. Values are text, read by the same
 *   readers and rules as Map Automatically (`12` is the number 12 where the field is a number).
 * - Every input item's file is checked whole before anything is sent (a first pass over the
 *   stream): a column required and missing or resembling a field, a row of the wrong length, a
 *   value a reader refuses, a key two rows repeat (writes refuse repeated keys) refuses the file,
 *   naming the line, the column and the rule; without Continue On Fail, the run. Keys are
 *   compared within a file, not across the run's files: the files are sent one after the other.
 * - A second pass streams the file again and sends: rows packed into requests of the operation's
 *   `maxRows` (a change of path starts a new request), as many requests in flight as the run's
 *   concurrency allows (automatic by default), each through the one request path and its pacing.
 *   Only the rows of the requests in flight and of one piece of the file are held.
 * - One output item per input item: a summary (rows read and sent, requests, rows the service
 *   applied and the ones that failed, the first FAILURES_SHOWN failures) and, when a row failed, a
 *   `failedRows` CSV file (line, key columns, reason). Rows that failed, without Continue On
 *   Fail, fail the node once the whole file is sent (the other rows are applied by then).
 * - A stop of the execution ends reading and sending at once.
 *
 * Bounds: a piece of the file (64 KiB) and its rows; the rows of the requests in flight; the key
 * hashes of the first pass (`KeyHashes`: 12 bytes a slot, at most two slots a row, in typed
 * arrays outside the JS heap, let go after the pass); the failures shown (FAILURES_SHOWN) and the
 * failedRows file (at most FAILED_ROWS_MAX_BYTES; rows beyond are counted, not listed).
 */
import {
	jsonParse,
	NodeApiError,
	NodeOperationError,
	type IBinaryData,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
	type JsonObject,
} from 'n8n-workflow';

import { eventLoopTurns, inputField, type InputField, type Turns } from '../../../shared';
import { readOption, readRequiredText, type ParameterSource } from '../parameters';
import { asNodeError, type Planned, type TaskOutput } from '../runner';
import {
	CsvProblem,
	CsvReader,
	MAX_CSV_FIELD_LENGTH,
	MAX_CSV_ROW_LENGTH,
	type CsvRow,
} from './csv';
import { FAILURES_SHOWN, Failures, type RowOutcome } from './csvFailures';
import { KeyHashes, keyHash } from './csvKeys';
import { fieldList, MAPPING_MODE, resembledField, shownIn, type RowFields } from './mapping';

/** What the batch shape (batch.ts) gives this mode: how a row is read, keyed and sent. */
export interface CsvBatch {
	fields: RowFields;
	/** The key fields by the API's names, and how messages name them. */
	key: Array<{ field: string; label: string }>;
	/** The key's text (case folded where the key says so): equal for rows of one key. */
	keyText(row: IDataObject): string;
	/** Reads and checks a row (the declaration's `row`), throwing to refuse it. */
	read(source: ParameterSource, fields: RowFields, item: number): IDataObject;
	maxRows: number;
	/** The path a row's request goes to; rows of another path start a new request. */
	pathOf?(row: IDataObject): string;
	/** Sends one request of rows: each row's outcome (its error, or none: applied). */
	send(rows: SentRow[], item: number): Promise<RowOutcome[]>;
}

export interface SentRow {
	body: IDataObject;
	line: number;
}

/** The size of the pieces a file is read in. */
const PIECE_BYTES = 64 * 1024;
/** Base64 characters decoded at a time (a multiple of 4: whole bytes; 48 KiB). */
const BASE64_PIECE = 64 * 1024;

export const binaryPropertyNameProperty: INodeProperties = {
	displayName: 'Input Binary Field',
	name: 'binaryPropertyName',
	type: 'string',
	required: true,
	default: 'data',
	placeholder: 'e.g. data',
	hint: 'The name of the input binary field containing the CSV file',
};

export const delimiterProperty: INodeProperties = {
	displayName: 'Delimiter',
	name: 'delimiter',
	type: 'options',
	options: [
		{ name: 'Comma (,)', value: ',' },
		{ name: 'Semicolon (;)', value: ';', description: 'What sheets exported in Europe often use' },
		{ name: 'Tab', value: '\t' },
		{ name: 'Pipe (|)', value: '|' },
	],
	default: ',',
	description: 'The character between the fields of a row',
};

/** The parameters shown with Read Rows From a CSV File: the notice, the binary field, the delimiter. */
export function csvFileProperties(fields: RowFields, rowIs: string, maxRows: number) {
	const shown = shownIn(MAPPING_MODE.csvFile);
	const notice: INodeProperties = {
		displayName: `Each row of the CSV file (UTF-8, a header row first) is one row (${rowIs}), its columns named as the API names them: ${fieldList(fields)}. Other columns are ignored. The whole file is checked before anything is sent, then sent in requests of at most ${maxRows}; each input item (each file) gives one output item: a summary, and a failedRows file listing the rows that failed.`,
		name: 'csvFileNotice',
		type: 'notice',
		default: '',
		displayOptions: shown,
	};
	const shownWithMode = (property: INodeProperties) => ({ ...property, displayOptions: shown });
	return [notice, shownWithMode(binaryPropertyNameProperty), shownWithMode(delimiterProperty)];
}

/** One input item's file: where it is, how it is read, and its columns once the header is read. */
interface CsvFile {
	item: number;
	field: string;
	binary: IBinaryData;
	delimiter: string;
}

/** The file of input item `item`, as its parameters name it (refused when it has none). */
function fileOf(ctx: IExecuteFunctions, item: number): CsvFile {
	const field = readRequiredText(ctx, binaryPropertyNameProperty, item);
	const delimiter = readOption(ctx, delimiterProperty, item);
	const binary = ctx.helpers.assertBinaryData(item, field);
	return { item, field, binary, delimiter };
}

/** How messages name a place in a file: `Line 12 of the CSV file in "data"`. */
const lineOf = (file: CsvFile, line: number) => `Line ${line} of the CSV file in "${file.field}"`;

function refuse(ctx: IExecuteFunctions, file: CsvFile, message: string, description?: string) {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex: file.item, description });
}

/** A stop of the execution ends the reading: the same message as a stop during a request. */
function stopped(ctx: IExecuteFunctions, file: CsvFile) {
	return ctx.getExecutionCancelSignal?.()?.aborted
		? refuse(ctx, file, 'The execution was stopped')
		: undefined;
}

/** The file's text, piece by piece, from n8n's binary data (on disk, or base64 in memory). */
async function* textOf(ctx: IExecuteFunctions, file: CsvFile): AsyncGenerator<string> {
	const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
	const decode = (bytes: Uint8Array, stream = true) => {
		try {
			return decoder.decode(bytes, { stream });
		} catch {
			throw refuse(
				ctx,
				file,
				`The CSV file in "${file.field}" is not UTF-8 text`,
				'Save or export the file as CSV UTF-8.',
			);
		}
	};
	const { id, data } = file.binary;
	if (id) {
		const stream = await ctx.helpers.getBinaryStream(id, PIECE_BYTES);
		for await (const piece of stream) yield decode(piece as Uint8Array);
	} else {
		for (let at = 0; at < data.length; at += BASE64_PIECE)
			yield decode(Buffer.from(data.slice(at, at + BASE64_PIECE), 'base64'));
	}
	yield decode(new Uint8Array(0), false);
}

/**
 * The file's rows, a piece at a time (the rows one piece of text completes), the event loop given
 * its turn between pieces; a stop ends it. A file the reader refuses is refused, naming the line.
 */
async function* rowsOf(ctx: IExecuteFunctions, file: CsvFile): AsyncGenerator<CsvRow[]> {
	const reader = new CsvReader(file.delimiter);
	const turns: Turns = eventLoopTurns();
	try {
		for await (const text of textOf(ctx, file)) {
			const rows: CsvRow[] = [];
			reader.push(text, rows);
			if (rows.length) yield rows;
			if (turns.due()) await turns.pause();
			const stop = stopped(ctx, file);
			if (stop) throw stop;
		}
		const rows: CsvRow[] = [];
		reader.end(rows);
		if (rows.length) yield rows;
	} catch (error) {
		if (!(error instanceof CsvProblem)) throw asNodeError(ctx, error, file.item);
		throw refuse(
			ctx,
			file,
			`${lineOf(file, error.line)} is not valid CSV: ${error.message}`,
			`Fields are separated by "${file.delimiter === '\t' ? 'tab' : file.delimiter}" (the Delimiter parameter), rows by line breaks; a field with the delimiter, a quote or a line break is in double quotes, a quote inside doubled (""). A field may hold ${MAX_CSV_FIELD_LENGTH} characters, a row ${MAX_CSV_ROW_LENGTH}.`,
		);
	}
}

/** The columns the operation reads, by the index of their column in the header. */
type Columns = Map<string, number>;

/** The header's columns of the operation's fields; a required one missing refuses the file. */
function columnsOf(ctx: IExecuteFunctions, batch: CsvBatch, file: CsvFile, header: CsvRow) {
	const columns: Columns = new Map();
	header.fields.forEach((name, index) => {
		const field = name.trim();
		const resembled = resembledField(field, batch.fields);
		if (resembled) {
			throw refuse(
				ctx,
				file,
				`${lineOf(file, header.line)}, the header, names a column "${field}": did you mean "${resembled}"?`,
				`Columns are named exactly as the API names them (case, "-" and "_" included): ${Object.keys(batch.fields).join(', ')}. A column named otherwise would be ignored.`,
			);
		}
		if (!(field in batch.fields)) return;
		if (columns.has(field)) {
			throw refuse(
				ctx,
				file,
				`${lineOf(file, header.line)}, the header, names the column "${field}" twice`,
			);
		}
		columns.set(field, index);
	});
	for (const [field, property] of Object.entries(batch.fields)) {
		if (!property.required || columns.has(field)) continue;
		throw refuse(
			ctx,
			file,
			`The CSV file in "${file.field}" has no column "${field}", which is required: its header (line ${header.line}) names ${header.fields.map((name) => `"${name}"`).join(', ')}`,
			`The first row of the file names the columns as the API names them: ${Object.keys(batch.fields).join(', ')}.`,
		);
	}
	return columns;
}

/**
 * A row's values as a source for the operation's readers: the cell of the column a reader asks
 * for; an empty cell is an empty value (a required one is refused by its reader, an optional one
 * is unset). A field whose parameter is a fixedCollection reads its cell as JSON.
 */
function rowSource(ctx: IExecuteFunctions, columns: Columns, fields: Record<string, InputField>) {
	let row: CsvRow = { line: 0, fields: [] };
	const node = ctx.getNode();
	const source: ParameterSource = {
		getNode: () => node,
		getNodeParameter: ((name: string, _item: number, fallback?: unknown) => {
			const index = columns.get(name);
			const cell = index === undefined ? '' : row.fields[index];
			const property = fields[name];
			if (cell === '') return property.required ? '' : fallback;
			return property.type === 'fixedCollection' ? groupOf(property, cell) : cell;
		}) as ParameterSource['getNodeParameter'],
	};
	return { source, at: (next: CsvRow) => (row = next) };
}

/** A fixedCollection's cell: its JSON in the collection's group (text that is no JSON as it is). */
function groupOf(property: INodeProperties, cell: string): unknown {
	const group = property.options?.[0]?.name ?? '';
	try {
		return { [group]: jsonParse(cell) };
	} catch {
		return cell;
	}
}

/** A file's rows, each read by the operation's readers, with its line. */
interface ReadRows {
	columns: Columns;
	header: CsvRow;
	read(row: CsvRow): IDataObject;
}

/** Reads the header, then gives each data row as the operation reads it (`each`). */
async function eachRow(
	ctx: IExecuteFunctions,
	batch: CsvBatch,
	file: CsvFile,
	each: (row: CsvRow, body: IDataObject) => void | Promise<void>,
) {
	const fields: Record<string, InputField> = {};
	for (const [field, property] of Object.entries(batch.fields))
		fields[field] = inputField(property, field, true);
	let reading: ReadRows | undefined;
	const turns = eventLoopTurns();
	for await (const rows of rowsOf(ctx, file)) {
		for (const row of rows) {
			// A turn within a piece too: reading a row may be slow (long fields, many columns).
			if (turns.due()) await turns.pause();
			if (!reading) {
				reading = readingOf(ctx, batch, file, row, fields);
				continue;
			}
			await each(row, reading.read(row));
		}
	}
	if (!reading)
		throw refuse(ctx, file, `The CSV file in "${file.field}" is empty: it has no header row`);
}

function readingOf(
	ctx: IExecuteFunctions,
	batch: CsvBatch,
	file: CsvFile,
	header: CsvRow,
	fields: Record<string, InputField>,
): ReadRows {
	const columns = columnsOf(ctx, batch, file, header);
	const { source, at } = rowSource(ctx, columns, fields);
	const width = header.fields.length;
	const read = (row: CsvRow) => {
		if (row.fields.length !== width) {
			throw refuse(
				ctx,
				file,
				`${lineOf(file, row.line)} has ${row.fields.length} fields, the header ${width}`,
				'Every row has as many fields as the header (an empty field is written as nothing between two delimiters); a field holding the delimiter is in double quotes.',
			);
		}
		at(row);
		try {
			return batch.read(source, fields, file.item);
		} catch (error) {
			throw asLineError(ctx, file, row.line, error);
		}
	};
	return { columns, header, read };
}

/** A reader's refusal, said of the line: `Line 12 of the CSV file in "data": The column "qty" …`. */
function asLineError(ctx: IExecuteFunctions, file: CsvFile, line: number, error: unknown) {
	const { message, description } = error as NodeOperationError;
	// The readers name the item ("Item 0 sets nothing"): in a file, it is the row.
	const said = message.replace(new RegExp(`^Item ${file.item} `), 'The row ');
	return refuse(ctx, file, `${lineOf(file, line)}: ${said}`, description ?? undefined);
}

/** A row whose key's hash an earlier row (`first`) had: the same key, or the same hash only. */
interface Suspect {
	first: number;
	line: number;
	key: string;
}

/** The suspects kept; a file with more repeated keys is refused for one of these. */
const SUSPECTS_KEPT = 1000;

/**
 * The first pass: every row read and checked, keys two rows share found (a hash per key; a hash
 * seen twice is confirmed by reading the first row's key again). Gives the number of rows.
 */
async function checkFile(ctx: IExecuteFunctions, batch: CsvBatch, file: CsvFile) {
	let hashes: KeyHashes | undefined = new KeyHashes();
	const suspects: Suspect[] = [];
	let count = 0;
	await eachRow(ctx, batch, file, (row, body) => {
		count++;
		const key = batch.keyText(body);
		const first = hashes!.add(keyHash(key), row.line);
		if (first !== undefined && suspects.length < SUSPECTS_KEPT)
			suspects.push({ first, line: row.line, key });
	});
	hashes = undefined;
	if (suspects.length) await confirmRepeats(ctx, batch, file, suspects);
	return count;
}

/**
 * The rows whose key hash an earlier row had: the file is refused when the keys are the same
 * (naming both lines of the earliest repeat), not when only the hashes are (a pass reads the
 * first rows' keys again).
 */
async function confirmRepeats(
	ctx: IExecuteFunctions,
	batch: CsvBatch,
	file: CsvFile,
	suspects: Suspect[],
) {
	const byFirst = new Map<number, Suspect[]>();
	for (const suspect of suspects)
		byFirst.set(suspect.first, [...(byFirst.get(suspect.first) ?? []), suspect]);
	let repeat: { suspect: Suspect; body: IDataObject } | undefined;
	await eachRow(ctx, batch, file, (row, body) => {
		const key = byFirst.has(row.line) ? batch.keyText(body) : undefined;
		for (const suspect of byFirst.get(row.line) ?? []) {
			if (suspect.key === key && (!repeat || suspect.line < repeat.suspect.line))
				repeat = { suspect, body };
		}
	});
	if (!repeat) return;
	const { suspect, body } = repeat;
	const names = batch.key.map(({ field }) => `"${field}"`).join(' and ');
	const values = batch.key.map(({ label, field }) => `${label} "${String(body[field])}"`);
	throw refuse(
		ctx,
		file,
		`${lineOf(file, suspect.line)} has the same ${names} as line ${suspect.first} (${values.join(', ')}): a file updates each row once`,
		'Keep one row per key (merge the two, or drop one), or update the row again in a later run: the node does not guess which value should win.',
	);
}

/** Each input item's file, checked whole (refused items: an error, or the run's, see runner.ts). */
export async function planCsvFiles(
	ctx: IExecuteFunctions,
	batch: CsvBatch,
	items: number[],
	refused: (error: unknown, item: number) => Planned,
): Promise<Planned[]> {
	const planned: Planned[] = [];
	for (const item of items) {
		try {
			const file = fileOf(ctx, item);
			const rows = await checkFile(ctx, batch, file);
			planned.push({
				item,
				sequential: true,
				send: async (concurrency) => await sendFile(ctx, batch, file, rows, concurrency),
			});
		} catch (error) {
			planned.push(refused(error, item));
		}
	}
	return planned;
}

/** What sending a file met: its counts and failures. */
interface Sending {
	requests: number;
	sent: number;
	applied: number;
	failures: Failures;
	inFlight: Set<Promise<void>>;
}

/** Sends one request of rows and counts what came of each. */
async function sendRequest(batch: CsvBatch, file: CsvFile, rows: SentRow[], sending: Sending) {
	sending.requests++;
	sending.sent += rows.length;
	let outcomes: RowOutcome[];
	try {
		outcomes = await batch.send(rows, file.item);
	} catch (error) {
		// A request that failed as a whole: each of its rows failed with it.
		const request = `lines ${rows[0].line} to ${rows[rows.length - 1].line}`;
		outcomes = rows.map(({ line }) => ({ line, error: error as Error, request }));
	}
	const byLine = new Map(rows.map((row) => [row.line, row.body]));
	for (const outcome of outcomes) {
		if (outcome.error) sending.failures.add(outcome, byLine.get(outcome.line) ?? {});
		else sending.applied++;
	}
}

/**
 * The second pass: rows packed into requests, sent with at most `concurrency()` in flight (the
 * reading waits for a place); a stop ends it at once, a failed row does not.
 */
async function sendFile(
	ctx: IExecuteFunctions,
	batch: CsvBatch,
	file: CsvFile,
	rowsRead: number,
	concurrency: () => number,
): Promise<TaskOutput> {
	const sending: Sending = {
		requests: 0,
		sent: 0,
		applied: 0,
		failures: new Failures(batch.key, file.delimiter),
		inFlight: new Set(),
	};
	let chunk: SentRow[] = [];
	let path: string | undefined;
	const flush = async () => {
		if (!chunk.length) return;
		const rows = chunk;
		chunk = [];
		while (sending.inFlight.size >= Math.max(1, concurrency()))
			await Promise.race(sending.inFlight);
		const request = sendRequest(batch, file, rows, sending).finally(() =>
			sending.inFlight.delete(request),
		);
		sending.inFlight.add(request);
	};
	try {
		await eachRow(ctx, batch, file, async (row, body) => {
			const rowPath = batch.pathOf?.(body);
			if (chunk.length >= batch.maxRows || (chunk.length && rowPath !== path)) await flush();
			path = rowPath;
			chunk.push({ body, line: row.line });
		});
		await flush();
	} finally {
		await Promise.all(sending.inFlight);
	}
	const stop = stopped(ctx, file);
	if (stop) throw stop;
	return outputOf(ctx, file, rowsRead, sending);
}

/** The file's output item: the summary, the failedRows file; rows that failed are its error. */
async function outputOf(
	ctx: IExecuteFunctions,
	file: CsvFile,
	rowsRead: number,
	sending: Sending,
): Promise<TaskOutput> {
	const { failures } = sending;
	const json: IDataObject = {
		fileName: file.binary.fileName ?? null,
		rowsRead,
		rowsSent: sending.sent,
		requests: sending.requests,
		rowsApplied: sending.applied,
		rowsFailed: failures.count,
		failures: failures.shown,
	};
	if (!failures.count) return { json };
	const error = failedRowsError(ctx, file, failures);
	if (!ctx.continueOnFail()) throw error;
	json.error = error.message;
	const binary = await ctx.helpers.prepareBinaryData(failures.file(), 'failedRows.csv', 'text/csv');
	return { json, binary: { failedRows: binary } };
}

/** The error of a file some of whose rows failed: how many, and the first. */
function failedRowsError(ctx: IExecuteFunctions, file: CsvFile, failures: Failures) {
	// The first failure's message names its line, its key and the service's status_code.
	const first = failures.shown[0] as IDataObject;
	const message = `${failures.count} ${failures.count === 1 ? 'row' : 'rows'} of the CSV file in "${file.field}" failed; the first: ${String(first.message)}`;
	return new NodeApiError(ctx.getNode(), { message } as JsonObject, {
		message,
		description: `Every other row was sent and applied. With Continue On Fail on, the output item lists the first ${FAILURES_SHOWN} failures and a failedRows file lists the rows that failed (line, key, reason), to correct and send again.`,
		itemIndex: file.item,
	});
}
