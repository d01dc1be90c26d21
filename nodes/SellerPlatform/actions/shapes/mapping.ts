/**
 * How a batch operation (shapes/batch.ts) makes each input item its row: the `mappingMode`
 * parameter, in n8n's own convention (its resource mapper in Google Sheets, Airtable, Postgres:
 * "Map Automatically" and mapping each field by hand, `autoMapInputData` and `defineBelow`).
 * - Map Each Field Below (`defineBelow`, the default: a saved workflow without the parameter has
 *   it): the parameters, mapped by hand or by expressions.
 * - Map Automatically (`autoMapInputData`): the input item's own fields, named as the API names
 *   them (the keys of the operation's `fields`), listed in the editor's notice; each read under
 *   its parameter's rules, and named in messages as the field.
 * - Read Rows From a CSV File (`csvFile`, the operations that write): each row of a CSV file in
 *   the input item's binary field is a row, its columns named as under Map Automatically, read
 *   under the same rules (csvFile.ts), without turning the rows into n8n items.
 */
import type { INodeProperties } from 'n8n-workflow';

import { inputField, type InputField } from '../../../shared';

/** A batch row's fields by the API's names, each with the parameter that gives it. */
export type RowFields = Record<string, INodeProperties>;

export const MAPPING_MODE = {
	defineBelow: 'defineBelow',
	autoMapInputData: 'autoMapInputData',
	csvFile: 'csvFile',
} as const;

const csvFileOption = {
	name: 'Read Rows From a CSV File',
	value: MAPPING_MODE.csvFile,
	description:
		"Each row of a CSV file in the input item's binary field is one row, its columns named as the API names them (as Map Automatically reads fields); other columns are ignored",
};

export const mappingModeProperty: INodeProperties = {
	displayName: 'Mapping Column Mode',
	name: 'mappingMode',
	type: 'options',
	options: [
		{
			name: 'Map Automatically',
			value: MAPPING_MODE.autoMapInputData,
			description:
				"Read each row from the input item's own fields, named as the API names them (a sheet's columns)",
		},
		{
			name: 'Map Each Field Below',
			value: MAPPING_MODE.defineBelow,
			description: 'Set the value of each field, by hand or with an expression',
		},
		csvFileOption,
	],
	// A literal: n8n's lint reads it. Saved workflows without the parameter have it.
	default: 'defineBelow',
	description: 'How each input item becomes a row',
};

/** The input fields standing for `fields`' parameters under Map Automatically. */
export function inputFields(fields: RowFields): Record<string, InputField> {
	const mapped: Record<string, InputField> = {};
	for (const [field, property] of Object.entries(fields))
		mapped[field] = inputField(property, field);
	return mapped;
}

/** A name as compared for resemblance: lower case, no `-` or `_` (`Partner-SKU`: `partnersku`). */
const folded = (name: string) => name.toLowerCase().replace(/[-_]/g, '');

/**
 * The field a name is not but resembles (the same apart from case, `-` or `_`: `Processing_Time`
 * for `processing_time`), or undefined: a column so named is a mistake, never a column to ignore.
 */
export function resembledField(name: string, fields: RowFields): string | undefined {
	if (name in fields) return undefined;
	const key = folded(name);
	return Object.keys(fields).find((field) => folded(field) === key);
}

/** The fields as the notice lists them: `warehouse_code (required), qty`. */
export const fieldList = (fields: RowFields) =>
	Object.entries(fields)
		.map(([field, property]) => (property.required ? `${field} (required)` : field))
		.join(', ');

export const shownIn = (mode: string) => ({ show: { [mappingModeProperty.name]: [mode] } });

/** The mode as an operation offers it: Read Rows From a CSV File only where `csvFile` is true. */
export function mappingModeOf(csvFile: boolean): INodeProperties {
	if (csvFile) return mappingModeProperty;
	const options = mappingModeProperty.options?.filter((option) => option !== csvFileOption);
	return { ...mappingModeProperty, options };
}

/**
 * The mode, the notice of each mode (one row per input item, packed into requests), then the
 * parameters, shown under Map Each Field Below.
 */
export function mappingProperties(
	fields: RowFields,
	{ rowIs, maxRows }: { rowIs: string; maxRows: number },
	mode: INodeProperties,
	csvFile: INodeProperties[],
): INodeProperties[] {
	const requests = `Rows are sent in requests of at most ${maxRows}; each item gets its own output item, or its own error.`;
	const defineBelow = shownIn(MAPPING_MODE.defineBelow);
	return [
		mode,
		{
			displayName: `Each input item is one row (${rowIs}): map the fields below from the item with expressions. ${requests}`,
			name: 'batchNotice',
			type: 'notice',
			default: '',
			displayOptions: defineBelow,
		},
		{
			displayName: `Each input item is one row (${rowIs}), read from its fields named as the API names them: ${fieldList(fields)}. Other fields are ignored; rename columns with an Edit Fields node if needed. ${requests}`,
			name: 'autoMapNotice',
			type: 'notice',
			default: '',
			displayOptions: shownIn(MAPPING_MODE.autoMapInputData),
		},
		...csvFile,
		...Object.values(fields).map((property) => ({
			...property,
			displayOptions: {
				...property.displayOptions,
				show: { ...property.displayOptions?.show, ...defineBelow.show },
			},
		})),
	];
}
