/**
 * The shape of an answer with every value removed: field names and JSON types (a field some
 * elements of a list lack ends in `?`; types seen together are joined, `string|null`), the
 * elements of a list merged into one, the order of lists by their `…_at` fields, and the headers
 * that matter (rate and Retry-After header names, each cookie's name, attribute names and size
 * class). `diffShapes` names every field path where two shapes differ.
 */
import type { LiveAnswer } from './node';

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

export function shapeOf(value: unknown): Shape {
	if (Array.isArray(value)) {
		const shapes = value.map(shapeOf);
		return shapes.length ? [shapes.reduce(merge)] : [];
	}
	if (isObject(value)) {
		const fields = Object.keys(value).sort();
		return Object.fromEntries(fields.map((field) => [field, shapeOf(value[field])]));
	}
	return value === null ? 'null' : typeof value;
}

const bare = (field: string) => field.replace(/\?$/, '');
const typeName = (shape: Shape) =>
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
	return Object.fromEntries(
		names.map((name) => {
			const [l, r] = [left.get(name), right.get(name)];
			if (!l || !r) return [`${name}?`, (l ?? r)!.value];
			const optional = l.field.endsWith('?') || r.field.endsWith('?');
			return [optional ? `${name}?` : name, merge(l.value, r.value)];
		}),
	);
}

/** The order of every list of 2 or more objects by each of its `…_at` fields. */
export function orderFacts(value: unknown, path = 'body', facts: Record<string, string> = {}) {
	if (Array.isArray(value)) {
		const rows = value.filter(isObject);
		const fields = new Set(
			rows.flatMap((row) => Object.keys(row).filter((f) => f.endsWith('_at'))),
		);
		for (const field of rows.length > 1 ? fields : []) {
			facts[`${path}[].${field}`] = orderOf(rows.map((row) => Date.parse(String(row[field]))));
		}
		value.forEach((element) => orderFacts(element, `${path}[]`, facts));
	} else if (isObject(value)) {
		for (const [field, inner] of Object.entries(value))
			orderFacts(inner, `${path}.${field}`, facts);
	}
	return facts;
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
		.map((name) => name.toLowerCase())
		.filter((name) => /^retry-after$|^set-cookie$|rate|limit/.test(name))
		.sort();
	const setCookie = headers['set-cookie'];
	const lines = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
	return { names, cookies: lines.map((line) => cookieShape(String(line))) };
}

function cookieShape(line: string): CookieShape {
	const [pair, ...attributes] = line.split(';').map((part) => part.trim());
	const eq = pair.indexOf('=');
	const bytes = Buffer.byteLength(pair.slice(eq + 1));
	return {
		name: pair.slice(0, eq),
		attributes: attributes.map((attribute) => attribute.split('=')[0].toLowerCase()).sort(),
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

/** Every place where `actual` differs from `expected`, each naming its field path. */
export function diffShapes(expected: unknown, actual: unknown, path = ''): string[] {
	if (isObject(expected) && isObject(actual)) {
		const fields = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
		return fields.flatMap((field) => {
			const at = path ? `${path}.${field}` : field;
			if (!(field in actual)) return [`${at}: in the shape file, not in the answer`];
			if (!(field in expected)) return [`${at}: in the answer, not in the shape file`];
			return diffShapes(expected[field], actual[field], at);
		});
	}
	if (Array.isArray(expected) && Array.isArray(actual)) {
		// An empty list of a body tells nothing of its elements: it matches any list.
		const empty = !expected.length || !actual.length;
		if (empty && path.startsWith('body')) return [];
		if (expected.length === actual.length) {
			return expected.flatMap((element, i) => diffShapes(element, actual[i], `${path}[${i}]`));
		}
	}
	const [was, now] = [JSON.stringify(expected), JSON.stringify(actual)];
	return was === now ? [] : [`${path}: ${was} in the shape file, ${now} in the answer`];
}

/** The service's error code and message of an answer, for a line (never a value of a field). */
export function errorOf(answer: LiveAnswer): string {
	const body = (answer.body ?? {}) as { status_code?: unknown; message?: unknown };
	return [body.status_code, body.message].filter((part) => part !== undefined).join(' ');
}
