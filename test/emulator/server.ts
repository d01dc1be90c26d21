/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The emulator's HTTP server and request pipeline.
 *
 * Every API request goes through, in this order: request log → configured latency → injected
 * fault → User-Agent check → route resolution (404/405) → session check → rate plan (counted at
 * the time the request was received) → JSON body and Content-Type of a body method (415) → request check against the endpoint table's schemas
 * (endpoints.ts) → answer or handler. `/__control/` requests bypass all of it (see control.ts). Served export files
 * (`/__files/exports/...`) go through the same pipeline as the public operation `DownloadExport`:
 * no session, no rate plan, no User-Agent needed, the link's token is checked by the handler.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve as resolvePath } from 'node:path';

import { requireSession } from './auth';
import { handleControl, isControlPath } from './control';
import {
	BARCODE_IMPORT_COMPLETED_EVENT,
	checkDeliveryFilter,
	checkPublishInput,
	DEFAULT_DELIVERY_BACKOFF_MS,
	DEFAULT_DELIVERY_RETRIES,
	DEFAULT_DELIVERY_TIMEOUT_MS,
	EventDispatcher,
	ORDER_SYNC_EVENT,
	checkSchemaVersion,
	EVENT_SCHEMA_VERSION,
	type DeliveryFilter,
	type DeliveryRecord,
	type EventSchemaVersion,
	type PublishedEvent,
	type PublishEventInput,
	type PublishEventOptions,
	type PublishResult,
	type WaitForDeliveriesOptions,
} from './delivery';
import { ApiError, codeForHttpStatus, invalidArgument, toApiError } from './errors';
import { echoAnswer } from './echo';
import { askedToken, reshapeAnswer } from './answer';
import { FaultQueue } from './faults';
import { sendHuge } from './huge';
import { hang, trickle } from './slow';
import {
	checkJsonBody,
	loggedBody,
	normaliseAddress,
	parseBody,
	readBody,
	sendJson,
	sendRaw,
	sleep,
	type ResponseHeaders,
} from './http';
import {
	DEFAULT_RATE_PLAN,
	SlidingWindowLimiter,
	validateRatePlan,
	type RatePlan,
} from './ratePlan';
import { RequestLog } from './requestLog';
import type { ApiRoute } from './endpoint';
import { buildApiRoutes } from './endpoints';
import {
	compileRoutes,
	matchRoute,
	originForm,
	rawPathOf,
	type CompiledRoute,
	type RouteMatch,
} from './router';
import {
	DEFAULT_MAX_KEYS_PER_USER,
	EmulatorState,
	type Session,
	type StoredCredential,
} from './state';
import type { AddDestinationOptions, DestinationState } from './state/destinations';
import type { EmulatorEventListener, EmulatorEventName } from './state/events';
import type { AddExportOptions, ExportRecord } from './state/exports';
import type { IssueOAuthCodeOptions } from './state/oauth';
import type { ExportStatus } from './seed';
import type { SandboxOrder, Warehouse } from './state/fbpi';
import type { GeneratedAwb, Shipment } from './state/shipments';
import type { AddFbnCatalogItemsOptions, Asn, FbnCatalogItem } from './state/fbnInbound';
import {
	addWarehouses,
	type AddWarehousesOptions,
	type ListedWarehouse,
} from './handlers/warehouses';
import type { AddFbpiOrdersOptions, FbpiOrder, FbpiOrderQuirks } from './state/fbpiOrders';
import type { ImportStatusRecord } from './state/imports';
import type { PriceRecord, RowFaultSpec, StockRecord } from './state/stockPrices';
// --- Catalog, offers, event webhooks ---
import type { Product } from './seed';
import type { BarcodeMapping } from './state/catalog';
import type { WebhookDeveloper, WebhookSubscription } from './state/webhooks';
import {
	CROSS_BORDER_KINDS,
	type CrossBorderKind,
	type CrossBorderRecords,
} from './state/crossBorder';
import {
	DEFAULT_PREFIXES,
	type AddCredentialOptions,
	type ApiUserInfo,
	type CredentialFile,
	type Emulator,
	type EmulatorOptions,
	type EmulatorStats,
	type FaultSpec,
	type Prefixes,
	type RequestLogEntry,
} from './types';

