/** Lists: the rows of a fixedCollection, and a list of texts. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { named, quoted, quotedName, rowsOf, shown, type Kind } from '../../../shared';
import { invalidParameter, type ParameterSource } from './source';
import { checkText } from './text';

/** The entries of a fixedCollection with several values (`headers.header`, …): `[]` when unset. */
export function checkList(
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
export function readRowsField(
	ctx: ParameterSource,
	itemIndex: number,
	collection: IDataObject,
	property: INodeProperties,
	kind: Kind,
): IDataObject[] {
	const rows = (collection[property.name] as IDataObject | undefined)?.[rowsOf(property).row];
	return checkList(ctx, itemIndex, rows, named(property, kind));
}

/**
 * The rows of a fixedCollection parameter with one kind of row (`items` → its `item` rows) that
 * needs at least one: a list of entries, else it fails with "<the parameter> needs <needs>".
 */
export function readRows(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
	none: { needs: string; description?: string },
): IDataObject[] {
	const what = named(property);
	const value = ctx.getNodeParameter(rowsOf(property).path, itemIndex, []);
	const rows = checkList(ctx, itemIndex, value, what);
	if (rows.length === 0) {
		throw invalidParameter(ctx, itemIndex, `${what} needs ${none.needs}`, none.description);
	}
	return rows;
}

/**
 * A list of texts (marketplace item numbers, …): an array mapped by an expression (each entry
 * text, none blank), or text whose entries are separated by commas or line breaks (empty pieces
 * ignored). Each entry trimmed, none twice; at least one, else it fails with "<the parameter>
 * needs <needs>".
 */
export function readTextList(
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
				const text = checkText(ctx, itemIndex, entry, where);
				if (text === '') throw invalidParameter(ctx, itemIndex, `${where} is blank`);
				return text;
			})
		: checkText(ctx, itemIndex, value, what)
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
