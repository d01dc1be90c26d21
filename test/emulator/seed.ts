/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/** Seed data of the emulator: records every API user of a fresh emulator can read. */

export type PoStatus = 'PO_STATUS_UNSPECIFIED' | 'PO_STATUS_PENDING' | 'PO_STATUS_RELEASED';

/** The spec's date object: 0 marks an absent year, month or day. */
export interface PoDate {
	year: number;
	month: number;
	day: number;
}

export interface PurchaseOrderLine {
	partner_sku: string;
	qty: number;
	unit_cost: number;
}

/** GetPurchaseOrder response. */
export interface PurchaseOrder {
	po_nr: string;
	po_currency: string;
	merchant_code: string;
	warehouse_code: string;
	po_status: PoStatus;
	po_release_date: PoDate;
	po_lines: PurchaseOrderLine[];
}

/** Seeded purchase orders by role, for tests to reference. */
export const SEEDED_PO = {
	/** Released, AED, three lines. */
	released: 'PO-1001',
	/** Released, SAR. */
	releasedSar: 'PO-1002',
	/** Released, EGP, fractional unit cost. */
	releasedEgp: 'PO-1003',
	/** Pending, release date all zeros (no date yet). */
	pendingNoDate: 'PO-1004',
	/** Pending, release date with day 0 (only year and month significant). */
	pendingDayZero: 'PO-1005',
} as const;

export const SEEDED_PURCHASE_ORDERS: readonly PurchaseOrder[] = [
	{
		po_nr: SEEDED_PO.released,
		po_currency: 'AED',
		merchant_code: 'STR10001',
		warehouse_code: 'WH-DXB-01',
		po_status: 'PO_STATUS_RELEASED',
		po_release_date: { year: 2024, month: 3, day: 15 },
		po_lines: [
			{ partner_sku: 'SKU-TSHIRT-BLK-M', qty: 120, unit_cost: 18.5 },
			{ partner_sku: 'SKU-TSHIRT-BLK-L', qty: 80, unit_cost: 18.5 },
			{ partner_sku: 'SKU-MUG-WHT', qty: 24, unit_cost: 9.75 },
		],
	},
	{
		po_nr: SEEDED_PO.releasedSar,
		po_currency: 'SAR',
		merchant_code: 'STR10002',
		warehouse_code: 'WH-RUH-02',
		po_status: 'PO_STATUS_RELEASED',
		po_release_date: { year: 2024, month: 11, day: 2 },
		po_lines: [
			{ partner_sku: 'SKU-HEADPHONES-01', qty: 10, unit_cost: 249 },
			{ partner_sku: 'SKU-CABLE-USBC-1M', qty: 300, unit_cost: 7.2 },
		],
	},
	{
		po_nr: SEEDED_PO.releasedEgp,
		po_currency: 'EGP',
		merchant_code: 'STR10003',
		warehouse_code: 'WH-CAI-01',
		po_status: 'PO_STATUS_RELEASED',
		po_release_date: { year: 2025, month: 1, day: 20 },
		po_lines: [{ partner_sku: 'SKU-KETTLE-17L', qty: 6, unit_cost: 149.99 }],
	},
	{
		po_nr: SEEDED_PO.pendingNoDate,
		po_currency: 'AED',
		merchant_code: 'STR10001',
		warehouse_code: 'WH-DXB-01',
		po_status: 'PO_STATUS_PENDING',
		po_release_date: { year: 0, month: 0, day: 0 },
		po_lines: [
			{ partner_sku: 'SKU-BACKPACK-GRY', qty: 40, unit_cost: 55 },
			{ partner_sku: 'SKU-BOTTLE-750', qty: 200, unit_cost: 12.25 },
		],
	},
	{
		po_nr: SEEDED_PO.pendingDayZero,
		po_currency: 'SAR',
		merchant_code: 'STR10002',
		warehouse_code: 'WH-JED-01',
		po_status: 'PO_STATUS_PENDING',
		po_release_date: { year: 2025, month: 6, day: 0 },
		po_lines: [{ partner_sku: 'SKU-DESK-LAMP', qty: 15, unit_cost: 89.9 }],
	},
];

