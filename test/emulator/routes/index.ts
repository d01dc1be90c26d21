/**
 * The API route table. To add an operation, write a `RouteModule` in this folder and list it here.
 */
import { loginRoutes } from '../auth';
import { credentialRoutes } from './credentials';
import { destinationRoutes } from './destinations';
import { exportRoutes } from './exports';
import { fbpiOrderRoutes } from './fbpiOrders';
import { importRoutes } from './imports';
import { oauthRoutes } from './oauth';
import { purchaseOrderRoutes } from './purchaseOrders';
import type { ApiRoute, RouteConfig, RouteModule } from './types';

export type { ApiResult, ApiRoute, ApiRouteContext, RouteConfig, RouteModule } from './types';

const ROUTE_MODULES: readonly RouteModule[] = [
	loginRoutes,
	oauthRoutes,
	exportRoutes,
	purchaseOrderRoutes,
	fbpiOrderRoutes,
	importRoutes,
	credentialRoutes,
	destinationRoutes,
];

export function buildApiRoutes(config: RouteConfig): ApiRoute[] {
	return ROUTE_MODULES.flatMap((module) => module(config));
}
