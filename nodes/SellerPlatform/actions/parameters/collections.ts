/** Collection parameters (`options`, `updateFields`, `filters`, …) and the fields they hold. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { collectionProblem, keyProblem, named } from '../../../shared';
import { invalidParameter, type ParameterSource } from './source';
import { checkText } from './text';

/** Reads a collection parameter (`options`, `updateFields`, …): its fields, `{}` when unset. */
export function readCollection(
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
export function readTextField(
	ctx: ParameterSource,
	itemIndex: number,
	values: IDataObject,
	field: INodeProperties,
	advice: string,
): string | undefined {
	if (!(field.name in values)) return undefined;
	const what = named(field, 'field');
	const text = checkText(ctx, itemIndex, values[field.name], what);
	if (text === '') {
		throw invalidParameter(ctx, itemIndex, `${what} must not be blank when it is set`, advice);
	}
	return text;
}

/**
 * Reads the `binaryPropertyName` option (the output field a file goes into) when a file is asked
 * for: text, not blank, and not a name reserved for objects' prototypes.
 */
export function readBinaryPropertyField(
	ctx: ParameterSource,
	itemIndex: number,
	options: IDataObject,
	property: INodeProperties,
): string {
	const what = named(property, 'option');
	const value = options[property.name] ?? property.default;
	const name = checkText(ctx, itemIndex, value, what);
	const problem = name ? keyProblem(name, what) : `${what} must not be empty`;
	if (problem) throw invalidParameter(ctx, itemIndex, problem);
	return name;
}