export const SEEDED_PO_NUMBERS: readonly string[] = SEEDED_PURCHASE_ORDERS.map((po) => po.po_nr);

/** Any `PO-BULK-<digits>` is a generated released purchase order (for bulk tests and benchmarks). */
export const BULK_PO_PATTERN = /^PO-BULK-(\d+)$/;

const BULK_CURRENCIES = ['AED', 'SAR', 'EGP'] as const;
const BULK_WAREHOUSES = ['WH-DXB-01', 'WH-RUH-02', 'WH-CAI-01'] as const;

/** The generated purchase order `PO-BULK-<n>`: deterministic, so repeated reads agree. */
export function bulkPurchaseOrder(poNr: string): PurchaseOrder | undefined {
	const match = BULK_PO_PATTERN.exec(poNr);
	if (!match) return undefined;
	// The last digits are enough to vary the fields and keep arithmetic exact for any length.
	const n = Number(match[1].slice(-9));
	return {
		po_nr: poNr,
		po_currency: BULK_CURRENCIES[n % BULK_CURRENCIES.length],
		merchant_code: `STR${20000 + (n % 100)}`,
		warehouse_code: BULK_WAREHOUSES[n % BULK_WAREHOUSES.length],
		po_status: 'PO_STATUS_RELEASED',
		po_release_date: { year: 2024 + (n % 2), month: 1 + (n % 12), day: 1 + (n % 28) },
		po_lines: Array.from({ length: 1 + (n % 3) }, (_, i) => ({
			partner_sku: `SKU-BULK-${n}-${i + 1}`,
			qty: 1 + ((n + i) % 50),
			unit_cost: Math.round((5 + ((n * 7 + i * 13) % 500) + 0.25 * i) * 100) / 100,
		})),
	};
}

// --- Projects and API users --------------------------------------------------------------------

/**
 * A project no credential of a fresh emulator belongs to. Seeded OAuth tokens bound to it are
 * refused (403) to every session.
 */
export const OTHER_PROJECT_CODE = 'PRJ000042';

/** Name part of the channel identifier of each project's default API user (the one keys are made for). */
export const DEFAULT_USER_CHANNEL_NAME = 'n8n-emulator';

/**
 * A second API user seeded in the emulator's project, for CreateCredential tests. Its channel
 * identifier is `catalog-sync@p<digits of the project code>.idp.noon.partners`
 * (`emulator.apiUsers()` lists it).
 */
export const SEEDED_API_USER = {
	userCode: 'usr-catalog-sync',
	channelName: 'catalog-sync',
} as const;

/** Channel identifier of the service account `name` in a project whose code carries `digits`. */
export const channelIdentifierOf = (name: string, projectDigits: string): string =>
	`${name}@p${projectDigits}.idp.noon.partners`;

// --- OAuth access tokens (ExchangeToken) -------------------------------------------------------

export type OAuthWorkflow = 'issue-credentials' | 'seller-profile' | 'async-onboarding';

export interface OAuthTokenSeed {
	token: string;
	workflow: OAuthWorkflow;
	/** `primary`: the emulator's project; `other`: OTHER_PROJECT_CODE. */
	project: 'primary' | 'other';
	/** ms since the epoch; tokens without expire never. */
	expiresAt?: number;
}

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT-looking constant (header.claims.signature), like the access tokens CreateToken hands out. */
function jwtLike(claims: Record<string, unknown>, signatureSeed: string): string {
	const signature = Buffer.from(signatureSeed.repeat(8).slice(0, 64)).toString('base64url');
	return `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url(claims)}.${signature}`;
}

const EXPIRED_AT = Date.UTC(2024, 0, 1);
const FAR_FUTURE_SECONDS = Date.UTC(2099, 0, 1) / 1000;

