/**
 * The small schema language of the endpoint table (endpoints.ts), and the check every request
 * passes before its handler runs.
 *
 * A request body (or query) is an object schema: its fields by name, each with a type and rules.
 * `check` refuses, with INVALID_ARGUMENT naming the field by its JSON path (`items.data[3].barcode`):
 *   - a field of the wrong type;
 *   - a missing required field;
 *   - a string not among its `enum` values, longer than `maxLength`, or refused by its `format`;
 *   - a list shorter than `minItems` or longer than `maxItems`;
 *   - a field the schema does not declare (a misspelt name).
 * Like grpc-gateway (proto3), a JSON `null` is an absent field, and so is an empty string unless
 * the field says `notEmpty`. `check` returns the request with absent fields dropped, so handlers
 * read plain values.
 */
import { invalidArgument } from './errors';

export type JsonObject = Record<string, unknown>;

/** Why a value is refused (a whole message naming `path`), or null when it is fine. */
export type Format<T> = (value: T, path: string) => string | null;

interface Common {
	/** Absent (undefined, null, and for strings '') is refused. */
	required?: boolean;
}

export interface StringSchema extends Common {
	type: 'string';
	/** The only values allowed. */
	enum?: readonly string[];
	maxLength?: number;
	/** An empty or blank string is refused with `<path> must not be empty: <notEmpty>`. */
	notEmpty?: string;
	format?: Format<string>;
}

export interface BooleanSchema extends Common {
	type: 'boolean';
}

export interface NumberSchema extends Common {
	type: 'number' | 'integer';
	minimum?: number;
	maximum?: number;
}

export interface ObjectSchema extends Common {
	type: 'object';
	fields: Fields;
}

export interface ArraySchema extends Common {
	type: 'array';
	items: Schema;
	/** With `minItems`, an absent or short list is refused with `<path> must list at least one <noun>`. */
	minItems?: number;
	noun?: string;
	maxItems?: number;
}

/** An object whose keys are free (e.g. header name → value); `entry` checks each pair. */
export interface MapSchema extends Common {
	type: 'map';
	entry: (key: string, value: unknown, path: string) => string | null;
}

export type Schema =
	StringSchema | BooleanSchema | NumberSchema | ObjectSchema | ArraySchema | MapSchema;
export type Fields = Readonly<Record<string, Schema>>;

type Options<S> = Omit<S, 'type'>;

/** Builders, so a table entry reads like the field list of the docs. */
export const s = {
	string: (options: Options<StringSchema> = {}): StringSchema => ({ type: 'string', ...options }),
	boolean: (options: Options<BooleanSchema> = {}): BooleanSchema => ({
		type: 'boolean',
		...options,
	}),
	integer: (options: Options<NumberSchema> = {}): NumberSchema => ({ type: 'integer', ...options }),
	number: (options: Options<NumberSchema> = {}): NumberSchema => ({ type: 'number', ...options }),
	object: (fields: Fields, options: Common = {}): ObjectSchema => ({
		type: 'object',
		fields,
		...options,
	}),
	array: (items: Schema, options: Options<Omit<ArraySchema, 'items'>> = {}): ArraySchema => ({
		type: 'array',
		items,
		...options,
	}),
	map: (entry: MapSchema['entry'], options: Common = {}): MapSchema => ({
		type: 'map',
		entry,
		...options,
	}),
};

export const isObject = (value: unknown): value is JsonObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

const describe = (value: unknown): string =>
	value === null
		? 'null'
		: Array.isArray(value)
			? 'an array'
			: typeof value === 'object'
				? 'an object'
				: `${typeof value} ${JSON.stringify(value)}`;

const TYPE_NAMES: Record<Schema['type'], string> = {
	string: 'a string',
	boolean: 'a boolean (true or false)',
	integer: 'an integer',
	number: 'a number',
	object: 'an object',
	array: 'a list',
	map: 'an object',
};

const join = (path: string, field: string): string => (path === '' ? field : `${path}.${field}`);

