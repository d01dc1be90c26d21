/** Public types of the emulator. */
import type {
	DeliveryFilter,
	DeliveryRecord,
	EventSchemaVersion,
	PublishedEvent,
	PublishEventInput,
	PublishEventOptions,
	PublishResult,
	WaitForDeliveriesOptions,
} from './delivery';
import type { HugeSpec } from './huge';
import type { RatePlan } from './ratePlan';
import type { AddDestinationOptions, DestinationState } from './state/destinations';
import type { EmulatorEventListener, EmulatorEventName } from './state/events';
import type { AddExportOptions, ExportRecord } from './state/exports';
import type { IssueOAuthCodeOptions } from './state/oauth';
import type { ExportStatus, Product } from './seed';
import type { AddWarehousesOptions, ListedWarehouse } from './handlers/warehouses';
import type { SandboxOrder, Warehouse } from './state/fbpi';
import type { AddFbpiOrdersOptions, FbpiOrder, FbpiOrderQuirks } from './state/fbpiOrders';
import type { ImportStatusRecord } from './state/imports';
import type { GeneratedAwb, Shipment } from './state/shipments';
import type { AddFbnCatalogItemsOptions, Asn, FbnCatalogItem } from './state/fbnInbound';
import type { PriceRecord, RowFaultSpec, StockRecord } from './state/stockPrices';
import type { BarcodeMapping } from './state/catalog';
import type { WebhookDeveloper, WebhookSubscription } from './state/webhooks';
import type { CrossBorderKind, CrossBorderRecords } from './state/crossBorder';

export type { RateModel, RatePlan } from './ratePlan';

/** The credential JSON a seller portal hands out (and CreateCredential returns). */
export interface CredentialFile {
	key_id: string;
	/** PKCS#8 PEM RSA private key. */
	private_key: string;
	project_code: string;
	channel_identifier: string;
	type: 'apijwt';
	/** ISO 8601 issue time. */
	issued_at: string;
}

/** Service prefixes of the spec's `/v1/...` paths (see api-field-notes.md). */
export interface Prefixes {
	/** Prefix of `/v1/sandbox-order/create`. */
	sandboxOrder: string;
	/** Prefix of `/v1/import/barcode` and `/v1/import/status/{reference}`. */
	imports: string;
	/**
	 * Prefix of the event webhook paths (`/v1/create-webhook`, `/v1/create-subscription`,
	 * `/v1/webhook/assign-developer`): the seed's `/event-notifications` by default; `''` serves
	 * them bare, as the service's reference file writes them.
	 */
	eventNotifications: string;
}

export const DEFAULT_PREFIXES: Readonly<Prefixes> = {
	sandboxOrder: '/fbpi',
	imports: '/catplat',
	eventNotifications: '/event-notifications',
};

export interface EmulatorOptions {
	/** Default 127.0.0.1. */
	host?: string;
	/** Default 0: a random free port. */
	port?: number;
	/** Lifetime of a login session; default 30 minutes. */
	sessionTtlMs?: number;
	/**
	 * Per project and operation; `null` disables it. Default 1500 per 60 s, `model: 'sliding'`;
	 * `model: 'strict'` also admits at most limit/6 in each aligned sixth of the window. Login is
	 * never limited.
	 */
	ratePlan?: RatePlan | null;
	/** Fixed delay added to every API response; default 0. */
	latencyMs?: number;
	/** Each response's latency varies uniformly within latencyMs ± this; default 0. */
	latencyJitterMs?: number;
	prefixes?: Partial<Prefixes>;
	/** When set, the provisioned credential is written there as JSON (folders are created). */
	credentialFile?: string;
	/** Default true: API requests without a User-Agent header get 400. */
	requireUserAgent?: boolean;
	/**
	 * Default true, as a gateway strict to the reference: a request to an endpoint that takes a
	 * body (POST, PUT, PATCH) without a body or without a JSON Content-Type gets 415.
	 */
	requireJsonBody?: boolean;
	/** The request log keeps at most this many entries, dropping the oldest; default 100,000. */
	requestLogLimit?: number;
	/**
	 * Duration of each import phase (PENDING/QUEUED, PROCESSING/VALIDATING, PROCESSING/WRITING)
	 * before the final status; default 200 ms, 0 = final at once.
	 */
	importStepMs?: number;
	/** Time a progressing export spends in each state (PENDING, RUNNING); default 200 ms. */
	exportStepMs?: number;
	/** Sandbox orders (and their idempotency keys) are gone after this long; default 7 days. */
	sandboxRetentionMs?: number;
	/** Keys one service account may have; CreateCredential refuses more. Default 5. */
	maxKeysPerUser?: number;
	/** Event deliveries: retries after a failed first attempt; default 3 (so at most 4 attempts). */
	deliveryRetries?: number;
	/** Event deliveries: wait before the first retry, doubling for each further one; default 200 ms. */
	deliveryBackoffMs?: number;
	/** Event deliveries: the longest wait between two attempts (the doubling stops there); default none. */
	deliveryBackoffMaxMs?: number;
	/** Event deliveries: an attempt without a complete answer after this long fails; default 5000 ms. */
	deliveryTimeoutMs?: number;
	/**
	 * Event deliveries to urls outside loopback (127.0.0.0/8, localhost, [::1]) are sent too;
	 * default false: they are recorded with outcome `skipped` and never sent.
	 */
	externalDeliveries?: boolean;
	/** Settled deliveries and published events kept, oldest dropped first; default 100,000. */
	deliveryLogLimit?: number;
	/**
	 * The form of the envelope's `event_schema_version`: the text "1.0" (default) or the number 1
	 * (both seen from noon); `setEventSchemaVersion` changes it later.
	 */
	eventSchemaVersion?: EventSchemaVersion;
}

