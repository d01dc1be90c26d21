/** The Partner SKU of the stock, price, offer, barcode and FBN item operations. */
import type { INodeProperties } from 'n8n-workflow';

export const partnerSkuProperty = (description: string): INodeProperties => ({
	displayName: 'Partner SKU',
	name: 'partnerSku',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. SKU-1001',
	description,
});

/** The SKU as the batch operations name a row by it (their key field, shapes/batch.ts). */
export const PARTNER_SKU_KEY = {
	field: 'partner_sku',
	label: 'SKU',
	parameter: partnerSkuProperty('').displayName,
};
