/**
 * Review of issue 44's CSV reader (shapes/csv.ts): failing tests for what a hostile file does.
 */
import {
	CsvProblem,
	CsvReader,
	MAX_CSV_ROW_LENGTH,
	type CsvRow,
} from '../../dist/nodes/SellerPlatform/actions/shapes/csv';

describe('review44: the CSV reader under a hostile file', () => {
	it('a row of millions of empty fields (delimiters only) is refused by the row limit, not held field by field', () => {
		// A 2 GB line of commas would hold 2 billion empty strings: the row limit counts only the
		// fields' characters, never the delimiters, so it never stops it.
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
	});
});
