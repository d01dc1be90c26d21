/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Property-based fuzzing (fast-check, fixed seeds) of every parameter of every operation of the
 * Seller Platform node, and of the trigger's webhook, through real n8n executions against the
 * emulator.
 *
 * Each input item is one case: the fuzzed parameter is an expression reading the item (FUZZ), and
 * "continue on fail" gives every item its own output. For every case:
 * 1. nothing crashes: the run finishes, and each input item is paired with exactly one output item;
 * 2. a value refused by validation fails its item with an error naming the parameter, and sends
 *    nothing: the emulator logs exactly one request for each item that was not refused (matched
 *    to the item by a ref the request carries, or else counted), none for the others;
 * 3. no secret (the credential's private key, the session cookie, the login token) is in any
 *    output, error or log line.
 * Parameters read once per run (at item 0) are fuzzed one run per value: the run may fail as a
 * whole, naming the parameter, before anything is sent. The trigger's webhook gets fuzzed bodies
 * and secret headers: it answers 200, 400 or 401, never 500, and an authenticated delivery of a
 * subscribed event starts exactly one execution with `{ json: delivery }`; its parameters are
 * fuzzed at activation.
 */
import fc from 'fast-check';
import { request } from 'http';
import type { IDataObject, INodeParameters, IPairedItemData } from 'n8n-workflow';

import { startNewLifeForTests } from '../../dist/nodes/shared';
import { MAX_TEXT_LENGTH } from '../../dist/nodes/shared/common/values';
import { DELIVERY_HEADER } from '../../dist/nodes/SellerPlatformTrigger/SellerPlatformTrigger.node';
import {
	credentialFields,
	SEEDED_API_USER,
	SEEDED_DESTINATIONS,
	SEEDED_EXPORTS,
	SEEDED_FBPI_ORDERS,
	SEEDED_RETURN_ORDERS,
	SEEDED_OAUTH_CLIENT,
	SEEDED_OAUTH_TOKENS,
	SEEDED_PRODUCTS,
	SEEDED_WAREHOUSES,
	startEmulator,
	type Emulator,
	type RequestLogEntry,
} from '../emulator';
import {
	createTestEnvironment,
	type ActiveWorkflow,
	type TestEnvironment,
	type WorkflowResult,
} from '../helpers';
import { CREDENTIAL_ID, startFixture, workflowWithItems, type Fixture } from './fixture';
import { TRIGGER, triggerWorkflow as fixtureTriggerWorkflow } from './triggerFixture';

const NODE = 'Seller Platform';
/** Cases of a per-item target: one run of this many items. */
const ITEMS_PER_RUN = 170;
/** Cases (runs of RUN_ITEMS items) of a target read once per run. */
const RUNS_PER_TARGET = 24;
const RUN_ITEMS = 3;
/** Deliveries to the trigger's webhook, and activations with fuzzed trigger parameters. */
const DELIVERIES = 700;
const ACTIVATIONS_PER_PARAMETER = 12;

let cases = 0;

// --- Odd values ------------------------------------------------------------------------------

const TRICKY_TEXT = [
	'',
	' ',
	' \t\r\n ',
	'.',
	'..',
	'/',
	'../admin',
	'%2e%2e',
	'a/b?c=d#e',
	'true',
	' FALSE ',
	'yes',
	'0',
	'-1',
	'0.05',
	'1e308',
	'9007199254740993',
	'NaN',
	'Infinity',
	'null',
	'undefined',
	'__proto__',
	'constructor',
	'prototype',
	'toString',
	'hasOwnProperty',
	'={{ 1 + 1 }}',
	'{{ $json }}',
	'\u0000',
	'a\u0000b',
	'\r\nX-Injected: 1',
	'\u2028\u2029',
	'\uFEFF',
	'💩',
	'\uD800',
	'\uDFFF',
	'x\uDC00y',
	'\uDBFF\uDBFF',
	'x'.repeat(101),
];
const HUGE_TEXT = [
	'x'.repeat(100_000),
	'y'.repeat(MAX_TEXT_LENGTH),
	'z'.repeat(MAX_TEXT_LENGTH + 1),
	`${' '.repeat(70_000)}a`,
];
const controlChar = fc.integer({ min: 0, max: 31 }).map((code) => String.fromCharCode(code));

const text = fc.oneof(
	{ weight: 4, arbitrary: fc.string({ maxLength: 30 }) },
	{ weight: 2, arbitrary: fc.fullUnicodeString({ maxLength: 20 }) },
	// Any UTF-16 code units: lone surrogates included.
	{ weight: 2, arbitrary: fc.string16bits({ maxLength: 20 }) },
	{ weight: 1, arbitrary: fc.stringOf(controlChar, { maxLength: 10 }) },
	{ weight: 4, arbitrary: fc.constantFrom(...TRICKY_TEXT) },
	{ weight: 1, arbitrary: fc.constantFrom(...HUGE_TEXT) },
);
const number = fc.oneof(
	fc.integer(),
	fc.double({ noNaN: true, noDefaultInfinity: true }),
	// 2 ** 53 + 1 is 2 ** 53 as a double: the first integer beyond Number.MAX_SAFE_INTEGER.
	fc.constantFrom(
		2 ** 53 + 1,
		2 ** 53,
		-(2 ** 53),
		1e308,
		-1e308,
		5e-324,
		1e21,
		-1,
		0,
		0.05,
		0.1,
		0.5,
		1.5,
		3e9,
	),
);
const leaf = fc.oneof(text, number, fc.boolean(), fc.constant(null));
/** Names an object has through its prototype, or that reach it. */
const PROTOTYPE_NAMES = [
	'__proto__',
	'constructor',
	'prototype',
	'toString',
	'valueOf',
	'hasOwnProperty',
];
const key = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ maxLength: 8 }));
/** An object of own properties only: a "__proto__" key stays a key (as JSON.parse makes it). */
const objectOf = (keys: fc.Arbitrary<string>, values: fc.Arbitrary<unknown>) =>
	fc
		.array(fc.tuple(keys, values), { maxLength: 4 })
		.map((entries) => Object.fromEntries(entries) as IDataObject);
const PROTO_OBJECTS = [
	'{"__proto__":{"polluted":true}}',
	'{"constructor":{"prototype":{"polluted":true}}}',
	'{"prototype":"x","__proto__":null}',
	'{"__proto__":["a"]}',
].map((source) => JSON.parse(source) as IDataObject);

/** Any JSON value: text, numbers, booleans, null, objects (prototype keys too), arrays. */
const json: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 8, arbitrary: leaf },
	{ weight: 1, arbitrary: fc.constantFrom(...PROTO_OBJECTS) },
	{ weight: 1, arbitrary: objectOf(key, fc.jsonValue({ maxDepth: 2 })) },
	{ weight: 1, arbitrary: fc.array(leaf, { maxLength: 4 }) },
	{ weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);
/** Any value an expression can give: JSON, the numbers JSON cannot carry, nothing at all. */
const odd = fc.oneof(
	{ weight: 14, arbitrary: json },
	{ weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity, -0, undefined) },
);
/** An odd value, or (twice as often) one of `valid`: several such fields pass together too. */
const oddOr = (valid: unknown[]) =>
	fc.oneof({ weight: 1, arbitrary: odd }, { weight: 2, arbitrary: fc.constantFrom(...valid) });

// --- Targets: operation → parameters to fuzz → fixed parameters --------------------------------

/**
 * The expression a fuzzed parameter is set to: the item's `v`, or a number JSON cannot carry (`x`:
 * "NaN", "Infinity", "-Infinity", "-0"); neither gives undefined. With `slot`, the same read from
 * `$json[slot]`, for several parameters fuzzed at once.
 */
function fuzz(slot?: string): string {
	const at = slot ? `$json.${slot}` : '$json';
	return `={{ ${at}.x === undefined ? ${at}.v : Number(${at}.x) }}`;
}
const FUZZ = fuzz();

/** The item fields that carry `value` to `fuzz()`. */
function carry(value: unknown): IDataObject {
	if (value === undefined) return {};
	if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0))) {
		return { x: Object.is(value, -0) ? '-0' : String(value) };
	}
	return { v: value as IDataObject };
}

/** How each item's request is told apart: a fixed parameter carries the item's `ref` into it. */
interface Marker {
	parameter: string;
	/** A new ref (default `fz<n>z`). */
	ref?: () => string;
	/** Finds refs in a request's path and body (default /fz\d+z/g). */
	pattern?: RegExp;
	/** A file is downloaded after the request: that may fail (too large, too slow) on its own. */
	downloads?: boolean;
	/** What the parameter is set to (default REF, the item's ref), e.g. inside a resource locator. */
	set?: unknown;
	/** A batch: one request carries the rows of many items, each counted by its own ref. */
	batch?: boolean;
}

interface Target {
	/** "resource/operation parameter". */
	name: string;
	parameters: INodeParameters;
	/** An error refusing the value names one of these (display or internal names). */
	names: string[];
	/** The API operation an accepted item (for From Input Items: an import) sends, once. */
	sends: string;
	/** A valid value: item 0 holds it, so parameters read at item 0 never refuse the run. */
	first: unknown;
	values: fc.Arbitrary<unknown>;
	/** Matches requests to items; without one, requests are counted. */
	marker?: Marker;
	/** The input item of a case (default: the value carried for FUZZ). */
	item?: (value: unknown) => IDataObject;
	/** The value is the parameter itself, not an expression (n8n never evaluates it). */
	literal?: boolean;
	/** The operation sends one request per run, whatever the items (Log In). */
	oncePerRun?: boolean;
	/**
	 * A list (Get Many, one page): an item not refused sends one request and gets as many output
	 * items as the page has entries (none too), or one error item.
	 */
	list?: boolean;
	/** Cases (items) of its one run, instead of ITEMS_PER_RUN: an endpoint paced far slower. */
	cases?: number;
	/** A batch without a marker: the rows sent (`items` of the bodies) are counted, not requests. */
	batchRows?: boolean;
	/**
	 * A read whose only key is fuzzed: items repeating a key share one row, so the rows sent are
	 * the distinct keys of the items answered (each value as text, trimmed, as the node reads it).
	 */
	distinctRows?: boolean;
}

const REF = '={{ $json.ref }}';

/**
 * Targets of one operation: `(parameter, names, valid, set)` fuzzes the parameters `set` puts FUZZ
 * in, with odd values and the `valid` ones. `valid` as `{ slot: values }` fuzzes several at once,
 * each `fuzz(slot)` with its own value.
 */
function operation(
	resource: string,
	op: string,
	sends: string,
	fixed: INodeParameters = {},
	marker?: Marker,
) {
	return (
		parameter: string,
		names: string[],
		valid: unknown[] | Record<string, unknown[]>,
		set: INodeParameters,
		extra: {
			shapes?: fc.Arbitrary<unknown>;
			where?: (value: any) => boolean;
		} & Partial<Target> = {},
	): Target => {
		const { shapes, where = () => true, ...rest } = extra;
		const slots = Array.isArray(valid) ? undefined : Object.entries(valid);
		const values: fc.Arbitrary<unknown> = slots
			? fc.record(Object.fromEntries(slots.map(([slot, list]) => [slot, oddOr(list)])))
			: fc.oneof(
					{ weight: 4, arbitrary: odd },
					{ weight: 2, arbitrary: fc.constantFrom(...(valid as unknown[])) },
					...(shapes ? [{ weight: 2, arbitrary: shapes }] : []),
				);
		const marked = marker && !(marker.parameter in set);
		return {
			name: `${resource}/${op} ${parameter}`,
			parameters: {
				resource,
				operation: op,
				...fixed,
				...(marked ? { [marker.parameter]: marker.set ?? REF } : {}),
				...set,
			},
			names,
			sends,
			first: slots
				? Object.fromEntries(slots.map(([slot, list]) => [slot, list[0]]))
				: (valid as unknown[])[0],
			values: values.filter(where),
			marker: marked ? marker : undefined,
			item: slots
				? (value) =>
						Object.fromEntries(
							Object.entries(value as IDataObject).map(([slot, v]) => [slot, carry(v)]),
						)
				: undefined,
			...rest,
		};
	};
}

