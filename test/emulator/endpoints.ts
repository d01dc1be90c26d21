/**
 * The endpoint table: every endpoint the emulator serves, one declaration each (endpoint.ts says
 * what an entry holds, schema.ts how its fields are written). The server routes by this table and
 * checks every request against its entry before anything else runs. A read is an `answer` from
 * the store; a `handler` only where the endpoint changes state. README.md: "Adding an endpoint".
 */
import { LOGIN_PATH, login, whoami } from './auth';
import { toRoute, type ApiRoute, type Endpoint } from './endpoint';
import { createCredential, ipProblem, isoProblem, removeCredentials } from './handlers/credentials';
import {
	createExport,
	DOWNLOAD_EXPORT_OPERATION,
	downloadExport,
	exportCategoryList,
} from './handlers/exports';
import {
	createSandboxOrder,
	ITEM_STATUSES,
	listFbpiOrders,
	MAX_IDEMPOTENCY_KEY_LENGTH,
	UPDATE_ITEM_STATUS_OUT_OF_STOCK,
	updateOrder,
	utcTimestampProblem,
} from './handlers/fbpiOrders';
import {
	bqTableProblem,
	createBarcodeImport,
	fileUrlProblem,
	MAX_CLIENT_REFERENCE_LENGTH,
	MAX_IMPORT_ITEMS,
} from './handlers/imports';
import {
	addShipmentCourierAwbs,
	cancelShipment,
	createShipment,
	getNoonLogisticsAwbs,
	MAX_AWBS_PER_REQUEST,
	shipmentView,
} from './handlers/shipments';
import { listWarehouses } from './handlers/warehouses';
import { FBN_INBOUND_ENDPOINTS } from './handlers/fbnInbound';
import { STOCK_PRICE_ENDPOINTS } from './handlers/stockPrices';
// --- Catalog, offers, event webhooks and event schemas ---
import { CATALOG_ENDPOINTS } from './handlers/catalog';
import { EVENT_WEBHOOK_ENDPOINTS } from './handlers/webhooks';
import { CROSS_BORDER_ENDPOINTS } from './handlers/crossBorder';
import { LOGIN_OPERATION } from './requestLog';
import { s } from './schema';
import { SANDBOX_COUNTRIES } from './seed';
import { MAX_WHITELISTED_IPS } from './state';
import {
	DestinationStore,
	destinationUrlProblem,
	eventTypeProblem,
	headerProblem,
} from './state/destinations';
import { EXPORT_FILES_PATH } from './state/exports';
import type { Prefixes } from './types';

/** A shipment's key: the warehouse and the seller's shipment number. */
const SHIPMENT_KEY = {
	warehouse_code: s.string({ required: true }),
	integration_shipment_nr: s.string({ required: true }),
};
/** One AWB of a shipment: the courier ('noon' or the seller's own) and its number. */
const COURIER_AWB = s.object({
	courier: s.string({ required: true }),
	awb_nr: s.string({ required: true }),
});

