/**
 * Stock → Update: sets the quantity and/or the processing time of each input item's warehouse
 * and partner SKU (UpdateStock). The output is the answer's row with the values sent.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { named, partnerSkuProperty, warehouseCodeProperty } from '../../../shared';
import {
	invalidParameter,
	readNonBlankText,
	readOptionalNumber,
	type ParameterSource,
} from '../parameters';
import { batchOperation } from '../shapes/batch';
import { MAX_STOCK_ROWS, readStockKey, STOCK_KEY } from './row';

/** The largest quantity the service takes (a 32-bit integer). */
export const MAX_QUANTITY = 2_147_483_647;

const quantity: INodeProperties = {
	displayName: 'Quantity',
	name: 'quantity',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: MAX_QUANTITY, numberPrecision: 0 },
	default: '',
	description:
		'The stock available for sale in the warehouse: the new total, not a change. A whole number from 0. Leave empty to keep the current quantity.',
};
const processingTime: INodeProperties = {
	displayName: 'Processing Time',
	name: 'processingTime',
	type: 'string',
	default: '',
	description:
		'How long the warehouse needs to prepare the item for shipping, sent as text as you give it (the service defines no format for it). Leave empty to keep the current one.',
};

/** The row's fields by the API's names (shapes/mapping.ts). */
const fields = {
	warehouse_code: warehouseCodeProperty('The warehouse whose stock to set'),
	partner_sku: partnerSkuProperty('Your SKU whose stock in the warehouse to set'),
	qty: quantity,
	processing_time: processingTime,
};

function readRow(ctx: ParameterSource, read: typeof fields, itemIndex: number): IDataObject {
	const row = readStockKey(ctx, read, itemIndex);
	const qty = readOptionalNumber(ctx, read.qty, itemIndex, {
		whole: true,
		max: MAX_QUANTITY,
	});
	const time = readNonBlankText(ctx, read.processing_time, itemIndex);
	if (qty === undefined && time === undefined) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`Item ${itemIndex} sets nothing: ${named(read.qty)} and ${named(read.processing_time)} are both empty`,
			'Set the quantity, the processing time, or both.',
		);
	}
	if (qty !== undefined) row.qty = qty;
	if (time !== undefined) row.processing_time = time;
	return row;
}

export const { description, plan } = batchOperation({
	show: { resource: 'stock', operation: 'update' },
	fields,
	rowIs: 'a warehouse, a SKU and what to set',
	endpoint: 'UpdateStock',
	maxRows: MAX_STOCK_ROWS,
	key: STOCK_KEY,
	repeatedKey: 'refuse',
	row: readRow,
	leftOutAdvice:
		'Whether the service applied it is unknown: read it back with Stock → Get, or run the item again (an update sets the values, so repeating it is safe).',
	// The answer's key is the row's (they matched): the row sent is the output, as it is (a write
	// refuses a repeated key, so each row answers one item; 100,000 rows need no second copy).
	output: (_answer, sent) => sent,
});