const CONFIRMED = 'MP_ITEM_STATUS_CONFIRMED';
const CANCELLED = 'MP_ITEM_STATUS_CANCELLED';
const MAPPING = { partnerSku: 'SKU-1', barcode: '12345678', forceSync: false };
const WAIT_BRIEFLY = { pollIntervalSeconds: 0.1, timeoutSeconds: 1 };
const BOOLEANS = [true, false, 'true', ' FALSE '];
const WAIT_OPTIONS = ['Wait for Completion', 'Poll Interval (Seconds)', 'Timeout (Seconds)'];
const WAIT_VALUES = { wait: BOOLEANS, interval: [0.1, 5, '2'], timeout: [1, 300, '10'] };
/**
 * Poll intervals of at most 0.2 s, never the default 5 s of an unset one: an import is really
 * waited for (its steps take 20 ms each).
 */
const shortPolls = ({ interval }: { interval: unknown }) =>
	interval !== undefined &&
	interval !== null &&
	interval !== '' &&
	!((typeof interval === 'number' || typeof interval === 'string') && Number(interval) > 0.2);
const WAIT_FIELDS = {
	waitForCompletion: fuzz('wait'),
	pollIntervalSeconds: fuzz('interval'),
	timeoutSeconds: fuzz('timeout'),
};

// Each item asks for its own purchase order (the emulator serves any PO-BULK-<n>).
const PO = operation(
	'purchaseOrder',
	'get',
	'GetPurchaseOrder',
	{},
	{ parameter: 'poNr', ref: () => `PO-BULK-${++refs}`, pattern: /PO-BULK-\d+/g },
);
const CUSTOMER = operation('fbpiOrder', 'getCustomerData', 'GetFbpiOrderCustomerData');
const SANDBOX = operation(
	'fbpiOrder',
	'createSandbox',
	'CreateSandboxOrder',
	{
		warehouseCode: SEEDED_WAREHOUSES.dubai,
		items: { item: [{ status: CONFIRMED, partnerSku: '' }] },
	},
	{ parameter: 'idempotencyKey' },
);
// Imports nobody made: the first status request answers 404, waiting or not.
const IMPORT_STATUS = operation(
	'import',
	'getStatus',
	'GetImportStatus',
	{},
	{ parameter: 'reference' },
);
const IMPORT = operation(
	'import',
	'createBarcode',
	'CreateBarcodeImport',
	{
		source: 'bqTable',
		bqTable: 'project.dataset.barcodes',
		fileUrl: 'https://example.com/barcodes.csv',
		itemsInput: 'defineBelow',
		mappings: { mapping: [MAPPING] },
	},
	{ parameter: 'clientReference' },
);
// One import of every input item: its output item is paired with the items it carries.
const FROM_ITEMS = operation('import', 'createBarcode', 'CreateBarcodeImport', {
	source: 'items',
	itemsInput: 'fromInputItems',
	partnerSkuField: 'partner_sku',
	barcodeField: 'barcode',
	clientReference: REF,
});
// Service accounts that do not exist: every accepted item is answered 404 (no key is made).
const CREDENTIAL = operation(
	'apiCredential',
	'create',
	'CreateCredential',
	{},
	{ parameter: 'userCode' },
);
const DESTINATION = operation('destination', 'update', 'UpdateDestination', {
	destinationCode: SEEDED_DESTINATIONS.inactive,
	updateFields: {},
});
// Each item looks at an export of its own, complete, with a file to download.
const EXPORT = operation(
	'export',
	'getStatus',
	'GetExportStatus',
	{},
	{
		parameter: 'exportCode',
		ref: () => f.emulator.addExport({ states: ['COMPLETE'] }).export_code,
		pattern: /EXP-\d+/g,
		downloads: true,
	},
);
// Shipments: each item its own shipment number (the marker), of the seeded Dubai order.
const SHIP_ORDER = SEEDED_FBPI_ORDERS.dubai;
const SHIP_ITEMS = [`${SHIP_ORDER}-1`, `${SHIP_ORDER}-2`];
const SHIP_WAREHOUSE = { __rl: true, mode: 'id', value: SEEDED_WAREHOUSES.dubai };
const SHIP_AWB = { courier: 'noon', awbNr: 'NLAE0000000001' };
const SHIPMENT_KEY = { parameter: 'integrationShipmentNr' };
const SHIP_CREATE = operation(
	'fbpiShipment',
	'create',
	'CreateShipment',
	{
		warehouseCode: SHIP_WAREHOUSE,
		fbpiOrderNr: SHIP_ORDER,
		mpItemNrs: SHIP_ITEMS[0],
		awbs: { awb: [SHIP_AWB] },
	},
	SHIPMENT_KEY,
);
// Shipments nobody made, mostly: the service answers 404.
const SHIP_GET = operation(
	'fbpiShipment',
	'get',
	'GetShipment',
	{ warehouseCode: SHIP_WAREHOUSE },
	SHIPMENT_KEY,
);
const SHIP_CANCEL = operation(
	'fbpiShipment',
	'cancel',
	'CancelShipment',
	{ warehouseCode: SHIP_WAREHOUSE },
	SHIPMENT_KEY,
);
const SHIP_AWBS = operation(
	'fbpiShipment',
	'addCourierAwbs',
	'AddShipmentCourierAwbs',
	{ warehouseCode: SHIP_WAREHOUSE, awbs: { awb: [SHIP_AWB] } },
	SHIPMENT_KEY,
);
const GENERATE_AWBS = operation('fbpiShipment', 'generateAwbs', 'GetNoonLogisticsAWBs', {
	countryCode: 'ae',
	quantity: 1,
});
const WAREHOUSE_NAMES = ['Warehouse Code', 'warehouseCode'];
const SHIPMENT_NR_NAMES = ['Integration Shipment Number', 'integrationShipmentNr'];
const WAREHOUSE_VALUES = [SEEDED_WAREHOUSES.dubai, 'WH-NONE', ' WH-DXB-01 '];
const AWB_VALUES = { c1: ['noon', 'Aramex'], a1: ['NLAE1', 42], c2: ['DHL'], a2: ['D-1', 'NLAE1'] };
const TWO_AWBS = {
	awbs: {
		awb: [
			{ courier: fuzz('c1'), awbNr: fuzz('a1') },
			{ courier: fuzz('c2'), awbNr: fuzz('a2') },
		],
	},
};
const OAUTH = operation('oauth', 'exchangeToken', 'ExchangeToken');
const ORDER = operation('fbpiOrder', 'get', 'GetFbpiOrder');
// The Cairo warehouse holds one order (seeded, 2025-03-03T12:45:00Z): one page, whatever the limit.
const ORDERS = operation('fbpiOrder', 'getMany', 'ListFbpiOrders', {
	warehouseCode: { __rl: true, mode: 'id', value: SEEDED_WAREHOUSES.cairo },
	returnAll: false,
	limit: 1,
});
const ORDER_UPDATE = operation('fbpiOrder', 'update', 'UpdateOrder', {
	fbpiOrderNr: SEEDED_FBPI_ORDERS.dubai,
	outOfStockItems: `${SEEDED_FBPI_ORDERS.dubai}-1`,
});
const ORDER_TIMES = [
	'2025-01-01T00:00:00Z',
	'2025-03-03T16:45:00+04:00',
	'2026-01-01T00:00:00Z',
	'',
];
const LIST = { list: true };
// ListWarehouses is paced by its own plan, 1 request per 2 s per project, whatever the
// credential's rate: few cases, each accepted one a request for the one page of 5 warehouses.
const WAREHOUSES = operation('warehouse', 'getMany', 'ListWarehouses', { returnAll: true });
const FEW = { ...LIST, cases: 6 };
// Stock and prices: batches of rows, one per item; the ref rides in a key field, so every item
// is a row of its own (an update refuses an item repeating another's row).
const byCode = (value: string) => ({ __rl: true as const, mode: 'id', value });
const STOCK_KEYS = { warehouseCode: byCode(SEEDED_WAREHOUSES.dubai), partnerSku: 'SKU-1' };
const STOCK_UPDATE = operation(
	'stock',
	'update',
	'UpdateStock',
	{ ...STOCK_KEYS, quantity: 5 },
	{ parameter: 'partnerSku', batch: true },
);
// The partner SKU fuzzed: the ref rides in the warehouse code (an unknown warehouse: that row's
// NOT_FOUND, an answer of the service all the same).
const STOCK_UPDATE_BY_WAREHOUSE = operation(
	'stock',
	'update',
	'UpdateStock',
	{ ...STOCK_KEYS, quantity: 5 },
	{ parameter: 'warehouseCode', set: byCode(REF), batch: true },
);
const STOCK_GET = operation('stock', 'get', 'GetStock', STOCK_KEYS, {
	parameter: 'partnerSku',
	batch: true,
});
const STOCK_GET_BY_WAREHOUSE = operation('stock', 'get', 'GetStock', STOCK_KEYS, {
	parameter: 'warehouseCode',
	set: byCode(REF),
	batch: true,
});
const PRICE_KEYS = { partnerSku: 'SKU-1', countryCode: 'ae' };
const PRICE_UPDATE = operation(
	'price',
	'update',
	'BatchUpsertPricing',
	{ ...PRICE_KEYS, price: 10 },
	{ parameter: 'partnerSku', batch: true },
);
const PRICE_GET = operation('price', 'get', 'BatchGetPricing', PRICE_KEYS, {
	parameter: 'partnerSku',
	batch: true,
});
const SESSION = operation('session', 'login', 'Login');
// --- Customer returns, Namshi and cross-border prices ---
// Batches as above. Customer returns and transfer price reads have one key, the one fuzzed: its
// rows are counted (repeated keys share a row).
const RETURNS = operation('customerReturn', 'get', 'BatchGetCustomerReturnOrders');
const TRANSFER_GET = operation('transferPrice', 'get', 'BatchGetTransferPrice');
const ONE_KEY_READ = { batchRows: true, distinctRows: true };
const SKU_MARKER = { parameter: 'partnerSku', batch: true };
const GLOBAL_PRICE = operation(
	'globalPrice',
	'update',
	'BatchUpsertGlobalPricing',
	{ partnerSku: 'SKU-1', sourceCountryCode: 'CN', destinationCountryCode: 'AE', price: 10 },
	SKU_MARKER,
);
const LOCAL_PRICE = operation(
	'localPrice',
	'update',
	'BatchUpsertLocalPricing',
	{ partnerSku: 'SKU-1', countryCode: 'KW', price: 10 },
	SKU_MARKER,
);
const PRODUCT = operation(
	'crossBorderProduct',
	'update',
	'BatchUpsertProduct',
	{ partnerSku: 'SKU-1' },
	SKU_MARKER,
);
const TRANSFER_UPDATE = operation(
	'transferPrice',
	'update',
	'BatchUpsertTransferPrice',
	{ partnerSku: 'SKU-1', transferPriceUsd: 10 },
	SKU_MARKER,
);
const COUNTRY_TEXT = ['CN', 'ae', ' KW '];