interface ResolvedOptions {
	host: string;
	port: number;
	sessionTtlMs: number;
	ratePlan: RatePlan | null;
	latencyMs: number;
	latencyJitterMs: number;
	prefixes: Prefixes;
	credentialFile?: string;
	requireUserAgent: boolean;
	requireJsonBody: boolean;
	requestLogLimit: number;
	importStepMs: number;
	exportStepMs: number;
	sandboxRetentionMs: number;
	maxKeysPerUser: number;
	deliveryRetries: number;
	deliveryBackoffMs: number;
	deliveryBackoffMaxMs: number;
	deliveryTimeoutMs: number;
	externalDeliveries: boolean;
	deliveryLogLimit: number;
	eventSchemaVersion: EventSchemaVersion;
}

function checkLatency(ms: unknown): number {
	if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
		throw invalidArgument('latency ms must be a number >= 0');
	return ms;
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
	const resolved = value ?? fallback;
	if (typeof resolved !== 'number' || !Number.isFinite(resolved) || resolved < 0) {
		throw new Error(`${name} must be a number >= 0, got ${String(value)}`);
	}
	return resolved;
}

function wholeNumber(name: string, value: number | undefined, fallback: number): number {
	const resolved = nonNegative(name, value, fallback);
	if (!Number.isInteger(resolved))
		throw new Error(`${name} must be a whole number >= 0, got ${String(value)}`);
	return resolved;
}

function positive(name: string, value: number | undefined, fallback: number): number {
	const resolved = nonNegative(name, value, fallback);
	if (resolved === 0) throw new Error(`${name} must be > 0`);
	return resolved;
}

function resolveOptions(options: EmulatorOptions): ResolvedOptions {
	const port = options.port ?? 0;
	if (!Number.isInteger(port) || port < 0 || port > 65535)
		throw new Error(`invalid emulator port: ${port}`);
	const sessionTtlMs = options.sessionTtlMs ?? 30 * 60_000;
	if (!(sessionTtlMs > 0)) throw new Error('sessionTtlMs must be > 0');
	const requestLogLimit = options.requestLogLimit ?? 100_000;
	if (!(requestLogLimit > 0)) throw new Error('requestLogLimit must be > 0');
	return {
		host: options.host ?? '127.0.0.1',
		port,
		sessionTtlMs,
		ratePlan:
			options.ratePlan === undefined
				? { ...DEFAULT_RATE_PLAN }
				: validateRatePlan(options.ratePlan),
		latencyMs: checkLatency(options.latencyMs ?? 0),
		latencyJitterMs: checkLatency(options.latencyJitterMs ?? 0),
		prefixes: { ...DEFAULT_PREFIXES, ...options.prefixes },
		credentialFile: options.credentialFile,
		requireUserAgent: options.requireUserAgent ?? true,
		requireJsonBody: options.requireJsonBody ?? true,
		requestLogLimit,
		importStepMs: nonNegative('importStepMs', options.importStepMs, 200),
		exportStepMs: nonNegative('exportStepMs', options.exportStepMs, 200),
		sandboxRetentionMs: nonNegative(
			'sandboxRetentionMs',
			options.sandboxRetentionMs,
			7 * 24 * 3_600_000,
		),
		maxKeysPerUser: nonNegative(
			'maxKeysPerUser',
			options.maxKeysPerUser,
			DEFAULT_MAX_KEYS_PER_USER,
		),
		deliveryRetries: wholeNumber(
			'deliveryRetries',
			options.deliveryRetries,
			DEFAULT_DELIVERY_RETRIES,
		),
		deliveryBackoffMs: nonNegative(
			'deliveryBackoffMs',
			options.deliveryBackoffMs,
			DEFAULT_DELIVERY_BACKOFF_MS,
		),
		deliveryBackoffMaxMs: positive(
			'deliveryBackoffMaxMs',
			options.deliveryBackoffMaxMs,
			Number.MAX_SAFE_INTEGER,
		),
		deliveryTimeoutMs: positive(
			'deliveryTimeoutMs',
			options.deliveryTimeoutMs,
			DEFAULT_DELIVERY_TIMEOUT_MS,
		),
		externalDeliveries: options.externalDeliveries ?? false,
		deliveryLogLimit: positive('deliveryLogLimit', options.deliveryLogLimit, 100_000),
		eventSchemaVersion: checkSchemaVersion(options.eventSchemaVersion ?? EVENT_SCHEMA_VERSION),
	};
}