/**
 * A queued fault: the next `count` API requests (of `operation`, when given) fail with `status`,
 * are delayed by `delayMs` before normal handling, or have their socket destroyed (`reset`).
 */
export interface FaultSpec {
	count: number;
	/** HTTP status (400-599) answered with an error body. */
	status?: number;
	delayMs?: number;
	reset?: boolean;
	/**
	 * The operation runs as usual (its change is kept), then the connection is reset instead of its
	 * answer: a create whose answer was lost (e.g. `{ count: 1, operation: 'CreateShipment',
	 * lostAnswer: true }`).
	 */
	lostAnswer?: boolean;
	/** `Retry-After` header (seconds) sent with `status`. */
	retryAfter?: number;
	/** Operation name such as `GetPurchaseOrder` or `Login`; any API request when absent. */
	operation?: string;
	message?: string;
	/**
	 * With `status`: the answer echoes what the request carried, as a careless service might.
	 * `true`: the message and details repeat the Cookie header and the JSON body. An `EchoSpec`:
	 * one field repeats each secret value (cookie values, a `token`/`access_token`, destination
	 * header values), encoded, from a chosen character on (echo.ts).
	 */
	echo?: boolean | EchoSpec;
	/** Answers a redirect to `location` (status 301, 302, 307 or 308; default 307). */
	redirect?: { location: string; status?: number };
	/** Never answers: the connection stays open until the client closes it (slow.ts). */
	hang?: boolean;
	/**
	 * The answer (the operation's own, or the fault's `status` or redirect) sends its headers at
	 * once and its body one byte every `trickleMs` (1 to 60000): no idle time-out ever ends it.
	 */
	trickleMs?: number;
	/**
	 * The operation runs as usual, and its own successful answer comes in another shape: unwrapped,
	 * with fields set, wrapped, in an array, or as text after a prefix (answer.ts).
	 */
	answer?: AnswerShape;
	/**
	 * Answers `status` (default 200) with a JSON body of `megabytes` MiB, generated as it is sent;
	 * `gzip: true` sends it as a gzip bomb (`Content-Encoding: gzip`, about 1 KB per MB on the
	 * wire). A client that closes the connection before the end is noted (`clientClosedAt`).
	 */
	huge?: HugeSpec;
}