// --- Catalog, offers, event webhooks and schemas ---
// Barcode → Map: a batch; the ref rides in the barcode (or, the barcode fuzzed, in the SKU: a SKU
// not in the catalog is that row's NOT_FOUND, an answer of the service all the same).
const BARCODE_ROW = { barcode: '629000000001', partnerSku: SEEDED_PRODUCTS.offered };
const BARCODE_MAP = operation('barcode', 'map', 'SkuBarcodeMap', BARCODE_ROW, {
	parameter: 'barcode',
	batch: true,
});
const BARCODE_MAP_BY_SKU = operation('barcode', 'map', 'SkuBarcodeMap', BARCODE_ROW, {
	parameter: 'partnerSku',
	batch: true,
});
const OFFER = operation('offer', 'get', 'GetProductOffers');
// Each accepted item creates a webhook (a destination of the emulator: after the project's fifth,
// the service refuses more), its ref in the address.
const WEBHOOK_CREATE = operation(
	'eventWebhook',
	'create',
	'CreateWebhook',
	{ url: 'https://example.com/hook', headers: { header: [{ name: 'X-Key', value: 'k-1' }] } },
	{ parameter: 'url', set: '={{ "https://example.com/hook/" + $json.ref }}' },
);
// Webhooks nobody made, mostly: the ref is the webhook code, answered 404.
const SUBSCRIBE = operation(
	'eventWebhook',
	'subscribe',
	'CreateSubscription',
	{ eventType: 'FBPI::ORDER_SYNC' },
	{ parameter: 'webhookCode' },
);
const ASSIGN = operation(
	'eventWebhook',
	'assignDeveloper',
	'AssignDeveloperToWebhook',
	{ devCode: 'DEV-1001' },
	{ parameter: 'webhookCode' },
);
const SUBSCRIBE_COUNTED = operation('eventWebhook', 'subscribe', 'CreateSubscription', {
	eventType: 'FBPO::PO_SYNC',
});
const ASSIGN_COUNTED = operation('eventWebhook', 'assignDeveloper', 'AssignDeveloperToWebhook', {
	devCode: 'DEV-1002',
});
const EVENT_SCHEMA = operation('eventSchema', 'get', 'GetEventSchema');
const WEBHOOK_HEADER_NAMES = ['X-Key', 'x_key.1', 'X-Other', 'Bad Name'];
const WEBHOOK_HEADER_VALUES = ['secret-1', 'v=1+2 3', 42];

// Exports and identity. Each item's ref rides in the export's parameters (a brand of
// CATALOG_EXPORT), in the key ID of a removal, in the authorization code of a token.
const EXPORT_CREATE = operation(
	'export',
	'create',
	'CreateExport',
	{ exportCategoryCode: byCode('CATALOG_EXPORT'), params: '{}' },
	{ parameter: 'params', set: '={{ JSON.stringify({ brand: $json.ref }) }}' },
);
const EXPORT_CATEGORIES_GET = operation('export', 'getCategories', 'GetExportCategoryList');
const WHO_AM_I = operation('session', 'whoAmI', 'Whoami');
const REMOVE_KEYS = operation(
	'apiCredential',
	'remove',
	'RemoveCredentials',
	{ userCode: byCode('usr-fuzz-nobody') },
	{ parameter: 'keyId' },
);
const CREATE_TOKEN = operation(
	'oauth',
	'createToken',
	'CreateToken',
	{
		grantType: 'authorization_code',
		code: 'ac-nope',
		clientId: SEEDED_OAUTH_CLIENT.clientId,
		clientSecret: SEEDED_OAUTH_CLIENT.clientSecret,
	},
	{ parameter: 'code' },
);

// --- FBN inbound ---
// ASNs nobody made, mostly: each item's own ASN number (the marker, in the path) is answered 404.
const ASN_KEY = { parameter: 'asnNr' };
const ASN_BATCH = { parameter: 'asnNr', batch: true };
const FBN_CREATE = operation(
	'fbnShipment',
	'create',
	'AsnService_CreateShipment',
	{ shipmentType: 'SHIPMENT_TYPE_FBN_GLOBAL', countryCode: 'ae' },
	{ parameter: 'exrefNr' },
);
const FBN_CREATE_REFS = operation('fbnShipment', 'create', 'AsnService_CreateShipment', {
	countryCode: 'sa',
});
const FBN_GET = operation('fbnShipment', 'get', 'AsnService_GetShipment');
const FBN_UPDATE = operation(
	'fbnShipment',
	'update',
	'AsnService_UpdateShipment',
	{ misc: '{}' },
	ASN_KEY,
);
const FBN_STATUS = operation(
	'fbnShipment',
	'updateStatus',
	'AsnService_UpdateShipmentStatus',
	{},
	ASN_KEY,
);
const FBN_SCHEDULE = operation(
	'fbnShipment',
	'schedule',
	'AsnService_ScheduleShipment',
	{
		dstWarehouseCode: 'FBN-DXB-01',
		scheduleDate: '2030-01-02',
		slotStart: '08:00',
		slotEnd: '12:00',
	},
	ASN_KEY,
);
const FBN_LIST = operation('fbnShipment', 'getMany', 'AsnService_ListShipments', {
	countryCode: 'ae',
	limit: 5,
});
// The seeded ASN of the fixture's project (the first ASN of its emulator): two items.
const FBN_ITEMS = operation('fbnShipmentItem', 'getMany', 'AsnService_ListShipmentItems', {
	asnNr: 'ASN000000001',
});
const FBN_UPSERT = operation(
	'fbnShipmentItem',
	'upsert',
	'AsnService_UpdateShipmentItems',
	{ partnerSku: 'SKU-MUG-WHT', quantity: 2 },
	ASN_BATCH,
);
const FBN_UPSERT_ASN = operation('fbnShipmentItem', 'upsert', 'AsnService_UpdateShipmentItems', {
	partnerSku: REF,
	quantity: 2,
});
const FBN_DELETE = operation(
	'fbnShipmentItem',
	'delete',
	'AsnService_DeleteShipmentItems',
	{ partnerSku: 'SKU-MUG-WHT' },
	ASN_BATCH,
);
const FBN_CATALOG = operation('fbnCatalogItem', 'getMany', 'AsnService_ListEligibleItems', {
	countryCode: 'ae',
	returnAll: true,
});
const FBN_COUNTRIES = ['ae', 'SA', ' eg ', 'xx', 'kw', 'K1', 'KWT'];
const ASN_NAMES = ['ASN Number', 'asnNr'];

const HEADER_NAMES = ['X-Key', 'x_key.1', 'X-Other'];
const HEADER_VALUES = ['secret-1', ''];
const EVENT_TYPES = ['FBPI::ORDER_SYNC', 'FBPO::PO_SYNC'];
const DESTINATION_FIELDS = [
	'Destination Name',
	'Is Active',
	'Remove All Headers',
	'URL',
	'Headers',
	'Event Types',
];
const EXPORT_OPTIONS = [
	'Download File',
	'Max File Size (MB)',
	'Download Timeout (Seconds)',
	'Put Output File in Field',
	...WAIT_OPTIONS,
];

/**
 * Parameters read for each item: each item is a case. n8n puts collections and lists in shape
 * when it loads a workflow (an expression in place of a whole collection or list becomes its
 * default, unknown fields are dropped), so only their fields can take odd values: each field is
 * fuzzed alone, and all fields of a collection (or two entries of a list) at once.
 */