/** Writes the credential as the JSON a seller portal hands out (owner-only: it holds a private key). */
async function writeCredentialFile(path: string, credential: CredentialFile): Promise<void> {
	await mkdir(dirname(resolvePath(path)), { recursive: true });
	await writeFile(path, `${JSON.stringify(credential, null, 2)}\n`, { mode: 0o600 });
}

/** The error answered when the path did not resolve to an operation. */
/** The project header an endpoint requires: present (400) and the session's project (403). */
function checkProjectHeader(name: string, req: IncomingMessage, session: Session): void {
	const value = req.headers[name.toLowerCase()];
	if (value === undefined || value === '') throw invalidArgument(`${name} header is required`);
	if (value !== session.projectCode) {
		throw new ApiError(
			'PERMISSION_DENIED',
			`${name} ${JSON.stringify(value)} is not the project of this session`,
		);
	}
}

function routeError(
	match: Exclude<RouteMatch<ApiRoute>, { kind: 'matched' }>,
	method: string,
	rawPath: string,
): ApiError {
	switch (match.kind) {
		case 'malformed-path':
			return invalidArgument(`malformed percent-encoding in path ${rawPath}`);
		case 'method-not-allowed':
			return new ApiError('UNIMPLEMENTED', `method ${method} not allowed on ${rawPath}`, 405, {
				Allow: match.allowed.join(', '),
			});
		case 'not-found':
			return new ApiError('NOT_FOUND', `no operation at ${method} ${rawPath}`);
	}
}

function faultError(fault: FaultSpec & { status: number }): ApiError {
	const headers: Record<string, string> =
		fault.retryAfter === undefined ? {} : { 'Retry-After': String(Math.ceil(fault.retryAfter)) };
	return new ApiError(
		codeForHttpStatus(fault.status),
		fault.message ?? `injected fault: HTTP ${fault.status}`,
		fault.status,
		headers,
	);
}

export class EmulatorServer implements Emulator {
	private readonly server: Server;
	private readonly routes: CompiledRoute<ApiRoute>[];
	private readonly log: RequestLog;
	private readonly faults = new FaultQueue();
	private expiryCountdown: number | null = null;
	private readonly limiter: SlidingWindowLimiter;
	private readonly dispatcher: EventDispatcher;
	private latencyMs: number;
	private latencyJitterMs: number;
	private requireJsonBody: boolean;
	private origin = '';
	private closing?: Promise<void>;

	/** Provisions the project and credential, writes the credential file if asked, and listens. */
	static async start(options: EmulatorOptions = {}): Promise<EmulatorServer> {
		const resolved = resolveOptions(options);
		const state = new EmulatorState({
			sessionTtlMs: resolved.sessionTtlMs,
			importStepMs: resolved.importStepMs,
			exportStepMs: resolved.exportStepMs,
			sandboxRetentionMs: resolved.sandboxRetentionMs,
			maxKeysPerUser: resolved.maxKeysPerUser,
		});
		const { stored, file } = await state.provisionCredential();
		if (resolved.credentialFile) await writeCredentialFile(resolved.credentialFile, file);
		const emulator = new EmulatorServer(resolved, state, stored, file);
		await emulator.listen();
		return emulator;
	}

