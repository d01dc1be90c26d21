/** Purchase order operations (FBPO). */
import { ApiError } from '../errors';
import type { RouteModule } from './types';

export const purchaseOrderRoutes: RouteModule = () => [
	{
		operation: 'GetPurchaseOrder',
		method: 'GET',
		path: '/fbpo/v1/po/{po_nr}/get',
		auth: 'session',
		rateLimited: true,
		handler: ({ state, params }) => {
			const po = state.findPurchaseOrder(params.po_nr);
			if (!po)
				throw new ApiError('NOT_FOUND', `purchase order ${JSON.stringify(params.po_nr)} not found`);
			return { body: po };
		},
	},
];