const PER_ITEM: Target[] = [
	PO('poNr', ['PO Number', 'poNr'], ['PO-BULK-7', 'PO-404'], { poNr: FUZZ }),

	CUSTOMER(
		'fbpiOrderNr',
		['FBPI Order Number', 'fbpiOrderNr'],
		[SEEDED_FBPI_ORDERS.dubai, 'FBPI-BULK-3'],
		{ fbpiOrderNr: FUZZ },
	),

	SANDBOX(
		'warehouseCode',
		['Warehouse Code', 'warehouseCode'],
		[SEEDED_WAREHOUSES.riyadh, SEEDED_WAREHOUSES.noWebhooks, 'WH-NONE'],
		{ warehouseCode: FUZZ },
	),
	SANDBOX('items.item[].status', ['Items', 'items'], [CONFIRMED, CANCELLED], {
		items: { item: [{ status: FUZZ, partnerSku: '' }] },
	}),
	SANDBOX('items.item[].partnerSku', ['Items', 'items'], ['SKU-1', '', 7], {
		items: { item: [{ status: CONFIRMED, partnerSku: FUZZ }] },
	}),
	SANDBOX(
		'items.item[] (two items, every field)',
		['Items', 'items'],
		{ s1: [CONFIRMED, CANCELLED], p1: ['SKU-1', ''], s2: [CANCELLED], p2: ['SKU-2'] },
		{
			items: {
				item: [
					{ status: fuzz('s1'), partnerSku: fuzz('p1') },
					{ status: fuzz('s2'), partnerSku: fuzz('p2') },
				],
			},
		},
	),
	SANDBOX('idempotencyKey', ['Idempotency Key', 'idempotencyKey'], ['fz-key-1', '', 'abcdefghij'], {
		idempotencyKey: FUZZ,
	}),
	SANDBOX('countryCode', ['Country Code', 'countryCode'], ['sa', '', 'ae', 'EG'], {
		countryCode: FUZZ,
	}),

	IMPORT_STATUS('reference', ['Reference', 'reference'], ['IMP-000001', 'fz-ref'], {
		reference: FUZZ,
	}),
	IMPORT_STATUS('options (every field)', WAIT_OPTIONS, WAIT_VALUES, { options: WAIT_FIELDS }),
	IMPORT_STATUS(
		'options.waitForCompletion',
		['Wait for Completion', 'waitForCompletion'],
		BOOLEANS,
		{
			options: { ...WAIT_BRIEFLY, waitForCompletion: FUZZ },
		},
	),
	IMPORT_STATUS(
		'options.pollIntervalSeconds',
		['Poll Interval (Seconds)', 'pollIntervalSeconds'],
		[0.1, 5, '2'],
		{ options: { pollIntervalSeconds: FUZZ } },
	),
	IMPORT_STATUS('options.timeoutSeconds', ['Timeout (Seconds)', 'timeoutSeconds'], [1, 300, '10'], {
		options: { timeoutSeconds: FUZZ },
	}),

	IMPORT('source', ['Source', 'source'], ['bqTable', 'fileUrl', 'items'], { source: FUZZ }),
	IMPORT(
		'fileUrl',
		['File URL', 'fileUrl'],
		['https://example.com/a.csv', 'gs://bucket/a.csv', 's3://bucket/b.parquet', 'http://x.y/z'],
		{ source: 'fileUrl', fileUrl: FUZZ },
	),
	IMPORT(
		'bqTable',
		['Data Warehouse Table', 'bqTable'],
		['p.d.t', 'project:dataset.table', 'bad table'],
		{ bqTable: FUZZ },
	),
	IMPORT(
		'clientReference',
		['Client Reference', 'clientReference'],
		['fz-first'],
		{ clientReference: FUZZ },
		{ shapes: fc.uuid().map((uuid) => `fz-${uuid}`) },
	),
	IMPORT(
		'config (every field)',
		['Notify on Completion', 'Force Sync'],
		{ notify: BOOLEANS, force: BOOLEANS },
		{ config: { isNotificationRequired: fuzz('notify'), forceSync: fuzz('force') } },
	),
	IMPORT(
		'config.isNotificationRequired',
		['Notify on Completion', 'isNotificationRequired'],
		BOOLEANS,
		{ config: { isNotificationRequired: FUZZ } },
	),
	IMPORT('config.forceSync', ['Force Sync', 'forceSync'], BOOLEANS, {
		config: { forceSync: FUZZ },
	}),
	IMPORT(
		'mappings.mapping[] (two mappings, every field)',
		['Mappings', 'mappings'],
		{ p1: ['SKU-1'], b1: ['1234'], f1: BOOLEANS, p2: ['SKU-2', 5], b2: ['5678'], f2: BOOLEANS },
		{
			source: 'items',
			mappings: {
				mapping: [
					{ partnerSku: fuzz('p1'), barcode: fuzz('b1'), forceSync: fuzz('f1') },
					{ partnerSku: fuzz('p2'), barcode: fuzz('b2'), forceSync: fuzz('f2') },
				],
			},
		},
	),
	IMPORT('mappings.mapping[].partnerSku', ['Mappings', 'mappings'], ['SKU-1', 42], {
		source: 'items',
		mappings: { mapping: [{ ...MAPPING, partnerSku: FUZZ }] },
	}),
	IMPORT('mappings.mapping[].barcode', ['Mappings', 'mappings'], ['12345678', 12345678], {
		source: 'items',
		mappings: { mapping: [{ ...MAPPING, barcode: FUZZ }] },
	}),
	IMPORT('mappings.mapping[].forceSync', ['Mappings', 'mappings'], BOOLEANS, {
		source: 'items',
		mappings: { mapping: [{ ...MAPPING, forceSync: FUZZ }] },
	}),
	IMPORT(
		'options (every field)',
		WAIT_OPTIONS,
		WAIT_VALUES,
		{ options: WAIT_FIELDS },
		{ where: shortPolls },
	),
	IMPORT('options.waitForCompletion', ['Wait for Completion', 'waitForCompletion'], BOOLEANS, {
		options: { ...WAIT_BRIEFLY, waitForCompletion: FUZZ },
	}),
	IMPORT(
		'options.pollIntervalSeconds',
		['Poll Interval (Seconds)', 'pollIntervalSeconds'],
		[0.1, 5],
		{ options: { pollIntervalSeconds: FUZZ } },
	),
	IMPORT('options.timeoutSeconds', ['Timeout (Seconds)', 'timeoutSeconds'], [1, 300], {
		options: { timeoutSeconds: FUZZ },
	}),
	// From Input Items: every item is a mapping, read by the node from the item itself.
	FROM_ITEMS(
		"an input item's partner SKU",
		['Partner SKU Field', 'partnerSkuField'],
		['SKU-1', 42, ' s '],
		{},
		{ item: (value) => ({ partner_sku: value, barcode: '12345678' }) as IDataObject },
	),
	FROM_ITEMS(
		"an input item's barcode",
		['Barcode Field', 'barcodeField'],
		['12345678', 4006381333931],
		{},
		{ item: (value) => ({ partner_sku: 'SKU-1', barcode: value }) as IDataObject },
	),

	CREDENTIAL('userCode', ['User Code', 'userCode'], ['usr-fuzz-nobody', 'usr-2'], {
		userCode: FUZZ,
	}),
	CREDENTIAL('userCode (From List)', ['User Code', 'userCode'], ['usr-fuzz-nobody', 'usr-2'], {
		userCode: { __rl: true, mode: 'list', value: FUZZ },
	}),
	CREDENTIAL(
		'channelIdentifier',
		['Channel Identifier', 'channelIdentifier'],
		['nobody@p1.idp.noon.partners'],
		{ userCode: '', channelIdentifier: FUZZ },
	),
	CREDENTIAL(
		'userCode and channelIdentifier',
		['User Code', 'Channel Identifier'],
		{ user: ['usr-fuzz-nobody', ''], channel: ['nobody@p1.idp.noon.partners', ''] },
		{ userCode: fuzz('user'), channelIdentifier: fuzz('channel') },
	),
	CREDENTIAL(
		'whitelistedIps',
		['Whitelisted IPs', 'whitelistedIps'],
		['10.0.0.1', '10.0.0.1, 2001:db8::1\n192.168.1.1', ''],
		{ whitelistedIps: FUZZ },
	),
	CREDENTIAL(
		'expiresAt',
		['Expires At', 'expiresAt'],
		['2030-01-31T12:00:00Z', '2030-01-31T16:00:00+04:00', '2001-01-01', ''],
		{ expiresAt: FUZZ },
	),
	CREDENTIAL(
		'options (every field)',
		['Private Key Output', 'Put Key File in Field'],
		{ output: ['json', 'binary', 'none'], field: ['key', 'data'] },
		{ options: { privateKeyOutput: fuzz('output'), binaryPropertyName: fuzz('field') } },
	),
	CREDENTIAL(
		'options.privateKeyOutput',
		['Private Key Output', 'privateKeyOutput'],
		['json', 'binary', 'none'],
		{ options: { privateKeyOutput: FUZZ } },
	),
	// The seeded service account: its first keys are made (then the service refuses more), so
	// the key file really goes into the fuzzed binary field a few times.
	CREDENTIAL(
		'options.binaryPropertyName',
		['Put Key File in Field', 'binaryPropertyName'],
		['hasOwnProperty', 'toString', 'privateKey', 'data'],
		{
			userCode: SEEDED_API_USER.userCode,
			options: { privateKeyOutput: 'binary', binaryPropertyName: FUZZ },
		},
	),

	DESTINATION(
		'destinationCode',
		['Destination Code', 'destinationCode'],
		[SEEDED_DESTINATIONS.inactive, 'DST-404'],
		{ destinationCode: FUZZ },
	),
	DESTINATION(
		'updateFields (every field)',
		DESTINATION_FIELDS,
		{
			name: ['Fuzzed'],
			active: BOOLEANS,
			remove: [false],
			url: ['https://example.com/hook'],
			header: HEADER_NAMES,
			value: HEADER_VALUES,
			type: EVENT_TYPES,
			subscribed: BOOLEANS,
		},
		{
			updateFields: {
				destinationName: fuzz('name'),
				isActive: fuzz('active'),
				removeAllHeaders: fuzz('remove'),
				url: fuzz('url'),
				headers: { header: [{ name: fuzz('header'), value: fuzz('value') }] },
				eventTypes: { eventType: [{ eventType: fuzz('type'), isActive: fuzz('subscribed') }] },
			},
		},
	),
	DESTINATION(
		'updateFields.destinationName',
		['Destination Name', 'destinationName'],
		['Fuzzed name', ''],
		{ updateFields: { destinationName: FUZZ } },
	),
	DESTINATION('updateFields.isActive', ['Is Active', 'isActive'], BOOLEANS, {
		updateFields: { isActive: FUZZ },
	}),
	DESTINATION(
		'updateFields.removeAllHeaders',
		['Remove All Headers', 'removeAllHeaders'],
		BOOLEANS,
		{
			updateFields: { removeAllHeaders: FUZZ },
		},
	),
	DESTINATION(
		'updateFields.url',
		['URL', 'url'],
		['https://example.com/hook', 'https://127.0.0.1:1/x', ''],
		{ updateFields: { url: FUZZ } },
	),
	DESTINATION(
		'updateFields.headers.header[] (two headers, every field)',
		['Headers', 'headers'],
		{ n1: HEADER_NAMES, v1: HEADER_VALUES, n2: HEADER_NAMES, v2: HEADER_VALUES },
		{
			updateFields: {
				headers: {
					header: [
						{ name: fuzz('n1'), value: fuzz('v1') },
						{ name: fuzz('n2'), value: fuzz('v2') },
					],
				},
			},
		},
	),
	DESTINATION('updateFields.headers.header[].name', ['Headers', 'headers'], HEADER_NAMES, {
		updateFields: { headers: { header: [{ name: FUZZ, value: 'v' }] } },
	}),
	DESTINATION('updateFields.headers.header[].value', ['Headers', 'headers'], HEADER_VALUES, {
		updateFields: { headers: { header: [{ name: 'X-Key', value: FUZZ }] } },
	}),
	DESTINATION(
		'updateFields.eventTypes.eventType[] (two entries, every field)',
		['Event Types', 'eventTypes'],
		{ t1: EVENT_TYPES, a1: BOOLEANS, t2: EVENT_TYPES, a2: BOOLEANS },
		{
			updateFields: {
				eventTypes: {
					eventType: [
						{ eventType: fuzz('t1'), isActive: fuzz('a1') },
						{ eventType: fuzz('t2'), isActive: fuzz('a2') },
					],
				},
			},
		},
	),
	DESTINATION(
		'updateFields.eventTypes.eventType[].eventType',
		['Event Types', 'eventTypes'],
		EVENT_TYPES,
		{ updateFields: { eventTypes: { eventType: [{ eventType: FUZZ, isActive: true }] } } },
	),
	DESTINATION(
		'updateFields.eventTypes.eventType[].isActive',
		['Event Types', 'eventTypes'],
		BOOLEANS,
		{
			updateFields: { eventTypes: { eventType: [{ eventType: EVENT_TYPES[1], isActive: FUZZ }] } },
		},
	),

	EXPORT(
		'exportCode',
		['Export Code', 'exportCode'],
		[SEEDED_EXPORTS.error, SEEDED_EXPORTS.pending, 'EXP-404'],
		{ exportCode: FUZZ },
	),
	EXPORT(
		'options (every field)',
		EXPORT_OPTIONS,
		{
			download: BOOLEANS,
			size: [1, 10, '5'],
			downloadTimeout: [5, '30'],
			field: ['data', 'file'],
			wait: BOOLEANS,
			interval: [0.1],
			timeout: [1],
		},
		{
			options: {
				download: fuzz('download'),
				maxFileSizeMb: fuzz('size'),
				downloadTimeoutSeconds: fuzz('downloadTimeout'),
				binaryPropertyName: fuzz('field'),
				...WAIT_FIELDS,
			},
		},
	),
	EXPORT('options.download', ['Download File', 'download'], BOOLEANS, {
		options: { download: FUZZ },
	}),
	EXPORT('options.maxFileSizeMb', ['Max File Size (MB)', 'maxFileSizeMb'], [1, 10, '5'], {
		options: { download: true, maxFileSizeMb: FUZZ },
	}),
	EXPORT(
		'options.downloadTimeoutSeconds',
		['Download Timeout (Seconds)', 'downloadTimeoutSeconds'],
		[5, 60, '30'],
		{ options: { download: true, downloadTimeoutSeconds: FUZZ } },
	),
	EXPORT(
		'options.binaryPropertyName',
		['Put Output File in Field', 'binaryPropertyName'],
		['data', 'file', 'toString', 'hasOwnProperty'],
		{ options: { download: true, binaryPropertyName: FUZZ } },
	),
	EXPORT('options.waitForCompletion', ['Wait for Completion', 'waitForCompletion'], BOOLEANS, {
		options: { ...WAIT_BRIEFLY, waitForCompletion: FUZZ },
	}),
	EXPORT(
		'options.pollIntervalSeconds',
		['Poll Interval (Seconds)', 'pollIntervalSeconds'],
		[0.1, 5],
		{ options: { pollIntervalSeconds: FUZZ } },
	),
	EXPORT('options.timeoutSeconds', ['Timeout (Seconds)', 'timeoutSeconds'], [1, 300], {
		options: { timeoutSeconds: FUZZ },
	}),

	SHIP_CREATE('warehouseCode', WAREHOUSE_NAMES, WAREHOUSE_VALUES, {
		warehouseCode: { __rl: true, mode: 'id', value: FUZZ },
	}),
	SHIP_CREATE(
		'integrationShipmentNr',
		SHIPMENT_NR_NAMES,
		['SHP-fuzz-1', 'SHP-fuzz-2', 7],
		{ integrationShipmentNr: FUZZ },
		{ shapes: fc.uuid().map((uuid) => `SHP-${uuid}`) },
	),
	SHIP_CREATE('fbpiOrderNr', ['FBPI Order Number', 'fbpiOrderNr'], [SHIP_ORDER, 'N-404'], {
		fbpiOrderNr: FUZZ,
	}),
	SHIP_CREATE(
		'mpItemNrs',
		['Marketplace Item Numbers', 'mpItemNrs'],
		[SHIP_ITEMS[1], SHIP_ITEMS.join(','), SHIP_ITEMS, 'A, B\nC', [SHIP_ITEMS[0], 'X'], ' A ,, B,'],
		{ mpItemNrs: FUZZ },
	),
	SHIP_CREATE('awbs.awb[].courier', ['AWBs', 'awbs'], ['noon', 'Aramex', 7], {
		awbs: { awb: [{ courier: FUZZ, awbNr: 'NLAE1' }] },
	}),
	SHIP_CREATE('awbs.awb[].awbNr', ['AWBs', 'awbs'], ['NLAE1', 12345], {
		awbs: { awb: [{ courier: 'noon', awbNr: FUZZ }] },
	}),
	SHIP_CREATE('awbs.awb[] (two AWBs, every field)', ['AWBs', 'awbs'], AWB_VALUES, TWO_AWBS),
	SHIP_GET('warehouseCode', WAREHOUSE_NAMES, WAREHOUSE_VALUES, {
		warehouseCode: { __rl: true, mode: 'id', value: FUZZ },
	}),
	SHIP_GET('integrationShipmentNr', SHIPMENT_NR_NAMES, ['SHP-fuzz-1', 'SHP-none'], {
		integrationShipmentNr: FUZZ,
	}),
	SHIP_CANCEL('warehouseCode', WAREHOUSE_NAMES, WAREHOUSE_VALUES, {
		warehouseCode: { __rl: true, mode: 'id', value: FUZZ },
	}),
	SHIP_CANCEL('integrationShipmentNr', SHIPMENT_NR_NAMES, ['SHP-none', 'SHP-fuzz-2'], {
		integrationShipmentNr: FUZZ,
	}),
	SHIP_AWBS('warehouseCode', WAREHOUSE_NAMES, WAREHOUSE_VALUES, {
		warehouseCode: { __rl: true, mode: 'id', value: FUZZ },
	}),
	SHIP_AWBS('integrationShipmentNr', SHIPMENT_NR_NAMES, ['SHP-fuzz-1', 'SHP-none'], {
		integrationShipmentNr: FUZZ,
	}),
	SHIP_AWBS('awbs.awb[] (two AWBs, every field)', ['AWBs', 'awbs'], AWB_VALUES, TWO_AWBS),
	GENERATE_AWBS('countryCode', ['Country Code', 'countryCode'], ['ae', 'SA', 'eg', 'kw'], {
		countryCode: FUZZ,
	}),
	GENERATE_AWBS('quantity', ['Quantity', 'quantity'], [1, '5', 1000, 1001, 0], {
		quantity: FUZZ,
	}),

	OAUTH(
		'accessToken',
		['Access Token', 'accessToken'],
		[SEEDED_OAUTH_TOKENS.sellerProfile, SEEDED_OAUTH_TOKENS.expired, 'not-a-token'],
		{ accessToken: FUZZ },
	),

	ORDER(
		'fbpiOrderNr',
		['FBPI Order Number', 'fbpiOrderNr'],
		[SEEDED_FBPI_ORDERS.cairo, 'FBPI-BULK-3', 'N-404'],
		{
			fbpiOrderNr: FUZZ,
		},
	),
	ORDER('simplify', ['Simplify', 'simplify'], BOOLEANS, {
		fbpiOrderNr: SEEDED_FBPI_ORDERS.cairo,
		simplify: FUZZ,
	}),
	ORDERS(
		'warehouseCode',
		['Warehouse Code', 'warehouseCode'],
		[SEEDED_WAREHOUSES.cairo, 'WH-NONE'],
		{ warehouseCode: { __rl: true, mode: 'id', value: FUZZ } },
		LIST,
	),
	ORDERS('returnAll', ['Return All', 'returnAll'], BOOLEANS, { returnAll: FUZZ }, LIST),
	ORDERS('limit', ['Limit', 'limit'], [1, 50, '2'], { limit: FUZZ }, LIST),
	ORDERS(
		'filters (every field)',
		['Created After', 'Created Before'],
		{ after: ORDER_TIMES, before: ORDER_TIMES },
		{ filters: { createdAfter: fuzz('after'), createdBefore: fuzz('before') } },
		LIST,
	),
	ORDERS(
		'filters.createdAfter',
		['Created After', 'createdAfter'],
		ORDER_TIMES,
		{
			filters: { createdAfter: FUZZ },
		},
		LIST,
	),
	ORDERS(
		'filters.createdBefore',
		['Created Before', 'createdBefore'],
		ORDER_TIMES,
		{
			filters: { createdBefore: FUZZ },
		},
		LIST,
	),
	ORDERS(
		'options.timeoutSeconds',
		['Timeout (Seconds)', 'timeoutSeconds'],
		[300, '10'],
		{
			options: { timeoutSeconds: FUZZ },
		},
		LIST,
	),
	ORDER_UPDATE(
		'fbpiOrderNr',
		['FBPI Order Number', 'fbpiOrderNr'],
		[SEEDED_FBPI_ORDERS.dubai, 'N-404'],
		{
			fbpiOrderNr: FUZZ,
		},
	),
	ORDER_UPDATE(
		'outOfStockItems',
		['Out of Stock Items', 'outOfStockItems'],
		[
			`${SEEDED_FBPI_ORDERS.dubai}-1`,
			`${SEEDED_FBPI_ORDERS.dubai}-2, ${SEEDED_FBPI_ORDERS.dubai}-1`,
			[`${SEEDED_FBPI_ORDERS.dubai}-2`],
			'NOT-AN-ITEM',
		],
		{ outOfStockItems: FUZZ },
	),
	WAREHOUSES(
		'filters.fulfillmentSystemCode',
		['Fulfillment System Code', 'fulfillmentSystemCode'],
		['FBPI', ' FBN ', 'NONE', ''],
		{ filters: { fulfillmentSystemCode: FUZZ } },
		FEW,
	),
	WAREHOUSES(
		'returnAll and limit',
		['Return All', 'returnAll', 'Limit', 'limit'],
		{ all: BOOLEANS, limit: [2, 50, '3'] },
		{ returnAll: fuzz('all'), limit: fuzz('limit') },
		FEW,
	),
	STOCK_UPDATE(
		'warehouseCode',
		['Warehouse Code', 'warehouseCode'],
		[SEEDED_WAREHOUSES.dubai, 'WH-NONE', 7],
		{ warehouseCode: byCode(FUZZ) },
	),
	STOCK_UPDATE_BY_WAREHOUSE('partnerSku', ['Partner SKU', 'partnerSku'], ['SKU-1', 42, ' s '], {
		partnerSku: FUZZ,
	}),
	STOCK_UPDATE('quantity', ['Quantity', 'quantity'], [5, 0, '12', 2147483647], {
		quantity: FUZZ,
	}),
	STOCK_UPDATE('processingTime', ['Processing Time', 'processingTime'], ['2', 3, ''], {
		processingTime: FUZZ,
	}),
	STOCK_UPDATE(
		'quantity and processingTime',
		['Quantity', 'Processing Time'],
		{ q: [5, '', 0], t: ['2', ''] },
		{ quantity: fuzz('q'), processingTime: fuzz('t') },
	),
	STOCK_GET(
		'warehouseCode',
		['Warehouse Code', 'warehouseCode'],
		[SEEDED_WAREHOUSES.riyadh, 'WH-NONE'],
		{ warehouseCode: byCode(FUZZ) },
	),
	STOCK_GET_BY_WAREHOUSE('partnerSku', ['Partner SKU', 'partnerSku'], ['SKU-1', 42], {
		partnerSku: FUZZ,
	}),
	PRICE_UPDATE('countryCode', ['Country Code', 'countryCode'], ['ae', 'SA', 'eg'], {
		countryCode: FUZZ,
	}),
	PRICE_UPDATE('price', ['Price', 'price'], [10, 0, '19.99'], { price: FUZZ }),
	PRICE_UPDATE('msrp', ['MSRP', 'msrp'], [12, '', '0.5'], { msrp: FUZZ }),
	PRICE_UPDATE('isActive', ['Is Active', 'isActive'], [...BOOLEANS, ''], { isActive: FUZZ }),
	PRICE_UPDATE(
		'price, msrp and isActive',
		['Price', 'MSRP', 'Is Active'],
		{ price: [10, ''], msrp: [12, ''], active: [...BOOLEANS, ''] },
		{ price: fuzz('price'), msrp: fuzz('msrp'), isActive: fuzz('active') },
	),
	// The partner SKU fuzzed: no other key field carries a ref; the rows sent are counted (an item
	// repeating another's row is refused, naming the key's parameters).
	PRICE_UPDATE(
		'partnerSku',
		['Partner SKU', 'partnerSku'],
		['SKU-1', 42, ' s '],
		{ partnerSku: FUZZ },
		{ marker: undefined, batchRows: true },
	),
	PRICE_GET('countryCode', ['Country Code', 'countryCode'], ['sa', 'AE'], { countryCode: FUZZ }),

	// --- Catalog, offers, event webhooks and schemas ---
	BARCODE_MAP('partnerSku', ['Partner SKU', 'partnerSku'], [SEEDED_PRODUCTS.offered, 42, ' s '], {
		partnerSku: FUZZ,
	}),
	BARCODE_MAP('forceMap', ['Force Map', 'forceMap'], BOOLEANS, { forceMap: FUZZ }),
	// The barcode fuzzed: items repeating another's barcode are refused, naming it.
	BARCODE_MAP_BY_SKU('barcode', ['Barcode', 'barcode'], ['629000000002', 12345678, ' b '], {
		barcode: FUZZ,
	}),
	OFFER('partnerSku', ['Partner SKU', 'partnerSku'], [SEEDED_PRODUCTS.offered, 'SKU-404', 42], {
		partnerSku: FUZZ,
	}),
	OFFER('simplify', ['Simplify', 'simplify'], BOOLEANS, {
		partnerSku: SEEDED_PRODUCTS.offered,
		simplify: FUZZ,
	}),
	WEBHOOK_CREATE('url', ['URL', 'url'], ['https://example.com/h', 'http://example.com/h'], {
		url: FUZZ,
	}),
	WEBHOOK_CREATE('headers.header[].name', ['Headers', 'headers'], WEBHOOK_HEADER_NAMES, {
		headers: { header: [{ name: FUZZ, value: 'v' }] },
	}),
	WEBHOOK_CREATE('headers.header[].value', ['Headers', 'headers'], WEBHOOK_HEADER_VALUES, {
		headers: { header: [{ name: 'X-Key', value: FUZZ }] },
	}),
	WEBHOOK_CREATE(
		'headers.header[] (two headers, every field)',
		['Headers', 'headers'],
		{
			n1: WEBHOOK_HEADER_NAMES,
			v1: WEBHOOK_HEADER_VALUES,
			n2: WEBHOOK_HEADER_NAMES,
			v2: WEBHOOK_HEADER_VALUES,
		},
		{
			headers: {
				header: [
					{ name: fuzz('n1'), value: fuzz('v1') },
					{ name: fuzz('n2'), value: fuzz('v2') },
				],
			},
		},
	),
	SUBSCRIBE('eventType', ['Event Type', 'eventType'], [...EVENT_TYPES, 'CATALOG::IMPORT_DONE'], {
		eventType: FUZZ,
	}),
	SUBSCRIBE_COUNTED(
		'webhookCode',
		['Webhook Code', 'webhookCode'],
		[SEEDED_DESTINATIONS.active, 'DST-404'],
		{ webhookCode: FUZZ },
	),
	ASSIGN('devCode', ['Developer Code', 'devCode'], ['DEV-1001', 'DEV-404', 7], {
		devCode: FUZZ,
	}),
	ASSIGN_COUNTED(
		'webhookCode',
		['Webhook Code', 'webhookCode'],
		[SEEDED_DESTINATIONS.active, 'DST-404'],
		{ webhookCode: FUZZ },
	),
	// Event Schema → Get has no parameter: the items are fuzzed (and ignored); one request per run.
	EVENT_SCHEMA('(no parameters)', [], [{}], {}, { oncePerRun: true }),
	// --- Customer returns, Namshi and cross-border prices ---
	RETURNS(
		'orderNr',
		['Order Number', 'orderNr'],
		['RET-BULK-7', SEEDED_RETURN_ORDERS.twoItems, 'N-NONE', 42],
		{ orderNr: FUZZ },
		// An unknown order is left out of the answer: it has no return, its item succeeds.
		ONE_KEY_READ,
	),
	GLOBAL_PRICE('sourceCountryCode', ['Source Country Code', 'sourceCountryCode'], COUNTRY_TEXT, {
		sourceCountryCode: FUZZ,
	}),
	GLOBAL_PRICE(
		'destinationCountryCode',
		['Destination Country Code', 'destinationCountryCode'],
		COUNTRY_TEXT,
		{ destinationCountryCode: FUZZ },
	),
	GLOBAL_PRICE(
		'price and msrp',
		['Price', 'MSRP'],
		{ price: [10, '', '0.5'], msrp: [12, ''] },
		{ price: fuzz('price'), msrp: fuzz('msrp') },
	),
	GLOBAL_PRICE(
		'partnerSku',
		['Partner SKU', 'partnerSku'],
		['SKU-1', 42, ' s '],
		{ partnerSku: FUZZ },
		{ marker: undefined, batchRows: true },
	),
	LOCAL_PRICE('countryCode', ['Country Code', 'countryCode'], COUNTRY_TEXT, { countryCode: FUZZ }),
	LOCAL_PRICE('price', ['Price', 'price'], [10, 0, '19.99'], { price: FUZZ }),
	LOCAL_PRICE('msrp', ['MSRP', 'msrp'], [12, '0.5'], { msrp: FUZZ }),
	PRODUCT(
		'dimensionsCm (every field)',
		['Dimensions', 'dimensionsCm'],
		{ l: [30, '2.5'], w: [20, 1], h: [10, '1'] },
		{ dimensionsCm: { dimensions: { length: fuzz('l'), width: fuzz('w'), height: fuzz('h') } } },
	),
	PRODUCT('vmWeightCm', ['Volumetric Weight', 'vmWeightCm'], [1.5, 0, ''], { vmWeightCm: FUZZ }),
	PRODUCT('actualWeightKg', ['Actual Weight (Kg)', 'actualWeightKg'], [0.8, '2', ''], {
		actualWeightKg: FUZZ,
	}),
	PRODUCT('hsCode', ['HS Code', 'hsCode'], ['6109.10', 610910, ''], { hsCode: FUZZ }),
	TRANSFER_UPDATE(
		'transferPriceUsd, msrpUsd and isActive',
		['Transfer Price (USD)', 'MSRP (USD)', 'Is Active'],
		{ tp: [10, ''], msrp: [12, ''], active: [...BOOLEANS, ''] },
		{ transferPriceUsd: fuzz('tp'), msrpUsd: fuzz('msrp'), isActive: fuzz('active') },
	),
	TRANSFER_GET(
		'partnerSku',
		['Partner SKU', 'partnerSku'],
		['SKU-1', 42, ' s '],
		{ partnerSku: FUZZ },
		ONE_KEY_READ,
	),

	// Log In has no parameter: the items are fuzzed (and ignored); one login per run.
	SESSION('(no parameters)', [], [{}], {}, { oncePerRun: true }),

	// --- Exports and identity ---
	EXPORT_CREATE(
		'exportCategoryCode',
		['Export Category Code', 'exportCategoryCode'],
		['CATALOG_EXPORT', ' CATALOG_EXPORT ', 'ORDERS_EXPORT', 'NOPE'],
		{ exportCategoryCode: byCode(FUZZ) },
	),
	EXPORT_CREATE(
		'params',
		['Parameters', 'params'],
		['{}', '{ "brand": "Acme" }', { brand: 'Acme' }, { nope: 1 }, '[]', '{'],
		{ params: FUZZ },
	),
	EXPORT_CATEGORIES_GET('(no parameters)', [], [{}], {}, LIST),
	WHO_AM_I('(no parameters)', [], [{}], {}),
	// A user nobody has, or a key nobody has: every accepted item is answered 404, no key goes.
	REMOVE_KEYS(
		'userCode',
		['User Code', 'userCode'],
		['usr-fuzz-nobody', SEEDED_API_USER.userCode],
		{ userCode: byCode(FUZZ) },
	),
	REMOVE_KEYS('keyId', ['Key ID', 'keyId'], ['noon-partners-key-id-nope', ' k '], { keyId: FUZZ }),
	// An authorization code nobody issued: every accepted item is answered 400.
	CREATE_TOKEN('grantType', ['Grant Type', 'grantType'], ['authorization_code', 'refresh'], {
		grantType: FUZZ,
	}),
	CREATE_TOKEN('code', ['Code', 'code'], ['ac-nope', 42], { code: FUZZ }),
	CREATE_TOKEN('clientId', ['Client ID', 'clientId'], [SEEDED_OAUTH_CLIENT.clientId, 'x'], {
		clientId: FUZZ,
	}),
	CREATE_TOKEN(
		'clientSecret',
		['Client Secret', 'clientSecret'],
		[SEEDED_OAUTH_CLIENT.clientSecret, 'wrong'],
		{ clientSecret: FUZZ },
	),
	CREATE_TOKEN(
		'options.accessTokenOutput',
		['Access Token Output', 'accessTokenOutput'],
		['json', 'none'],
		{ options: { accessTokenOutput: FUZZ } },
	),
	// --- FBN inbound ---
	FBN_CREATE('countryCode', ['Country Code', 'countryCode'], FBN_COUNTRIES, { countryCode: FUZZ }),
	FBN_CREATE(
		'shipmentType',
		['Shipment Type', 'shipmentType'],
		['SHIPMENT_TYPE_FBN_GLOBAL', 'SHIPMENT_TYPE_UNSPECIFIED'],
		{ shipmentType: FUZZ },
	),
	FBN_CREATE_REFS('exrefNr', ['External Reference Number', 'exrefNr'], ['PO-1', 42, ' p '], {
		exrefNr: FUZZ,
	}),
	FBN_GET('asnNr', ASN_NAMES, ['ASN000000001', 'ASN-404', '..'], { asnNr: FUZZ }),
	FBN_GET('asnNr (By Number)', ASN_NAMES, ['ASN000000001', 'ASN-404', '..'], {
		asnNr: byCode(FUZZ),
	}),
	FBN_GET('simplify', ['Simplify', 'simplify'], BOOLEANS, {
		asnNr: 'ASN000000001',
		simplify: FUZZ,
	}),
	FBN_UPDATE('misc', ['Metadata (JSON)', 'misc'], [{ a: 1 }, '{"a":[1]}', '[]', 'x', '{}'], {
		misc: FUZZ,
	}),
	FBN_STATUS(
		'statusAction',
		['Action', 'statusAction'],
		['STATUS_ACTION_SEAL', 'STATUS_ACTION_RESCHEDULE', 'STATUS_ACTION_UNSPECIFIED'],
		{ statusAction: FUZZ },
	),
	FBN_SCHEDULE(
		'dstWarehouseCode',
		['Destination Warehouse Code', 'dstWarehouseCode'],
		['FBN-DXB-01', 7, ''],
		{ dstWarehouseCode: FUZZ },
	),
	FBN_SCHEDULE(
		'scheduleDate',
		['Schedule Date', 'scheduleDate'],
		['2030-01-02', '2030-02-30', '2030-1-2', '2030-01-02T00:00:00Z'],
		{ scheduleDate: FUZZ },
	),
	FBN_SCHEDULE(
		'slotStart and slotEnd',
		['Slot Start', 'Slot End'],
		{ start: ['08:00', '13:00', '24:00', '8:00'], end: ['12:00', '07:59', '17:00'] },
		{ slotStart: fuzz('start'), slotEnd: fuzz('end') },
	),
	FBN_LIST(
		'countryCode',
		['Country Code', 'countryCode'],
		FBN_COUNTRIES,
		{ countryCode: FUZZ },
		LIST,
	),
	FBN_LIST(
		'filters.status',
		['Status', 'status'],
		['ASN_STATUS_CREATED', 'ASN_STATUS_RECEIVING', 'ASN_STATUS_UNSPECIFIED', 'created'],
		{ filters: { status: FUZZ } },
		LIST,
	),
	FBN_ITEMS('limit', ['Limit', 'limit'], [1, 50, '2'], { limit: FUZZ }, LIST),
	FBN_ITEMS(
		'options.includeTotal',
		['Include Total', 'includeTotal'],
		BOOLEANS,
		{ options: { includeTotal: FUZZ } },
		LIST,
	),
	FBN_LIST(
		'options.includeTotal',
		['Include Total', 'includeTotal'],
		BOOLEANS,
		{ options: { includeTotal: FUZZ } },
		LIST,
	),
	FBN_CATALOG(
		'options.includeTotal',
		['Include Total', 'includeTotal'],
		BOOLEANS,
		{ options: { includeTotal: FUZZ } },
		LIST,
	),
	FBN_UPSERT('quantity', ['Quantity', 'quantity'], [2, 0, '12', 2147483647, 1.5], {
		quantity: FUZZ,
	}),
	FBN_UPSERT(
		'storageType',
		['Storage Type', 'storageType'],
		['STORAGE_TYPE_BULKY', 'STORAGE_TYPE_UNSPECIFIED', 'BULKY'],
		{ storageType: FUZZ },
	),
	FBN_UPSERT_ASN('asnNr', ASN_NAMES, ['ASN-404', 42, '..'], { asnNr: FUZZ }, { batchRows: true }),
	FBN_DELETE('partnerSku', ['Partner SKU', 'partnerSku'], ['SKU-MUG-WHT', 42, ' s '], {
		partnerSku: FUZZ,
	}),
	FBN_CATALOG(
		'countryCode',
		['Country Code', 'countryCode'],
		FBN_COUNTRIES,
		{ countryCode: FUZZ },
		LIST,
	),
	FBN_CATALOG(
		'filters.partnerSku',
		['Partner SKU', 'partnerSku'],
		['MUG', ' tee ', '', 'none'],
		{ filters: { partnerSku: FUZZ } },
		LIST,
	),
];