	private constructor(
		private readonly options: ResolvedOptions,
		private readonly state: EmulatorState,
		private readonly primaryCredential: StoredCredential,
		private readonly primaryCredentialFile: CredentialFile,
	) {
		this.routes = compileRoutes(buildApiRoutes(options.prefixes));
		this.log = new RequestLog(options.requestLogLimit);
		this.limiter = new SlidingWindowLimiter(options.ratePlan);
		this.latencyMs = options.latencyMs;
		this.latencyJitterMs = options.latencyJitterMs;
		this.requireJsonBody = options.requireJsonBody;
		this.dispatcher = new EventDispatcher({
			retries: options.deliveryRetries,
			backoffMs: options.deliveryBackoffMs,
			backoffMaxMs: options.deliveryBackoffMaxMs,
			timeoutMs: options.deliveryTimeoutMs,
			external: options.externalDeliveries,
			logLimit: options.deliveryLogLimit,
			schemaVersion: options.eventSchemaVersion,
		});
		// The spec's event sources: the order-creation webhook and the import completion notification.
		state.events.on('sandboxOrderCreated', (order) => {
			this.publishEvent({
				event_type: ORDER_SYNC_EVENT,
				payload: { order_nr: order.fbpi_order_nr },
				projectCode: order.project_code,
			});
		});
		state.events.on('importCompleted', ({ project_code, import: record }) => {
			this.publishEvent({
				event_type: BARCODE_IMPORT_COMPLETED_EVENT,
				payload: {
					import_reference: record.import_reference,
					client_reference: record.client_reference,
					import_status: record.import_status,
					report: record.report,
				},
				projectCode: project_code,
			});
		});
		this.server = createServer((req, res) => {
			this.dispatch(req, res).catch((error) => {
				console.error('[emulator] request failed:', error);
				res.destroy();
			});
		});
	}

	private async listen(): Promise<void> {
		await new Promise<void>((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(this.options.port, this.options.host, () => {
				this.server.off('error', reject);
				resolve();
			});
		});
		const { address, port } = this.server.address() as AddressInfo;
		this.origin = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
	}

	// --- Emulator -----------------------------------------------------------------------------

	get baseUrl(): string {
		return this.origin;
	}

	get controlUrl(): string {
		return `${this.origin}/__control`;
	}

	get credential(): CredentialFile {
		return { ...this.primaryCredentialFile };
	}

	get publicKeyPem(): string {
		return this.primaryCredential.publicKeyPem;
	}

	get projectCode(): string {
		return this.primaryCredential.projectCode;
	}

	get prefixes(): Readonly<Prefixes> {
		return this.options.prefixes;
	}

	requests(): RequestLogEntry[] {
		return this.log.list();
	}

	clearRequests(): void {
		this.log.clear();
	}

	expireSessions(): void {
		this.state.expireSessions();
	}

	expireSessionsAfter(count: number): void {
		if (!Number.isInteger(count) || count < 1)
			throw invalidArgument('afterRequests must be a positive integer');
		this.expiryCountdown = count;
	}

	/** Counts an answered authenticated request towards a scheduled expiry of all sessions. */
	private countTowardsExpiry(): void {
		if (this.expiryCountdown === null) return;
		this.expiryCountdown--;
		if (this.expiryCountdown > 0) return;
		this.expiryCountdown = null;
		this.state.expireSessions();
	}

	setRatePlan(plan: RatePlan | null): void {
		this.limiter.setPlan(validateRatePlan(plan));
	}

	setLatency(ms: number, jitterMs = 0): void {
		this.latencyMs = checkLatency(ms);
		this.latencyJitterMs = checkLatency(jitterMs);
	}

	setRequireJsonBody(required: boolean): void {
		if (typeof required !== 'boolean') throw invalidArgument('required must be a boolean');
		this.requireJsonBody = required;
	}

	/** The configured latency, give or take a uniformly random part of the jitter. */
	private responseDelay(): number {
		const jitter = this.latencyJitterMs * (2 * Math.random() - 1);
		return Math.max(0, this.latencyMs + jitter);
	}