/** Seeded OAuth access tokens by role; pass them as ExchangeToken's `access_token`. */
export const SEEDED_OAUTH_TOKENS = {
	/** Synchronous workflow; `result` holds freshly issued `client_id` / `client_secret`. */
	issuesCredentials: jwtLike(
		{
			sub: 'oauth-client-3f9a1c',
			wf: 'issue-credentials',
			iat: 1735689600,
			exp: FAR_FUTURE_SECONDS,
		},
		'issue-credentials',
	),
	/** Synchronous workflow with another result schema (a store profile). */
	sellerProfile: jwtLike(
		{ sub: 'oauth-client-5b7d20', wf: 'seller-profile', iat: 1735689600, exp: FAR_FUTURE_SECONDS },
		'seller-profile',
	),
	/** The workflow completes asynchronously: the answer has no `result`. */
	asynchronous: jwtLike(
		{
			sub: 'oauth-client-8c4e61',
			wf: 'async-onboarding',
			iat: 1735689600,
			exp: FAR_FUTURE_SECONDS,
		},
		'async-onboarding',
	),
	/** Bound to OTHER_PROJECT_CODE: 403 PERMISSION_DENIED for every session. */
	otherProject: jwtLike(
		{
			sub: 'oauth-client-9d0f77',
			wf: 'issue-credentials',
			iat: 1735689600,
			exp: FAR_FUTURE_SECONDS,
		},
		'other-project',
	),
	/** Expired on 2024-01-01: 400 INVALID_ARGUMENT. */
	expired: jwtLike(
		{
			sub: 'oauth-client-1a2b3c',
			wf: 'issue-credentials',
			iat: 1700000000,
			exp: EXPIRED_AT / 1000,
		},
		'expired',
	),
} as const;

export const SEEDED_OAUTH_TOKEN_TABLE: readonly OAuthTokenSeed[] = [
	{
		token: SEEDED_OAUTH_TOKENS.issuesCredentials,
		workflow: 'issue-credentials',
		project: 'primary',
	},
	{ token: SEEDED_OAUTH_TOKENS.sellerProfile, workflow: 'seller-profile', project: 'primary' },
	{ token: SEEDED_OAUTH_TOKENS.asynchronous, workflow: 'async-onboarding', project: 'primary' },
	{ token: SEEDED_OAUTH_TOKENS.otherProject, workflow: 'issue-credentials', project: 'other' },
	{
		token: SEEDED_OAUTH_TOKENS.expired,
		workflow: 'issue-credentials',
		project: 'primary',
		expiresAt: EXPIRED_AT,
	},
];

// --- Exports (GetExportStatus) -----------------------------------------------------------------

/** Export statuses seen on the real service. */
export type ExportStatus = 'PENDING' | 'QUEUE' | 'RUNNING' | 'COMPLETE' | 'ERROR' | 'FAILED';

/** Seeded exports by role; every project has them. */
export const SEEDED_EXPORTS = {
	/** COMPLETE, with a download_url the emulator serves. */
	complete: 'EXP-1001',
	pending: 'EXP-1002',
	running: 'EXP-1003',
	/** ERROR, no download_url. */
	error: 'EXP-1004',
	/** FAILED, no download_url. */
	failed: 'EXP-1005',
	queued: 'EXP-1006',
	/** PENDING → RUNNING → COMPLETE, one `exportStepMs` per state, counted from the first status call. */
	progressing: 'EXP-1007',
	/** PENDING → RUNNING → ERROR, likewise. */
	progressingToError: 'EXP-1008',
} as const;

export interface ExportSeed {
	export_code: string;
	export_category_code: string;
	params: Record<string, unknown>;
	/** States in order; one state: a fixed export; several: each lasts `exportStepMs`. */
	states: readonly ExportStatus[];
	/** How long before the emulator's start it was created. */
	ageMinutes: number;
}