/** Parameters read once per run, at item 0: each value is a case, one run of RUN_ITEMS items. */
const PER_RUN: Target[] = [
	// n8n never evaluates an expression in these: the value is the parameter itself.
	PO(
		'resource',
		['Resource', 'resource', 'operation'],
		['purchaseOrder', 'session', 'import', ...PROTOTYPE_NAMES],
		{ resource: FUZZ },
		{ literal: true },
	),
	PO(
		'operation',
		['Operation', 'operation'],
		['get', 'create', 'login', ...PROTOTYPE_NAMES],
		{ operation: FUZZ },
		{ literal: true },
	),
	PO('options.concurrency', ['Concurrency', 'concurrency'], [0, 1, 64, 1000, '8'], {
		options: { concurrency: FUZZ },
	}),
	PO(
		'options.waitingBudgetSeconds',
		['Waiting Budget (Seconds)', 'waitingBudgetSeconds'],
		[0, 300, '1.5'],
		{ options: { waitingBudgetSeconds: FUZZ } },
	),
	PO(
		'options.stopAfterFailures',
		['Stop After Consecutive Failures', 'stopAfterFailures'],
		[1, 20, '3'],
		{ options: { stopAfterFailures: FUZZ } },
	),
	FROM_ITEMS('itemsInput', ['Mappings Input', 'itemsInput'], ['fromInputItems', 'defineBelow'], {
		itemsInput: FUZZ,
		mappings: { mapping: [MAPPING] },
	}),
	FROM_ITEMS(
		'partnerSkuField',
		['Partner SKU Field', 'partnerSkuField'],
		['partner_sku', 'barcode', 'missing', 'a.b'],
		{ partnerSkuField: FUZZ },
	),
	FROM_ITEMS(
		'barcodeField',
		['Barcode Field', 'barcodeField'],
		['barcode', 'partner_sku', 'missing'],
		{ barcodeField: FUZZ },
	),
	FROM_ITEMS(
		'forceSyncField',
		['Force Sync Field', 'forceSyncField'],
		['', 'force', 'missing', 'v'],
		{ forceSyncField: FUZZ },
	),
	// The field named holds the case's value (the item's `v`): read per item, strictly.
	FROM_ITEMS('forceSyncField (its values)', ['Force Sync Field', 'forceSyncField'], BOOLEANS, {
		forceSyncField: 'v',
	}),
	FROM_ITEMS(
		'clientReference',
		['Client Reference', 'clientReference'],
		['fz-from-items'],
		{ clientReference: FUZZ },
		{ shapes: fc.uuid().map((uuid) => `fz-${uuid}`) },
	),
	FROM_ITEMS(
		'config (every field)',
		['Notify on Completion', 'Force Sync'],
		{ notify: BOOLEANS, force: BOOLEANS },
		{ config: { isNotificationRequired: fuzz('notify'), forceSync: fuzz('force') } },
	),
	FROM_ITEMS(
		'options (every field)',
		WAIT_OPTIONS,
		WAIT_VALUES,
		{ options: WAIT_FIELDS },
		{ where: shortPolls },
	),
];

