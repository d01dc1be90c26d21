/**
 * What the FBN item changes share: one row per input item (an ASN and a partner SKU), packed per
 * ASN into requests of at most 1000 items (the reference's cap; a larger shipment is split into
 * several requests, as the reference asks). The answer is the ASN after the change: each item's
 * output is its row with that ASN (`shipment`).
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { asnNrProperty, PARTNER_SKU_KEY } from '../../../shared';
import { readPathSegment, readRequiredText, type ParameterSource } from '../parameters';
import type { KeyField } from '../shapes/batch';

/** Items one upsert or delete request carries at most (the reference's cap). */
export const MAX_ASN_ITEMS = 1000;

export const asn = asnNrProperty('The number of the ASN, in status Created (asn_nr)');

export const ITEM_KEY: KeyField[] = [
	{ field: 'asn_nr', label: 'ASN', parameter: asn.displayName },
	PARTNER_SKU_KEY,
];

/** The row's key: the ASN (a path segment) and the SKU. */
export function readItemKey(
	ctx: ParameterSource,
	fields: { asn_nr: INodeProperties; partner_sku: INodeProperties },
	itemIndex: number,
): IDataObject {
	return {
		asn_nr: readPathSegment(ctx, fields.asn_nr, itemIndex),
		partner_sku: readRequiredText(ctx, fields.partner_sku, itemIndex),
	};
}

/** Rows of one ASN go to its path. */
export const pathOf = (row: IDataObject) => ({ asn_nr: String(row.asn_nr) });

/** Each item's output: its row and the ASN after the request. */
export const withShipment =
	(extra: IDataObject = {}) =>
	(answer: IDataObject, sent: IDataObject): IDataObject => ({
		...sent,
		...extra,
		shipment: answer.shipment,
	});
