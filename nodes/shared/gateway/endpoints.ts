/**
 * Every endpoint of the API: method, path (with its service prefix), whether a repeat is safe and
 * its documented rate plan.
 */
import { LOGIN_PATH, WHOAMI_PATH } from '../common/constants';
import { COMMON_PLAN, type RatePlan } from '../credential/plan';

/** Credential fields that hold the service prefix of the paths the spec writes without one. */
export type PrefixSetting = 'sandboxOrderPrefix' | 'importPrefix' | 'eventNotificationsPathPrefix';

export interface EndpointSpec {
	method: 'GET' | 'POST' | 'PUT';
	/** Path as the spec writes it; `{name}` placeholders are filled URL-encoded. */
	path: string;
	prefix?: PrefixSetting;
	/**
	 * A header the endpoint requires with the credential's Project Code as its value (the FBN
	 * inbound endpoints' `X-Project`); a credential without one is refused before sending.
	 */
	projectHeader?: string;
	/**
	 * True when sending the request twice cannot do harm (reads, status polls, the idempotent
	 * sandbox order, the destination update): such requests are repeated after a 5xx, a reset
	 * connection or a timeout. Never for operations that create something new on each call.
	 */
	repeatable: boolean;
	/** The documented rate plan; the limiter paces the endpoint by it (pacing/limiters.ts). */
	plan: RatePlan;
}

/**
 * The FBN inbound (ASN) endpoints: every one requires the `X-Project` header; all on the common
 * plan. A create of the same external reference and shipment type answers the ASN made before (the
 * reference says so): like the idempotent sandbox order, it is repeated after a lost answer and
 * meets the ASN the first attempt made; status changes and schedules are not repeated either (a repeat after a lost answer meets an ASN
 * already moved on, and fails). Metadata and item upserts set values, and a delete of items
 * already gone leaves the same ASN: safe to repeat.
 */
const fbn = (method: EndpointSpec['method'], path: string, repeatable: boolean): EndpointSpec => ({
	method,
	path: `/inbound/v1${path}`,
	projectHeader: 'X-Project',
	repeatable,
	plan: COMMON_PLAN,
});

const FBN_INBOUND_ENDPOINTS = {
	AsnService_CreateShipment: fbn('POST', '/shipment/create', true),
	AsnService_GetShipment: fbn('GET', '/shipment/{asn_nr}', true),
	AsnService_ListShipments: fbn('GET', '/shipment/list', true),
	AsnService_UpdateShipment: fbn('PUT', '/shipment/{asn_nr}', true),
	AsnService_UpdateShipmentStatus: fbn('PUT', '/shipment/{asn_nr}/status', false),
	AsnService_ListShipmentItems: fbn('GET', '/shipment/{asn_nr}/items', true),
	AsnService_UpdateShipmentItems: fbn('PUT', '/shipment/{asn_nr}/items', true),
	AsnService_DeleteShipmentItems: fbn('POST', '/shipment/{asn_nr}/items/delete', true),
	AsnService_GetSlotAvailability: fbn('GET', '/shipment/{asn_nr}/schedule/slot_availability', true),
	AsnService_ScheduleShipment: fbn('POST', '/shipment/{asn_nr}/schedule', false),
	AsnService_ListEligibleItems: fbn('GET', '/catalog/items', true),
} satisfies Record<string, EndpointSpec>;

