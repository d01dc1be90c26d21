import { resource } from '../resource';
import * as get from './get.operation';

export const { option, operations, description } = resource({
	value: 'purchaseOrder',
	name: 'Purchase Order',
	operations: {
		get: {
			name: 'Get',
			action: 'Get a purchase order',
			description: 'Fetch a purchase order with its status, release date and lines by its number',
			tool: 'Gets a purchase order by its number (po_nr, such as PO-1001; no tool lists purchase orders: ask the user for it): po_status, warehouse_code, po_currency, po_release_date (also as ISO 8601 in po_release_date_iso) and po_lines.',
			operation: get,
		},
	},
});
