/**
 * What a node's description says of a parameter, for both nodes' readers and their messages: its
 * label and name, its allowed values, the parameter itself by its name, the fields of a
 * fixedCollection's rows. Each label, name and default is written once, in the description.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** What a property is to the user, as messages call it. */
export type Kind = 'parameter' | 'option' | 'field' | 'setting';

/** A property as messages quote it: `"PO Number" (poNr)`. */
export function quotedName(property: Pick<INodeProperties, 'displayName' | 'name'>): string {
	return `"${property.displayName}" (${property.name})`;
}

/** How messages name a field of the credential: `The "Base URL" field of the credential`. */
export function credentialField(property: Pick<INodeProperties, 'displayName'>): string {
	return `The "${property.displayName}" field of the credential`;
}

/**
 * A property read from a field of the input item rather than from the node's parameters (a batch
 * operation's Map Automatically), or from a column of a CSV file (`column`): `name` is the
 * field's, as the API names it.
 */
export type InputField = INodeProperties & { inputField: true; column?: true };

/** The input field (or CSV column) `field` standing for `property`: its rules, the field's name. */
export const inputField = (
	property: INodeProperties,
	field: string,
	column = false,
): InputField => ({
	...property,
	name: field,
	inputField: true,
	...(column ? { column: true as const } : {}),
});

export const isInputField = (property: INodeProperties): property is InputField =>
	(property as Partial<InputField>).inputField === true;

/**
 * How messages name a property: `The parameter "PO Number" (poNr)`; an input field by its name:
 * `The input field "qty"`.
 */
export function named(property: INodeProperties, kind: Kind = 'parameter'): string {
	if (isInputField(property))
		return `The ${property.column ? 'column' : 'input field'} "${property.name}"`;
	return `The ${kind} ${quotedName(property)}`;
}

/** The property `name` of a description (or of a collection's `options`); a typo fails at load. */
export function propertyIn(
	properties: readonly INodeProperties[] | INodeProperties['options'],
	name: string,
): INodeProperties {
	const found = (properties ?? []).find((entry) => entry.name === name);
	if (!found || !('displayName' in found) || !('type' in found)) {
		throw new Error(`No property "${name}" in the description`);
	}
	return found as INodeProperties;
}

/** The values an options property allows, in the order its description lists them. */
export function allowedValues(property: INodeProperties): string[] {
	return ((property.options ?? []) as INodePropertyOptions[]).map((option) => String(option.value));
}

/** The name an options property shows for `value` (`fromInputItems` → "From Input Items"). */
export function optionLabel(property: INodeProperties, value: string): string {
	const option = ((property.options ?? []) as INodePropertyOptions[]).find(
		(entry) => String(entry.value) === value,
	);
	if (!option) throw new Error(`No value "${value}" in "${property.name}"`);
	return option.name;
}

/**
 * The rows of a fixedCollection with one kind of row (`items` → `item`): the row's name, where n8n
 * puts the rows (`items.item`) and the fields of each row.
 */
export function rowsOf(property: INodeProperties): {
	row: string;
	path: string;
	fields: INodeProperties[];
} {
	const [row] = (property.options ?? []) as Array<{ name?: string; values?: INodeProperties[] }>;
	if (!row?.name || !row.values)
		throw new Error(`"${property.name}" has no rows in the description`);
	return { row: row.name, path: `${property.name}.${row.name}`, fields: row.values };
}
