/**
 * The text checks: values.ts `textProblem` (the rule every text reader applies), `quoted` and
 * `shown` (how a refused value appears in a message), and import/imports.ts `inputFieldText` (an
 * input item's field as the text of a mapping).
 */
import { inputFieldText } from '../../dist/nodes/SellerPlatform/actions/import/imports';
import { MAX_TEXT_LENGTH, quoted, shown, textProblem } from '../../dist/nodes/shared/common/values';

const WHAT = 'The parameter "PO Number" (poNr)';

describe('textProblem', () => {
	it.each([['PO-1'], [''], [42], [-0], [2 ** 53 - 1], [BigInt(7)], [undefined], [null], [true]])(
		'accepts %p',
		(value) => {
			expect(textProblem(value, WHAT)).toBeUndefined();
		},
	);

	it('refuses a whole number beyond 2^53, saying to map it as text', () => {
		expect(textProblem(2 ** 53 + 2, WHAT)).toBe(
			`${WHAT} holds the number 9007199254740994, beyond 2^53: it cannot be sent exactly. Map it as text instead`,
		);
		expect(textProblem(BigInt(2) ** BigInt(60), WHAT)).toBe(
			`${WHAT} holds a number beyond 2^53: map it as text instead`,
		);
	});

	it('refuses NaN, infinities, objects, arrays, functions and symbols', () => {
		expect(textProblem(NaN, WHAT)).toBe(`${WHAT} must be text, got NaN`);
		expect(textProblem(-Infinity, WHAT)).toBe(`${WHAT} must be text, got -Infinity`);
		expect(textProblem({ a: 1 }, WHAT)).toBe(`${WHAT} must be text, got an object`);
		expect(textProblem(['a'], WHAT)).toBe(`${WHAT} must be text, got an array`);
		expect(textProblem(() => 'x', WHAT)).toBe(`${WHAT} must be text`);
		expect(textProblem(Symbol('s'), WHAT)).toBe(`${WHAT} must be text`);
	});

	it('refuses a text longer than the limit, and accepts one at the limit', () => {
		expect(textProblem('x'.repeat(MAX_TEXT_LENGTH), WHAT)).toBeUndefined();
		expect(textProblem('x'.repeat(MAX_TEXT_LENGTH + 1), WHAT)).toBe(
			`${WHAT} is ${MAX_TEXT_LENGTH + 1} characters long, at most ${MAX_TEXT_LENGTH} are allowed`,
		);
	});

	it('refuses a lone surrogate, and accepts a whole surrogate pair', () => {
		expect(textProblem('a\uD83Db', WHAT)).toBe(
			`${WHAT} holds a lone surrogate (half of a UTF-16 character)`,
		);
		expect(textProblem('\uDE00', WHAT)).toBe(
			`${WHAT} holds a lone surrogate (half of a UTF-16 character)`,
		);
		expect(textProblem('smile \uD83D\uDE00', WHAT)).toBeUndefined();
	});
});

describe('quoted and shown', () => {
	it('quotes a text escaped and cut at 40 characters', () => {
		expect(quoted('PO-1')).toBe('"PO-1"');
		expect(quoted('a\nb"c')).toBe('"a\\nb\\"c"');
		expect(quoted('x'.repeat(41))).toBe(`"${'x'.repeat(40)}…"`);
	});

	it('shows any value short, never the whole of a long one', () => {
		expect(shown('')).toBe('an empty text');
		expect(shown('y'.repeat(1000))).toBe(`the text "${'y'.repeat(40)}…"`);
		expect(shown({ secret: 'k' })).toBe('an object');
		expect(shown([1])).toBe('an array');
		expect(shown(null)).toBe('null');
		expect(shown(undefined)).toBe('undefined');
		expect(shown(-0)).toBe('-0');
		expect(shown(false)).toBe('false');
	});
});

describe('inputFieldText', () => {
	it('gives a text trimmed and a number or bigint written out', () => {
		expect(inputFieldText('  SKU-1 ')).toBe('SKU-1');
		expect(inputFieldText(6291041500213)).toBe('6291041500213');
		expect(inputFieldText(BigInt('12345678901234567890'))).toBe('12345678901234567890');
	});

	it('gives no value for what is no text or number (then the item is refused as missing it)', () => {
		for (const value of [true, false, null, undefined, NaN, Infinity, {}, []]) {
			expect(inputFieldText(value)).toBe('');
		}
	});
});
