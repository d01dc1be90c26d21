/**
 * The Export Category Code of Export → Create: a resource locator that offers the categories the
 * service lists (GetExportCategoryList, the node's `searchExportCategories` list search) or takes
 * a code typed or mapped by expression. The list is read when the editor asks (its plan, 1500 per
 * minute, leaves room): nothing is kept between calls.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';

import { apiRequest, locatorProperty } from '../../../shared';
import { readLocator } from '../parameters';

/** The node's list-search method that lists the export categories (SellerPlatform.node.ts). */
export const EXPORT_CATEGORY_SEARCH_METHOD = 'searchExportCategories';

export const exportCategoryProperty: INodeProperties = locatorProperty({
	displayName: 'Export Category Code',
	name: 'exportCategoryCode',
	description:
		'The kind of data to export: one of the export_category_code values Export → Get Categories lists',
	searchListMethod: EXPORT_CATEGORY_SEARCH_METHOD,
	searchable: true,
	example: 'ORDERS_EXPORT',
});

/** The item's category code: chosen or typed, trimmed, never blank. */
export function readExportCategory(ctx: IExecuteFunctions, itemIndex: number): string {
	return readLocator(
		ctx,
		exportCategoryProperty,
		itemIndex,
		`Choose a category from the list, or set "${exportCategoryProperty.displayName}" by code (or map it with an expression).`,
	);
}

/** The categories of an answer: code, and the names of the parameters each takes. */
function categoriesOf(answer: IDataObject): Array<{ code: string; params: string[] }> {
	const list = Array.isArray(answer.export_categories)
		? (answer.export_categories as unknown[])
		: [];
	return list.flatMap((entry) => {
		if (typeof entry !== 'object' || entry === null) return [];
		const { export_category_code: code, params } = entry as IDataObject;
		if (typeof code !== 'string' || code.trim() === '') return [];
		const names =
			typeof params === 'object' && params !== null && !Array.isArray(params)
				? Object.keys(params)
				: [];
		return [{ code, params: names }];
	});
}

/** The list search: the categories whose code contains the search text (any case). */
export async function searchExportCategories(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const answer = await apiRequest.call(this, 'GetExportCategoryList');
	const wanted = (filter ?? '').trim().toLowerCase();
	const results = categoriesOf(answer)
		.filter(({ code }) => !wanted || code.toLowerCase().includes(wanted))
		.map(({ code, params }) => ({
			name: code,
			value: code,
			description: params.length ? `Parameters: ${params.join(', ')}` : 'No parameters',
		}));
	return { results };
}
