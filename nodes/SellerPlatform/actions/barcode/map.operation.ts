/**
 * Barcode → Map: maps each input item's barcode to its partner SKU at once (SkuBarcodeMap, the
 * synchronous mapping; Import → Create Barcode Import is the asynchronous one). One row per input
 * item, packed into requests (shapes/batch.ts); each row is answered with its own status, so a
 * barcode the service refuses (taken by another SKU, a SKU not in the catalog) is its item's error.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { labelOf, named, partnerSkuProperty } from '../../../shared';
import {
	checkBoolean,
	invalidParameter,
	readRequiredText,
	type ParameterSource,
} from '../parameters';
import { batchOperation, type KeyField } from '../shapes/batch';

/**
 * Rows per request. The reference states no cap for SkuBarcodeMap; 100 is the package's
 * conservative choice, as for stock and prices (1,500 requests a minute still map 150,000 rows).
 */
export const MAX_BARCODE_ROWS = 100;
/** The longest barcode and partner SKU the service takes (the reference: 100 characters each). */
export const MAX_BARCODE_LENGTH = 100;

const barcodeProperty = (description: string): INodeProperties => ({
	displayName: 'Barcode',
	name: 'barcode',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 6291041500213',
	description,
});

const forceMap: INodeProperties = {
	displayName: 'Force Map',
	name: 'forceMap',
	type: 'boolean',
	default: false,
	description:
		'Whether to move the barcode to this SKU when it is mapped to another one. Off, such a barcode is refused (that item’s error) and keeps its mapping.',
};

/** A barcode maps to one SKU: two items with one barcode in a run are one row too many. */
const BARCODE_KEY: KeyField[] = [
	{ field: 'barcode', label: 'barcode', parameter: labelOf(barcodeProperty) },
];

/** The row's fields by the API's names (shapes/mapping.ts). */
const fields = {
	barcode: barcodeProperty(
		`The barcode (EAN, UPC or ISBN) to map, at most ${MAX_BARCODE_LENGTH} characters. The service creates it when it does not know it yet.`,
	),
	partner_sku: partnerSkuProperty(
		`Your SKU the barcode stands for, at most ${MAX_BARCODE_LENGTH} characters: it must already be in your catalog`,
	),
	force_map: forceMap,
};

/** A required text of at most MAX_BARCODE_LENGTH characters. */
function shortText(ctx: ParameterSource, property: INodeProperties, itemIndex: number) {
	const text = readRequiredText(ctx, property, itemIndex);
	if (text.length > MAX_BARCODE_LENGTH) {
		const message = `${named(property)} must be at most ${MAX_BARCODE_LENGTH} characters, got ${text.length}`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	return text;
}

function readRow(ctx: ParameterSource, read: typeof fields, itemIndex: number): IDataObject {
	const row: IDataObject = {
		barcode: shortText(ctx, read.barcode, itemIndex),
		partner_sku: shortText(ctx, read.partner_sku, itemIndex),
	};
	const { force_map: force } = read;
	const value = ctx.getNodeParameter(force.name, itemIndex, force.default) as unknown;
	// Sent only when set: left out, the service does not force.
	if (checkBoolean(ctx, itemIndex, value, named(force), false)) row.force_map = true;
	return row;
}

export const { description, plan } = batchOperation({
	show: { resource: 'barcode', operation: 'map' },
	fields,
	rowIs: 'a barcode and the SKU it stands for',
	endpoint: 'SkuBarcodeMap',
	maxRows: MAX_BARCODE_ROWS,
	key: BARCODE_KEY,
	repeatedKey: 'refuse',
	row: readRow,
	leftOutAdvice:
		'Whether the service mapped it is unknown: run the item again (mapping a barcode to the same SKU again is safe).',
	// The service's row (barcode and SKU as it stored them; its status is OK, so left out), and
	// whether the item forced it.
	output: (answer, sent) => {
		const json: IDataObject = { barcode: sent.barcode, partner_sku: sent.partner_sku, ...answer };
		delete json.status;
		return { ...json, force_map: sent.force_map === true };
	},
});