/** How an `answer` fault reshapes the operation's own successful answer (answer.ts). */
export interface AnswerShape {
	/** The answer is the value of this field of the operation's answer (`credential`). */
	unwrap?: string;
	/**
	 * Top-level fields left out of the answer (after `unwrap`), as a gRPC gateway leaves out an
	 * empty list: `['items']`.
	 */
	omit?: string[];
	/** Top-level fields set on the answer (after `unwrap`), e.g. an odd `po_release_date`. */
	set?: Record<string, unknown>;
	/** The answer sits inside these fields, outermost first: `['result']` gives `{ result: … }`. */
	wrap?: string[];
	/** The answer is a one-element array. */
	array?: boolean;
	/** The answer is sent as text: this prefix, then its JSON (e.g. `)]}'\n`). */
	prefix?: string;
	/** Content type of a prefixed answer; default `application/json; charset=utf-8`. */
	contentType?: string;
	/** The HTTP status the reshaped answer is sent with (default the operation's own). */
	status?: number;
	/**
	 * A page asked for with a token answers that token again as its `next_token` (a list stuck on
	 * one page); a first page, asked without one, keeps its own.
	 */
	repeatToken?: boolean;
}

/** Where and how an echoing fault repeats the secrets a request carried. */
export interface EchoSpec {
	/**
	 * The error body's `message` (default), `status_code` or `details` (`[{ echoed }]`), or
	 * `text`: the whole answer is that text, as plain text rather than JSON.
	 */
	field?: 'message' | 'status_code' | 'details' | 'text';
	/**
	 * How each value is written: as sent (`raw`, default), lowercase `hex`, `url` (form encoding:
	 * a space as `+`, `=` as `%3D`), `base64` or `base64url`. Values are separated by a space.
	 */
	encoding?: 'raw' | 'hex' | 'url' | 'base64' | 'base64url';
	/** The first value starts at this character of the field, after filler (e.g. across a cut). */
	at?: number;
}

export interface RequestLogEntry {
	seq: number;
	/** Receipt time, ms since the epoch. */
	at: number;
	method: string;
	/** Request target as received, in origin form (an absolute-form target loses its scheme and host; still percent-encoded, query included). */
	path: string;
	/** Operation name (`Login`, `GetPurchaseOrder`, ...) or null for an unknown route. */
	operation: string | null;
	/** Request headers, names lower-cased, values untouched (cookies included). */
	headers: Record<string, string | string[]>;
	/** Parsed JSON body, raw text when it is not JSON, null when empty. */
	body: unknown;
	/** HTTP status answered; null while in flight or when the socket was reset. */
	status: number | null;
	/**
	 * When the client closed the connection before the whole answer was sent (ms since the
	 * epoch); set for requests a `hang`, `trickleMs` or `huge` fault held.
	 */
	clientClosedAt?: number;
	remoteAddress: string;
}

export interface EmulatorStats {
	/** Successful logins. */
	logins: number;
	loginFailures: number;
	/** API requests received (control API excluded). */
	requests: number;
	/** Requests whose socket was destroyed by an injected `reset` fault. */
	resets: number;
	byOperation: Record<string, number>;
	/** HTTP status → count. */
	statuses: Record<string, number>;
}

export interface AddCredentialOptions {
	/** Project of the new key; default the emulator's project. An unknown code creates that project. */
	projectCode?: string;
	/** Addresses allowed to log in with the key; empty or absent: any address. At most 10. */
	whitelistedIps?: string[];
	/** Expiry: a Date, ms since the epoch, or an ISO 8601 string. */
	expiresAt?: Date | number | string | null;
}

/** An API user (service account), as `apiUsers()` lists it. */
export interface ApiUserInfo {
	user_code: string;
	channel_identifier: string;
	project_code: string;
	/** Keys the account has (CreateCredential allows at most `maxKeysPerUser`). */
	key_count: number;
}