export const SEEDED_EXPORT_TABLE: readonly ExportSeed[] = [
	{
		export_code: SEEDED_EXPORTS.complete,
		export_category_code: 'ORDERS_EXPORT',
		params: { date_from: '2025-01-01', date_to: '2025-01-31', country_code: 'ae' },
		states: ['COMPLETE'],
		ageMinutes: 180,
	},
	{
		export_code: SEEDED_EXPORTS.pending,
		export_category_code: 'CATALOG_EXPORT',
		params: { brand: 'Emulator Goods' },
		states: ['PENDING'],
		ageMinutes: 5,
	},
	{
		export_code: SEEDED_EXPORTS.running,
		export_category_code: 'INVENTORY_EXPORT',
		params: { warehouse_code: 'WH-DXB-01' },
		states: ['RUNNING'],
		ageMinutes: 12,
	},
	{
		export_code: SEEDED_EXPORTS.error,
		export_category_code: 'ORDERS_EXPORT',
		params: { date_from: '2024-12-01', date_to: '2024-11-01' },
		states: ['ERROR'],
		ageMinutes: 240,
	},
	{
		export_code: SEEDED_EXPORTS.failed,
		export_category_code: 'PAYMENTS_EXPORT',
		params: { statement_month: '2024-13' },
		states: ['FAILED'],
		ageMinutes: 300,
	},
	{
		export_code: SEEDED_EXPORTS.queued,
		export_category_code: 'CATALOG_EXPORT',
		params: {},
		states: ['QUEUE'],
		ageMinutes: 1,
	},
	{
		export_code: SEEDED_EXPORTS.progressing,
		export_category_code: 'ORDERS_EXPORT',
		params: { date_from: '2025-02-01', date_to: '2025-02-28' },
		states: ['PENDING', 'RUNNING', 'COMPLETE'],
		ageMinutes: 0,
	},
	{
		export_code: SEEDED_EXPORTS.progressingToError,
		export_category_code: 'INVENTORY_EXPORT',
		params: { warehouse_code: 'WH-NOPE' },
		states: ['PENDING', 'RUNNING', 'ERROR'],
		ageMinutes: 0,
	},
];

/** Rows of the CSV file served at a complete export's download_url. */
export function exportCsv(category: string): string {
	const rows =
		category === 'ORDERS_EXPORT'
			? [
					['order_nr', 'partner_sku', 'status', 'qty', 'price', 'currency'],
					['NAE10000001', 'SKU-TSHIRT-BLK-M', 'delivered', '2', '59.00', 'AED'],
					['NAE10000002', 'SKU-MUG-WHT', 'shipped', '1', '25.50', 'AED'],
					['NAE10000003', 'SKU-CABLE-USBC-1M', 'cancelled', '3', '19.90', 'AED'],
				]
			: [
					['partner_sku', 'barcode', 'qty'],
					['SKU-TSHIRT-BLK-M', '6291041500213', '120'],
					['SKU-MUG-WHT', '6291041500220', '24'],
					['SKU-KETTLE-17L', '6291041500237', '6'],
				];
	// Plain CSV: the header row first, no comment lines (spreadsheet tools and n8n read it as is).
	return `${rows.map((row) => row.join(',')).join('\n')}\n`;
}

// --- FBPI orders, warehouses (GetFbpiOrderCustomerData, CreateSandboxOrder) --------------------

export interface CustomerDetails {
	first_name: string;
	last_name: string;
	city: string;
	administrative_division: string;
}

/** Seeded FBPI orders (readable by every project) by role. */
export const SEEDED_FBPI_ORDERS = {
	dubai: 'NAE40000001',
	riyadh: 'NSA40000002',
	cairo: 'NEG40000003',
} as const;

export const SEEDED_FBPI_CUSTOMERS: Readonly<Record<string, CustomerDetails>> = {
	[SEEDED_FBPI_ORDERS.dubai]: {
		first_name: 'Omar',
		last_name: 'Al Hashimi',
		city: 'Dubai',
		administrative_division: 'Dubai',
	},
	[SEEDED_FBPI_ORDERS.riyadh]: {
		first_name: 'Sara',
		last_name: 'Al Qahtani',
		city: 'Riyadh',
		administrative_division: 'Riyadh Province',
	},
	[SEEDED_FBPI_ORDERS.cairo]: {
		first_name: 'Mona',
		last_name: 'El Sayed',
		city: 'Giza',
		administrative_division: 'Giza Governorate',
	},
};