const ENDPOINT_TABLE = {
	// Login is sent by auth/login.ts (its own repeats), outside the limiter. Whoami is sent by the
	// credential's Test (after the login, outside the limiter), by Session → Who Am I and by the
	// User Code list of API Credential → Remove (both paced as any request).
	Login: { method: 'POST', path: LOGIN_PATH, repeatable: true, plan: COMMON_PLAN },
	Whoami: { method: 'GET', path: WHOAMI_PATH, repeatable: true, plan: COMMON_PLAN },
	ExchangeToken: {
		method: 'POST',
		path: '/identity/oauth/v1/token/exchange',
		repeatable: false,
		plan: COMMON_PLAN,
	},
	GetExportStatus: {
		method: 'POST',
		path: '/impex/v1/export/status',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	GetPurchaseOrder: {
		method: 'GET',
		path: '/fbpo/v1/po/{po_nr}/get',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	GetFbpiOrderCustomerData: {
		method: 'GET',
		path: '/fbpi/v1/fbpi-order/{fbpi_order_nr}/customer-details/get',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	GetFbpiOrder: {
		method: 'GET',
		path: '/fbpi/v1/fbpi-order/{fbpi_order_nr}/get',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	// A read sent as POST (the filters are the body; next_token is a query parameter).
	ListFbpiOrders: {
		method: 'POST',
		path: '/fbpi/v1/fbpi-orders/list',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	// Marking the same items out of stock again changes nothing: safe to repeat.
	UpdateOrder: {
		method: 'POST',
		path: '/fbpi/v1/fbpi-order/update',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	CreateSandboxOrder: {
		method: 'POST',
		path: '/v1/sandbox-order/create',
		prefix: 'sandboxOrderPrefix',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	CreateBarcodeImport: {
		method: 'POST',
		path: '/v1/import/barcode',
		prefix: 'importPrefix',
		repeatable: false,
		plan: COMMON_PLAN,
	},
	GetImportStatus: {
		method: 'GET',
		path: '/v1/import/status/{reference}',
		prefix: 'importPrefix',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	CreateCredential: {
		method: 'POST',
		path: '/identity/apiuser/v1/credential/create',
		repeatable: false,
		plan: COMMON_PLAN,
	},
	UpdateDestination: {
		method: 'POST',
		path: '/event-notifications/v1/destination/https-destination/{destination_code}/update',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	// A create is never repeated: the seller's shipment number is its key, and a re-run finds a
	// shipment created before (fbpiShipment/create.operation.ts).
	CreateShipment: {
		method: 'POST',
		path: '/fbpi/v1/shipment/create',
		repeatable: false,
		plan: COMMON_PLAN,
	},
	GetShipment: {
		method: 'POST',
		path: '/fbpi/v1/shipment/get',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	// A cancel asks for an end state: a repeat cannot cancel anything else.
	CancelShipment: {
		method: 'POST',
		path: '/fbpi/v1/shipment/cancel',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	// The reference does not say what adding an AWB twice does: not repeated.
	AddShipmentCourierAwbs: {
		method: 'POST',
		path: '/fbpi/v1/shipment/courier-awbs/add',
		repeatable: false,
		plan: COMMON_PLAN,
	},
	// Each call hands out new numbers: not repeated.
	GetNoonLogisticsAWBs: {
		method: 'POST',
		path: '/fbpi/v1/shipment/noon-logistics-awbs/get',
		repeatable: false,
		plan: COMMON_PLAN,
	},
	// Warehouse → Get Many and the editor's warehouse list (transport/warehouses.ts): the one
	// endpoint documented below the common plan.
	ListWarehouses: {
		method: 'POST',
		path: '/warehouse_platform/v1/warehouses/list',
		repeatable: true,
		plan: { requests: 30, windowSeconds: 60, burst: 15, burstWindowSeconds: 30 },
	},
	// Batches of rows (actions/shapes/batch.ts). Reads, and writes that set absolute values (the
	// same request twice leaves the same state): a repeat is safe.
	GetStock: { method: 'POST', path: '/stock/v1/stock-list', repeatable: true, plan: COMMON_PLAN },
	UpdateStock: {
		method: 'POST',
		path: '/stock/v1/stock-update',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	BatchGetPricing: {
		method: 'POST',
		path: '/pricing/v1/pricing/get',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	BatchUpsertPricing: {
		method: 'POST',
		path: '/pricing/v1/pricing/upsert',
		repeatable: true,
		plan: COMMON_PLAN,
	},

	// --- Catalog, offers, event webhooks and event schemas ---
	// Barcode → Map (actions/barcode): rows of a batch. An upsert of mappings: the same rows again
	// leave the same mappings (a barcode already mapped to the row's SKU stays so), safe to repeat.
	SkuBarcodeMap: {
		method: 'POST',
		path: '/catplat/v1/barcode/map',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	GetProductOffers: {
		method: 'GET',
		path: '/offer/v1/product/{partner_sku}',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	// The event-notifications service: the reference writes its paths without a prefix; the seed
	// writes UpdateDestination, of the same service, under /event-notifications (a constant there).
	// These three take the credential's Event Notifications Path Prefix (default
	// /event-notifications). Each creates something new, or, for the developer, whose repeat the
	// reference does not describe: none is repeated.
	CreateWebhook: {
		method: 'POST',
		path: '/v1/create-webhook',
		prefix: 'eventNotificationsPathPrefix',
		repeatable: false,
		plan: COMMON_PLAN,
	},
	CreateSubscription: {
		method: 'POST',
		path: '/v1/create-subscription',
		prefix: 'eventNotificationsPathPrefix',
		repeatable: false,
		plan: COMMON_PLAN,
	},
	AssignDeveloperToWebhook: {
		method: 'POST',
		path: '/v1/webhook/assign-developer',
		prefix: 'eventNotificationsPathPrefix',
		repeatable: false,
		plan: COMMON_PLAN,
	},
	// The event schema service's reference gives no host, prefix or rate plan, and no source gives
	// it another: its path as written, and the common plan.
	GetEventSchema: {
		method: 'GET',
		path: '/v1/event-schemas',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	// --- Customer returns, Namshi and cross-border prices ---
	// Batches of rows as above: a read, and upserts that set absolute values (a repeat leaves the
	// same state), so each is safe to repeat.
	BatchGetCustomerReturnOrders: {
		method: 'POST',
		path: '/customer-returns/v1/order/returns',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	// Namshi's pricing service: the same `/pricing` prefix as noon's, other paths.
	BatchUpsertGlobalPricing: {
		method: 'POST',
		path: '/pricing/v1/global/upsert',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	BatchUpsertLocalPricing: {
		method: 'POST',
		path: '/pricing/v1/local/upsert',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	BatchUpsertProduct: {
		method: 'POST',
		path: '/xborder-pricing/v1/product/upsert',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	BatchGetTransferPrice: {
		method: 'POST',
		path: '/xborder-pricing/v1/transfer-price/get',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	BatchUpsertTransferPrice: {
		method: 'POST',
		path: '/xborder-pricing/v1/transfer-price/upsert',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	// --- Exports and identity ------------------------------------------------------------------
	// Each call starts a new export: never repeated (a lost answer would start a second one).
	CreateExport: {
		method: 'POST',
		path: '/impex/v1/export/create',
		repeatable: false,
		plan: COMMON_PLAN,
	},
	GetExportCategoryList: {
		method: 'GET',
		path: '/impex/v1/export/category/list',
		repeatable: true,
		plan: COMMON_PLAN,
	},
	// Deactivating keys asks for an end state, but its answer counts the keys it removed: a repeat
	// would answer 0 and hide what the first call did. Not repeated.
	RemoveCredentials: {
		method: 'POST',
		path: '/identity/apiuser/v1/credential/remove',
		repeatable: false,
		plan: COMMON_PLAN,
	},
	// Hands out a new access token for a one-time code: never repeated.
	CreateToken: {
		method: 'POST',
		path: '/identity/oauth/v1/token/create',
		repeatable: false,
		plan: COMMON_PLAN,
	},
	...FBN_INBOUND_ENDPOINTS,
} satisfies Record<string, EndpointSpec>;

/** An endpoint's name: a key of the table (the one list of the names). */
export type Endpoint = keyof typeof ENDPOINT_TABLE;

export const ENDPOINTS: Readonly<Record<Endpoint, EndpointSpec>> = ENDPOINT_TABLE;

/**
 * Whether the endpoint's requests carry a JSON body: every method but GET. The reference defines
 * a body for each of them (`{}` when no field is set), and a gateway strict to it refuses such a
 * request without one (415).
 */
export const takesBody = (endpoint: Endpoint): boolean => ENDPOINTS[endpoint].method !== 'GET';
