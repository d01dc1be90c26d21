/** Export → Get Categories: the export categories of the service, one output item each. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../../shared';
import { describe } from '../shapes/declaration';
import { perItem } from '../runner';

export const description = describe({
	show: { resource: 'export', operation: 'getCategories' },
	properties: [],
});

/** One item per category (`export_category_code`, `params`), paired with its input item. */
export const plan = perItem(function (this: IExecuteFunctions, itemIndex) {
	return {
		send: async () => {
			const answer = await apiRequest.call(this, 'GetExportCategoryList', { itemIndex });
			const categories = Array.isArray(answer.export_categories)
				? (answer.export_categories as unknown[])
				: [];
			const list = categories.map((category) => ({
				json:
					typeof category === 'object' && category !== null && !Array.isArray(category)
						? (category as IDataObject)
						: { value: category as IDataObject[string] },
			}));
			return { list };
		},
	};
});