	injectFaults(spec: FaultSpec): void {
		this.faults.add(spec);
	}

	clearFaults(): void {
		this.faults.clear();
	}

	stats(): EmulatorStats {
		return this.log.stats();
	}

	async addCredential(options: AddCredentialOptions = {}): Promise<CredentialFile> {
		return (await this.state.provisionCredential(options)).file;
	}

	// --- Records and events ---------------------------------------------------------------------

	on<E extends EmulatorEventName>(event: E, listener: EmulatorEventListener<E>): this {
		this.state.events.on(event, listener);
		return this;
	}

	off<E extends EmulatorEventName>(event: E, listener: EmulatorEventListener<E>): this {
		this.state.events.off(event, listener);
		return this;
	}

	destinations(projectCode?: string): DestinationState[] {
		return this.state.destinations.list(projectCode ?? this.projectCode);
	}

	addDestination(options: AddDestinationOptions = {}): DestinationState {
		const project = this.state.projectOf(options.projectCode);
		return this.state.destinations.add(project.code, options, Date.now());
	}

	deleteDestination(destinationCode: string, projectCode?: string): void {
		this.state.destinations.delete(projectCode ?? this.projectCode, destinationCode);
	}

	sandboxOrders(projectCode?: string): SandboxOrder[] {
		return this.state.fbpi.list(projectCode, Date.now());
	}

	warehouses(projectCode?: string): Warehouse[] {
		return this.state.fbpi.listWarehouses(projectCode ?? this.projectCode);
	}

	shipments(projectCode?: string): Shipment[] {
		return this.state.shipments.list(projectCode);
	}

	generatedAwbs(projectCode?: string): GeneratedAwb[] {
		return this.state.shipments.generated(projectCode);
	}

	fbnShipments(projectCode?: string): Asn[] {
		return this.state.fbn.all(projectCode);
	}

	addFbnCatalogItems(options: AddFbnCatalogItemsOptions): FbnCatalogItem[] {
		const project = this.state.projectOf(options.projectCode);
		return this.state.fbn.addCatalogItems(options, project.code);
	}

	addWarehouses(options: AddWarehousesOptions): ListedWarehouse[] {
		const project = this.state.projectOf(options.projectCode);
		return addWarehouses(this.state, project.code, options);
	}

	addFbpiOrders(options: AddFbpiOrdersOptions = {}): FbpiOrder[] {
		const project = this.state.projectOf(options?.projectCode);
		return this.state.fbpi.orders.add(project.code, options, Date.now());
	}

	setFbpiOrderQuirks(quirks: FbpiOrderQuirks | null): void {
		if (quirks !== null && (typeof quirks !== 'object' || Array.isArray(quirks)))
			throw invalidArgument('the FBPI order quirks must be an object or null');
		const project = this.state.projectOf(quirks?.projectCode);
		this.state.fbpi.orders.setQuirks(project.code, quirks);
	}

	expireFbpiOrderTokens(projectCode?: string): void {
		this.state.fbpi.orders.expireTokens(this.state.projectOf(projectCode).code);
	}

	fbpiOrder(fbpiOrderNr: string, projectCode?: string): FbpiOrder | null {
		return (
			this.state.fbpi.orders.find(projectCode ?? this.projectCode, fbpiOrderNr, Date.now()) ?? null
		);
	}

	imports(projectCode?: string): Array<ImportStatusRecord & { project_code: string }> {
		return this.state.imports.list(projectCode, Date.now());
	}

	addExport(options: AddExportOptions = {}): ExportRecord {
		const project = this.state.projectOf(options.projectCode);
		return this.state.exports.add(
			project.code,
			this.state.apiUserOf(project).userCode,
			options,
			Date.now(),
		);
	}

