/**
 * A batch endpoint (stock, prices): one row per input item, read from the item's parameters, so
 * that a sheet of 20,000 SKUs is one node run.
 * - Every row is read and checked before anything is sent (a refused item: runner.ts).
 * - Rows are packed in input order into requests of at most `maxRows` (the reference states no
 *   cap for these endpoints: the package picks a conservative one and says so).
 * - Each answer row is matched back to its row by its key (e.g. warehouse + SKU). A row the
 *   service answers with a failure status is its item's error; a row the answer leaves out is an
 *   error too, never a silent success (unless the declaration says what else it means:
 *   `leftOutMeans`); an answer row that matches no row sent is ignored and counted. A request
 *   that fails as a whole gives each of its items its error.
 * - An answer may list several rows per key and no row status (`grouped`: a customer return
 *   order, one row per returned item): the item's output gathers every row of its key; where a
 *   key with no row is a valid answer (an order with no return yet), `leftOutMeans: 'noRows'`.
 * - Two items with the same key in one run: a read sends the row once and gives both items its
 *   answer (`repeatedKey: 'share'`); a write refuses the later item, naming both
 *   (`repeatedKey: 'refuse'`): which value should win is not the node's to guess, and rows of one
 *   run go in requests that may run at the same time.
 * The run's hints say how many rows went in how many requests, and how many the service refused
 * or left out.
 *
 * How an item becomes its row is the user's choice (`mappingMode`, n8n's own convention): Map Each
 * Field Below (`defineBelow`, the default and what saved workflows have) reads the parameters,
 * mapped by hand or by expressions; Map Automatically (`autoMapInputData`) reads the input item's
 * own fields, named as the API names them (`fields`' keys), under the same rules and messages,
 * which then name the field. Other fields of the item (a sheet's other columns) are ignored.
 * Long loops (reading the rows) give the event loop its turn (common/turns.ts): a run of 100,000
 * rows does not hold n8n's webhooks, editor or health checks.
 *
 * Endpoints whose path names what the rows belong to (an FBN ASN's items) say so with `pathOf`:
 * rows of different paths never share a request. Where the answer speaks of the request as a
 * whole rather than row by row (the ASN after the change), `wholeAnswer` makes each row's output
 * from it: a request that succeeds succeeds for each of its rows.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	NodeExecutionHint,
} from 'n8n-workflow';

import {
	apiRequest,
	eventLoopTurns,
	quoted,
	redactValue,
	sessionSecrets,
	type Endpoint,
	type InputField,
	type Turns,
} from '../../../shared';
import { invalidParameter, readOption, type ParameterSource } from '../parameters';
import {
	asNodeError,
	throwUnlessContinueOnFail,
	type ItemOutcome,
	type Operation,
	type Planned,
} from '../runner';
import { answerError, failureCode, failureOf } from './answerStatus';
import { describe, type Declaration } from './declaration';
import { fieldExpressionSource } from './fieldExpressions';
import { csvFileProperties, planCsvFiles, type CsvBatch } from './csvFile';
import {
	inputFields,
	MAPPING_MODE,
	mappingModeOf,
	mappingProperties,
	type RowFields,
} from './mapping';

/** One field of a row's key, and how messages name it. */
export interface KeyField {
	field: string;
	label: string;
	/** The parameter it is read from, as the editor shows it. */
	parameter: string;
	/** Compared without regard to case (a country code the service may answer as "AE"). */
	anyCase?: boolean;
}

export interface BatchDeclaration<F extends RowFields = RowFields> extends Omit<
	Declaration,
	'properties'