/** Any `FBPI-BULK-<digits>` is a generated FBPI order (for bulk tests and benchmarks). */
export const BULK_FBPI_PATTERN = /^FBPI-BULK-(\d+)$/;

export type SandboxCountry = 'ae' | 'sa' | 'eg';
export const SANDBOX_COUNTRIES: readonly SandboxCountry[] = ['ae', 'sa', 'eg'];

const FIRST_NAMES = [
	'Ahmed',
	'Fatima',
	'Yousef',
	'Layla',
	'Khalid',
	'Noura',
	'Hassan',
	'Mariam',
	'Tariq',
	'Huda',
];
const LAST_NAMES = [
	'Al Mansouri',
	'Al Harbi',
	'Abdelrahman',
	'Al Shamsi',
	'Farouk',
	'Al Otaibi',
	'Nasser',
	'Haddad',
];
const PLACES: Readonly<Record<SandboxCountry, ReadonlyArray<readonly [string, string]>>> = {
	ae: [
		['Dubai', 'Dubai'],
		['Abu Dhabi', 'Abu Dhabi'],
		['Sharjah', 'Sharjah'],
	],
	sa: [
		['Riyadh', 'Riyadh Province'],
		['Jeddah', 'Makkah Province'],
		['Dammam', 'Eastern Province'],
	],
	eg: [
		['Cairo', 'Cairo Governorate'],
		['Giza', 'Giza Governorate'],
		['Alexandria', 'Alexandria Governorate'],
	],
};

/** Deterministic Latin customer details for a generated order. */
export function generatedCustomer(key: string, country: SandboxCountry): CustomerDetails {
	let hash = 2166136261;
	for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 16777619) >>> 0;
	const [city, division] = PLACES[country][hash % PLACES[country].length];
	return {
		first_name: FIRST_NAMES[hash % FIRST_NAMES.length],
		last_name: LAST_NAMES[(hash >>> 8) % LAST_NAMES.length],
		city,
		administrative_division: division,
	};
}

/** The seeded orders as GetFbpiOrder answers them (state/fbpiOrders.ts fills in the rest). */
export interface FbpiOrderSeed {
	fbpiOrderNr: string;
	warehouseCode: string;
	country: SandboxCountry;
	/** ISO 8601 UTC. */
	created_at: string;
	items: Array<{
		partnerSku: string;
		mpStatus: 'MP_ITEM_STATUS_CONFIRMED' | 'MP_ITEM_STATUS_CANCELLED';
		deliveredInvoicePrice: number;
	}>;
}

export const SEEDED_FBPI_ORDER_TABLE: readonly FbpiOrderSeed[] = [
	{
		fbpiOrderNr: SEEDED_FBPI_ORDERS.dubai,
		warehouseCode: 'WH-DXB-01',
		country: 'ae',
		created_at: '2025-03-01T08:15:00.000Z',
		items: [
			{
				partnerSku: 'SKU-PHONE-CASE',
				mpStatus: 'MP_ITEM_STATUS_CONFIRMED',
				deliveredInvoicePrice: 49,
			},
			{
				partnerSku: 'SKU-USB-C-CABLE',
				mpStatus: 'MP_ITEM_STATUS_CONFIRMED',
				deliveredInvoicePrice: 25.5,
			},
		],
	},
	{
		fbpiOrderNr: SEEDED_FBPI_ORDERS.riyadh,
		warehouseCode: 'WH-RUH-02',
		country: 'sa',
		created_at: '2025-03-02T10:30:00.000Z',
		items: [
			{
				partnerSku: 'SKU-KETTLE',
				mpStatus: 'MP_ITEM_STATUS_CONFIRMED',
				deliveredInvoicePrice: 129,
			},
		],
	},
	{
		fbpiOrderNr: SEEDED_FBPI_ORDERS.cairo,
		warehouseCode: 'WH-CAI-01',
		country: 'eg',
		created_at: '2025-03-03T12:45:00.000Z',
		items: [
			{
				partnerSku: 'SKU-HEADPHONES',
				mpStatus: 'MP_ITEM_STATUS_CONFIRMED',
				deliveredInvoicePrice: 1450,
			},
			{
				partnerSku: 'SKU-CHARGER',
				mpStatus: 'MP_ITEM_STATUS_CANCELLED',
				deliveredInvoicePrice: 320,
			},
		],
	},
];