	apiUsers(projectCode?: string): ApiUserInfo[] {
		const users: ApiUserInfo[] = [];
		for (const user of this.state.users.values()) {
			if (projectCode !== undefined && user.projectCode !== projectCode) continue;
			users.push({
				user_code: user.userCode,
				channel_identifier: user.channelIdentifier,
				project_code: user.projectCode,
				key_count: this.state.keyCountOf(user.userCode),
			});
		}
		return users;
	}

	stock(projectCode?: string): StockRecord[] {
		return this.state.stockPrices.listStock(projectCode ?? this.projectCode);
	}

	seedStock(
		rows: Array<{
			warehouse_code: string;
			partner_sku: string;
			qty?: number;
			processing_time?: string;
		}>,
		projectCode?: string,
	): StockRecord[] {
		if (!Array.isArray(rows)) throw invalidArgument('rows must be a list');
		const project = projectCode ?? this.projectCode;
		return rows.map((row) => this.state.stockPrices.putStock(project, row, Date.now()));
	}

	prices(projectCode?: string): PriceRecord[] {
		return this.state.stockPrices.listPrices(projectCode ?? this.projectCode);
	}

	seedPrices(
		rows: Array<{
			partner_sku: string;
			country_code: string;
			price?: number;
			msrp?: number;
			is_active?: boolean;
		}>,
		projectCode?: string,
	): PriceRecord[] {
		if (!Array.isArray(rows)) throw invalidArgument('rows must be a list');
		const project = projectCode ?? this.projectCode;
		return rows.map((row) => this.state.stockPrices.putPrice(project, row, Date.now()));
	}

	injectRowFaults(spec: RowFaultSpec): void {
		this.state.stockPrices.addRowFaults(spec);
	}

	clearRowFaults(): void {
		this.state.stockPrices.clearRowFaults();
	}

	// --- Catalog, offers, event webhooks ---

	products(projectCode?: string): Product[] {
		return this.state.catalog.listProducts(projectCode ?? this.projectCode);
	}

	addProducts(products: Product[], projectCode?: string): Product[] {
		return this.state.catalog.addProducts(projectCode ?? this.projectCode, products);
	}

	barcodeMappings(projectCode?: string): BarcodeMapping[] {
		return this.state.catalog.listBarcodes(projectCode ?? this.projectCode);
	}

	webhookSubscriptions(projectCode?: string): WebhookSubscription[] {
		return this.state.webhooks.listSubscriptions(projectCode ?? this.projectCode);
	}

	webhookDevelopers(projectCode?: string): WebhookDeveloper[] {
		return this.state.webhooks.listDevelopers(projectCode ?? this.projectCode);
	}

	// --- Namshi and cross-border prices -------------------------------------------------------------

	crossBorder<K extends CrossBorderKind>(
		kind: K,
		projectCode?: string,
	): Array<CrossBorderRecords[K]> {
		if (!CROSS_BORDER_KINDS.includes(kind))
			throw invalidArgument(`kind must be one of ${CROSS_BORDER_KINDS.join(', ')}`);
		return this.state.crossBorder.list(projectCode ?? this.projectCode, kind);
	}

	seedCrossBorder<K extends CrossBorderKind>(
		kind: K,
		rows: Array<CrossBorderRecords[K]>,
		projectCode?: string,
	): Array<CrossBorderRecords[K]> {
		if (!CROSS_BORDER_KINDS.includes(kind))
			throw invalidArgument(`kind must be one of ${CROSS_BORDER_KINDS.join(', ')}`);
		if (!Array.isArray(rows) || rows.some((row) => typeof row?.partner_sku !== 'string'))
			throw invalidArgument('rows must be a list of records, each with its partner_sku');
		const project = projectCode ?? this.projectCode;
		return rows.map((row) => this.state.crossBorder.put(project, kind, row));
	}

	// --- Event deliveries -------------------------------------------------------------------------

	publishEvent(input: PublishEventInput, options: PublishEventOptions = {}): PublishResult {
		const checked = checkPublishInput(input, this.projectCode);
		if (options.duplicate !== undefined && typeof options.duplicate !== 'boolean') {
			throw invalidArgument('duplicate must be a boolean');
		}
		if (options.duplicate) checked.duplicate = true;
		// Listing never creates the project: an unknown one simply has no destinations.
		return this.dispatcher.publish(
			checked,
			this.state.destinations.list(checked.projectCode),
			Date.now(),
		);
	}

