/**
 * The resource locator the nodes' pickers are made of (Warehouse Code, ASN Number, the action
 * node's own pickers): a list from a list search, or a value typed or mapped by expression.
 */
import type { INodeProperties } from 'n8n-workflow';

/**
 * A resource locator: from the node's list search `searchListMethod`, or typed (mode `id`, "By
 * Code" unless `typedLabel` says otherwise). Required unless `optional`; `dependsOn` as n8n's
 * own dependent pickers (Google Sheets' sheet on its document). A plain string saved
 * before the parameter was a locator is read as it is (n8n's `extractValue` passes it through).
 */
export function locatorProperty(locator: {
	displayName: string;
	name: string;
	description: string;
	searchListMethod: string;
	searchable: boolean;
	example: string;
	typedLabel?: string;
	optional?: boolean;
	/** Parameters the list depends on (e.g. `asnNr.value`): the editor lists anew when they change. */
	dependsOn?: string[];
}): INodeProperties {
	const { displayName, name, description, searchListMethod, searchable, example } = locator;
	return {
		displayName,
		name,
		type: 'resourceLocator',
		required: !locator.optional,
		default: { mode: 'list', value: '' },
		description,
		...(locator.dependsOn ? { typeOptions: { loadOptionsDependsOn: locator.dependsOn } } : {}),
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: searchable ? { searchListMethod, searchable } : { searchListMethod },
			},
			{
				displayName: locator.typedLabel ?? 'By Code',
				name: 'id',
				type: 'string',
				placeholder: `e.g. ${example}`,
			},
		],
	};
}

/** The label of a parameter made by `property` (written once, in its description). */
export const labelOf = (property: (description: string) => INodeProperties) =>
	property('').displayName;
