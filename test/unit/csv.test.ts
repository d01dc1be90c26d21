/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The streaming CSV reader of Read Rows From a CSV File (shapes/csv.ts): any table of texts
 * written as RFC 4180 CSV (quotes, delimiters, CR, LF, CRLF, a BOM) reads back the same, whatever
 * the pieces the text arrives in; lines are what an editor shows; what is not CSV is refused,
 * naming the line. And the key hashes of csvKeys.ts: every key seen before is found, at its line.
 */
import fc from 'fast-check';

import {
	CsvProblem,
	CsvReader,
	MAX_CSV_FIELD_LENGTH,
	MAX_CSV_ROW_LENGTH,
	type CsvRow,
} from '../../dist/nodes/SellerPlatform/actions/shapes/csv';
import { csvField } from '../../dist/nodes/SellerPlatform/actions/shapes/csvFailures';
import { KeyHashes, keyHash } from '../../dist/nodes/SellerPlatform/actions/shapes/csvKeys';

/** Reads `text` cut at `cuts` (positions), as a stream gives it. */
function read(text: string, cuts: number[] = [], delimiter = ','): CsvRow[] {
	const reader = new CsvReader(delimiter);
	const rows: CsvRow[] = [];
	let from = 0;
	for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
		reader.push(text.slice(from, cut), rows);
		from = cut;
	}
	reader.push(text.slice(from), rows);
	reader.end(rows);
	return rows;
}

const fields = (rows: CsvRow[]) => rows.map((row) => row.fields);

/** A problem's message and line, or undefined when the text reads. */
function problemOf(text: string): [string, number] | undefined {
	try {
		read(text);
		return undefined;
	} catch (error) {
		if (!(error instanceof CsvProblem)) throw error;
		return [error.message, error.line];
	}
}

const cell = fc.oneof(
	fc.string({ unit: fc.constantFrom('a', 'b', ' ', ',', ';', '"', '\r', '\n', '\t', 'é', '😀') }),
	fc.string(),
);
/** Rows of one width, each with a field that is not empty (a row of empty fields is an empty line). */
const table = fc
	.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 8 }))
	.chain(([width, height]) =>
		fc.array(fc.array(cell, { minLength: width, maxLength: width }), {
			minLength: height,
			maxLength: height,
		}),
	)
	.filter((rows) => rows.every((row) => row.some((value) => value !== '')));

describe('CsvReader', () => {
	it('reads back any table written as CSV, with any line breaks, a BOM or not, in any pieces', () => {
		fc.assert(
			fc.property(
				table,
				fc.constantFrom('\n', '\r\n', '\r'),
				fc.constantFrom(',', ';', '\t'),
				fc.boolean(),
				fc.boolean(),
				fc.array(fc.nat(), { maxLength: 20 }),
				(rows, eol, delimiter, bom, lastBreak, cutsAt) => {
					const body = rows
						.map((row) => row.map((value) => csvField(value, delimiter)).join(delimiter))
						.join(eol);
					const text = `${bom ? '\uFEFF' : ''}${body}${lastBreak ? eol : ''}`;
					const cuts = cutsAt.map((at) => at % (text.length + 1));
					const got = read(text, cuts, delimiter);
					expect(fields(got)).toEqual(rows);
					// Each row starts on the line an editor shows (line breaks in quotes count).
					let line = 1;
					rows.forEach((row, index) => {
						expect(got[index].line).toBe(line);
						const breaks = row
							.map((value) => value.match(/\r\n|\r|\n/g)?.length ?? 0)
							.reduce((a, b) => a + b, 0);
						line += breaks + 1;
					});
				},
			),
			{ seed: 44, numRuns: 2000 },
		);
	});

	it('skips empty lines and rows of empty fields, and counts their lines', () => {
		const rows = read('a,b\n\n1,2\r\n,\r\n\r\n"x\ny",3\n');
		expect(rows).toEqual([
			{ line: 1, fields: ['a', 'b'] },
			{ line: 3, fields: ['1', '2'] },
			{ line: 6, fields: ['x\ny', '3'] },
		]);
	});

	it('keeps a quote inside an unquoted field as text, and a doubled quote in quotes as one', () => {
		expect(fields(read('5" screen,"say ""hi"""'))).toEqual([['5" screen', 'say "hi"']]);
	});

	it('refuses a file that ends inside quotes, naming the line the field starts on', () => {
		expect(problemOf('a,b\n1,"open\nstill open')).toEqual([
			'the file ends inside a quoted field that starts on line 2: a closing quote is missing',
			2,
		]);
	});

	it('refuses a character after a closing quote', () => {
		expect(problemOf('a,b\n"x"y,2')?.[1]).toBe(2);
		expect(problemOf('a,b\n"x"y,2')?.[0]).toMatch(/^a character after the closing quote/);
	});

	it(`refuses a field over ${MAX_CSV_FIELD_LENGTH} characters and a row over ${MAX_CSV_ROW_LENGTH}`, () => {
		const long = 'x'.repeat(MAX_CSV_FIELD_LENGTH);
		expect(problemOf(`a\n${long}\n`)).toBeUndefined();
		expect(problemOf(`a\n\n${long}x\n`)).toEqual([
			`a field longer than ${MAX_CSV_FIELD_LENGTH} characters (the longest a field may be)`,
			3,
		]);
		const wide = Array.from({ length: MAX_CSV_ROW_LENGTH / MAX_CSV_FIELD_LENGTH + 1 }, () => long);
		expect(problemOf(`a\n${wide.join(',')}\n`)?.[0]).toBe(
			`a row longer than ${MAX_CSV_ROW_LENGTH} characters, its delimiters included (the longest a row may be)`,
		);
	});

	it('refuses a row of millions of bare delimiters by the row limit, never holding its empty fields', () => {
		// A line of commas has no field text: only counting each delimiter stops it.
		const reader = new CsvReader(',');
		const rows: CsvRow[] = [];
		const piece = ','.repeat(64 * 1024);
		let refused: unknown;
		try {
			for (let at = 0; at <= MAX_CSV_ROW_LENGTH * 2; at += piece.length) reader.push(piece, rows);
		} catch (error) {
			refused = error;
		}
		expect(refused).toBeInstanceOf(CsvProblem);
		expect((refused as CsvProblem).line).toBe(1);
		expect(problemOf(`a\n${','.repeat(MAX_CSV_ROW_LENGTH)}\n`)).toBeUndefined();
		expect(problemOf(`a\n${','.repeat(MAX_CSV_ROW_LENGTH + 1)}\n`)?.[1]).toBe(2);
	});
});

describe('KeyHashes', () => {
	it('finds every key seen before, with the line of its first row, and no other', () => {
		fc.assert(
			fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 3000 }), (keys) => {
				const hashes = new KeyHashes();
				const firstLine = new Map<string, number>();
				keys.forEach((key, index) => {
					const line = index + 2;
					const found = hashes.add(keyHash(key), line);
					const first = firstLine.get(key);
					if (first !== undefined) expect(found).toBe(first);
					else {
						// A new key: found only on a hash collision, which the caller then rules out.
						if (found !== undefined) expect(keys[found - 2]).not.toBe(key);
						firstLine.set(key, line);
					}
				});
			}),
			{ seed: 44, numRuns: 200 },
		);
	});
});