	setEventSchemaVersion(version: EventSchemaVersion): void {
		this.dispatcher.setSchemaVersion(version);
	}

	redeliver(messageId: string): DeliveryRecord[] {
		if (typeof messageId !== 'string' || messageId === '')
			throw invalidArgument('messageId must be a non-empty string');
		return this.dispatcher.redeliver(messageId, Date.now());
	}

	deliveries(filter?: DeliveryFilter): DeliveryRecord[] {
		return this.dispatcher.list(checkDeliveryFilter(filter));
	}

	publishedEvents(filter: { projectCode?: string; eventType?: string } = {}): PublishedEvent[] {
		const { projectCode, eventType } = checkDeliveryFilter({
			projectCode: filter.projectCode,
			eventType: filter.eventType,
		});
		return this.dispatcher.publishedEvents({ projectCode, eventType });
	}

	clearDeliveries(): void {
		this.dispatcher.clear();
	}

	waitForDeliveries(options: WaitForDeliveriesOptions = {}): Promise<DeliveryRecord[]> {
		try {
			return this.dispatcher.waitFor(options ?? {});
		} catch (error) {
			return Promise.reject(error);
		}
	}

	// --- Exports and identity ---

	issueOAuthCode(options: IssueOAuthCodeOptions = {}): string {
		return this.state.oauth.issueCode(options, this.projectCode, Date.now());
	}

	setCreatedExportStates(states: ExportStatus[]): void {
		this.state.exports.setCreatedStates(states);
	}

	close(): Promise<void> {
		this.dispatcher.close();
		this.state.close();
		this.closing ??= new Promise<void>((resolve, reject) => {
			this.server.close((error) => (error ? reject(error) : resolve()));
			// Keep-alive connections (fetch keeps them) would hold `close` open otherwise.
			this.server.closeAllConnections();
		});
		return this.closing;
	}

	// --- Pipeline -----------------------------------------------------------------------------

