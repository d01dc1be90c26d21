/**
 * The simplified FBPI order of Get and Get Many (shapes/simplify.ts): what a fulfilment workflow
 * maps, the order's identity, warehouse and time, and per item its number, SKU and statuses.
 */
import type { IDataObject } from 'n8n-workflow';

import { picked, pickedList, type Simplified } from '../shapes/simplify';

const ORDER_FIELDS = [
	'fbpi_order_nr',
	'mp_code',
	'mp_order_nr',
	'mp_country_code',
	'warehouse_code',
	'order_created_at',
] as const;
const ITEM_FIELDS = ['mp_item_nr', 'partner_sku', 'mp_status', 'integration_status'] as const;

export const simplifiedOrder: Simplified = {
	fields:
		'fbpi_order_nr, mp_code, mp_order_nr, mp_country_code, warehouse_code, order_created_at, and items with mp_item_nr, partner_sku, mp_status and integration_status',
	shape(order: IDataObject): IDataObject {
		const items = pickedList(order.items, (item) => picked(item, ITEM_FIELDS));
		return { ...picked(order, ORDER_FIELDS), ...(items ? { items } : {}) };
	},
};