export interface WarehouseSeed {
	warehouse_code: string;
	/** ListWarehouses' fields. */
	display_name: string;
	fulfillment_system_code: string;
	is_active: boolean;
	country_code: SandboxCountry;
	/** Configured to receive order webhooks: only these accept sandbox orders. */
	receives_order_webhooks: boolean;
}

/** Seeded warehouses of every project by role. */
export const SEEDED_WAREHOUSES = {
	dubai: 'WH-DXB-01',
	riyadh: 'WH-RUH-02',
	cairo: 'WH-CAI-01',
	/** Not configured for order webhooks: CreateSandboxOrder answers 400 FAILED_PRECONDITION. */
	noWebhooks: 'WH-JED-01',
	/** Inactive (`is_active: false`), in another fulfillment system (`FBN`). */
	inactive: 'WH-DMM-09',
} as const;

/** The fulfillment system codes of the seeded warehouses (ListWarehouses' filter). */
export const FULFILLMENT_SYSTEMS = { fbpi: 'FBPI', fbn: 'FBN' } as const;

const fbpiWarehouse = (
	warehouse_code: string,
	display_name: string,
	country_code: SandboxCountry,
	receives_order_webhooks = true,
): WarehouseSeed => ({
	warehouse_code,
	display_name,
	fulfillment_system_code: FULFILLMENT_SYSTEMS.fbpi,
	is_active: true,
	country_code,
	receives_order_webhooks,
});

export const SEEDED_WAREHOUSE_TABLE: readonly WarehouseSeed[] = [
	fbpiWarehouse(SEEDED_WAREHOUSES.dubai, 'Dubai Main', 'ae'),
	fbpiWarehouse(SEEDED_WAREHOUSES.riyadh, 'Riyadh North', 'sa'),
	fbpiWarehouse(SEEDED_WAREHOUSES.cairo, 'Cairo East', 'eg'),
	fbpiWarehouse(SEEDED_WAREHOUSES.noWebhooks, 'Jeddah Port', 'sa', false),
	{
		warehouse_code: SEEDED_WAREHOUSES.inactive,
		display_name: 'Dammam Old Depot',
		fulfillment_system_code: FULFILLMENT_SYSTEMS.fbn,
		is_active: false,
		country_code: 'sa',
		receives_order_webhooks: false,
	},
];

// --- Event destinations (UpdateDestination) ----------------------------------------------------

/** Seeded HTTPS destinations of every project by role. */
export const SEEDED_DESTINATIONS = {
	/** Active; subscribed to FBPI::ORDER_SYNC and FBPO::PO_SYNC; one credentials header. */
	active: 'DST-1001',
	/** Inactive; FBPI::ORDER_SYNC subscription kept but inactive; no credentials. */
	inactive: 'DST-1002',
} as const;

export interface DestinationSeed {
	destination_code: string;
	destination_name: string;
	is_active: boolean;
	url: string;
	credentials: Record<string, string>;
	event_types: Array<{ event_type: string; is_active: boolean }>;
}

export const SEEDED_DESTINATION_TABLE: readonly DestinationSeed[] = [
	{
		destination_code: SEEDED_DESTINATIONS.active,
		destination_name: 'Order and PO sync',
		is_active: true,
		url: 'https://hooks.example.com/seller-platform/events',
		credentials: { 'X-Webhook-Secret': 'seeded-secret-1001' },
		event_types: [
			{ event_type: 'FBPI::ORDER_SYNC', is_active: true },
			{ event_type: 'FBPO::PO_SYNC', is_active: true },
		],
	},
	{
		destination_code: SEEDED_DESTINATIONS.inactive,
		destination_name: 'Staging listener',
		is_active: false,
		url: 'https://staging.example.com/hooks/seller-platform',
		credentials: {},
		event_types: [{ event_type: 'FBPI::ORDER_SYNC', is_active: false }],
	},
];

