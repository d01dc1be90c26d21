/**
 * What a value a user gives (typed, or computed by an expression) must be, for both nodes: each
 * rule returns what is wrong, as a sentence that starts with `what` (e.g. `The field "Is Active"
 * (isActive)`), or undefined. The nodes turn a problem into a NodeOperationError before anything
 * is sent. n8n's `validateType` is not used: n8n-core applies it to top-level parameters and one
 * level of collection only, answers with an ExpressionError, and reads 0 and 1 as booleans.
 */

/** The longest text a parameter may hold. */
export const MAX_TEXT_LENGTH = 64 * 1024;

/** Names that reach an object's prototype machinery when used as a property name. */
export const RESERVED_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** A UTF-16 half without its other half: not valid Unicode, and no JSON encoder keeps it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A text quoted for a message: escaped (control characters, lone surrogates), at most 40 characters. */
export function quoted(text: string): string {
	return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/** A short, printable rendering of a refused value for a message (never the whole of a long one). */
export function shown(value: unknown): string {
	if (value === null || value === undefined) return String(value);
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'string') {
		return value === '' ? 'an empty text' : `the text ${quoted(value)}`;
	}
	return Object.is(value, -0) ? '-0' : String(value);
}

/**
 * What is wrong with a value that should be text (a string, or a number that stays exact), or
 * undefined. `what` names it in the message, e.g. `The parameter "PO Number" (poNr)`.
 */
export function textProblem(value: unknown, what: string): string | undefined {
	if (typeof value === 'number') {
		if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
			return `${what} holds the number ${String(value)}, beyond 2^53: it cannot be sent exactly. Map it as text instead`;
		}
		return Number.isFinite(value) ? undefined : `${what} must be text, got ${String(value)}`;
	}
	if (typeof value === 'bigint') {
		return Number.isSafeInteger(Number(value))
			? undefined
			: `${what} holds a number beyond 2^53: map it as text instead`;
	}
	if (value !== null && typeof value === 'object') {
		return `${what} must be text, got ${Array.isArray(value) ? 'an array' : 'an object'}`;
	}
	if (typeof value === 'function' || typeof value === 'symbol') return `${what} must be text`;
	if (typeof value !== 'string') return undefined;
	if (value.length > MAX_TEXT_LENGTH) {
		return `${what} is ${value.length} characters long, at most ${MAX_TEXT_LENGTH} are allowed`;
	}
	if (LONE_SURROGATE.test(value))
		return `${what} holds a lone surrogate (half of a UTF-16 character)`;
	return undefined;
}

/**
 * A yes/no value: true or false, or the text "true" / "false" (any case, spaces around ignored),
 * which is what an expression such as `{{ $json.active }}` gives for text data. Anything else is
 * undefined: never read as false.
 */
export function parseBoolean(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	if (typeof value !== 'string') return undefined;
	const text = value.trim().toLowerCase();
	return text === 'true' ? true : text === 'false' ? false : undefined;
}

export function booleanProblem(value: unknown, what: string): string | undefined {
	return parseBoolean(value) === undefined
		? `${what} must be true or false, got ${shown(value)}`
		: undefined;
}

/** One of `allowed` exactly (the values of an options parameter). */
export function optionProblem(
	value: unknown,
	allowed: readonly string[],
	what: string,
): string | undefined {
	return typeof value === 'string' && allowed.includes(value)
		? undefined
		: `${what} must be one of ${allowed.map((option) => `"${option}"`).join(', ')}, got ${shown(value)}`;
}

/** A name that becomes a property name (a header, an output field): not one of RESERVED_KEYS. */
export function keyProblem(key: string, what: string): string | undefined {
	return RESERVED_KEYS.includes(key)
		? `${what} cannot be "${key}": the names ${RESERVED_KEYS.join(', ')} are reserved`
		: undefined;
}

export interface NumberRule {
	/** The value must be whole (it counts something). */
	whole?: boolean;
	/** The smallest value allowed (default 0). */
	min?: number;
	/** The value must be above `min`, not equal to it. */
	aboveMin?: boolean;
}

/**
 * A number, or text holding one (an expression may give text). Unset (undefined, null, '') is
 * undefined; anything else that is no number is NaN.
 */
export function parseNumber(value: unknown): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'number') return value;
	if (typeof value === 'string' && value.trim() !== '') return Number(value);
	return NaN;
}

/** A finite number within 2^53, at least `min` (or above it), whole where it counts something. */
export function numberProblem(
	value: unknown,
	what: string,
	rule: NumberRule = {},
): string | undefined {
	const number = parseNumber(value);
	if (number === undefined) return undefined;
	const min = rule.min ?? 0;
	if (!Number.isFinite(number)) return `${what} must be a number, got ${shown(value)}`;
	if (Math.abs(number) > Number.MAX_SAFE_INTEGER) return `${what} is beyond 2^53`;
	if (number < min || (rule.aboveMin && number === min)) {
		return min === 0
			? `${what} must ${rule.aboveMin ? 'be above 0' : 'not be negative'}, got ${shown(value)}`
			: `${what} must be at least ${min}, got ${shown(value)}`;
	}
	if (rule.whole && !Number.isInteger(number)) return `${what} must be a whole number`;
	return undefined;
}

/** What to give instead of a number `numberProblem` refused: the rule, and an example in digits. */
export function numberAdvice(rule: NumberRule = {}): string {
	const min = rule.min ?? 0;
	const bound = rule.aboveMin ? `above ${min}` : `of at least ${min}`;
	const example = Math.max(10, min + 1);
	return `Give ${rule.whole ? 'a whole number' : 'a number'} ${bound} in digits, such as ${example}.`;
}

/** A collection parameter (its value is an object of fields): an object, or unset. */
export function collectionProblem(value: unknown, what: string): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	return typeof value === 'object' && !Array.isArray(value)
		? undefined
		: `${what} must be a collection of fields, got ${shown(value)}`;
}
