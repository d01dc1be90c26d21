/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Control API under `/__control/`: lets tests and users inspect and steer the emulator over HTTP.
 * No session needed, never rate limited, never in the request log. Each route calls the matching
 * in-process method of the emulator, which validates its input.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { ApiError, invalidArgument, toApiError } from './errors';
import { parseBody, readBody, sendJson } from './http';
import { compileRoutes, matchRoute, rawPathOf, type RouteSpec } from './router';
import type { DeliveryFilter, PublishEventInput, WaitForDeliveriesOptions } from './delivery';
import type { AddDestinationOptions } from './state/destinations';
import type { AddWarehousesOptions } from './handlers/warehouses';
import type { AddExportOptions } from './state/exports';
import type { IssueOAuthCodeOptions } from './state/oauth';
import type { AddFbpiOrdersOptions, FbpiOrderQuirks } from './state/fbpiOrders';
import type { AddFbnCatalogItemsOptions } from './state/fbnInbound';
import type { RowFaultSpec } from './state/stockPrices';
import type { CrossBorderKind } from './state/crossBorder';
import type { AddCredentialOptions, EmulatorControls, FaultSpec, RatePlan } from './types';

export const CONTROL_PREFIX = '/__control';

interface ControlRequest {
	params: Record<string, string>;
	/** `?projectCode=` narrows the listing routes to one project. */
	query: URLSearchParams;
}

interface ControlRoute extends RouteSpec {
	handler(controls: EmulatorControls, body: unknown, request: ControlRequest): unknown;
}

const projectOf = (request: ControlRequest): string | undefined =>
	request.query.get('projectCode') ?? undefined;

/** `?messageId=&destinationCode=&eventType=&projectCode=&outcome=` of the delivery listing. */
function deliveryFilterOf(request: ControlRequest): DeliveryFilter {
	const filter: Record<string, string> = {};
	for (const key of ['messageId', 'destinationCode', 'eventType', 'projectCode', 'outcome']) {
		const value = request.query.get(key);
		if (value !== null) filter[key] = value;
	}
	return filter as DeliveryFilter;
}

const OK = { ok: true };