// --- Checking a run ---------------------------------------------------------------------------

/** Texts no output, error or log line may contain. */
const secrets = new Set<string>();

/** The private key (every 32 characters of its body), the session cookie, each login's token. */
function noteSecrets(requests: RequestLogEntry[]) {
	for (const line of f.emulator.credential.private_key.split('\n')) {
		if (line.startsWith('-----')) continue;
		for (let at = 0; at + 32 <= line.length; at += 32) secrets.add(line.slice(at, at + 32));
	}
	for (const pair of String(f.env.credentialData(CREDENTIAL_ID).sessionCookie).split(';')) {
		const value = pair.slice(pair.indexOf('=') + 1).trim();
		if (value.length >= 12) secrets.add(value);
	}
	// The OAuth client's secret (CreateToken), which no error may show.
	secrets.add(SEEDED_OAUTH_CLIENT.clientSecret);
	for (const entry of requests) {
		const token = (entry.body as { token?: unknown } | null)?.token;
		if (entry.operation === 'Login' && typeof token === 'string') {
			secrets.add(token);
			secrets.add(token.split('.')[2]);
		}
	}
}

function leakedIn(textSeen: string): string[] {
	return [...secrets].filter((secret) => textSeen.includes(secret)).map((s) => `${s.slice(0, 6)}…`);
}