export const ENDPOINTS: readonly Endpoint[] = [
	// --- identity ---------------------------------------------------------------------------------
	{
		operation: LOGIN_OPERATION,
		method: 'POST',
		path: LOGIN_PATH,
		auth: 'public',
		body: { token: s.string({ required: true }), default_project_code: s.string() },
		handler: login,
	},
	{
		operation: 'Whoami',
		method: 'GET',
		path: '/identity/v1/whoami',
		resource: 'session',
		answer: whoami,
	},
	{
		operation: 'ExchangeToken',
		method: 'POST',
		path: '/identity/oauth/v1/token/exchange',
		body: { access_token: s.string({ required: true }) },
		resource: 'access_token',
		answer: ({ state, body, projectCode, now }) =>
			state.oauth.exchange(body.access_token, projectCode, now),
	},
	{
		operation: 'CreateCredential',
		method: 'POST',
		path: '/identity/apiuser/v1/credential/create',
		body: {
			user_code: s.string({ notEmpty: 'leave it out or give a user code' }),
			channel_identifier: s.string({ notEmpty: 'leave it out or give a channel identifier' }),
			whitelisted_ips: s.array(s.string({ format: ipProblem }), {
				maxItems: MAX_WHITELISTED_IPS,
			}),
			expires_at: s.string({ format: isoProblem }),
		},
		handler: createCredential,
	},

	// --- Identity (RemoveCredentials, CreateToken) -------------------------------------------------
	{
		operation: 'RemoveCredentials',
		method: 'POST',
		path: '/identity/apiuser/v1/credential/remove',
		body: { user_code: s.string({ required: true }), key_id: s.string() },
		handler: removeCredentials,
	},
	{
		operation: 'CreateToken',
		method: 'POST',
		path: '/identity/oauth/v1/token/create',
		body: {
			grant_type: s.string({ required: true }),
			code: s.string({ required: true }),
			client_id: s.string({ required: true }),
			client_secret: s.string({ required: true }),
		},
		handler: ({ state, body, now }) => ({ body: state.oauth.createToken(body, now) }),
	},

	// --- impex --------------------------------------------------------------------------------------
	// Exports: CreateExport (an export that goes through the states) and the category list.
	{
		operation: 'CreateExport',
		method: 'POST',
		path: '/impex/v1/export/create',
		body: {
			export_category_code: s.string({ required: true }),
			params: s.map(() => null, { required: true }),
		},
		handler: createExport,
	},
	{
		operation: 'GetExportCategoryList',
		method: 'GET',
		path: '/impex/v1/export/category/list',
		resource: 'export categories',
		answer: exportCategoryList,
	},
	{
		operation: 'GetExportStatus',
		method: 'POST',
		path: '/impex/v1/export/status',
		body: { export_code: s.string({ required: true }) },
		resource: 'export',
		answer: ({ state, body, projectCode, baseUrl, now }) =>
			state.exports.status(projectCode, body.export_code, baseUrl, now),
	},
	{
		// The file behind a download link: no session, the token in the query authorises it.
		operation: DOWNLOAD_EXPORT_OPERATION,
		method: 'GET',
		path: `${EXPORT_FILES_PATH}/{file}`,
		auth: 'public',
		userAgent: 'optional',
		query: { token: s.string() },
		handler: downloadExport,
	},

	// --- fbpo, fbpi ---------------------------------------------------------------------------------
	{
		operation: 'GetPurchaseOrder',
		method: 'GET',
		path: '/fbpo/v1/po/{po_nr}/get',
		resource: 'purchase order',
		answer: ({ state, params }) => state.findPurchaseOrder(params.po_nr),
	},
	{
		operation: 'GetFbpiOrderCustomerData',
		method: 'GET',
		path: '/fbpi/v1/fbpi-order/{fbpi_order_nr}/customer-details/get',
		resource: 'FBPI order',
		answer: ({ state, params, projectCode, now }) =>
			state.fbpi.customerDetails(projectCode, params.fbpi_order_nr, now),
	},
	{
		operation: 'GetFbpiOrder',
		method: 'GET',
		path: '/fbpi/v1/fbpi-order/{fbpi_order_nr}/get',
		resource: 'FBPI order',
		// `read`: the project's quirks (unreadable orders, times without a zone) apply.
		answer: ({ state, params, projectCode, now }) =>
			state.fbpi.orders.read(projectCode, params.fbpi_order_nr, now),
	},
	{
		// The body is the filters object itself; pages of at most 50, `next_token` in the query.
		operation: 'ListFbpiOrders',
		method: 'POST',
		path: '/fbpi/v1/fbpi-orders/list',
		body: {
			warehouse_code: s.string({ required: true }),
			created_after: s.string({ format: utcTimestampProblem }),
			created_before: s.string({ format: utcTimestampProblem }),
		},
		query: { next_token: s.string() },
		handler: listFbpiOrders,
	},
	{
		// Only OUT_OF_STOCK can be set: UNSPECIFIED is no status to give an item.
		operation: 'UpdateOrder',
		method: 'POST',
		path: '/fbpi/v1/fbpi-order/update',
		body: {
			fbpi_order_nr: s.string({ required: true }),
			items: s.array(
				s.object({
					mp_item_nr: s.string({ required: true }),
					status: s.string({ required: true, enum: [UPDATE_ITEM_STATUS_OUT_OF_STOCK] }),
				}),
				{ minItems: 1, noun: 'item' },
			),
		},
		handler: updateOrder,
	},
	{
		operation: 'CreateSandboxOrder',
		method: 'POST',
		path: '/fbpi/v1/sandbox-order/create',
		prefix: 'sandboxOrder',
		body: {
			warehouse_code: s.string({ required: true }),
			idempotency_key: s.string({ required: true, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH }),
			items: s.array(
				s.object({
					status: s.string({ required: true, enum: ITEM_STATUSES }),
					partner_sku: s.string(),
				}),
				{ minItems: 1, noun: 'item' },
			),
			country_code: s.string({ enum: SANDBOX_COUNTRIES }),
		},
		handler: createSandboxOrder,
	},

	// --- fbpi shipments -----------------------------------------------------------------------------
	{
		operation: 'CreateShipment',
		method: 'POST',
		path: '/fbpi/v1/shipment/create',
		body: {
			warehouse_code: s.string({ required: true }),
			integration_shipment_nr: s.string({ required: true }),
			fbpi_order_nr: s.string({ required: true }),
			awbs: s.array(COURIER_AWB, { minItems: 1, noun: 'AWB' }),
			items: s.array(s.object({ mp_item_nr: s.string({ required: true }) }), {
				minItems: 1,
				noun: 'item',
			}),
		},
		handler: createShipment,
	},
	{
		operation: 'GetShipment',
		method: 'POST',
		path: '/fbpi/v1/shipment/get',
		body: SHIPMENT_KEY,
		handler: (ctx) => ({ body: shipmentView(ctx) }),
	},
	{
		operation: 'CancelShipment',
		method: 'POST',
		path: '/fbpi/v1/shipment/cancel',
		body: SHIPMENT_KEY,
		handler: cancelShipment,
	},
	{
		operation: 'AddShipmentCourierAwbs',
		method: 'POST',
		path: '/fbpi/v1/shipment/courier-awbs/add',
		body: { ...SHIPMENT_KEY, awbs: s.array(COURIER_AWB, { minItems: 1, noun: 'AWB' }) },
		handler: addShipmentCourierAwbs,
	},
	{
		operation: 'GetNoonLogisticsAWBs',
		method: 'POST',
		path: '/fbpi/v1/shipment/noon-logistics-awbs/get',
		body: {
			country_code: s.string({ required: true, enum: SANDBOX_COUNTRIES }),
			qty: s.integer({ required: true, minimum: 1, maximum: MAX_AWBS_PER_REQUEST }),
		},
		handler: getNoonLogisticsAwbs,
	},

	// --- warehouse platform -----------------------------------------------------------------------
	{
		// The one operation the reference documents below the common plan, paced by its own.
		operation: 'ListWarehouses',
		method: 'POST',
		path: '/warehouse_platform/v1/warehouses/list',
		ratePlan: { limit: 30, windowMs: 60_000, burst: { limit: 15, windowMs: 30_000 } },
		body: {
			next_token: s.string(),
			filters: s.object({ fulfillment_system_code: s.string() }),
		},
		handler: listWarehouses,
	},

	// --- catalog imports ----------------------------------------------------------------------------
	{
		operation: 'CreateBarcodeImport',
		method: 'POST',
		path: '/catplat/v1/import/barcode',
		prefix: 'imports',
		body: {
			file_url: s.string({ format: fileUrlProblem }),
			bq_table: s.string({ format: bqTableProblem }),
			items: s.object({
				data: s.array(
					s.object({
						partner_sku: s.string({ required: true }),
						barcode: s.string({ required: true }),
						force_sync: s.boolean(),
					}),
					{ minItems: 1, noun: 'barcode mapping', maxItems: MAX_IMPORT_ITEMS },
				),
			}),
			config: s.object({ is_notification_required: s.boolean(), force_sync: s.boolean() }),
			client_reference: s.string({ required: true, maxLength: MAX_CLIENT_REFERENCE_LENGTH }),
		},
		handler: createBarcodeImport,
	},
	{
		operation: 'GetImportStatus',
		method: 'GET',
		path: '/catplat/v1/import/status/{reference}',
		prefix: 'imports',
		resource: 'import',
		answer: ({ state, params, projectCode, now }) =>
			state.imports.status(projectCode, params.reference, now),
	},

	// --- event notifications ------------------------------------------------------------------------
	{
		operation: 'UpdateDestination',
		method: 'POST',
		path: '/event-notifications/v1/destination/https-destination/{destination_code}/update',
		body: {
			destination_name: s.string({ notEmpty: 'leave it out to keep the current name' }),
			is_active: s.boolean(),
			url: s.string({
				notEmpty: 'leave it out to keep the current url',
				format: destinationUrlProblem,
			}),
			credentials: s.object({ values: s.map(headerProblem, { required: true }) }),
			event_types: s.array(
				s.object({
					event_type: s.string({ required: true, format: eventTypeProblem }),
					is_active: s.boolean({ required: true }),
				}),
			),
		},
		handler: ({ state, params, body, projectCode, now }) => {
			const update = { ...body, credentials: body.credentials?.values };
			const destination = state.destinations.update(
				projectCode,
				params.destination_code,
				update,
				now,
			);
			state.events.emit('destinationUpdated', destination);
			return { body: DestinationStore.view(destination) };
		},
	},

	// --- stock, pricing (batches of rows, each answered with its own status) ------------------------
	...STOCK_PRICE_ENDPOINTS,

	// --- Catalog, offers, event webhooks and event schemas -------------------------------------
	...CATALOG_ENDPOINTS,
	...EVENT_WEBHOOK_ENDPOINTS,
	// --- customer returns, Namshi and cross-border prices (batches of rows) ---------------
	...CROSS_BORDER_ENDPOINTS,
	// --- FBN inbound (ASNs; every entry requires X-Project) ------------------------------------
	...FBN_INBOUND_ENDPOINTS,
];

/** The table as routes, the configurable service prefixes in place. */
export function buildApiRoutes(prefixes: Readonly<Prefixes>): ApiRoute[] {
	return ENDPOINTS.map((endpoint) => toRoute(endpoint, prefixes));
}
