/**
 * Local emulator of the Seller Platform API, for the package's tests, benchmarks and offline
 * experiments. `startEmulator()` provisions a project, an API user and a credential, seeds the
 * records every operation reads, and serves the API on loopback.
 */
import { EmulatorServer } from './server';
import type { CredentialFile, Emulator, EmulatorOptions } from './types';

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
	return EmulatorServer.start(options);
}

export * from './types';
export { DEFAULT_RATE_PLAN, describeRatePlan, RATE_MODELS, STRICT_FIXED_WINDOWS } from './ratePlan';
export { ApiError, GRPC_CODES, type ErrorBody, type GrpcCode } from './errors';
export { GATEWAY_COOKIE, IAT_WINDOW_SECONDS, LOGIN_PATH, SESSION_COOKIE } from './auth';
export { CONTROL_PREFIX } from './control';
export {
	BARCODE_IMPORT_COMPLETED_EVENT,
	DEFAULT_DELIVERY_BACKOFF_MS,
	DEFAULT_DELIVERY_RETRIES,
	DEFAULT_DELIVERY_TIMEOUT_MS,
	DEFAULT_WAIT_TIMEOUT_MS,
	DELIVERY_USER_AGENT,
	EVENT_SCHEMA_VERSION,
	EVENT_TYPES,
	isLoopbackUrl,
	ORDER_SYNC_EVENT,
	PO_SYNC_EVENT,
	type DeliveryAttempt,
	type DeliveryFilter,
	type DeliveryOutcome,
	type DeliveryRecord,
	type EventEnvelope,
	type EventSchemaVersion,
	type PublishedEvent,
	type PublishEventInput,
	type PublishEventOptions,
	type PublishResult,
	type WaitForDeliveriesOptions,
} from './delivery';
export { LOGIN_OPERATION } from './requestLog';
export { DEFAULT_MAX_KEYS_PER_USER, MAX_WHITELISTED_IPS } from './state';
export {
	BULK_PO_PATTERN,
	SEEDED_PO,
	SEEDED_PO_NUMBERS,
	SEEDED_PURCHASE_ORDERS,
	type PoDate,
	type PoStatus,
	type PurchaseOrder,
	type PurchaseOrderLine,
} from './state';
export {
	BULK_FBPI_PATTERN,
	channelIdentifierOf,
	DEFAULT_USER_CHANNEL_NAME,
	MAX_DESTINATIONS_PER_PROJECT,
	OTHER_PROJECT_CODE,
	SANDBOX_COUNTRIES,
	SEEDED_API_USER,
	SEEDED_DESTINATIONS,
	SEEDED_EXPORTS,
	SEEDED_FBPI_CUSTOMERS,
	SEEDED_FBPI_ORDER_TABLE,
	SEEDED_FBPI_ORDERS,
	SEEDED_OAUTH_TOKENS,
	// Export categories, the OAuth client, warehouses and their fulfillment systems.
	EXPORT_CATEGORIES,
	SEEDED_OAUTH_CLIENT,
	SEEDED_WAREHOUSES,
	FULFILLMENT_SYSTEMS,
	type CustomerDetails,
	type ExportStatus,
	type FbpiOrderSeed,
	type SandboxCountry,
} from './seed';
export { DOWNLOAD_EXPORT_OPERATION } from './handlers/exports';
export { MAX_IDEMPOTENCY_KEY_LENGTH } from './handlers/fbpiOrders';
export { MAX_CLIENT_REFERENCE_LENGTH, MAX_IMPORT_ITEMS } from './handlers/imports';
export {
	MAX_ADDED_WAREHOUSES,
	MAX_WAREHOUSES_PER_PAGE,
	type AddWarehousesOptions,
	type ListedWarehouse,
} from './handlers/warehouses';
export { ENDPOINTS } from './endpoints';
export type { ApiResult, Endpoint, EndpointContext } from './endpoint';
export { s, type Schema } from './schema';
export {
	EVENT_TYPE_PATTERN,
	MASKED_VALUE,
	type AddDestinationOptions,
	type DestinationState,
	type DestinationView,
	type EventSubscription,
} from './state/destinations';
export type { EmulatorEventListener, EmulatorEventName, EmulatorEvents } from './state/events';
export { EXPORT_FILES_PATH, type AddExportOptions, type ExportRecord } from './state/exports';
export { CREATED_TOKEN_TTL_SECONDS, type IssueOAuthCodeOptions } from './state/oauth';
export type { SandboxItemStatus, SandboxOrder, Warehouse } from './state/fbpi';
export type {
	GeneratedAwb,
	Shipment,
	ShipmentAwb,
	ShipmentItem,
	ShipmentStatus,
} from './state/shipments';
export { MAX_AWBS_PER_REQUEST } from './handlers/shipments';
export { FBN_PAGES, FBN_PROJECT_HEADER, MAX_ASN_ITEMS_PER_REQUEST } from './handlers/fbnInbound';
export {
	ASN_STATUSES,
	FBN_WAREHOUSES,
	SEEDED_ASN,
	SLOT_DAYS,
	SEEDED_FBN_CATALOG,
	type AddFbnCatalogItemsOptions,
	type Asn,
	type AsnItem,
	type FbnCatalogItem,
} from './state/fbnInbound';
export {
	INTEGRATION_ITEM_STATUSES,
	LIST_ORDERS,
	MP_ITEM_STATUSES,
	ORDERS_PAGE_SIZE,
	TOKEN_REFUSED,
	type AddFbpiOrdersOptions,
	type FbpiOrder,
	type FbpiOrderInput,
	type FbpiOrderItem,
	type FbpiOrderItemInput,
	type FbpiOrderQuirks,
	type IntegrationItemStatus,
	type ListOrder,
	type MpItemStatus,
} from './state/fbpiOrders';
export {
	MAX_REPORTED_FAILURES,
	type ImportCompletedEvent,
	type ImportConfig,
	type ImportFailure,
	type ImportReport,
	type ImportStatus,
	type ImportStatusRecord,
	type ImportSubStatus,
} from './state/imports';
export type { OAuthExchangeResult } from './state/oauth';
export { MAX_BATCH_ROWS, PRICE_COUNTRIES } from './handlers/stockPrices';
// --- Catalog, offers, event webhooks and event schemas ---
export {
	SEEDED_BARCODE,
	SEEDED_DEVELOPERS,
	SEEDED_PRODUCTS,
	SEEDED_PRODUCT_TABLE,
	type OfferIssue,
	type OfferPrice,
	type Product,
	type ProductOffer,
} from './seed';
export { MAX_BARCODE_LENGTH } from './handlers/catalog';
export { EVENT_SCHEMAS } from './handlers/webhooks';
export type { BarcodeMapping } from './state/catalog';
export type { WebhookDeveloper, WebhookSubscription } from './state/webhooks';
// Customer returns, Namshi and cross-border prices.
export { MAX_TRANSFER_PRICE_ROWS } from './handlers/crossBorder';
export {
	CROSS_BORDER_KINDS,
	type CrossBorderKind,
	type CrossBorderProductRecord,
	type CrossBorderRecords,
	type GlobalPriceRecord,
	type LocalPriceRecord,
	type TransferPriceRecord,
} from './state/crossBorder';
export {
	BULK_RETURN_PATTERN,
	customerReturnsOf,
	SEEDED_CUSTOMER_RETURNS,
	SEEDED_RETURN_ORDERS,
	type CustomerReturnItem,
} from './seed';
export type {
	BatchOperation,
	PriceRecord,
	RowFaultSpec,
	RowMatch,
	StockRecord,
} from './state/stockPrices';

/**
 * The fields of a `sellerPlatformApi` credential that logs in to `emulator` (with no session yet),
 * as a user would fill them from the credentials file.
 */
export function credentialFields(
	emulator: { baseUrl: string; credential: CredentialFile },
	overrides: Record<string, unknown> = {},
): Record<string, string | number | boolean> {
	return {
		baseUrl: emulator.baseUrl,
		keyId: emulator.credential.key_id,
		privateKey: emulator.credential.private_key,
		projectCode: emulator.credential.project_code,
		sessionCookie: '',
		...(overrides as Record<string, string | number | boolean>),
	};
}