/** At most this many destinations per project. */
export const MAX_DESTINATIONS_PER_PROJECT = 5;

// --- Catalog products and their offers (GetProductOffers, SkuBarcodeMap) -------------------------

/** Seeded products of every project by role (partner SKUs), for tests to reference. */
export const SEEDED_PRODUCTS = {
	/** Offers in ae (live) and sa (inactive, no price, with issues); a barcode mapped to it. */
	offered: 'SKU-TSHIRT-BLK-M',
	/** One offer in eg under the supermall business model. */
	supermall: 'SKU-MUG-WHT',
	/** In the catalog, no offer yet. */
	noOffers: 'SKU-KETTLE-17L',
} as const;

/** The barcode seeded as mapped to SEEDED_PRODUCTS.offered in every project. */
export const SEEDED_BARCODE = '6291041500213';

export interface OfferPrice {
	amount: number;
	currency: string;
}

export interface OfferIssue {
	reason: string;
	subreason: string;
	description: string;
}

/** One offer of a product, as GetProductOffers answers it. */
export interface ProductOffer {
	offer_code: string;
	country_code: string;
	business_model: string;
	price: OfferPrice | null;
	is_active: boolean;
	active_net_stock: number;
	live_status: boolean;
	offer_issues: OfferIssue[];
}

/** A product of the catalog, as GetProductOffers answers it. */
export interface Product {
	partner_sku: string;
	sku: string;
	title: string;
	brand: string;
	offers: ProductOffer[];
}

export const SEEDED_PRODUCT_TABLE: readonly Product[] = [
	{
		partner_sku: SEEDED_PRODUCTS.offered,
		sku: 'N70012345V',
		title: 'Cotton T-shirt, black, M',
		brand: 'Plainwear',
		offers: [
			{
				offer_code: 'OFR-AE-0001',
				country_code: 'ae',
				business_model: 'noon',
				price: { amount: 49, currency: 'AED' },
				is_active: true,
				active_net_stock: 120,
				live_status: true,
				offer_issues: [],
			},
			{
				offer_code: 'OFR-SA-0001',
				country_code: 'sa',
				business_model: 'noon',
				price: null,
				is_active: false,
				active_net_stock: 0,
				live_status: false,
				offer_issues: [
					{ reason: 'PRICE', subreason: 'MISSING', description: 'No price is set in sa' },
					{ reason: 'STOCK', subreason: 'NONE', description: 'No net stock in sa' },
				],
			},
		],
	},
	{
		partner_sku: SEEDED_PRODUCTS.supermall,
		sku: 'N70054321V',
		title: 'Ceramic mug, white',
		brand: 'Homely',
		offers: [
			{
				offer_code: 'OFR-EG-0002',
				country_code: 'eg',
				business_model: 'supermall',
				price: { amount: 149.99, currency: 'EGP' },
				is_active: true,
				active_net_stock: 24,
				live_status: true,
				offer_issues: [],
			},
		],
	},
	{
		partner_sku: SEEDED_PRODUCTS.noOffers,
		sku: 'N70099999V',
		title: 'Electric kettle, 1.7 l',
		brand: 'Homely',
		offers: [],
	},
];

// --- Developers a seller authorised (AssignDeveloperToWebhook) ------------------------------------

/** Developer codes every project has authorised. */
export const SEEDED_DEVELOPERS = { authorized: 'DEV-1001', second: 'DEV-1002' } as const;

// --- Customer returns (Namshi) -------------------------------------------------------------------

/** One returned item of a customer order, as BatchGetCustomerReturnOrders answers it. */
export interface CustomerReturnItem {
	order_nr: string;
	purchase_item_nr: string;
	return_item_nr: string;
	awb_nr: string;
	barcode: string;
	/** The return's own state (text; the reference lists no values). */
	status: string;
}