> {
	/**
	 * The row's fields by the API's names (`qty`), each with the parameter that gives it under Map
	 * Each Field Below, in the order the node shows them; under Map Automatically, the input
	 * item's field of that name, under that parameter's rules.
	 */
	fields: F;
	endpoint: Endpoint;
	/** The most rows one request carries. */
	maxRows: number;
	/** What one row is, for the notice above the parameters ("a warehouse and a SKU"). */
	rowIs: string;
	/** The fields that name a row, in the order messages give them. */
	key: KeyField[];
	/** Two items with one key: one row answers both (reads), or the later is refused (writes). */
	repeatedKey: 'share' | 'refuse';
	/**
	 * Reads and checks an item's row (the body's entry) from `source` with `fields` (the
	 * parameters, or the input item's fields: see `fields`); throws, naming the one read, to refuse.
	 */
	row(source: ParameterSource, fields: F, itemIndex: number): IDataObject;
	/** What a user can do about a row the answer left out (the error's description). */
	leftOutAdvice: string;
	/**
	 * An item's output from its answer row (as the service gave it, its status OK) and the row
	 * sent; default: a copy of the answer row without its status.
	 */
	output?(answer: IDataObject, sent: IDataObject): IDataObject;
	/** The path values of a row's request (from the row read); default: the endpoint's one path. */
	pathOf?(row: IDataObject): Record<string, string>;
	/** A request's body from its rows; default `{ items: rows }`. */
	bodyOf?(rows: IDataObject[]): IDataObject;
	/** An answer about the request as a whole: each row's output from it and the row sent. */
	wholeAnswer?(answer: IDataObject, sent: IDataObject): IDataObject;
	/**
	 * For an answer that lists any number of rows per key and gives them no row status (a
	 * customer return order: one row per returned item, its `status` the return's own): the
	 * item's output from every answer row of its key. No row of its key is a row left out.
	 */
	grouped?(answers: IDataObject[], sent: IDataObject): IDataObject;
	/**
	 * What a row the answer leaves out means: `error` (default), its item's error; `noRows`, for
	 * a `grouped` answer only, a key that simply has no rows: the item's output is
	 * `grouped([], sent)` (a customer return order with no return yet).
	 */
	leftOutMeans?: 'error' | 'noRows';
}

/**
 * A row to send and the input item it answers (`shared`: more items, for a read whose key they
 * repeat). Rows are found by key in `KeyIndex` maps: 100,000 rows keep no key text.
 */
interface Row {
	body: IDataObject;
	item: number;
	shared?: number[];
}

/** The input items a chunk of rows answers, in order. */
function itemsOf(chunk: Row[]): number[] {
	const items: number[] = [];
	for (const row of chunk) {
		items.push(row.item);
		if (row.shared) items.push(...row.shared);
	}
	return items;
}

/** Rows by key: one map level per key field, the row at the last; no key text is built. */
type KeyIndex = Map<string, KeyIndex | Row>;

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

const keyText = (value: unknown) =>
	typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/** One key field's text in a row (sent or answered). */
function keyPart({ field, anyCase }: KeyField, row: IDataObject): string {
	const text = keyText(row[field]);
	return anyCase ? text.toLowerCase() : text;
}

/** The row `index` holds under `row`'s key; with `add`, the row made when there is none. */
function rowAt(
	index: KeyIndex,
	fields: KeyField[],
	row: IDataObject,
	add?: () => Row,
): Row | undefined {
	let level = index;
	for (let at = 0; at < fields.length - 1; at++) {
		const part = keyPart(fields[at], row);
		let next = level.get(part) as KeyIndex | undefined;
		if (!next) {
			if (!add) return undefined;
			level.set(part, (next = new Map()));
		}
		level = next;
	}
	const last = keyPart(fields[fields.length - 1], row);
	const found = level.get(last) as Row | undefined;
	if (!found && add) level.set(last, add());
	return found;
}

/** A row as messages name it: `warehouse "WH-1", SKU "A-1"`. */
export function describeRow(fields: KeyField[], row: IDataObject): string {
	return fields.map(({ field, label }) => `${label} ${quoted(keyText(row[field]))}`).join(', ');
}

/** Where a run reads its rows: the parameters, or the input items' fields (as `mappingMode` says). */
interface RowReading {
	source: ParameterSource;
	fields: RowFields;
}

