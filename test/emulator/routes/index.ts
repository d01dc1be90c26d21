/**
 * The API route table. To add an operation, write a `RouteModule` in this folder and list it here.
 */
import { loginRoutes } from '../auth';
import { purchaseOrderRoutes } from './purchaseOrders';
import type { ApiRoute, RouteConfig, RouteModule } from './types';

export type { ApiResult, ApiRoute, ApiRouteContext, RouteConfig, RouteModule } from './types';

const ROUTE_MODULES: readonly RouteModule[] = [loginRoutes, purchaseOrderRoutes];

export function buildApiRoutes(config: RouteConfig): ApiRoute[] {
	return ROUTE_MODULES.flatMap((module) => module(config));
}