export const SEEDED_RETURN_ORDERS = {
	/** Two items returned. */
	twoItems: 'NAE-R-1001',
	/** One item returned. */
	oneItem: 'NSA-R-2002',
} as const;

export const SEEDED_CUSTOMER_RETURNS: readonly CustomerReturnItem[] = [
	{
		order_nr: SEEDED_RETURN_ORDERS.twoItems,
		purchase_item_nr: 'PI-1001-1',
		return_item_nr: 'RI-1001-1',
		awb_nr: 'RAWB0000001001',
		barcode: '6291041500213',
		status: 'received',
	},
	{
		order_nr: SEEDED_RETURN_ORDERS.twoItems,
		purchase_item_nr: 'PI-1001-2',
		return_item_nr: 'RI-1001-2',
		awb_nr: 'RAWB0000001001',
		barcode: '6291041500220',
		status: 'in_transit',
	},
	{
		order_nr: SEEDED_RETURN_ORDERS.oneItem,
		purchase_item_nr: 'PI-2002-1',
		return_item_nr: 'RI-2002-1',
		awb_nr: 'RAWB0000002002',
		barcode: '6281006481234',
		status: 'qc_passed',
	},
];

/** Any order `RET-BULK-<n>` has generated returns: 1 item when n is even, 2 when odd. */
export const BULK_RETURN_PATTERN = /^RET-BULK-(\d+)$/;

/** The returned items of order `orderNr`: seeded, generated (RET-BULK-<n>), or none. */
export function customerReturnsOf(orderNr: string): CustomerReturnItem[] {
	const seeded = SEEDED_CUSTOMER_RETURNS.filter((item) => item.order_nr === orderNr);
	if (seeded.length) return seeded.map((item) => ({ ...item }));
	const match = BULK_RETURN_PATTERN.exec(orderNr);
	if (!match) return [];
	const n = Number(match[1].slice(-9));
	return Array.from({ length: 1 + (n % 2) }, (_, i) => ({
		order_nr: orderNr,
		purchase_item_nr: `PI-BULK-${n}-${i + 1}`,
		return_item_nr: `RI-BULK-${n}-${i + 1}`,
		awb_nr: `RAWB${String(n).padStart(10, '0')}`,
		barcode: String(6290000000000 + n * 10 + i),
		status: i === 0 ? 'received' : 'in_transit',
	}));
}
// --- Export categories (GetExportCategoryList, CreateExport) and an OAuth client ----------------

/** How a category describes one of its parameters (GetExportCategoryList `params`). */
export interface ExportParamSpec {
	type: 'string';
	required: boolean;
	description: string;
}

export interface ExportCategorySeed {
	export_category_code: string;
	params: Record<string, ExportParamSpec>;
}

const param = (required: boolean, description: string): ExportParamSpec => ({
	type: 'string',
	required,
	description,
});

/** The categories every project may export; CreateExport takes exactly these parameters. */
export const EXPORT_CATEGORIES: readonly ExportCategorySeed[] = [
	{
		export_category_code: 'ORDERS_EXPORT',
		params: {
			date_from: param(true, 'first day, YYYY-MM-DD'),
			date_to: param(true, 'last day, YYYY-MM-DD'),
			country_code: param(false, 'ae, sa or eg'),
		},
	},
	{ export_category_code: 'CATALOG_EXPORT', params: { brand: param(false, 'one brand only') } },
	{
		export_category_code: 'INVENTORY_EXPORT',
		params: { warehouse_code: param(true, 'the warehouse') },
	},
	{
		export_category_code: 'PAYMENTS_EXPORT',
		params: { statement_month: param(true, 'YYYY-MM') },
	},
];

/**
 * The OAuth app (client) of every emulator: CreateToken takes its ID and secret with an
 * authorization code issued for it (`emulator.issueOAuthCode()`; each code works once).
 */
export const SEEDED_OAUTH_CLIENT = {
	clientId: 'noon-oauth-client-emulator-app',
	clientSecret: 'emu-client-secret-7Hq2Vx9Lw4Kp8Zr3',
	scopes: ['orders.read', 'catalog.write'],
} as const;