/**
 * The input items' fields as a source of values: the field the reader asks for (a parameter's
 * name is its field's under Map Automatically), never n8n's `getNodeParameter`. A required field
 * the item lacks is refused, naming it (never its parameter's default).
 */
function itemFields(ctx: IExecuteFunctions, fields: Record<string, InputField>): ParameterSource {
	const node = ctx.getNode();
	const items = ctx.getInputData();
	const names = Object.keys(fields);
	const source: ParameterSource = {
		getNode: () => node,
		getNodeParameter: ((name: string, itemIndex: number, fallback?: unknown) => {
			const { json } = items[itemIndex];
			const value = Object.prototype.hasOwnProperty.call(json, name) ? json[name] : undefined;
			const property = fields[name];
			if (value !== undefined) return asParameter(property, value);
			if (!property.required) return fallback;
			throw invalidParameter(
				source,
				itemIndex,
				`Item ${itemIndex} has no field "${name}"`,
				`Map Automatically reads each row from the input item's fields ${names.join(', ')}: add the field (a column of that name), or choose Map Each Field Below.`,
			);
		}) as ParameterSource['getNodeParameter'],
	};
	return source;
}

/** An item's field as its parameter would hold it: a fixedCollection's fields are in its group. */
function asParameter(property: INodeProperties, value: unknown): unknown {
	const group = property.type === 'fixedCollection' ? property.options?.[0]?.name : undefined;
	return group === undefined ? value : { [group]: value };
}

/**
 * A turn of the event loop while the rows are read; a stop of the execution ends the reading
 * there (100,000 rows by expressions take seconds: nothing would be sent, but n8n waited for them).
 */
async function pauseUnlessStopped(ctx: IExecuteFunctions, turns: Turns, item: number) {
	await turns.pause();
	// The same message as a stop during a request (the shared layer's).
	if (ctx.getExecutionCancelSignal?.()?.aborted)
		throw invalidParameter(ctx, item, 'The execution was stopped');
}

/** Reads every item's row; refused items aside, repeated keys shared or refused. */
async function readRows(
	ctx: IExecuteFunctions,
	declaration: BatchDeclaration,
	readingOf: (item: number) => RowReading | undefined,
	itemCount: number,
) {
	const rows: Row[] = [];
	const refused: Planned[] = [];
	const byKey: KeyIndex = new Map();
	const turns = eventLoopTurns();
	// One function for every row (no closure per row): it adds the row being read.
	let body: IDataObject = {};
	let item = 0;
	const add = (): Row => rows[rows.push({ body, item }) - 1];
	for (; item < itemCount; item++) {
		if (turns.due()) await pauseUnlessStopped(ctx, turns, item);
		try {
			const reading = readingOf(item);
			if (!reading) continue;
			const { source, fields } = reading;
			body = declaration.row(source, fields, item);
			const first = rowAt(byKey, declaration.key, body, add);
			if (!first) continue;
			if (declaration.repeatedKey === 'share') (first.shared ??= []).push(item);
			else throw repeatedRow(ctx, declaration, item, first);
		} catch (error) {
			refused.push(throwUnlessContinueOnFail(ctx, error, item));
		}
	}
	return { rows, refused };
}

const parameters = (fields: KeyField[]) =>
	fields.map(({ parameter }) => `"${parameter}"`).join(' and ');

function repeatedRow(
	ctx: IExecuteFunctions,
	declaration: BatchDeclaration,
	item: number,
	first: Row,
) {
	return invalidParameter(
		ctx,
		item,
		`Item ${item} has the same ${parameters(declaration.key)} as item ${first.item} (${describeRow(declaration.key, first.body)}): a run updates each row once`,
		'Keep one item per row (merge the two, or drop one), or update the row again in a later run: the node does not guess which value should win.',
	);
}

