/**
 * The Warehouse Code parameter of both nodes (the action node's FBPI, stock and shipment
 * operations, the poll trigger): a resource locator that offers the project's warehouses (the
 * list search `searchWarehouses`, transport/warehouses.ts, each node registers it in
 * `methods.listSearch`) or takes a code typed or mapped by expression.
 */
import type { INodeProperties } from 'n8n-workflow';

import { locatorProperty } from './locator';

/** The name the nodes register the warehouse list search under (`methods.listSearch`). */
const WAREHOUSE_SEARCH_METHOD = 'searchWarehouses';

/** The property, with the description of what the operation does with the warehouse. */
export function warehouseCodeProperty(description: string): INodeProperties {
	return locatorProperty({
		displayName: 'Warehouse Code',
		name: 'warehouseCode',
		description: `${description.replace(/\.$/, '')}. Its code, as Warehouse → Get Many lists it.`,
		searchListMethod: WAREHOUSE_SEARCH_METHOD,
		searchable: true,
		example: 'WH-DXB-01',
	});
}