/** A value as a report shows it: JSON, cut; the numbers JSON cannot carry by name. */
function shown(value: unknown): string {
	if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0))) {
		return Object.is(value, -0) ? '-0' : String(value);
	}
	if (value === undefined) return 'undefined';
	const textOf = JSON.stringify(value);
	return textOf.length > 80 ? `${textOf.slice(0, 80)}… (${textOf.length} characters)` : textOf;
}

const cut = (message: string) => (message.length > 200 ? `${message.slice(0, 200)}…` : message);

/** `parameters` with FUZZ replaced by `value` itself (for parameters n8n never evaluates). */
function withValue(parameters: unknown, value: unknown): unknown {
	if (parameters === FUZZ) return value;
	if (Array.isArray(parameters)) return parameters.map((entry) => withValue(entry, value));
	if (!parameters || typeof parameters !== 'object') return parameters;
	return Object.fromEntries(
		Object.entries(parameters).map(([name, entry]) => [name, withValue(entry, value)]),
	);
}

/**
 * Runs the target's node on one item per value (each item with its own `ref`) and returns what
 * broke the properties, each with its counterexample. With `perRun`, the values are one value
 * read once per run: the run may fail as a whole (without "continue on fail", so that n8n does
 * not pass the items on as they came), naming the parameter before anything is sent.
 */
async function runCases(target: Target, values: unknown[], perRun = false): Promise<string[]> {
	const newRef = target.marker?.ref ?? (() => `fz${++refs}z`);
	const items = values.map((value) => ({
		// Every item also holds a valid mapping, for From Input Items.
		partner_sku: 'SKU-1',
		barcode: '12345678',
		...(target.literal ? {} : (target.item ?? carry)(value)),
		ref: newRef(),
	}));
	const parameters = (
		target.literal ? withValue(target.parameters, values[0]) : target.parameters
	) as INodeParameters;
	f.emulator.clearRequests();
	const logFrom = f.env.logger.entries.length;
	let result: WorkflowResult;
	try {
		result = await f.env.runWorkflow(
			workflowWithItems(items, parameters, { continueOnFail: !perRun }),
		);
	} catch (error) {
		return [`${shown(values[0])}: the execution failed: ${cut((error as Error).message)}`];
	}
	const requests = f.emulator.requests();
	noteSecrets(requests);
	const sent = requests.filter((entry) => entry.operation === target.sends);
	const problems: string[] = [];
	const error = result.nodeError(NODE);
	const logs = f.env.logger.entries.slice(logFrom).map((entry) => {
		try {
			return JSON.stringify(entry);
		} catch {
			return entry.message; // metadata that does not serialise
		}
	});
	const leaked = leakedIn(
		JSON.stringify(result.run.data.resultData.runData[NODE] ?? null) +
			JSON.stringify(logs) +
			(error ? `${error.message} ${String(error.description)}` : ''),
	);
	if (leaked.length) problems.push(`secrets in the output, error or logs: ${leaked.join(', ')}`);

	if (error) {
		// Only a value read once per run may fail the run: refused before anything is sent, naming
		// the parameter; or refused by the service.
		const named = target.names.some((name) => error.message.includes(name));
		if (!perRun || (!sent.length && !named)) {
			problems.push(
				`${shown(values[0])}: the run failed (${sent.length} requests sent): ${cut(error.message)}`,
			);
		}
		return problems;
	}

	// Requests matched to items by their ref, where the request carries one.
	const byRef = new Map(items.map((item, index) => [item.ref, index]));
	const sentFor = new Array<number>(values.length).fill(0);
	if (target.marker) {
		for (const entry of sent) {
			const pattern = target.marker.pattern ?? /fz\d+z/g;
			const found: string[] = `${entry.path} ${JSON.stringify(entry.body)}`.match(pattern) ?? [];
			const indexes = found.map((ref) => byRef.get(ref)).filter((at) => at !== undefined);
			// A batch carries many items' rows, each once; another request carries one item.
			for (const index of target.marker.batch ? indexes : indexes.slice(0, 1)) sentFor[index]++;
			if (!indexes.length) problems.push(`a ${target.sends} request of no item: ${entry.path}`);
		}
	}

	const pairings = new Array<number>(values.length).fill(0);
	const errorsFor = new Array<number>(values.length).fill(0);
	const refusedItems = new Set<number>();
	let answered = 0; // output items whose request the emulator logged
	const answeredKeys = new Set<string>(); // their values as text (distinctRows)
	for (const output of result.outputs(NODE)) {
		const paired = [output.pairedItem ?? []].flat() as IPairedItemData[];
		for (const { item } of paired) pairings[item] = (pairings[item] ?? 0) + 1;
		const at = paired[0]?.item ?? -1;
		const value = shown(values[at]);
		const message = output.json.error;
		const details = output.json.details as IDataObject | undefined;
		const httpCode = details?.httpCode;
		// The service's answer: an HTTP error, or a batch row answered with a failure status.
		const serviceSaid = httpCode !== undefined || details?.status_code !== undefined;
		if (message !== undefined && (typeof message !== 'string' || !message.trim())) {
			problems.push(`${value}: an error item without a message`);
			continue;
		}
		if (message !== undefined) errorsFor[at]++;
		if (message !== undefined && httpCode === undefined) refusedItems.add(at);
		// A 431 comes from the emulator's HTTP server (a request line too long), before its log.
		const logged = httpCode !== '431';
		if (target.marker) {
			// One request: a result, the service's answer, or (a download only) a failure after
			// it. No request: refused by validation.
			const count = sentFor[at] ?? 0;
			if (count > 1) problems.push(`${value}: ${count} ${target.sends} requests for one item`);
			if (count >= 1) {
				if (message !== undefined && !serviceSaid && !target.marker.downloads) {
					problems.push(`${value}: refused after its request was sent: ${cut(message)}`);
				}
				continue;
			}
			if (message === undefined) {
				problems.push(`${value}: a result without a request`);
				continue;
			}
			if (serviceSaid) {
				if (logged) problems.push(`${value}: an HTTP ${String(httpCode)} error without a request`);
				continue;
			}
		} else if (message === undefined || serviceSaid) {
			if (logged) answered++;
			// A value with no text form (e.g. an object without a prototype) is no row key.
			if (logged && target.distinctRows) {
				const key = values[at];
				answeredKeys.add(
					(typeof key === 'object' && key !== null ? shown(key) : String(key)).trim(),
				);
			}
			continue;
		}
		// Refused by validation: the error names the parameter.
		refused++;
		if (!target.names.some((name) => message.includes(name))) {
			problems.push(`${value}: refused without naming the parameter: ${cut(message)}`);
		}
	}
	// A list's item: any number of entries, or one error item alone.
	const pairedWrong = (count: number, item: number) =>
		target.list ? errorsFor[item] > 0 && count !== 1 : count !== 1;
	if (pairings.length !== values.length || pairings.some(pairedWrong)) {
		const wrong = pairings.findIndex(pairedWrong);
		problems.push(
			`input item ${wrong} (${shown(values[wrong])}) is paired with ${pairings[wrong] ?? 0} output items`,
		);
	}
	if (!target.marker) {
		// Without a marker: the requests sent are as many as the items not refused.
		const expected = target.list
			? values.length - refusedItems.size
			: target.oncePerRun
				? Math.min(1, answered)
				: target.distinctRows
					? answeredKeys.size
					: answered;
		// Rows of a batch: `items`, or a customer return read's `order_nrs`.
		const rowsIn = (body: { items?: unknown[]; order_nrs?: unknown[] }) =>
			(body.items ?? body.order_nrs)?.length ?? 0;
		const count = target.batchRows
			? sent.reduce((rows, entry) => rows + rowsIn(entry.body as { items?: unknown[] }), 0)
			: sent.length;
		if (count !== expected) {
			problems.push(
				`${count} ${target.sends} ${target.batchRows ? 'rows' : 'requests'} for ${expected} items not refused`,
			);
		}
	}
	return problems;
}

/** A seed per target: its cases do not change when targets are added or reordered. */
function seedOf(name: string): number {
	let hash = 7;
	for (const char of name) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
	return hash;
}

// --- The action node ---------------------------------------------------------------------------

let f: Fixture;
let refs = 0;
let refused = 0;

beforeAll(async () => {
	// The credential's own pacing (default 1,500 a minute per operation) is lifted: the emulator
	// has no rate plan here.
	f = await startFixture(
		{ ratePlan: null, importStepMs: 20, exportStepMs: 20 },
		{ requestsPerMinute: 1_000_000 },
	);
	// A first run logs in: the session cookie and the login token are known from then on.
	await f.env.runWorkflow(
		workflowWithItems([{}], { resource: 'purchaseOrder', operation: 'get', poNr: 'PO-BULK-1' }),
	);
	noteSecrets(f.emulator.requests());
});
afterAll(async () => await f.close());

describe('every parameter read for each item, one case per item', () => {
	it.each(PER_ITEM.map((target) => [target.name, target] as const))('%s', async (_, target) => {
		const values = [
			target.first,
			...fc.sample(target.values, {
				seed: seedOf(target.name),
				numRuns: (target.cases ?? ITEMS_PER_RUN) - 1,
			}),
		];
		const problems = await runCases(target, values);
		cases += values.length;
		expect(problems).toEqual([]);
	});
});

describe('every parameter read once per run, one case per run', () => {
	it.each(PER_RUN.map((target) => [target.name, target] as const))('%s', async (_, target) => {
		const values = fc.sample(target.values, {
			seed: seedOf(target.name),
			numRuns: RUNS_PER_TARGET,
		});
		const problems: string[] = [];
		for (const value of [target.first, ...values]) {
			problems.push(...(await runCases(target, new Array(RUN_ITEMS).fill(value), true)));
			cases++;
		}
		expect(problems).toEqual([]);
	});
});

// --- The trigger's webhook ---------------------------------------------------------------------

const SUBSCRIBED = ['FBPI::ORDER_SYNC', 'FBPO::PO_SYNC', 'CATALOG::IMPORT_COMPLETED'];