/** What the run's requests met, for its hints. */
interface Tally {
	requestsLeft: number;
	requests: number;
	rows: number;
	refusedBefore: number;
	failed: number;
	leftOut: number;
	/** Rows the answers gave more than once (not `grouped`): each is its item's error. */
	repeated: number;
	unmatched: number;
	/** The run's session cookies: a row's failure status must not show them, should it echo one. */
	secrets: string[];
	/** What a row's `item` is: an input item, or a CSV file's line (csvFile.ts). */
	unit: 'item' | 'line';
}

/** A row as messages name it: `item 3 (warehouse "WH-1", SKU "A-1")`, or `line 3 (…)`. */
const rowNamed = (declaration: BatchDeclaration, tally: Tally, row: Row, item: number) =>
	`${tally.unit} ${item} (${describeRow(declaration.key, row.body)})`;

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The run's hints, once its last request is done (n8n before 1.79 has none). */
function addBatchHints(ctx: IExecuteFunctions, declaration: BatchDeclaration, tally: Tally) {
	if (typeof ctx.addExecutionHints !== 'function') return;
	const hint = (type: 'info' | 'warning', message: string): NodeExecutionHint => ({
		type,
		message,
		location: 'outputPane',
	});
	const refusedBefore = tally.refusedBefore
		? `; ${count(tally.refusedBefore, 'item was', 'items were')} refused before sending`
		: '';
	const hints = [
		hint(
			'info',
			`Sent ${count(tally.rows, 'row')} in ${count(tally.requests, 'request')} of at most ${declaration.maxRows} rows each${refusedBefore}`,
		),
	];
	if (tally.failed || tally.leftOut || tally.repeated) {
		const repeated = tally.repeated
			? ` and answered ${count(tally.repeated, 'row')} more than once`
			: '';
		hints.push(
			hint(
				'warning',
				`The service refused ${count(tally.failed, 'row')} (a failure status) and left ${count(tally.leftOut, 'row')} out of its answers${repeated}; each is its item's error`,
			),
		);
	}
	if (tally.unmatched) {
		hints.push(
			hint(
				'info',
				`${count(tally.unmatched, 'row')} of the service's answers matched no row sent and ${tally.unmatched === 1 ? 'was' : 'were'} ignored`,
			),
		);
	}
	ctx.addExecutionHints(...hints);
}

/** A row's error: the service's words, the item and the row named. */
const rowError = answerError;

/** The outcome of an item whose row the answer left out: its error. */
function leftOut(
	ctx: IExecuteFunctions,
	declaration: BatchDeclaration,
	row: Row,
	item: number,
	tally: Tally,
): ItemOutcome {
	tally.leftOut++;
	const named = rowNamed(declaration, tally, row, item);
	const message = `The service's answer left out the row of ${named}`;
	const description = declaration.leftOutAdvice;
	return { item, error: rowError(ctx, declaration.endpoint, item, message, { description }) };
}

/**
 * The outcome of an item whose row the answer gave more than once: its error, whatever each
 * answer said (the first is no more true than the last: a refusal must not pass as a success).
 */
function answeredTwice(
	ctx: IExecuteFunctions,
	declaration: BatchDeclaration,
	row: Row,
	item: number,
	tally: Tally,
): ItemOutcome {
	tally.repeated++;
	const named = rowNamed(declaration, tally, row, item);
	const message = `The service's answer gave the row of ${named} more than once: which of its answers holds is unknown`;
	const description = declaration.leftOutAdvice;
	return { item, error: rowError(ctx, declaration.endpoint, item, message, { description }) };
}

