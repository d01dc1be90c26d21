/**
 * The Warehouse Code parameter of the FBPI, stock and shipment operations: a resource locator
 * that offers the project's warehouses (the node's `searchWarehouses` list search) or takes a
 * code typed or mapped by expression. Read like any required text (parameters.ts).
 */
import type { INodeProperties } from 'n8n-workflow';

import { locatorParameter, locatorProperty, type ParameterSource } from '../parameters';

/** The node's list-search method that lists the warehouses (SellerPlatform.node.ts `methods`). */
export const WAREHOUSE_SEARCH_METHOD = 'searchWarehouses';

/** The property, with the description of what the operation does with the warehouse. */
export function warehouseCodeProperty(description: string): INodeProperties {
	return locatorProperty({
		displayName: 'Warehouse Code',
		name: 'warehouseCode',
		description,
		searchListMethod: WAREHOUSE_SEARCH_METHOD,
		searchable: true,
		example: 'WH-DXB-01',
	});
}

/** The item's warehouse code: the chosen or typed value, trimmed, never blank. */
export function readWarehouseCode(
	ctx: ParameterSource,
	property: INodeProperties,
	itemIndex: number,
): string {
	const hint = `Choose a warehouse from the list, or set "${property.displayName}" by code (or map it with an expression).`;
	return locatorParameter(ctx, property, itemIndex, hint);
}