describe('Seller Platform Trigger', () => {
	let emulator: Emulator;
	let env: TestEnvironment;
	beforeAll(async () => {
		emulator = await startEmulator({ ratePlan: null });
		env = createTestEnvironment();
		env.addCredential(CREDENTIAL_ID, 'sellerPlatformApi', credentialFields(emulator));
	});
	afterAll(async () => {
		await env.close();
		await emulator.close();
	});

	/** The fixture's trigger workflow on every subscribed type, de-duplication off. */
	const triggerWorkflow = (id: string, parameters: INodeParameters) =>
		fixtureTriggerWorkflow(
			{
				events: SUBSCRIBED.slice(0, 2),
				customEvents: SUBSCRIBED[2],
				options: { deduplicate: false },
				...parameters,
			},
			id,
		);

	/** POSTs `body` to the webhook with the secret header (a list: the header repeated). */
	const deliver = (url: string, body: string, secret: string | string[] | undefined) =>
		new Promise<{ status: number; text: string }>((resolve, reject) => {
			const headers = { 'content-type': 'application/json' };
			const call = request(
				url,
				{
					method: 'POST',
					headers: secret === undefined ? headers : { ...headers, [DELIVERY_HEADER]: secret },
				},
				(response) => {
					const chunks: Buffer[] = [];
					response.on('data', (chunk: Buffer) => chunks.push(chunk));
					response.on('end', () =>
						resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
					);
				},
			);
			call.on('error', reject);
			call.end(body);
		});

	it(`answers ${DELIVERIES} fuzzed deliveries 200/400/401, starting one execution per authenticated delivery of a subscribed event`, async () => {
		// n8n running for an hour: a new delivery without published_at comes unmarked (resent.ts).
		startNewLifeForTests(60 * 60_000);
		const handle: ActiveWorkflow = await env.activateWorkflow(triggerWorkflow('fuzz-trigger', {}));
		const { secret } = (
			handle.staticData()[`node:${TRIGGER}`] as { registration: { secret: string } }
		).registration;

		const eventType = fc.oneof(
			{ weight: 6, arbitrary: fc.constantFrom(...SUBSCRIBED) },
			{
				weight: 1,
				arbitrary: fc.constantFrom('FBPI::ORDER_CREATED', 'fbpi::order_sync', ` ${SUBSCRIBED[0]}`),
			},
			{ weight: 2, arbitrary: leaf },
		);
		const delivery = fc
			.tuple(objectOf(key, fc.jsonValue({ maxDepth: 2 })), fc.option(eventType), fc.option(leaf))
			.map(([rest, type, messageId]) =>
				Object.fromEntries([
					...Object.entries(rest),
					...(type === null ? [] : [['event_type', type]]),
					...(messageId === null ? [] : [['metadata', { message_id: messageId }]]),
				]),
			);
		const latin1 = fc.integer({ min: 0x80, max: 0xff }).map((code) => String.fromCharCode(code));
		const header = fc.oneof(
			{ weight: 8, arbitrary: fc.constant<string | string[] | undefined>(secret) },
			{
				weight: 4,
				arbitrary: fc.constantFrom<string | string[] | undefined>(
					` ${secret}\t`,
					secret.toUpperCase(),
					secret.slice(0, -1),
					`${secret}0`,
					[secret, secret],
					[secret, 'x'],
					'',
					undefined,
				),
			},
			{ weight: 1, arbitrary: fc.string({ maxLength: 70 }) },
			{ weight: 1, arbitrary: fc.stringOf(latin1, { maxLength: 10 }) },
		);
		const samples = fc.sample(
			fc.tuple(
				fc.oneof({ weight: 3, arbitrary: delivery }, { weight: 1, arbitrary: json }),
				header,
			),
			{ seed: seedOf('trigger deliveries'), numRuns: DELIVERIES },
		);

		const problems: string[] = [];
		const expected: string[] = [];
		for (let start = 0; start < samples.length; start += 16) {
			const batch = samples.slice(start, start + 16);
			const answers = await Promise.all(
				batch.map(([body, secretHeader]) =>
					deliver(handle.webhookUrl, JSON.stringify(body), secretHeader),
				),
			);
			answers.forEach(({ status, text: answer }, i) => {
				const [body, secretHeader] = batch[i];
				const authentic =
					typeof secretHeader === 'string' &&
					secretHeader.replace(/^[ \t]+|[ \t]+$/g, '') === secret;
				const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
				const type = isObject ? (body as IDataObject).event_type : undefined;
				const starts =
					authentic && isObject && typeof type === 'string' && SUBSCRIBED.includes(type);
				const wanted = !authentic ? 401 : !isObject ? 400 : 200;
				if (starts) expected.push(JSON.stringify(body));
				if (status !== wanted || answer.includes(secret)) {
					problems.push(
						`body ${shown(body)}, header ${shown(secretHeader)}: answered ${status} (expected ${wanted}): ${cut(answer)}`,
					);
				}
			});
		}
		await handle.settled();
		const started = handle.executions.map((execution: WorkflowResult) => {
			const items = execution.json(TRIGGER);
			if (items.length !== 1) problems.push(`an execution started with ${items.length} items`);
			if (execution.status !== 'success') problems.push(`an execution ended ${execution.status}`);
			return JSON.stringify(items[0]);
		});
		const ranText = JSON.stringify(
			handle.executions.map((execution) => execution.run.data.resultData),
		);
		if (ranText.includes(secret)) problems.push('the delivery secret is in execution data');
		if (ranText.includes(emulator.credential.private_key.slice(40, 80))) {
			problems.push("the credential's private key is in execution data");
		}
		cases += samples.length;
		expect(problems).toEqual([]);
		expect(started.sort()).toEqual(expected.sort());
		// Not vacuous: many deliveries were authentic and subscribed.
		expect(expected.length).toBeGreaterThan(DELIVERIES / 4);
		await handle.deactivate();
	});

	it('refuses odd trigger parameters at activation naming them, before the destination is touched', async () => {
		// Activation reads the parameters themselves (no item to evaluate an expression on); a
		// text starting with "=" would be an expression, so none is given.
		const oddOr = (valid: unknown[]) =>
			fc
				.oneof({ weight: 1, arbitrary: odd }, { weight: 2, arbitrary: fc.constantFrom(...valid) })
				.filter((value) => !(typeof value === 'string' && value.startsWith('=')));
		const table: Array<[string, string[], fc.Arbitrary<unknown>, (v: any) => INodeParameters]> = [
			[
				'destinationCode',
				['Destination Code', 'destinationCode'],
				oddOr([SEEDED_DESTINATIONS.inactive, 'DST-404']),
				(v) => ({ destinationCode: v }),
			],
			[
				'events',
				['Events', 'events', 'event type'],
				oddOr([['FBPI::ORDER_SYNC'], [], ['FBPO::PO_SYNC', 'FBPI::ORDER_SYNC']]),
				(v) => ({ events: v }),
			],
			[
				'customEvents',
				['Custom Events', 'customEvents', 'event type'],
				oddOr(['A::B, C::D', '']),
				(v) => ({ customEvents: v }),
			],
			[
				'options.deduplicate',
				['Drop Duplicate Deliveries', 'deduplicate'],
				oddOr(BOOLEANS),
				(v) => ({ options: { deduplicate: v } }),
			],
			[
				'options.secretGraceMinutes',
				['Accept the Previous Secret For (Minutes)', 'secretGraceMinutes'],
				oddOr([0, 10, '5']),
				(v) => ({ options: { secretGraceMinutes: v } }),
			],
			[
				'options.noonSendersOnly',
				["Only Accept Noon's Sender Addresses", 'noonSendersOnly'],
				oddOr(BOOLEANS),
				(v) => ({ options: { noonSendersOnly: v } }),
			],
			[
				'options (every field)',
				['Drop Duplicate Deliveries', 'Accept the Previous Secret For (Minutes)'],
				fc.record({ dedupe: oddOr(BOOLEANS), grace: oddOr([0, 10]) }),
				(v) => ({ options: { deduplicate: v.dedupe, secretGraceMinutes: v.grace } }),
			],
		];
		const problems: string[] = [];
		let activation = 0;
		for (const [name, names, arbitrary, set] of table) {
			const values = fc.sample(arbitrary, {
				seed: seedOf(`trigger ${name}`),
				numRuns: ACTIVATIONS_PER_PARAMETER,
			});
			for (const value of values) {
				emulator.clearRequests();
				const workflow = triggerWorkflow(`fuzz-activation-${++activation}`, {
					destinationCode: SEEDED_DESTINATIONS.inactive,
					...set(value),
				});
				try {
					await (await env.activateWorkflow(workflow)).deactivate();
				} catch (error) {
					const updates = emulator.requests().filter((r) => r.operation === 'UpdateDestination');
					const { message, name: kind } = error as Error;
					// Refused by the service (a destination it does not know): allowed. Refused by
					// validation: before the destination is touched, naming the parameter.
					const refusedByValidation = kind === 'NodeOperationError';
					if (refusedByValidation && (updates.length || !names.some((n) => message.includes(n)))) {
						problems.push(
							`${name} = ${shown(value)}: activation refused (${updates.length} updates sent): ${cut(message)}`,
						);
					}
					if (!refusedByValidation && !updates.length) {
						problems.push(`${name} = ${shown(value)}: activation failed: ${cut(message)}`);
					}
				}
				cases++;
			}
		}
		expect(problems).toEqual([]);
	});
});

// --- The poll trigger's parameters ---------------------------------------------------------------

describe('Seller Platform Poll Trigger', () => {
	let emulator: Emulator;
	let env: TestEnvironment;
	beforeAll(async () => {
		emulator = await startEmulator();
		env = createTestEnvironment();
		env.addCredential(CREDENTIAL_ID, 'sellerPlatformApi', credentialFields(emulator));
	});
	afterAll(async () => await emulator.close());

	it('reads odd poll trigger parameters as what they say or refuses them at activation naming them, before any request', async () => {
		const pollers: Array<{ deactivate(): void }> = [];
		const table: Array<[string, string[], fc.Arbitrary<unknown>, (v: any) => INodeParameters]> = [
			[
				'warehouseCode',
				['Warehouse Code', 'warehouseCode'],
				oddOr(['WH-DXB-01', ' WH-RUH-02 ', 404]).filter(
					(v) => !(typeof v === 'string' && v.startsWith('=')),
				),
				(v) => ({ warehouseCode: { __rl: true, mode: 'id', value: v } }),
			],
			[
				'event',
				['Event', 'event'],
				oddOr(['newFbpiOrder']).filter((v) => !(typeof v === 'string' && v.startsWith('='))),
				(v) => ({ event: v }),
			],
			[
				'lateListingHours',
				['Catch Orders Listed Late Up To (Hours)', 'lateListingHours'],
				oddOr([0, 24, '6', 168, 0.5]).filter((v) => !(typeof v === 'string' && v.startsWith('='))),
				(v) => ({ options: { lateListingHours: v } }),
			],
		];
		const problems: string[] = [];
		let activation = 0;
		for (const [name, names, arbitrary, set] of table) {
			const values = fc.sample(arbitrary, {
				seed: seedOf(`poll trigger ${name}`),
				numRuns: ACTIVATIONS_PER_PARAMETER,
			});
			for (const value of values) {
				emulator.clearRequests();
				const workflow = {
					id: `fuzz-poll-${++activation}`,
					nodes: [
						{
							name: 'Poll',
							type: 'sellerPlatformPollTrigger',
							parameters: {
								event: 'newFbpiOrder',
								warehouseCode: { __rl: true, mode: 'id', value: 'WH-DXB-01' },
								...set(value),
							},
							credentials: { sellerPlatformApi: CREDENTIAL_ID },
						},
					],
					connections: {},
				};
				const lists = () => emulator.requests().filter((r) => r.operation === 'ListFbpiOrders');
				try {
					pollers.push(await env.activatePolling(workflow));
					const sent = (lists()[0]?.body as { warehouse_code?: unknown } | undefined)
						?.warehouse_code;
					const read = name === 'warehouseCode' ? String(value).trim() : 'WH-DXB-01';
					if (sent !== read || (value !== null && typeof value === 'object'))
						problems.push(`${name} = ${shown(value)}: taken, sent ${shown(sent)}`);
				} catch (error) {
					const { message, name: kind } = error as Error;
					if (
						kind !== 'NodeOperationError' ||
						lists().length ||
						!names.some((n) => message.includes(n))
					)
						problems.push(
							`${name} = ${shown(value)}: ${kind} after ${lists().length} lists: ${cut(message)}`,
						);
				}
				cases++;
			}
		}
		for (const poller of pollers) poller.deactivate();
		expect(problems).toEqual([]);
	});
});

afterAll(() => {
	console.log(`fuzz: ${cases} cases; ${refused} items refused by validation`);
});

describe('the run as a whole', () => {
	it('runs at least 10,000 cases', () => {
		// Jest runs the tests of a file in order: this one comes after every fuzzing test above.
		expect(cases).toBeGreaterThanOrEqual(10_000);
	});
});