/** One item's outcome from its answer row (or from its absence). */
function outcomeOf(
	ctx: IExecuteFunctions,
	declaration: BatchDeclaration,
	row: Row,
	item: number,
	answer: IDataObject | undefined,
	tally: Tally,
): ItemOutcome {
	if (!answer) return leftOut(ctx, declaration, row, item, tally);
	const failure = failureOf(answer.status, tally.secrets);
	if (failure) {
		tally.failed++;
		const named = rowNamed(declaration, tally, row, item);
		const said = failure.message || 'no reason given';
		const code = failureCode(failure);
		const message = `The service refused the row of ${named}: ${said}${code ? ` (${code})` : ''}`;
		const details = redactValue(failure.details, tally.secrets);
		return {
			item,
			error: rowError(ctx, declaration.endpoint, item, message, {
				description: 'The other rows are not affected; correct this one and run it again.',
				code: failure.code,
				id: failure.id,
				details,
			}),
		};
	}
	if (declaration.output) return { item, output: { json: declaration.output(answer, row.body) } };
	// The status is left out: it is OK (a row that failed is its item's error), and 100,000 outputs
	// need not carry it. A new object per item: items sharing one row never share their JSON.
	const json: IDataObject = {};
	for (const field in answer) if (field !== 'status') json[field] = answer[field];
	return { item, output: { json } };
}

/** Matches an answer's rows back to the rows sent, by key: one outcome per item. */
function matchAnswer(
	ctx: IExecuteFunctions,
	declaration: BatchDeclaration,
	chunk: Row[],
	answer: IDataObject,
	tally: Tally,
): ItemOutcome[] {
	// A gRPC gateway leaves an empty list out: no rows at all, where a left-out row means none.
	const rows =
		answer.items === undefined && declaration.leftOutMeans === 'noRows' ? [] : answer.items;
	if (!Array.isArray(rows)) {
		throw rowError(
			ctx,
			declaration.endpoint,
			chunk[0].item,
			"The service's answer has no list of rows (items): none of its rows can be matched",
			{ description: declaration.leftOutAdvice },
		);
	}
	const index = indexOf(declaration, chunk);
	const { grouped } = declaration;
	// Per row sent: its answer row (`grouped`: every answer row of its key).
	const answers = new Map<Row, IDataObject | IDataObject[]>();
	// Rows answered more than once (not `grouped`): their items' errors.
	const repeated = new Set<Row>();
	for (const entry of rows as unknown[]) {
		const row = isObject(entry) ? rowAt(index, declaration.key, entry) : undefined;
		const found = row && answers.get(row);
		if (!row) tally.unmatched++;
		else if (found && !grouped) repeated.add(row);
		else if (found) (found as IDataObject[]).push(entry as IDataObject);
		else answers.set(row, grouped ? [entry as IDataObject] : (entry as IDataObject));
	}
	const outcomes: ItemOutcome[] = [];
	const outcome = (row: Row, item: number) => {
		if (repeated.has(row)) return answeredTwice(ctx, declaration, row, item, tally);
		const found = answers.get(row);
		return grouped
			? groupedOutcome(ctx, declaration, grouped, row, item, found as IDataObject[], tally)
			: outcomeOf(ctx, declaration, row, item, found as IDataObject | undefined, tally);
	};
	for (const row of chunk) {
		outcomes.push(outcome(row, row.item));
		if (row.shared) for (const item of row.shared) outcomes.push(outcome(row, item));
	}
	return outcomes;
}

/** A chunk's rows by key (one function adds them all: no closure per row). */
function indexOf(declaration: BatchDeclaration, chunk: Row[]): KeyIndex {
	const index: KeyIndex = new Map();
	let adding = chunk[0];
	const add = () => adding;
	for (adding of chunk) rowAt(index, declaration.key, adding.body, add);
	return index;
}

/** One item's outcome from every answer row of its key (none: as `leftOutMeans` says). */
function groupedOutcome(
	ctx: IExecuteFunctions,
	declaration: BatchDeclaration,
	grouped: NonNullable<BatchDeclaration['grouped']>,
	row: Row,
	item: number,
	found: IDataObject[] | undefined,
	tally: Tally,
): ItemOutcome {
	if (!found && declaration.leftOutMeans !== 'noRows')
		return leftOut(ctx, declaration, row, item, tally);
	// A new object per item: items sharing one row never share their JSON.
	const answers = (found ?? []).map((entry) => ({ ...entry }));
	return { item, output: { json: grouped(answers, row.body) } };
}

