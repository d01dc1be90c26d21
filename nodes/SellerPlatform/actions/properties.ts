/**
 * What an operation's description says of a parameter, for the readers (parameters.ts) and the
 * messages: its label and name, its allowed values, and the parameter itself by its name.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** What a property is to the user, as messages call it. */
export type Kind = 'parameter' | 'option' | 'field' | 'setting';

/** A property as messages quote it: `"PO Number" (poNr)`. */
export function quotedName(property: Pick<INodeProperties, 'displayName' | 'name'>): string {
	return `"${property.displayName}" (${property.name})`;
}

/** How messages name a property: `The parameter "PO Number" (poNr)`. */
export function named(property: INodeProperties, kind: Kind = 'parameter'): string {
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
