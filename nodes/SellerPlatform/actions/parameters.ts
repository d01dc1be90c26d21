/**
 * Reading and checking parameters before anything is sent: each rule names the parameter. The
 * readers take the parameter's description (`INodeProperties`) and read its label, name, default
 * and allowed values from it, so an operation never types them a second time.
 */
import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import {
	allowedValues,
	booleanProblem,
	collectionProblem,
	isDotSegment,
	isInputField,
	keyProblem,
	MAX_TEXT_LENGTH,
	named,
	numberProblem,
	optionProblem,
	parseBoolean,
	parseNumber,
	quoted,
	quotedName,
	rowsOf,
	shown,
	textProblem,
	type Kind,
	type NumberRule,
} from '../../shared';

/**
 * Where the readers read values: the node's parameters (`IExecuteFunctions`), or, for a batch
 * operation's Map Automatically, the input item's fields (shapes/batch.ts), each property then an
 * `InputField` named as the field.
 */
export type ParameterSource = Pick<IExecuteFunctions, 'getNode' | 'getNodeParameter'>;

/** A rejected parameter: names it and the rule, before anything is sent. */
export function invalidParameter(
	ctx: ParameterSource,
	itemIndex: number,
	message: string,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

/*
 * Text, one family: `textProblem` (values.ts) is the rule; `checkedText` reads a value under it
 * (a field of a collection, a list entry); the `…TextParameter` readers read a node parameter by
 * name: optional (unset or blank is undefined), non-blank when set, or required.
 */
export { MAX_TEXT_LENGTH, textProblem };

/** `value` as text, trimmed ('' when unset); throws when it is no text (see `textProblem`). */
export function checkedText(
	ctx: ParameterSource,
	itemIndex: number,
	value: unknown,
	what: string,
): string {
	const problem = textProblem(value, what);
	if (problem) throw invalidParameter(ctx, itemIndex, problem);
	if (value === undefined || value === null) return '';
	return String(value).trim();
}

/**
 * A text parameter's value as n8n holds it; a resource locator's the chosen or typed value (or
 * the plain string a workflow saved before the parameter was a locator).
 */
function rawText(ctx: ParameterSource, property: INodeProperties, itemIndex: number): unknown {
	if (property.type !== 'resourceLocator')
		return ctx.getNodeParameter(property.name, itemIndex, property.default) as unknown;
	return ctx.getNodeParameter(property.name, itemIndex, '', { extractValue: true }) as unknown;
}

/** An optional text parameter: trimmed, `undefined` when unset or blank (so it is not sent). */
export function optionalTextParameter(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string | undefined {
	const value = rawText(ctx, property, itemIndex);
	const text = checkedText(ctx, itemIndex, value, named(property));
	return text === '' ? undefined : text;
}

/** A text parameter that may be unset (`undefined`), but not blank when it is set. */
export function nonBlankTextParameter(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string | undefined {
	const raw = rawText(ctx, property, itemIndex);
	if (raw === '' || raw === undefined || raw === null) return undefined;
	const text = checkedText(ctx, itemIndex, raw, named(property));
	if (text === '') {
		const message = `${named(property)} must not be blank when it is set`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	return text;
}

/** A required text parameter: not empty or blank, checked before any request. */
export function requiredTextParameter(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string {
	const text = optionalTextParameter(ctx, property, itemIndex);
	if (text === undefined) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`${named(property)} must not be empty`,
			isInputField(property)
				? fieldAdvice(property)
				: `Set "${property.displayName}" to a non-blank value, or map it from the input data with an expression.`,
		);
	}
	return text;
}

/** What to do about a required input field that is blank (Map Automatically). */
const fieldAdvice = (property: INodeProperties) =>
	`Give the input item a "${property.name}" field that is not blank.`;

/** A text parameter as its description says: required (see above) or optional. */
export function textParameter(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string | undefined {
	return property.required
		? requiredTextParameter(ctx, property, itemIndex)
		: optionalTextParameter(ctx, property, itemIndex);
}

/**
 * Reads a parameter that becomes one segment of the request path: not blank, and not "." or ".."
 * (URL parsers would resolve those into another path). Any other character is URL-encoded.
 */
export function requiredPathParameter(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string {
	const value = requiredTextParameter(ctx, property, itemIndex);
	if (isDotSegment(value)) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`${named(property)} cannot be ${quoted(value)}`,
			`"${property.displayName}" becomes part of the request path, where "." and ".." are not allowed.`,
		);
	}
	return value;
}

/**
 * Reads the `binaryPropertyName` option (the output field a file goes into) when a file is asked
 * for: text, not blank, and not a name reserved for objects' prototypes.
 */
export function binaryFieldOption(
	ctx: ParameterSource,
	itemIndex: number,
	options: IDataObject,
	property: INodeProperties,
): string {
	const what = named(property, 'option');
	const value = options[property.name] ?? property.default;
	const name = checkedText(ctx, itemIndex, value, what);
	const problem = name ? keyProblem(name, what) : `${what} must not be empty`;
	if (problem) throw invalidParameter(ctx, itemIndex, problem);
	return name;
}

/** A yes/no field: true, false, "true" or "false" (see `parseBoolean`); unset gives `fallback`. */
export function checkedBoolean(
	ctx: ParameterSource,
	itemIndex: number,
	value: unknown,
	what: string,
	fallback: boolean,
): boolean {
	if (value === undefined) return fallback;
	const problem = booleanProblem(value, what);
	if (problem) throw invalidParameter(ctx, itemIndex, problem);
	return parseBoolean(value) as boolean;
}

/** The yes/no field `property` of a collection's `values`; unset gives its default. */
export function booleanIn(
	ctx: ParameterSource,
	itemIndex: number,
	values: IDataObject,
	property: INodeProperties,
	kind: Kind,
): boolean {
	const what = named(property, kind);
	return checkedBoolean(ctx, itemIndex, values[property.name], what, property.default as boolean);
}

/** One of the values of an options parameter; unset gives `fallback`. */
export function checkedOption<T extends string>(
	ctx: ParameterSource,
	itemIndex: number,
	value: unknown,
	what: string,
	allowed: readonly T[],
	fallback: T,
): T {
	if (value === undefined) return fallback;
	const problem = optionProblem(value, allowed, what);
	if (problem) throw invalidParameter(ctx, itemIndex, problem);
	return value as T;
}

/** The options field `property` of a collection's `values`, one of its values; unset: its default. */
export function optionIn(
	ctx: ParameterSource,
	itemIndex: number,
	values: IDataObject,
	property: INodeProperties,
	kind: Kind,
): string {
	const fallback = property.default as string;
	const what = named(property, kind);
	return checkedOption(
		ctx,
		itemIndex,
		values[property.name],
		what,
		allowedValues(property),
		fallback,
	);
}

/** The options parameter `property` of an item, one of its values. */
export function optionParameter(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string {
	const value = ctx.getNodeParameter(property.name, itemIndex, property.default) as unknown;
	return optionIn(ctx, itemIndex, { [property.name]: value as IDataObject }, property, 'parameter');
}

/** A number under `rule` (see `numberProblem`); unset gives `fallback`. */
export function checkedNumber(
	ctx: ParameterSource,
	itemIndex: number,
	value: unknown,
	what: string,
	rule: NumberRule,
	fallback: number,
): number {
	const problem = numberProblem(value, what, rule);
	if (problem) throw invalidParameter(ctx, itemIndex, problem);
	return parseNumber(value) ?? fallback;
}

/** The number field `property` of a collection's `values` under `rule`; unset gives its default. */
export function numberIn(
	ctx: ParameterSource,
	itemIndex: number,
	values: IDataObject,
	property: INodeProperties,
	kind: Kind,
	rule: NumberRule,
): number {
	const what = named(property, kind);
	const fallback = property.default as number;
	return checkedNumber(ctx, itemIndex, values[property.name], what, rule, fallback);
}

/**
 * An optional number parameter (default '', as n8n's own nodes declare one): `undefined` when
 * unset (undefined, null, ''), else a number under `rule` and at most `max`, or refused.
 */
export function optionalNumberParameter(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
	rule: NumberRule & { max?: number },
): number | undefined {
	const value = ctx.getNodeParameter(property.name, itemIndex, property.default) as unknown;
	const what = named(property);
	const problem = numberProblem(value, what, rule);
	if (problem) throw invalidParameter(ctx, itemIndex, problem);
	const number = parseNumber(value);
	if (number !== undefined && rule.max !== undefined && number > rule.max) {
		throw invalidParameter(ctx, itemIndex, `${what} must be at most ${rule.max}, got ${number}`);
	}
	// -0 is sent as 0: JSON has no negative zero.
	return number === undefined ? undefined : number + 0;
}

/**
 * An optional yes/no parameter (an options parameter whose '' means "leave as it is"):
 * `undefined` when unset (undefined, null, ''), else true or false (see `parseBoolean`).
 */
export function optionalBooleanParameter(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): boolean | undefined {
	const value = ctx.getNodeParameter(property.name, itemIndex, property.default) as unknown;
	if (value === undefined || value === null || value === '') return undefined;
	return checkedBoolean(ctx, itemIndex, value, named(property), false);
}

/** Reads a collection parameter (`options`, `updateFields`, …): its fields, `{}` when unset. */
export function collectionParameter(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): IDataObject {
	const value = ctx.getNodeParameter(property.name, itemIndex, {}) as unknown;
	const problem = collectionProblem(value, named(property));
	if (problem) throw invalidParameter(ctx, itemIndex, problem);
	return (value ?? {}) as IDataObject;
}

/**
 * A text field of a collection (a filter): `undefined` when not added, never blank when it is
 * (`advice` says what to do instead).
 */
export function collectionTextField(
	ctx: ParameterSource,
	itemIndex: number,
	values: IDataObject,
	field: INodeProperties,
	advice: string,
): string | undefined {
	if (!(field.name in values)) return undefined;
	const what = named(field, 'field');
	const text = checkedText(ctx, itemIndex, values[field.name], what);
	if (text === '') {
		throw invalidParameter(ctx, itemIndex, `${what} must not be blank when it is set`, advice);
	}
	return text;
}

/** The entries of a fixedCollection with several values (`headers.header`, …): `[]` when unset. */
export function checkedList(
	ctx: ParameterSource,
	itemIndex: number,
	value: unknown,
	what: string,
): IDataObject[] {
	if (value === undefined || value === null || value === '') return [];
	const isEntry = (entry: unknown) =>
		typeof entry === 'object' && entry !== null && !Array.isArray(entry);
	const entries = Array.isArray(value) ? (value as unknown[]) : undefined;
	if (!entries?.every(isEntry)) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`${what} must be a list of entries, got ${shown(value)}`,
		);
	}
	return entries as IDataObject[];
}

/** The rows of a fixedCollection inside a collection (`fields.headers.header`): a list of entries. */
export function rowsIn(
	ctx: ParameterSource,
	itemIndex: number,
	collection: IDataObject,
	property: INodeProperties,
	kind: Kind,
): IDataObject[] {
	const rows = (collection[property.name] as IDataObject | undefined)?.[rowsOf(property).row];
	return checkedList(ctx, itemIndex, rows, named(property, kind));
}

/**
 * The rows of a fixedCollection parameter with one kind of row (`items` → its `item` rows) that
 * needs at least one: a list of entries, else it fails with "<the parameter> needs <needs>".
 */
export function rowsParameter(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
	none: { needs: string; description?: string },
): IDataObject[] {
	const what = named(property);
	const value = ctx.getNodeParameter(rowsOf(property).path, itemIndex, []);
	const rows = checkedList(ctx, itemIndex, value, what);
	if (rows.length === 0) {
		throw invalidParameter(ctx, itemIndex, `${what} needs ${none.needs}`, none.description);
	}
	return rows;
}

/**
 * A parameter read by its description's type, as the shapes read body fields (shapes/): text
 * (or a resource locator's value), required or optional as the description says. Other types get a reader with their first user.
 */
export function readParameter(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): unknown {
	if (property.type === 'string' || property.type === 'resourceLocator')
		return textParameter(ctx, property, itemIndex);
	throw new Error(`No reader for the ${property.type} parameter "${property.name}"`);
}

/**
 * A list of texts (marketplace item numbers, …): an array mapped by an expression (each entry
 * text, none blank), or text whose entries are separated by commas or line breaks (empty pieces
 * ignored). Each entry trimmed, none twice; at least one, else it fails with "<the parameter>
 * needs <needs>".
 */
export function textListParameter(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
	needs: string,
): string[] {
	const what = named(property);
	const value = ctx.getNodeParameter(property.name, itemIndex, property.default) as unknown;
	const entries = Array.isArray(value)
		? value.map((entry, i) => {
				const where = `Entry ${i + 1} of ${quotedName(property)}`;
				const text = checkedText(ctx, itemIndex, entry, where);
				if (text === '') throw invalidParameter(ctx, itemIndex, `${where} is blank`);
				return text;
			})
		: checkedText(ctx, itemIndex, value, what)
				.split(/[,\r\n]+/)
				.map((entry) => entry.trim())
				.filter(Boolean);
	if (entries.length === 0) {
		const hint = 'Enter the values separated by commas, or map an array with an expression.';
		throw invalidParameter(ctx, itemIndex, `${what} needs ${needs}`, hint);
	}
	const seen = new Set<string>();
	const twice = entries.find((entry) => seen.size === seen.add(entry).size);
	if (twice !== undefined) {
		throw invalidParameter(ctx, itemIndex, `${what} lists ${quoted(twice)} more than once`);
	}
	return entries;
}

/** Levels of nesting a JSON parameter may have (deeper ones are refused, not walked). */
const MAX_JSON_DEPTH = 32;

/** What is wrong with a value inside a JSON parameter, or undefined: JSON as it says, exactly. */
function jsonValueProblem(value: unknown, path: string, depth: number): string | undefined {
	const at = `the value at ${path}`;
	if (value === null || typeof value === 'boolean') return undefined;
	if (typeof value === 'string') return textProblem(value, at);
	if (typeof value === 'number') {
		if (!Number.isFinite(value) || Object.is(value, -0)) return `${at} is ${shown(value)}`;
		return Number.isInteger(value) && !Number.isSafeInteger(value)
			? `${at} is a number beyond 2^53 that cannot be sent exactly: write it as text`
			: undefined;
	}
	if (typeof value !== 'object') return `${at} is not a JSON value`;
	if (depth >= MAX_JSON_DEPTH) return `${at} is nested more than ${MAX_JSON_DEPTH} levels deep`;
	const entries = Array.isArray(value)
		? value.map((entry, i): [string, unknown] => [`${path}[${i}]`, entry])
		: Object.entries(value).map(([k, v]): [string, unknown] => [`${path}.${k}`, v]);
	for (const [where, entry] of entries) {
		const problem = jsonValueProblem(entry, where, depth + 1);
		if (problem) return problem;
	}
	return undefined;
}

/**
 * A JSON object parameter (`type: 'json'`): JSON text, or an object mapped by an expression.
 * Refused unless it is an object whose every value JSON carries exactly (no NaN, no number
 * beyond 2^53, no lone surrogate): it is sent as it says, never changed.
 */
export function jsonObjectParameter(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): IDataObject {
	const what = named(property);
	const raw = ctx.getNodeParameter(property.name, itemIndex, property.default) as unknown;
	let value = raw;
	if (typeof raw === 'string') {
		const text = checkedText(ctx, itemIndex, raw, what);
		try {
			value = JSON.parse(text) as unknown;
		} catch {
			const message = `${what} is not valid JSON: ${shown(text.slice(0, 60))}`;
			throw invalidParameter(ctx, itemIndex, message, 'Write a JSON object, such as {}.');
		}
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		const message = `${what} must be a JSON object, got ${shown(value)}`;
		throw invalidParameter(ctx, itemIndex, message, 'Write a JSON object, such as {}.');
	}
	const problem = jsonValueProblem(value, property.name, 0);
	if (problem) throw invalidParameter(ctx, itemIndex, `${what} is refused: ${problem}`);
	return value as IDataObject;
}

/**
 * A resource locator's value (chosen from its list, or typed by ID), trimmed; a required one is
 * never blank (`hint` says how to set it).
 */
export function locatorParameter(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
	hint: string,
): string {
	const text = checkedText(ctx, itemIndex, rawText(ctx, property, itemIndex), named(property));
	if (text === '') {
		const advice = isInputField(property) ? fieldAdvice(property) : hint;
		throw invalidParameter(ctx, itemIndex, `${named(property)} must not be empty`, advice);
	}
	return text;
}

/** The item's Warehouse Code (nodes/shared/parameters): chosen or typed, trimmed, never blank. */
export function readWarehouseCode(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string {
	const hint = `Choose a warehouse from the list, or set "${property.displayName}" by code (or map it with an expression).`;
	return locatorParameter(ctx, property, itemIndex, hint);
}

/**
 * The amounts of a price row (fields by API name → their properties): the ones set, or refused
 * when none is ("Item 3 sets nothing").
 */
export function readAmounts(
	ctx: ParameterSource,
	amounts: Record<string, INodeProperties>,
	itemIndex: number,
): IDataObject {
	const values: IDataObject = {};
	for (const [field, property] of Object.entries(amounts)) {
		const value = optionalNumberParameter(ctx, property, itemIndex, {});
		if (value !== undefined) values[field] = value;
	}
	if (Object.keys(values).length === 0) {
		const names = Object.values(amounts).map((property) => named(property));
		throw invalidParameter(
			ctx,
			itemIndex,
			`Item ${itemIndex} sets nothing: ${names.join(' and ')} are both empty`,
			'Set the price, the MSRP, or both.',
		);
	}
	return values;
}