/** The rows in requests: of at most `maxRows`, rows of one path together, in input order. */
function chunksOf(declaration: BatchDeclaration, rows: Row[]): Row[][] {
	const { pathOf, maxRows } = declaration;
	const byPath = new Map<string, Row[]>();
	if (!pathOf) byPath.set('', rows);
	else {
		for (const row of rows) {
			const path = JSON.stringify(pathOf(row.body));
			const group = byPath.get(path) ?? [];
			group.push(row);
			byPath.set(path, group);
		}
	}
	const chunks: Row[][] = [];
	for (const group of byPath.values()) {
		for (let from = 0; from < group.length; from += maxRows)
			chunks.push(group.slice(from, from + maxRows));
	}
	return chunks;
}

/** Each item's outcome of an answer: matched row by row, or each from the whole answer. */
function outcomesOf(
	ctx: IExecuteFunctions,
	declaration: BatchDeclaration,
	chunk: Row[],
	answer: IDataObject,
	tally: Tally,
): ItemOutcome[] {
	const { wholeAnswer } = declaration;
	if (!wholeAnswer) return matchAnswer(ctx, declaration, chunk, answer, tally);
	const outcomes: ItemOutcome[] = [];
	for (const row of chunk) {
		outcomes.push({ item: row.item, output: { json: wholeAnswer(answer, row.body) } });
		for (const item of row.shared ?? [])
			outcomes.push({ item, output: { json: wholeAnswer(answer, row.body) } });
	}
	return outcomes;
}

/** Each item's `mappingMode`: read once (from item 0) when set; per item when an expression gives it. */
function modesOf(ctx: IExecuteFunctions, mode: INodeProperties): (item: number) => string {
	const readingOf = (item: number) => readOption(ctx, mode, item);
	const saved = ctx.getNode().parameters[mode.name];
	if (typeof saved === 'string' && saved.startsWith('=')) return readingOf;
	const once = readingOf(0);
	return () => once;
}

/**
 * Where each item's row is read, as its `mappingMode` says (each item read as its own mode says,
 * or refused); none for an item whose rows come from a CSV file (csvFile.ts).
 */
function rowReadings(
	ctx: IExecuteFunctions,
	declaration: BatchDeclaration,
	mapped: Record<string, InputField>,
	modeOf: (item: number) => string,
): (item: number) => RowReading | undefined {
	const auto: RowReading = { source: itemFields(ctx, mapped), fields: mapped };
	const below: RowReading = {
		source: fieldExpressionSource(ctx, declaration.fields),
		fields: declaration.fields,
	};
	const readings: Record<string, RowReading | undefined> = {
		[MAPPING_MODE.autoMapInputData]: auto,
		[MAPPING_MODE.defineBelow]: below,
	};
	return (item: number) => readings[modeOf(item)];
}

/** Sends one chunk of rows in one request: each item's outcome, matched from the answer. */
async function sendChunk(
	ctx: IExecuteFunctions,
	declaration: BatchDeclaration,
	chunk: Row[],
	itemIndex: number,
	tally: Tally,
): Promise<ItemOutcome[]> {
	const { endpoint, pathOf, bodyOf } = declaration;
	tally.requests++;
	tally.rows += chunk.length;
	const sent = chunk.map((row) => row.body);
	const body = bodyOf ? bodyOf(sent) : { items: sent };
	const pathParams = pathOf?.(chunk[0].body);
	const answer = await apiRequest.call(ctx, endpoint, { pathParams, body, itemIndex });
	for (const secret of await sessionSecrets(ctx, itemIndex))
		if (!tally.secrets.includes(secret)) tally.secrets.push(secret);
	return outcomesOf(ctx, declaration, chunk, answer, tally);
}