/** What the control API offers, callable in-process too. */
export interface EmulatorControls {
	requests(): RequestLogEntry[];
	clearRequests(): void;
	expireSessions(): void;
	/**
	 * Expires every session once `count` more authenticated API requests have been answered:
	 * a deterministic "the session ends mid-run" for tests.
	 */
	expireSessionsAfter(count: number): void;
	setRatePlan(plan: RatePlan | null): void;
	setLatency(ms: number, jitterMs?: number): void;
	/** Whether a body endpoint's request needs a JSON body and Content-Type (415); default on. */
	setRequireJsonBody(required: boolean): void;
	injectFaults(spec: FaultSpec): void;
	clearFaults(): void;
	stats(): EmulatorStats;
	addCredential(options?: AddCredentialOptions): Promise<CredentialFile>;
	readonly credential: CredentialFile;
	/** Destinations of a project (default the emulator's) with real header values. */
	destinations(projectCode?: string): DestinationState[];
	/** Adds a destination (at most 5 per project). */
	addDestination(options?: AddDestinationOptions): DestinationState;
	deleteDestination(destinationCode: string, projectCode?: string): void;
	/** Live sandbox orders, of one project when given. */
	sandboxOrders(projectCode?: string): SandboxOrder[];
	/** Warehouses of a project (default the emulator's). */
	warehouses(projectCode?: string): Warehouse[];
	/** Stored FBPI shipments (cancelled ones too), oldest first, of one project when given. */
	shipments(projectCode?: string): Shipment[];
	/** noon logistics AWB numbers generated (GetNoonLogisticsAWBs), of one project when given. */
	generatedAwbs(projectCode?: string): GeneratedAwb[];
	/** FBN inbound ASNs with their items and metadata (the seeded one too), of one project when given. */
	fbnShipments(projectCode?: string): Asn[];
	/** Adds catalog items eligible for FBN (`SKU-GEN-00001`, …) to a project: lists of several pages. */
	addFbnCatalogItems(options: AddFbnCatalogItemsOptions): FbnCatalogItem[];
	/**
	 * Adds `count` generated warehouses (`WH-GEN-00001`, …) to a project, after the ones it has:
	 * more than one page of ListWarehouses (500) when asked. Returns them as ListWarehouses lists them.
	 */
	addWarehouses(options: AddWarehousesOptions): ListedWarehouse[];
	/**
	 * Adds FBPI orders to a project (default the emulator's): `count` alike in one warehouse,
	 * created `intervalMs` apart from `createdAt` on, or the listed `orders` (each with its own
	 * number, warehouse, time and items). Returns them as GetFbpiOrder answers them.
	 */
	addFbpiOrders(options?: AddFbpiOrdersOptions): FbpiOrder[];
	/**
	 * How ListFbpiOrders and GetFbpiOrder of a project (`quirks.projectCode`, default the
	 * emulator's) misbehave from now on, replacing its earlier quirks: filters ignored or shifted,
	 * times without a zone, list entries without items, orders listed but not found, another list
	 * order (`listOrder`, `seed`), tokens that expire (`tokenLifetimeMs`), a list that never ends
	 * (`endlessTokens`). `null`: the emulator's project behaves again (`{ projectCode }` alone:
	 * that project does). Restarts the project's random stream (`seed`).
	 */
	setFbpiOrderQuirks(quirks: FbpiOrderQuirks | null): void;
	/**
	 * The project's (default the emulator's) ListFbpiOrders refuses every `next_token` it issued so
	 * far (its signing key is rotated): 400 INVALID_ARGUMENT "next_token is invalid or expired".
	 */
	expireFbpiOrderTokens(projectCode?: string): void;
	/** An FBPI order as GetFbpiOrder answers it (items' integration status included), or null. */
	fbpiOrder(fbpiOrderNr: string, projectCode?: string): FbpiOrder | null;
	/** Imports with their current status, of one project when given. */
	imports(projectCode?: string): Array<ImportStatusRecord & { project_code: string }>;
	/** Adds an export whose states (default PENDING, RUNNING, COMPLETE) start progressing now. */
	addExport(options?: AddExportOptions): ExportRecord;
	/** API users (service accounts), of one project when given. */
	apiUsers(projectCode?: string): ApiUserInfo[];
	/** Stock rows of a project (default the emulator's), in the order they were first set. */
	stock(projectCode?: string): StockRecord[];
	/** Sets stock rows as UpdateStock would (no warehouse check), in a project (default the emulator's). */
	seedStock(
		rows: Array<{
			warehouse_code: string;
			partner_sku: string;
			qty?: number;
			processing_time?: string;
		}>,
		projectCode?: string,
	): StockRecord[];
	/** Prices of a project (default the emulator's), in the order they were first set. */
	prices(projectCode?: string): PriceRecord[];
	/** Sets prices as BatchUpsertPricing would, in a project (default the emulator's). */
	seedPrices(
		rows: Array<{
			partner_sku: string;
			country_code: string;
			price?: number;
			msrp?: number;
			is_active?: boolean;
		}>,
		projectCode?: string,
	): PriceRecord[];
	/**
	 * Faults of the batch endpoints' answers (rows answered with a failure status, rows left out,
	 * reversed order, rows matching nothing), for every later request of the operation until
	 * `clearRowFaults()`.
	 */
	injectRowFaults(spec: RowFaultSpec): void;
	clearRowFaults(): void;
	// --- Namshi and cross-border prices ---
	/**
	 * Records of a project (default the emulator's) of one kind, in the order they were first set:
	 * `global` and `local` (Namshi's prices), `products` and `transfer` (cross-border).
	 */
	crossBorder<K extends CrossBorderKind>(
		kind: K,
		projectCode?: string,
	): Array<CrossBorderRecords[K]>;
	/** Sets records of one kind as its upsert would (no row rules), in a project. */
	seedCrossBorder<K extends CrossBorderKind>(
		kind: K,
		rows: Array<CrossBorderRecords[K]>,
		projectCode?: string,
	): Array<CrossBorderRecords[K]>;
	/**
	 * Publishes an event in a project (default the emulator's): one delivery to each active
	 * destination with an active subscription to its type, sent in the background. `duplicate`
	 * (in the input or the options) also forces a second delivery of it to each.
	 */
	publishEvent(input: PublishEventInput, options?: PublishEventOptions): PublishResult;
	/** The form of `event_schema_version` ("1.0" or 1) of the events published from now on. */
	setEventSchemaVersion(version: EventSchemaVersion): void;
	/** Forces another delivery of a published event (same message_id and body) to each of its destinations. */
	redeliver(messageId: string): DeliveryRecord[];
	/** Every delivery (oldest first) with its attempts and outcome, narrowed by the filter. */
	deliveries(filter?: DeliveryFilter): DeliveryRecord[];
	/** Events published (oldest first) with the ids of their deliveries. */
	publishedEvents(filter?: { projectCode?: string; eventType?: string }): PublishedEvent[];
	/** Forgets settled deliveries and published events (pending deliveries stay). */
	clearDeliveries(): void;
	/**
	 * Resolves with the matching deliveries once at least `count` match and none of them is
	 * pending; rejects (DEADLINE_EXCEEDED) after `timeoutMs`.
	 */
	waitForDeliveries(options?: WaitForDeliveriesOptions): Promise<DeliveryRecord[]>;