	private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
		req.url = originForm(req.url);
		const rawPath = rawPathOf(req.url);
		if (isControlPath(rawPath)) return handleControl(this, req, res, rawPath);
		return this.handleApi(req, res, rawPath);
	}

	private async handleApi(
		req: IncomingMessage,
		res: ServerResponse,
		rawPath: string,
	): Promise<void> {
		const at = Date.now();
		const method = req.method ?? 'GET';
		const remoteAddress = normaliseAddress(req.socket.remoteAddress);
		const body = parseBody(await readBody(req));
		const match = matchRoute(this.routes, method, rawPath);
		const operation = match.kind === 'matched' ? match.route.operation : null;
		const entry = this.log.start({
			at,
			method,
			path: req.url ?? '/',
			operation,
			headers: Object.fromEntries(
				Object.entries(req.headers).filter(
					(header): header is [string, string | string[]] => header[1] !== undefined,
				),
			),
			body: loggedBody(body),
			remoteAddress,
		});
		const respond = (
			status: number,
			responseBody: unknown,
			headers?: ResponseHeaders,
			contentType?: string,
		): void => {
			if (contentType === undefined) sendJson(res, status, responseBody, headers);
			else sendRaw(res, status, contentType, responseBody as string | Buffer, headers);
			this.log.complete(entry, status);
		};

		try {
			await sleep(this.responseDelay());
			const fault = this.faults.take(operation);
			if (fault) {
				await sleep(fault.delayMs ?? 0);
				const gone = () => (entry.clientClosedAt ??= Date.now());
				if (fault.hang) return hang(res, gone);
				if (fault.trickleMs !== undefined) trickle(res, fault.trickleMs, gone);
				if (fault.huge) {
					const status = fault.status ?? 200;
					const sent = () => this.log.complete(entry, status);
					return sendHuge(res, fault.huge, status, gone, sent);
				}
				if (fault.reset) {
					this.log.complete(entry, null);
					req.socket.destroy();
					return;
				}
				if (fault.redirect) {
					respond(fault.redirect.status ?? 307, {}, { Location: fault.redirect.location });
					return;
				}
				if (fault.status !== undefined) {
					const error = faultError({ ...fault, status: fault.status });
					if (!fault.echo) throw error;
					// A careless service: the answer repeats what the request carried.
					const echo = echoAnswer(error, fault.echo, req.headers.cookie, body);
					respond(echo.status, echo.body, echo.headers, echo.contentType);
					return;
				}
			}
			const userAgentOptional = match.kind === 'matched' && match.route.userAgent === 'optional';
			if (this.options.requireUserAgent && !userAgentOptional && !req.headers['user-agent']) {
				throw invalidArgument('User-Agent header is required');
			}
			if (match.kind !== 'matched') throw routeError(match, method, rawPath);

			const { route, params } = match;
			const session =
				route.auth === 'session'
					? requireSession(this.state, req.headers.cookie, Date.now())
					: null;
			if (route.rateLimited && session) this.enforceRatePlan(session, route, at);
			if (route.projectHeader && session) checkProjectHeader(route.projectHeader, req, session);
			const target = req.url ?? '/';
			const queryStart = target.indexOf('?');
			const query = new URLSearchParams(queryStart === -1 ? '' : target.slice(queryStart + 1));
			if (this.requireJsonBody) checkJsonBody(method, rawPath, req.headers['content-type'], body);
			// Every request is checked against its endpoint's schemas before its handler runs.
			const checked = route.check(method, body, query);
			const result = await route.run({
				state: this.state,
				params,
				body: checked.body,
				query: checked.query,
				session,
				projectCode: session?.projectCode ?? '',
				remoteAddress,
				now: Date.now(),
				baseUrl: req.headers.host ? `http://${req.headers.host}` : this.origin,
			});
			if (fault?.lostAnswer) {
				// The change is made; the answer never arrives.
				this.log.complete(entry, null);
				req.socket.destroy();
				return;
			}
			// An `answer` fault: the operation's own answer, in another shape (answer.ts).
			const shaped =
				fault?.answer && result.contentType === undefined
					? reshapeAnswer(result.body, fault.answer, askedToken(query, checked.body))
					: { body: result.body, contentType: result.contentType };
			const status = fault?.answer?.status ?? result.status ?? 200;
			respond(status, shaped.body, result.headers, shaped.contentType);
			if (session) this.countTowardsExpiry();
		} catch (error) {
			const apiError = toApiError(error);
			respond(apiError.httpStatus, apiError.toBody(), apiError.headers);
		}
	}

	/** Counts the request against its project's quota for the operation; 429 when spent (with Retry-After unless the plan says not). */
	private enforceRatePlan(session: Session, route: ApiRoute, receivedAt: number): void {
		const { operation, ratePlan } = route;
		// Counted at receipt, as a gateway does, not after the configured latency; by the
		// operation's own documented plan where it has one.
		const key = `${session.projectCode} ${operation}`;
		const decision = this.limiter.take(key, receivedAt, ratePlan);
		if (decision.allowed) return;
		const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
		// The limits that refused it: the sliding window, a strict plan's fixed window, or both.
		const limits = decision.exceeded
			.map(
				(bound) =>
					`at most ${bound.limit} requests per ${bound.windowMs} ms${bound.kind === 'fixed' ? ' window' : ''}`,
			)
			.join(' and ');
		// A gateway that only says no (`retryAfter: false`) leaves the wait to the client's backoff.
		const withWait = this.limiter.plan?.retryAfter !== false;
		throw new ApiError(
			'RESOURCE_EXHAUSTED',
			`rate plan exceeded for ${operation}: ${limits}${withWait ? `, retry in ${seconds} s` : ''}`,
			429,
			withWait ? { 'Retry-After': String(seconds) } : {},
		);
	}
}