/** Each chunk of rows as a task: one request, each of its items its own outcome. */
function tasksOf(
	ctx: IExecuteFunctions,
	declaration: BatchDeclaration,
	chunks: Row[][],
	tally: Tally,
): Planned[] {
	return chunks.map((chunk) => {
		const items = itemsOf(chunk);
		const send = async () => {
			try {
				return { outcomes: await sendChunk(ctx, declaration, chunk, items[0], tally) };
			} catch (error) {
				throw asNodeError(ctx, error, items[0]);
			} finally {
				if (--tally.requestsLeft === 0) addBatchHints(ctx, declaration, tally);
			}
		};
		return { items, eachItem: true, send };
	});
}

const newTally = (requests: number, refusedBefore: number, unit: Tally['unit']): Tally => ({
	requestsLeft: requests,
	requests: 0,
	rows: 0,
	refusedBefore,
	failed: 0,
	leftOut: 0,
	repeated: 0,
	unmatched: 0,
	secrets: [],
	unit,
});

/** The operation as Read Rows From a CSV File reads, keys and sends its rows (csvFile.ts). */
function csvBatchOf(ctx: IExecuteFunctions, declaration: BatchDeclaration): CsvBatch {
	const { pathOf, key } = declaration;
	return {
		fields: declaration.fields,
		key,
		keyText: (row) => key.map((field) => keyPart(field, row)).join('\u0000'),
		read: declaration.row,
		maxRows: declaration.maxRows,
		pathOf: pathOf && ((row) => JSON.stringify(pathOf(row))),
		async send(rows, item) {
			// A row's `item` is its line: messages name the line, outcomes give it back.
			const chunk: Row[] = rows.map(({ body, line }) => ({ body, item: line }));
			const outcomes = await sendChunk(ctx, declaration, chunk, item, newTally(1, 0, 'line'));
			return outcomes.map(({ item: line, error }) => ({ line, error }));
		},
	};
}

/** The items whose `mappingMode` is Read Rows From a CSV File (an item whose mode is refused: not). */
function csvItemsOf(modeOf: (item: number) => string, itemCount: number): number[] {
	const items: number[] = [];
	for (let item = 0; item < itemCount; item++) {
		try {
			if (modeOf(item) === MAPPING_MODE.csvFile) items.push(item);
		} catch {
			// readRows refuses the item, naming the parameter.
		}
	}
	return items;
}

export function batchOperation<F extends RowFields>(declaration: BatchDeclaration<F>): Operation {
	const mapped = inputFields(declaration.fields);
	// Read Rows From a CSV File: for the writes (a read's answers are its output, one per row).
	const csvFile = declaration.repeatedKey === 'refuse';
	const mode = mappingModeOf(csvFile);
	const csvProperties = csvFile
		? csvFileProperties(declaration.fields, declaration.rowIs, declaration.maxRows)
		: [];
	return {
		description: describe({
			...declaration,
			properties: mappingProperties(declaration.fields, declaration, mode, csvProperties),
		}),
		async plan(this: IExecuteFunctions, itemCount: number): Promise<Planned[]> {
			if (itemCount === 0) return [];
			const modeOf = modesOf(this, mode);
			const csvItems = csvFile ? csvItemsOf(modeOf, itemCount) : [];
			const refuse = (error: unknown, item: number) => throwUnlessContinueOnFail(this, error, item);
			const batch = csvBatchOf(this, declaration as BatchDeclaration);
			const files = csvItems.length ? await planCsvFiles(this, batch, csvItems, refuse) : [];
			if (csvItems.length === itemCount) return files;
			const readingOf = rowReadings(this, declaration, mapped, modeOf);
			const { rows, refused } = await readRows(this, declaration, readingOf, itemCount);
			const chunks = chunksOf(declaration, rows);
			const tally = newTally(chunks.length, refused.length, 'item');
			return [...files, ...refused, ...tasksOf(this, declaration, chunks, tally)];
		},
	};
}