const CONTROL_ROUTES = compileRoutes<ControlRoute>([
	{ method: 'GET', path: '/__control/requests', handler: (c) => c.requests() },
	{ method: 'DELETE', path: '/__control/requests', handler: (c) => (c.clearRequests(), OK) },
	{
		method: 'POST',
		path: '/__control/sessions/expire',
		handler: (c, body) => {
			const after = (body as { afterRequests?: number } | null | undefined)?.afterRequests;
			if (after === undefined) c.expireSessions();
			else c.expireSessionsAfter(after);
			return OK;
		},
	},
	{
		// `{ limit, windowMs, model?, retryAfter? }` (ratePlan.ts: the models, `retryAfter: false` for
		// 429 without Retry-After), or `null` to switch it off.
		method: 'POST',
		path: '/__control/rate-plan',
		handler: (c, body) => (c.setRatePlan(body as RatePlan | null), OK),
	},
	{
		method: 'POST',
		path: '/__control/latency',
		handler: (c, body) => {
			const { ms, jitterMs } = (body ?? {}) as { ms?: number; jitterMs?: number };
			c.setLatency(ms as number, jitterMs ?? 0);
			return OK;
		},
	},
	{
		// `{ required: boolean }`: a body endpoint's request without a JSON body and type gets 415.
		method: 'POST',
		path: '/__control/json-body',
		handler: (c, body) => {
			c.setRequireJsonBody((body as { required?: unknown } | null)?.required as boolean);
			return OK;
		},
	},
	{
		method: 'POST',
		path: '/__control/faults',
		handler: (c, body) => (c.injectFaults(body as FaultSpec), OK),
	},
	{ method: 'DELETE', path: '/__control/faults', handler: (c) => (c.clearFaults(), OK) },
	{ method: 'GET', path: '/__control/stats', handler: (c) => c.stats() },
	{ method: 'GET', path: '/__control/credential', handler: (c) => c.credential },
	{
		method: 'POST',
		path: '/__control/credentials',
		handler: (c, body) => c.addCredential((body ?? {}) as AddCredentialOptions),
	},
	{
		method: 'GET',
		path: '/__control/api-users',
		handler: (c, _body, r) => c.apiUsers(projectOf(r)),
	},
	{
		method: 'GET',
		path: '/__control/destinations',
		handler: (c, _body, r) => c.destinations(projectOf(r)),
	},
	{
		method: 'POST',
		path: '/__control/destinations',
		handler: (c, body) => c.addDestination((body ?? {}) as AddDestinationOptions),
	},
	{
		method: 'DELETE',
		path: '/__control/destinations/{code}',
		handler: (c, _body, r) => (c.deleteDestination(r.params.code, projectOf(r)), OK),
	},
	{
		method: 'GET',
		path: '/__control/sandbox-orders',
		handler: (c, _body, r) => c.sandboxOrders(projectOf(r)),
	},
	{
		method: 'GET',
		path: '/__control/warehouses',
		handler: (c, _body, r) => c.warehouses(projectOf(r)),
	},
	{
		method: 'GET',
		path: '/__control/shipments',
		handler: (c, _body, r) => c.shipments(projectOf(r)),
	},
	{
		method: 'GET',
		path: '/__control/fbn-shipments',
		handler: (c, _body, r) => c.fbnShipments(projectOf(r)),
	},
	{
		method: 'POST',
		path: '/__control/fbn-catalog-items',
		handler: (c, body) => c.addFbnCatalogItems((body ?? {}) as AddFbnCatalogItemsOptions),
	},
	{
		method: 'GET',
		path: '/__control/awbs',
		handler: (c, _body, r) => c.generatedAwbs(projectOf(r)),
	},
	{
		method: 'POST',
		path: '/__control/warehouses',
		handler: (c, body) => c.addWarehouses((body ?? {}) as AddWarehousesOptions),
	},
	{
		// AddFbpiOrdersOptions (state/fbpiOrders.ts): orders in bulk, at chosen times.
		method: 'POST',
		path: '/__control/fbpi-orders',
		handler: (c, body) => c.addFbpiOrders((body ?? {}) as AddFbpiOrdersOptions),
	},
	{
		// FbpiOrderQuirks (state/fbpiOrders.ts), or `null`: how the project's FBPI order reads misbehave.
		method: 'POST',
		path: '/__control/fbpi-orders/quirks',
		handler: (c, body) => (c.setFbpiOrderQuirks((body ?? null) as FbpiOrderQuirks | null), OK),
	},
	{
		// `{ projectCode? }` or no body: every ListFbpiOrders page token issued so far is refused.
		method: 'POST',
		path: '/__control/fbpi-orders/tokens/expire',
		handler: (c, body) => {
			if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body)))
				throw invalidArgument('the body must be { projectCode? } or empty');
			c.expireFbpiOrderTokens((body as { projectCode?: string } | null)?.projectCode);
			return OK;
		},
	},
	{
		method: 'GET',
		path: '/__control/fbpi-orders/{nr}',
		handler: (c, _body, r) => {
			const order = c.fbpiOrder(r.params.nr, projectOf(r));
			if (!order)
				throw new ApiError('NOT_FOUND', `FBPI order ${JSON.stringify(r.params.nr)} not found`);
			return order;
		},
	},
	{ method: 'GET', path: '/__control/imports', handler: (c, _body, r) => c.imports(projectOf(r)) },
	{ method: 'GET', path: '/__control/stock', handler: (c, _body, r) => c.stock(projectOf(r)) },
	{
		method: 'POST',
		path: '/__control/stock',
		handler: (c, body, r) => c.seedStock(body as Parameters<typeof c.seedStock>[0], projectOf(r)),
	},
	{ method: 'GET', path: '/__control/prices', handler: (c, _body, r) => c.prices(projectOf(r)) },
	{
		method: 'POST',
		path: '/__control/prices',
		handler: (c, body, r) => c.seedPrices(body as Parameters<typeof c.seedPrices>[0], projectOf(r)),
	},
	{
		method: 'POST',
		path: '/__control/row-faults',
		handler: (c, body) => (c.injectRowFaults(body as RowFaultSpec), OK),
	},
	{ method: 'DELETE', path: '/__control/row-faults', handler: (c) => (c.clearRowFaults(), OK) },
	// --- Namshi and cross-border prices: kind is global, local, products or transfer.
	{
		method: 'GET',
		path: '/__control/cross-border/{kind}',
		handler: (c, _body, r) => c.crossBorder(r.params.kind as CrossBorderKind, projectOf(r)),
	},
	{
		method: 'POST',
		path: '/__control/cross-border/{kind}',
		handler: (c, body, r) =>
			c.seedCrossBorder(r.params.kind as CrossBorderKind, body as never[], projectOf(r)),
	},
	{
		method: 'POST',
		path: '/__control/exports',
		handler: (c, body) => c.addExport((body ?? {}) as AddExportOptions),
	},
	// OAuth and exports: `{ workflow?, projectCode?, ttlMs? }` → `{ code }`; `{ states }` of created exports.
	{
		method: 'POST',
		path: '/__control/oauth/codes',
		handler: (c, body) => ({ code: c.issueOAuthCode((body ?? {}) as IssueOAuthCodeOptions) }),
	},
	{
		method: 'PUT',
		path: '/__control/exports/created-states',
		handler: (c, body) => (
			c.setCreatedExportStates((body as { states?: never } | null | undefined)?.states as never),
			OK
		),
	},
	{
		method: 'POST',
		path: '/__control/events',
		handler: (c, body) => c.publishEvent(body as PublishEventInput),
	},
	{
		method: 'GET',
		path: '/__control/events',
		handler: (c, _body, r) =>
			c.publishedEvents({
				projectCode: projectOf(r),
				eventType: r.query.get('eventType') ?? undefined,
			}),
	},
	{
		// `{ version: "1.0" | 1 }`: the form of event_schema_version of the events published after.
		method: 'PUT',
		path: '/__control/events/schema-version',
		handler: (c, body) => (
			c.setEventSchemaVersion((body as { version?: never } | null | undefined)?.version as never),
			OK
		),
	},
	{
		method: 'POST',
		path: '/__control/events/{messageId}/redeliver',
		handler: (c, _body, r) => c.redeliver(r.params.messageId),
	},
	{
		method: 'GET',
		path: '/__control/deliveries',
		handler: (c, _body, r) => c.deliveries(deliveryFilterOf(r)),
	},
	{ method: 'DELETE', path: '/__control/deliveries', handler: (c) => (c.clearDeliveries(), OK) },
	{
		method: 'POST',
		path: '/__control/deliveries/wait',
		handler: (c, body) => c.waitForDeliveries((body ?? {}) as WaitForDeliveriesOptions),
	},
	// --- Catalog, offers, event webhooks ---
	{
		method: 'GET',
		path: '/__control/products',
		handler: (c, _body, r) => c.products(projectOf(r)),
	},
	{
		method: 'POST',
		path: '/__control/products',
		handler: (c, body, r) =>
			c.addProducts(body as Parameters<typeof c.addProducts>[0], projectOf(r)),
	},
	{
		method: 'GET',
		path: '/__control/barcodes',
		handler: (c, _body, r) => c.barcodeMappings(projectOf(r)),
	},
	{
		method: 'GET',
		path: '/__control/webhook-subscriptions',
		handler: (c, _body, r) => c.webhookSubscriptions(projectOf(r)),
	},
	{
		method: 'GET',
		path: '/__control/webhook-developers',
		handler: (c, _body, r) => c.webhookDevelopers(projectOf(r)),
	},
]);

export function isControlPath(rawPath: string): boolean {
	return rawPath === CONTROL_PREFIX || rawPath.startsWith(`${CONTROL_PREFIX}/`);
}

export async function handleControl(
	controls: EmulatorControls,
	req: IncomingMessage,
	res: ServerResponse,
	rawPath: string,
): Promise<void> {
	try {
		const body = parseBody(await readBody(req));
		if (body.kind === 'invalid') throw invalidArgument('request body is not valid JSON');
		const match = matchRoute(CONTROL_ROUTES, req.method, rawPath);
		if (match.kind !== 'matched')
			throw new ApiError('NOT_FOUND', `no control route ${req.method} ${rawPath}`);
		const target = req.url ?? '/';
		const query = new URLSearchParams(
			target.slice(rawPathOf(target).length).replace(/^\?/, '').replace(/#.*$/, ''),
		);
		const result = await match.route.handler(
			controls,
			body.kind === 'json' ? body.value : undefined,
			{
				params: match.params,
				query,
			},
		);
		sendJson(res, 200, result);
	} catch (error) {
		const apiError = toApiError(error);
		sendJson(res, apiError.httpStatus, apiError.toBody(), apiError.headers);
	}
}
