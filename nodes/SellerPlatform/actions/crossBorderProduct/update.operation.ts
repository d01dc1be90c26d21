/**
 * Cross-Border Product → Update: creates or updates each input item's product for cross-border
 * pricing (BatchUpsertProduct): its dimensions, volumetric and actual weight and HS code, each
 * optional (the reference requires only the partner SKU). The output is the row sent, once the
 * service answered it OK.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	collectionProblem,
	named,
	parseNumber,
	PARTNER_SKU_KEY,
	partnerSkuProperty,
} from '../../../shared';
import {
	checkNumber,
	invalidParameter,
	readNonBlankText,
	readOptionalNumber,
	readRequiredText,
	type ParameterSource,
} from '../parameters';
import { batchOperation } from '../shapes/batch';

/**
 * Rows per request. The reference states no cap for this endpoint (only for its sibling transfer
 * price endpoints); 100 is the package's conservative choice, as for stock and prices.
 */
export const MAX_PRODUCT_ROWS = 100;

const centimetres = (name: string, displayName: string): INodeProperties => ({
	displayName,
	name,
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: '',
	description: `The ${name} of the item in centimetres, above 0`,
});

const dimensions: INodeProperties = {
	displayName: 'Dimensions',
	name: 'dimensionsCm',
	type: 'fixedCollection',
	placeholder: 'Add Dimensions',
	default: {},
	description:
		'Length, width and height of the item in centimetres, all three. Leave out to keep the current ones.',
	options: [
		{
			displayName: 'Dimensions',
			name: 'dimensions',
			values: [
				centimetres('length', 'Length'),
				centimetres('width', 'Width'),
				centimetres('height', 'Height'),
			],
		},
	],
};
const sides = (dimensions.options?.[0] as { values: INodeProperties[] }).values;
const vmWeight: INodeProperties = {
	displayName: 'Volumetric Weight',
	name: 'vmWeightCm',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 3 },
	default: '',
	description:
		'The volumetric weight of the item (the service names it vm_weight_cm), not negative. Leave empty to keep the current one.',
};
const actualWeight: INodeProperties = {
	displayName: 'Actual Weight (Kg)',
	name: 'actualWeightKg',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 3 },
	default: '',
	description:
		'The weight of the item in kilograms, not negative. Leave empty to keep the current one.',
};
const hsCode: INodeProperties = {
	displayName: 'HS Code',
	name: 'hsCode',
	type: 'string',
	default: '',
	placeholder: 'e.g. 6109.10',
	description:
		'The Harmonized System code of the item for customs, sent as written. Leave empty to keep the current one.',
};

/** The row's fields by the API's names (shapes/mapping.ts). */
const fields = {
	partner_sku: partnerSkuProperty('Your SKU whose product to create or update'),
	dimensions_cm: dimensions,
	vm_weight_cm: vmWeight,
	actual_weight_kg: actualWeight,
	hs_code: hsCode,
};

/** The dimensions, when added: length, width and height, each a number above 0. */
function readDimensions(
	ctx: ParameterSource,
	dimensions: INodeProperties,
	itemIndex: number,
): IDataObject | undefined {
	const added = ctx.getNodeParameter(dimensions.name, itemIndex, {}) as IDataObject | null;
	const value = added?.dimensions;
	if (value === undefined || value === null) return undefined;
	const problem = collectionProblem(value, named(dimensions));
	if (problem) throw invalidParameter(ctx, itemIndex, problem);
	const sizes: IDataObject = {};
	for (const side of sides) {
		const given = (value as IDataObject)[side.name];
		const what = `The field "${side.displayName}" of ${named(dimensions)}`;
		if (parseNumber(given) === undefined) {
			const hint = 'Set all three dimensions, or remove Dimensions to leave them as they are.';
			throw invalidParameter(ctx, itemIndex, `${what} must be set`, hint);
		}
		sizes[side.name] = checkNumber(ctx, itemIndex, given, what, { aboveMin: true }, 0) + 0;
	}
	return sizes;
}

function readRow(ctx: ParameterSource, read: typeof fields, itemIndex: number): IDataObject {
	const row: IDataObject = { partner_sku: readRequiredText(ctx, read.partner_sku, itemIndex) };
	const values = {
		dimensions_cm: readDimensions(ctx, read.dimensions_cm, itemIndex),
		vm_weight_cm: readOptionalNumber(ctx, read.vm_weight_cm, itemIndex, {}),
		actual_weight_kg: readOptionalNumber(ctx, read.actual_weight_kg, itemIndex, {}),
		hs_code: readNonBlankText(ctx, read.hs_code, itemIndex),
	};
	for (const [field, value] of Object.entries(values)) if (value !== undefined) row[field] = value;
	return row;
}

export const { description, plan } = batchOperation({
	show: { resource: 'crossBorderProduct', operation: 'update' },
	fields,
	rowIs: 'a SKU and what to set',
	endpoint: 'BatchUpsertProduct',
	maxRows: MAX_PRODUCT_ROWS,
	key: [PARTNER_SKU_KEY],
	repeatedKey: 'refuse',
	row: readRow,
	leftOutAdvice:
		'Whether the service applied it is unknown: run the item again (an update sets the values, so repeating it is safe).',
	// The answer's key is the row's (they matched): the row sent is the output.
	output: (_answer, sent) => ({ ...sent }),
});