/** `A or B`, or `one of A, B, C`. */
const choices = (values: readonly string[]): string =>
	values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(', ')}`;

function fail(message: string): never {
	throw invalidArgument(message);
}

function isAbsent(schema: Schema, value: unknown): boolean {
	if (value === undefined || value === null) return true;
	return schema.type === 'string' && value === '' && schema.notEmpty === undefined;
}

function absent(schema: Schema, path: string): undefined {
	if (schema.type === 'array' && schema.minItems)
		fail(`${path} must list at least one ${schema.noun ?? 'item'}`);
	if (schema.required)
		fail(`${path} is required${schema.type === 'boolean' ? ' (true or false)' : ''}`);
	return undefined;
}

function wrongType(schema: Schema, value: unknown): boolean {
	switch (schema.type) {
		case 'string':
		case 'boolean':
			return typeof value !== schema.type;
		case 'number':
			return typeof value !== 'number' || !Number.isFinite(value);
		case 'integer':
			return !Number.isInteger(value);
		case 'array':
			return !Array.isArray(value);
		case 'object':
		case 'map':
			return !isObject(value);
	}
}

function checkString(schema: StringSchema, value: string, path: string): string {
	if (schema.notEmpty !== undefined && value.trim() === '')
		fail(`${path} must not be empty: ${schema.notEmpty}`);
	if (schema.enum && !schema.enum.includes(value))
		fail(`${path} must be ${choices(schema.enum)}, got ${JSON.stringify(value)}`);
	if (schema.maxLength !== undefined && value.length > schema.maxLength)
		fail(`${path} must be at most ${schema.maxLength} characters, got ${value.length}`);
	const problem = schema.format?.(value, path);
	if (problem) fail(problem);
	return value;
}

function checkNumber(schema: NumberSchema, value: number, path: string): number {
	if (schema.minimum !== undefined && value < schema.minimum)
		fail(`${path} must be at least ${schema.minimum}, got ${value}`);
	if (schema.maximum !== undefined && value > schema.maximum)
		fail(`${path} must be at most ${schema.maximum}, got ${value}`);
	return value;
}

function checkArray(schema: ArraySchema, value: unknown[], path: string): unknown[] {
	if (schema.minItems && value.length < schema.minItems)
		fail(`${path} must list at least one ${schema.noun ?? 'item'}`);
	if (schema.maxItems !== undefined && value.length > schema.maxItems)
		fail(`${path} has ${value.length} entries: at most ${schema.maxItems} are allowed`);
	return value.map((item, i) => checkValue(schema.items, item, `${path}[${i}]`));
}

function checkMap(schema: MapSchema, value: JsonObject, path: string): JsonObject {
	for (const [key, entry] of Object.entries(value)) {
		const problem = schema.entry(key, entry, path);
		if (problem) fail(problem);
	}
	return { ...value };
}

/** The fields of an object: unknown ones refused, absent ones dropped. */
export function checkFields(
	fields: Fields,
	value: JsonObject,
	path: string,
	noun = 'field',
): JsonObject {
	for (const key of Object.keys(value)) {
		if (Object.hasOwn(fields, key)) continue;
		const known = Object.keys(fields);
		fail(
			`unknown ${noun} ${join(path, key)}: ${known.length === 0 ? 'none is taken here' : `expected ${known.join(', ')}`}`,
		);
	}
	const checked: JsonObject = {};
	for (const [key, schema] of Object.entries(fields)) {
		const field = checkOptional(schema, value[key], join(path, key));
		if (field !== undefined) checked[key] = field;
	}
	return checked;
}

/** A value that may be absent: undefined when it is (and may be). */
export function checkOptional(schema: Schema, value: unknown, path: string): unknown {
	if (isAbsent(schema, value)) return absent(schema, path);
	return checkValue(schema, value, path);
}

function checkValue(schema: Schema, value: unknown, path: string): unknown {
	if (wrongType(schema, value))
		fail(`${path} must be ${TYPE_NAMES[schema.type]}, got ${describe(value)}`);
	switch (schema.type) {
		case 'string':
			return checkString(schema, value as string, path);
		case 'number':
		case 'integer':
			return checkNumber(schema, value as number, path);
		case 'boolean':
			return value;
		case 'array':
			return checkArray(schema, value as unknown[], path);
		case 'object':
			return checkFields(schema.fields, value as JsonObject, path);
		case 'map':
			return checkMap(schema, value as JsonObject, path);
	}
}

/** Query parameters are text: each declared one is checked as the string it arrived as. */
export function checkQuery(fields: Fields, query: URLSearchParams): JsonObject {
	const value: JsonObject = {};
	for (const [key, text] of query) {
		if (Object.hasOwn(value, key)) fail(`query parameter ${key} is given more than once`);
		value[key] = text;
	}
	return checkFields(fields, value, '', 'query parameter');
}
