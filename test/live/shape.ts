/**
 * The shape of an answer with every value removed: field names and JSON types (a field some
 * elements of a list lack ends in `?`; types seen together are joined, `string|null`), the
 * elements of a list merged into one, the order of lists by their `…_at` fields, and the headers
 * that matter (rate and Retry-After header names, each cookie's name, attribute names and size
 * class). `diffShapes` names every field path where two shapes differ.
 */
import type { LiveAnswer } from './node';
import { cookieName, DATA_KEY, errorCode, fieldName, headerName, plainText } from './safe';

/** A JSON type name (`string`, `number|null`), an object's fields, or a list: [] or [element]. */
export type Shape = string | Shape[] | { [field: string]: Shape };

export interface AnswerShape {
	operation: string;
	status: number;
	body: Shape;
	/** `path[].field`: `ascending`, `descending`, `unsorted` or `all equal` (lists of 2 or more). */
	order: Record<string, string>;
	headers: { names: string[]; cookies: CookieShape[] };
}

export interface CookieShape {
	name: string;
	attributes: string[];
	/** The value's size class, `up to 64 bytes` (a power of two): never the value. */
	size: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Deepest nesting written (deeper: `object` or `array`); most distinct fields of one object, or of
 * the elements of one list together (more: a map, all its keys one `<key>`).
 */
export const MAX_DEPTH = 32;
export const MAX_FIELDS = 200;

export function shapeOf(value: unknown, depth = 0): Shape {
	if (depth >= MAX_DEPTH && typeof value === 'object' && value !== null) return typeName(value);
	if (Array.isArray(value)) {
		// Elements keyed each by its own value (`[{ sku_a: 1 }, { sku_b: 2 }, …]`) are maps.
		const keys = new Set(value.filter(isObject).flatMap((element) => Object.keys(element)));
		const map = keys.size > MAX_FIELDS;
		const shapes = value.map((element) =>
			map && isObject(element) ? fieldsOf(element, depth + 1, true) : shapeOf(element, depth + 1),
		);
		return shapes.length ? [shapes.reduce(merge)] : [];
	}
	if (isObject(value)) return fieldsOf(value, depth);
	return value === null ? 'null' : typeof value;
}

/**
 * An object's fields by name (`fieldName`): keys that are data become one `<key>` whose shape
 * is all of theirs merged; an object of more than `MAX_FIELDS` keys is a map, all `<key>`.
 */
function fieldsOf(value: Record<string, unknown>, depth: number, map = false): Shape {
	const keys = Object.keys(value);
	const nameOf = map || keys.length > MAX_FIELDS ? () => DATA_KEY : fieldName;
	const fields = new Map<string, Shape>();
	for (const key of keys) {
		const [name, shape] = [nameOf(key), shapeOf(value[key], depth + 1)];
		const before = fields.get(name);
		fields.set(name, before === undefined ? shape : merge(before, shape));
	}
	return Object.fromEntries([...fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const bare = (field: string) => field.replace(/\?$/, '');
const typeName = (shape: unknown): string =>
	typeof shape === 'string' ? shape : Array.isArray(shape) ? 'array' : 'object';

/** One shape for two values of the same place (two elements of a list). */
export function merge(a: Shape, b: Shape): Shape {
	if (JSON.stringify(a) === JSON.stringify(b)) return a;
	if (Array.isArray(a) && Array.isArray(b))
		return a.length && b.length ? [merge(a[0], b[0])] : [...a, ...b];
	if (isObject(a) && isObject(b)) return mergeFields(a, b);
	const types = new Set([...typeName(a).split('|'), ...typeName(b).split('|')]);
	return [...types].sort().join('|');
}

function mergeFields(a: Record<string, Shape>, b: Record<string, Shape>): Shape {
	const byName = (shape: Record<string, Shape>) =>
		new Map(Object.entries(shape).map(([field, value]) => [bare(field), { field, value }]));
	const [left, right] = [byName(a), byName(b)];
	const names = [...new Set([...left.keys(), ...right.keys()])].sort();
	// A bound on the shape of a list whose elements' objects have many fields between them.
	if (names.length > MAX_FIELDS) {
		const values = [...left.values(), ...right.values()].map((field) => field.value);
		return { [`${DATA_KEY}?`]: values.reduce(merge) };
	}
	return Object.fromEntries(
		names.map((name) => {
			const [l, r] = [left.get(name), right.get(name)];
			if (!l || !r) return [`${name}?`, (l ?? r)!.value];
			const optional = l.field.endsWith('?') || r.field.endsWith('?');
			return [optional ? `${name}?` : name, merge(l.value, r.value)];
		}),
	);
}

/** A field that holds a time: `…_at`, or `…At` as a gRPC gateway spells it. */
const isTimeField = (field: string) => /(_at|[a-z]At)$/.test(field);

/**
 * The order of every list of 2 or more objects by each of its time fields, by path (field names
 * as `fieldName` writes them). A path met several times (the items of each order) whose lists
 * differ in order is `mixed`; one whose lists are `all equal` takes the others' order.
 */
export function orderFacts(
	value: unknown,
	path = 'body',
	facts: Record<string, string> = {},
	depth = 0,
): Record<string, string> {
	if (depth >= MAX_DEPTH) return facts;
	if (Array.isArray(value)) {
		const rows = value.filter(isObject);
		const fields = new Set(rows.flatMap((row) => Object.keys(row).filter(isTimeField)));
		for (const field of rows.length > 1 ? fields : []) {
			const at = `${path}[].${fieldName(field)}`;
			const fact = orderOf(rows.map((row) => Date.parse(String(row[field]))));
			facts[at] = combineOrder(facts[at], fact);
		}
		value.forEach((element) => orderFacts(element, `${path}[]`, facts, depth + 1));
	} else if (isObject(value)) {
		for (const [field, inner] of Object.entries(value))
			orderFacts(inner, `${path}.${fieldName(field)}`, facts, depth + 1);
	}
	return facts;
}

function combineOrder(before: string | undefined, fact: string): string {
	if (before === undefined || before === fact || before === 'all equal') return fact;
	return fact === 'all equal' ? before : 'mixed';
}

export function orderOf(times: number[]): string {
	const steps = times.slice(1).map((time, i) => Math.sign(time - times[i]));
	if (times.some(Number.isNaN)) return 'not times';
	if (steps.every((step) => step === 0)) return 'all equal';
	if (steps.every((step) => step >= 0)) return 'ascending';
	return steps.every((step) => step <= 0) ? 'descending' : 'unsorted';
}

/** Headers that matter: rate and Retry-After names; each cookie without its value. */
export function headerFacts(headers: Record<string, unknown>): AnswerShape['headers'] {
	const names = Object.keys(headers)
		.filter((name) => /^retry-after$|^set-cookie$|rate|limit/i.test(name))
		.map(headerName)
		.sort();
	const setCookie = headers['set-cookie'];
	const lines = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
	const cookies = lines.map((line) => cookieShape(String(line)));
	return {
		names,
		cookies: cookies.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
	};
}

/** The attributes a Set-Cookie line may carry (RFC 6265bis and common ones); others are `<key>`. */
const COOKIE_ATTRIBUTES = [
	'domain',
	'expires',
	'httponly',
	'max-age',
	'partitioned',
	'path',
	'priority',
	'samesite',
	'secure',
];

function cookieShape(line: string): CookieShape {
	const [pair, ...attributes] = line.split(';').map((part) => part.trim());
	const eq = pair.indexOf('=');
	const bytes = Buffer.byteLength(eq < 0 ? pair : pair.slice(eq + 1));
	const attribute = (text: string) => text.split('=')[0].trim().toLowerCase();
	return {
		name: eq < 0 ? DATA_KEY : cookieName(pair.slice(0, eq).trim()),
		attributes: attributes
			.filter(Boolean)
			.map((text) => (COOKIE_ATTRIBUTES.includes(attribute(text)) ? attribute(text) : DATA_KEY))
			.sort(),
		size: `up to ${2 ** Math.max(4, Math.ceil(Math.log2(bytes || 1)))} bytes`,
	};
}

export function answerShape(operation: string, answer: LiveAnswer): AnswerShape {
	return {
		operation,
		status: answer.status,
		body: shapeOf(answer.body),
		order: orderFacts(answer.body),
		headers: headerFacts(answer.headers),
	};
}

/** `order_created_at` as a gRPC gateway writes it (`orderCreatedAt`). */
const camelCase = (field: string) =>
	field.replace(/_([a-z\d])/g, (_, c: string) => c.toUpperCase());

/**
 * Where a field of the shape file is in the answer under another key: the same name marked
 * optional (`?`) or not, or its camelCase spelling. Gives that key and what to say of it.
 */
function renamed(
	field: string,
	actual: Record<string, unknown>,
	expected: Record<string, unknown>,
) {
	const name = bare(field);
	const optional = field.endsWith('?') ? name : `${name}?`;
	if (optional in actual && !(optional in expected)) {
		const note = optional.endsWith('?')
			? 'sometimes missing in the answer, always there in the shape file'
			: 'always there in the answer, sometimes missing in the shape file';
		return { key: optional, note };
	}
	const camel = camelCase(name);
	if (camel === name) return undefined;
	for (const key of [camel, `${camel}?`]) {
		if (key in actual && !(key in expected)) {
			return { key, note: `written ${bare(key)} in the answer (camelCase)` };
		}
	}
	return undefined;
}

/** Every place where `actual` differs from `expected`, each naming its field path. */
export function diffShapes(expected: unknown, actual: unknown, path = ''): string[] {
	if (isObject(expected) && isObject(actual)) return diffFields(expected, actual, path);
	if (Array.isArray(expected) && Array.isArray(actual)) {
		// An empty list of a body tells nothing of its elements: it matches any list.
		const empty = !expected.length || !actual.length;
		if (empty && path.startsWith('body')) return [];
		if (expected.length === actual.length) {
			return expected.flatMap((element, i) => diffShapes(element, actual[i], `${path}[${i}]`));
		}
	}
	const [was, now] = [JSON.stringify(expected), JSON.stringify(actual)];
	if (was === now) return [];
	// A gRPC gateway writes 64-bit numbers as text.
	const asText = was === '"number"' && typeof actual === 'string' && actual.includes('string');
	return [
		`${path}: ${was} in the shape file, ${now} in the answer${asText ? ' (a number written as text)' : ''}`,
	];
}

function diffFields(
	expected: Record<string, unknown>,
	actual: Record<string, unknown>,
	path: string,
): string[] {
	const seen = new Set<string>();
	const lines = Object.keys(expected)
		.sort()
		.flatMap((field) => {
			const at = path ? `${path}.${field}` : field;
			if (field in actual) return diffShapes(expected[field], actual[field], at);
			const other = renamed(field, actual, expected);
			if (!other) return [`${at}: in the shape file, not in the answer`];
			seen.add(other.key);
			return [`${at}: ${other.note}`, ...diffShapes(expected[field], actual[other.key], at)];
		});
	const added = Object.keys(actual).filter((field) => !(field in expected) && !seen.has(field));
	return [
		...lines,
		...added
			.sort()
			.map((field) => `${path ? `${path}.${field}` : field}: in the answer, not in the shape file`),
	];
}

/**
 * The service's error code and message of an answer, for a line: the code only when it reads as
 * one, the message's plain words only (safe.ts), the run's `secrets` cut out.
 */
export function errorOf(answer: LiveAnswer, secrets: string[] = []): string {
	if (typeof answer.body === 'string')
		return `a body that is not JSON, ${answer.body.length} characters`;
	const body = isObject(answer.body) ? answer.body : {};
	const code = body.status_code === undefined ? undefined : errorCode(body.status_code);
	const message = typeof body.message === 'string' ? plainText(body.message, secrets) : undefined;
	return [code, message].filter((part) => part !== undefined && part !== '').join(' ');
}