	// --- Catalog, offers, event webhooks ---
	/** Products of a project's catalog (default the emulator's) with their offers. */
	products(projectCode?: string): Product[];
	/** Adds products (or replaces those of the same partner SKU) to a project's catalog. */
	addProducts(products: Product[], projectCode?: string): Product[];
	/** Barcodes mapped to SKUs in a project (SkuBarcodeMap), the seeded one first. */
	barcodeMappings(projectCode?: string): BarcodeMapping[];
	/** Subscriptions made by CreateSubscription in a project (the webhooks are its destinations). */
	webhookSubscriptions(projectCode?: string): WebhookSubscription[];
	/** Developers assigned to webhooks (AssignDeveloperToWebhook) in a project. */
	webhookDevelopers(projectCode?: string): WebhookDeveloper[];
	// --- Exports and identity ---
	/**
	 * An authorization code for the seeded OAuth client (SEEDED_OAUTH_CLIENT), as the consent
	 * redirect brings it: CreateToken takes it once, and the token it gives runs `workflow`
	 * (default issue-credentials) in ExchangeToken.
	 */
	issueOAuthCode(options?: IssueOAuthCodeOptions): string;
	/** The states (default PENDING, RUNNING, COMPLETE) of the exports CreateExport makes from now on. */
	setCreatedExportStates(states: ExportStatus[]): void;
}

export interface Emulator extends EmulatorControls {
	/** e.g. `http://127.0.0.1:40123`, no trailing slash. */
	readonly baseUrl: string;
	/** `${baseUrl}/__control`. */
	readonly controlUrl: string;
	/** SPKI PEM public key of `credential`. */
	readonly publicKeyPem: string;
	readonly projectCode: string;
	readonly prefixes: Readonly<Prefixes>;
	/** In-process events: `sandboxOrderCreated`, `importCompleted`, `destinationUpdated`. */
	on<E extends EmulatorEventName>(event: E, listener: EmulatorEventListener<E>): this;
	off<E extends EmulatorEventName>(event: E, listener: EmulatorEventListener<E>): this;
	/** Stops the server, import timers, and every pending delivery and retry. */
	close(): Promise<void>;
}
