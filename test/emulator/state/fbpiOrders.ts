/**
 * FBPI orders as GetFbpiOrder and ListFbpiOrders answer them, per project: the seeded ones
 * (`SEEDED_FBPI_ORDER_TABLE`, copied into every project so a change stays in its project), the
 * sandbox orders CreateSandboxOrder makes (gone with their retention), orders a test adds through
 * the control API (`addFbpiOrders`), and generated `FBPI-BULK-<n>` orders (readable, never
 * listed; stored once an item changes).
 *
 * For other handlers: `find(project, nr, now)` reads an order (a copy), and
 * `setItemsIntegrationStatus(project, nr, mpItemNrs, status, now)` changes items' integration
 * status (UpdateOrder marks them OUT_OF_STOCK; the shipments mark them SHIPPED).
 *
 * Lists go in creation order (`order_created_at`, then the order they were added in) with
 * keyset tokens: a token names the last order of its page, the filters and list order it was
 * issued for and when; it is signed with the project's key (`expireTokens` changes the key).
 *
 * Quirks of a real service a test can switch on per project (`setQuirks`, `FbpiOrderQuirks`):
 * filters shifted or ignored, times without a zone, list entries without items, orders listed
 * although GetFbpiOrder does not find them yet (`read` answers GetFbpiOrder), another list order
 * (newest first, shuffled, reshuffled at every page), tokens that expire, a list that never ends.
 * An added order may be listed late (`listedFrom`): GetFbpiOrder finds it from the start.
 */
import { createHmac, randomBytes } from 'node:crypto';

import { ApiError, invalidArgument } from '../errors';
import {
	BULK_FBPI_PATTERN,
	SEEDED_FBPI_ORDER_TABLE,
	SEEDED_WAREHOUSES,
	type SandboxCountry,
} from '../seed';

export type MpItemStatus =
	'MP_ITEM_STATUS_UNSPECIFIED' | 'MP_ITEM_STATUS_CONFIRMED' | 'MP_ITEM_STATUS_CANCELLED';
export const MP_ITEM_STATUSES: readonly MpItemStatus[] = [
	'MP_ITEM_STATUS_UNSPECIFIED',
	'MP_ITEM_STATUS_CONFIRMED',
	'MP_ITEM_STATUS_CANCELLED',
];

export type IntegrationItemStatus =
	| 'INTEGRATION_ITEM_STATUS_UNSPECIFIED'
	| 'INTEGRATION_ITEM_STATUS_ACKNOWLEDGED'
	| 'INTEGRATION_ITEM_STATUS_OUT_OF_STOCK'
	| 'INTEGRATION_ITEM_STATUS_SHIPPED';
export const INTEGRATION_ITEM_STATUSES: readonly IntegrationItemStatus[] = [
	'INTEGRATION_ITEM_STATUS_UNSPECIFIED',
	'INTEGRATION_ITEM_STATUS_ACKNOWLEDGED',
	'INTEGRATION_ITEM_STATUS_OUT_OF_STOCK',
	'INTEGRATION_ITEM_STATUS_SHIPPED',
];

/** One item of an order, as GetFbpiOrder answers it. */
export interface FbpiOrderItem {
	mp_item_nr: string;
	partner_sku: string;
	mp_status: MpItemStatus;
	integration_status: IntegrationItemStatus;
	delivered_invoice_price: number;
	cancellation_reason_code: string | null;
}

/** An order, as GetFbpiOrder answers it (and ListFbpiOrders lists it). */
export interface FbpiOrder {
	fbpi_order_nr: string;
	mp_code: 'noon' | 'namshi';
	mp_order_nr: string;
	mp_country_code: SandboxCountry;
	customer_country_code: SandboxCountry;
	merchant_code: string;
	currency_code: string;
	warehouse_code: string;
	items: FbpiOrderItem[];
	/** ISO 8601, UTC. */
	order_created_at: string;
}

/** The items of an order to add; every field has a default. */
export interface FbpiOrderItemInput {
	mpItemNr?: string;
	partnerSku?: string;
	mpStatus?: MpItemStatus;
	integrationStatus?: IntegrationItemStatus;
	deliveredInvoicePrice?: number;
	cancellationReasonCode?: string | null;
}

/** One order to add through `addFbpiOrders`. */
export interface FbpiOrderInput {
	/** Default `N<CC>ORD<serial>`; a number already taken in the project is refused. */
	fbpiOrderNr?: string;
	/** Default the call's `warehouseCode`. */
	warehouseCode?: string;
	/** Default the call's `createdAt` plus `intervalMs` per order before it. */
	createdAt?: Date | number | string;
	/** Default the call's `countryCode`. */
	countryCode?: SandboxCountry;
	mpCode?: 'noon' | 'namshi';
	/** Default the call's `items`. */
	items?: FbpiOrderItemInput[];
	/** Default the call's `listedFrom`. */
	listedFrom?: Date | number | string;
}

/** `addFbpiOrders`: `count` orders alike (times `intervalMs` apart), or the listed `orders`. */
export interface AddFbpiOrdersOptions {
	/** Default the emulator's project. */
	projectCode?: string;
	/** Default the seeded Dubai warehouse (`WH-DXB-01`). */
	warehouseCode?: string;
	/** Orders to add when `orders` is absent; default 1, at most 100,000. */
	count?: number;
	/** Creation time of the first order; default now. */
	createdAt?: Date | number | string;
	/** Between consecutive orders' creation times; default 1000 ms (0: all at the same time). */
	intervalMs?: number;
	/** Default `ae`. */
	countryCode?: SandboxCountry;
	/** Items of each order; default one confirmed item. */
	items?: FbpiOrderItemInput[];
	/**
	 * ListFbpiOrders shows the orders only from this time on (ms, ISO 8601 or Date); GetFbpiOrder
	 * finds them from the start. Default: listed at once.
	 */
	listedFrom?: Date | number | string;
	orders?: FbpiOrderInput[];
}

/** ListFbpiOrders' filters, checked. */
export interface OrderFilters {
	warehouse_code: string;
	created_after?: string;
	created_before?: string;
}

/**
 * The order of ListFbpiOrders: `oldest` first (by `order_created_at`, then the order added in),
 * `newest` first (the exact reverse), `shuffled` (random, fixed for one listing: the pages of a
 * listing started without a token follow one order), `changing` (every page request shuffles the
 * whole list anew: pages may repeat or skip orders).
 */
export type ListOrder = 'oldest' | 'newest' | 'shuffled' | 'changing';
export const LIST_ORDERS: readonly ListOrder[] = ['oldest', 'newest', 'shuffled', 'changing'];

/** How ListFbpiOrders and GetFbpiOrder misbehave in a project (`setFbpiOrderQuirks`). */
export interface FbpiOrderQuirks {
	/** Default the emulator's project. */
	projectCode?: string;
	/** ListFbpiOrders lists the warehouse's orders ignoring created_after/created_before. */
	ignoreFilters?: boolean;
	/** The filters are applied as if each given time were this many ms earlier. */
	filterShiftMs?: number;
	/** `order_created_at` is written `YYYY-MM-DDTHH:MM:SS` (UTC, no zone) in list and get answers. */
	zonelessTimes?: boolean;
	/** List entries come without their `items`. */
	listWithoutItems?: boolean;
	/** Order numbers still listed, but GetFbpiOrder answers 404 NOT_FOUND for them. */
	unreadable?: string[];
	/** ListFbpiOrders pages hold this many orders (a service ignoring the page size of 50). */
	pageSize?: number;
	/** The order ListFbpiOrders lists in; default `oldest`. */
	listOrder?: ListOrder;
	/** Seeds the random orders (`shuffled`, `changing`); default 0. Setting quirks restarts it. */
	seed?: number;
	/** A `next_token` issued more than this many ms ago is refused (400 INVALID_ARGUMENT). */
	tokenLifetimeMs?: number;
	/** The last page still carries a new `next_token`, whose pages are empty with another one. */
	endlessTokens?: boolean;
}

/** What refuses a token that expired or was signed with an earlier key. */
export const TOKEN_REFUSED = 'next_token is invalid or expired';

/** The quirks checked (INVALID_ARGUMENT naming the field), without `projectCode`. */
export function checkQuirks(quirks: FbpiOrderQuirks): Omit<FbpiOrderQuirks, 'projectCode'> {
	if (quirks === null || typeof quirks !== 'object' || Array.isArray(quirks))
		throw invalidArgument('the FBPI order quirks must be an object or null');
	const { unreadable, filterShiftMs, pageSize, listOrder, seed, tokenLifetimeMs, ...flags } =
		quirks;
	delete flags.projectCode;
	for (const [key, value] of Object.entries(flags)) {
		if (!['ignoreFilters', 'zonelessTimes', 'listWithoutItems', 'endlessTokens'].includes(key))
			throw invalidArgument(`${key} is not an FBPI order quirk`);
		if (value !== undefined && typeof value !== 'boolean')
			throw invalidArgument(`${key} must be a boolean`);
	}
	if (
		filterShiftMs !== undefined &&
		(typeof filterShiftMs !== 'number' || !Number.isFinite(filterShiftMs))
	)
		throw invalidArgument('filterShiftMs must be a number (ms)');
	if (pageSize !== undefined && (!Number.isInteger(pageSize) || pageSize < 1))
		throw invalidArgument('pageSize must be an integer >= 1');
	if (
		unreadable !== undefined &&
		(!Array.isArray(unreadable) || unreadable.some((nr) => typeof nr !== 'string'))
	)
		throw invalidArgument('unreadable must be a list of order numbers');
	if (listOrder !== undefined && !LIST_ORDERS.includes(listOrder))
		throw invalidArgument(`listOrder must be one of ${LIST_ORDERS.join(', ')}`);
	if (seed !== undefined && !Number.isSafeInteger(seed))
		throw invalidArgument('seed must be an integer');
	if (
		tokenLifetimeMs !== undefined &&
		(typeof tokenLifetimeMs !== 'number' ||
			!Number.isFinite(tokenLifetimeMs) ||
			tokenLifetimeMs < 0)
	)
		throw invalidArgument('tokenLifetimeMs must be a number >= 0 (ms)');
	return {
		...flags,
		filterShiftMs,
		pageSize,
		listOrder,
		seed,
		tokenLifetimeMs,
		unreadable: unreadable && [...unreadable],
	};
}

/** `YYYY-MM-DDTHH:MM:SS`: the UTC time without fractions nor zone. */
const zoneless = (ms: number) => new Date(ms).toISOString().slice(0, 19);

export const ORDERS_PAGE_SIZE = 50;
export const MAX_ADDED_ORDERS = 100_000;

const CURRENCIES: Readonly<Record<SandboxCountry, string>> = { ae: 'AED', sa: 'SAR', eg: 'EGP' };
const COUNTRIES: readonly SandboxCountry[] = ['ae', 'sa', 'eg'];
/** `YYYY-MM-DDTHH:MM:SSZ`, fractions of a second allowed. */
const UTC_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

interface StoredOrder {
	order: FbpiOrder;
	/** ms since the epoch of `order_created_at`. */
	createdAt: number;
	/** Added order within the project: breaks ties of `createdAt`. */
	seq: number;
	/** Gone from this time on (sandbox orders); undefined: kept. */
	expiresAt?: number;
	/** In its warehouse's list (false for materialised `FBPI-BULK-<n>` orders). */
	listed: boolean;
	/** ListFbpiOrders shows it from this time on; undefined: at once. */
	listedFrom?: number;
}

interface ProjectOrders {
	byNr: Map<string, StoredOrder>;
	/** Listed orders by warehouse, in (createdAt, seq) order. */
	byWarehouse: Map<string, StoredOrder[]>;
	nextSeq: number;
}

function hashOf(text: string): number {
	let hash = 2166136261;
	for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
	return hash;
}

/** A deterministic price (two decimals) for an item. */
export function priceOf(key: string): number {
	return Math.round(1000 + (hashOf(key) % 99000)) / 100;
}

export function merchantCodeOf(projectCode: string): string {
	return `STR${/\d+/.exec(projectCode)?.[0] ?? '0'}`;
}

/** ms of a ListFbpiOrders timestamp, or the message refusing it. */
export function parseUtcTimestamp(value: string, path: string): number | string {
	const ms = UTC_TIMESTAMP.test(value) ? Date.parse(value) : NaN;
	if (Number.isNaN(ms))
		return `${path} must be a UTC timestamp in ISO-8601 format (YYYY-MM-DDTHH:MM:SSZ), got ${JSON.stringify(value)}`;
	return ms;
}

function timeOf(value: Date | number | string | undefined, fallback: number, name: string): number {
	if (value === undefined) return fallback;
	const ms =
		value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
	if (!Number.isFinite(ms)) throw invalidArgument(`${name} must be a date (ms or ISO 8601)`);
	return ms;
}

function byCreation(a: StoredOrder, b: StoredOrder): number {
	return a.createdAt - b.createdAt || a.seq - b.seq;
}

function checkItemInput(item: FbpiOrderItemInput, path: string): void {
	if (item === null || typeof item !== 'object') throw invalidArgument(`${path} must be an object`);
	if (item.mpStatus !== undefined && !MP_ITEM_STATUSES.includes(item.mpStatus))
		throw invalidArgument(`${path}.mpStatus must be one of ${MP_ITEM_STATUSES.join(', ')}`);
	if (
		item.integrationStatus !== undefined &&
		!INTEGRATION_ITEM_STATUSES.includes(item.integrationStatus)
	)
		throw invalidArgument(
			`${path}.integrationStatus must be one of ${INTEGRATION_ITEM_STATUSES.join(', ')}`,
		);
	for (const key of ['mpItemNr', 'partnerSku'] as const) {
		if (item[key] !== undefined && (typeof item[key] !== 'string' || item[key] === ''))
			throw invalidArgument(`${path}.${key} must be a non-empty string`);
	}
	if (
		item.deliveredInvoicePrice !== undefined &&
		(typeof item.deliveredInvoicePrice !== 'number' || !Number.isFinite(item.deliveredInvoicePrice))
	)
		throw invalidArgument(`${path}.deliveredInvoicePrice must be a number`);
}

/** An order from its parts; items default to one confirmed item. */
export function buildOrder(parts: {
	fbpiOrderNr: string;
	projectCode: string;
	warehouseCode: string;
	country: SandboxCountry;
	createdAt: number;
	mpCode?: 'noon' | 'namshi';
	items?: FbpiOrderItemInput[];
}): FbpiOrder {
	const nr = parts.fbpiOrderNr;
	const inputs = parts.items && parts.items.length > 0 ? parts.items : [{}];
	return {
		fbpi_order_nr: nr,
		mp_code: parts.mpCode ?? 'noon',
		mp_order_nr: `${parts.country.toUpperCase()}${String(hashOf(nr)).padStart(10, '0')}`,
		mp_country_code: parts.country,
		customer_country_code: parts.country,
		merchant_code: merchantCodeOf(parts.projectCode),
		currency_code: CURRENCIES[parts.country],
		warehouse_code: parts.warehouseCode,
		items: inputs.map((item, i) => {
			const mpItemNr = item.mpItemNr ?? `${nr}-${i + 1}`;
			const mpStatus = item.mpStatus ?? 'MP_ITEM_STATUS_CONFIRMED';
			return {
				mp_item_nr: mpItemNr,
				partner_sku: item.partnerSku ?? `SKU-${nr}-${i + 1}`,
				mp_status: mpStatus,
				integration_status: item.integrationStatus ?? 'INTEGRATION_ITEM_STATUS_UNSPECIFIED',
				delivered_invoice_price: item.deliveredInvoicePrice ?? priceOf(mpItemNr),
				cancellation_reason_code:
					item.cancellationReasonCode !== undefined
						? item.cancellationReasonCode
						: mpStatus === 'MP_ITEM_STATUS_CANCELLED'
							? 'CUSTOMER_CANCELLED'
							: null,
			};
		}),
		order_created_at: new Date(parts.createdAt).toISOString(),
	};
}

/** A generated `FBPI-BULK-<n>` order: Dubai warehouse, created n seconds after 2025-01-01. */
function bulkOrder(projectCode: string, orderNr: string): StoredOrder | undefined {
	const match = BULK_FBPI_PATTERN.exec(orderNr);
	if (!match) return undefined;
	const createdAt = Date.UTC(2025, 0, 1) + (Number(match[1]) % 10_000_000) * 1000;
	const order = buildOrder({
		fbpiOrderNr: orderNr,
		projectCode,
		warehouseCode: SEEDED_WAREHOUSES.dubai,
		country: 'ae',
		createdAt,
	});
	return { order, createdAt, seq: -1, listed: false };
}

/** What a `next_token` says, signed with its project's key. */
interface PageToken {
	/** Fingerprint of the filters (and project) the token was issued for. */
	f: number;
	/** The list order it was issued for. */
	m: ListOrder;
	/** Issued at (ms since the epoch). */
	i: number;
	/** oldest, newest: createdAt and seq of the page's last order; shuffled: its rank and seq. */
	t?: number;
	s?: number;
	/** shuffled: the listing's random seed. */
	r?: number;
	/** changing: orders given so far. */
	o?: number;
	/** A token past the end (`endlessTokens`): its serial. */
	e?: number;
}

/** Where the next page starts: a token without its fingerprint, order and issue time. */
type Cursor = Omit<PageToken, 'f' | 'm' | 'i'>;

/** One page of a list: its orders and where the next one starts (undefined: the last page). */
interface ListedPage {
	orders: StoredOrder[];
	next?: Cursor;
}

/** What a list order needs to make one page. */
interface PageRequest {
	/** The warehouse's listed orders, in creation order. */
	list: readonly StoredOrder[];
	after: number;
	before: number;
	now: number;
	pageSize: number;
	cursor?: Cursor;
	/** Draws the next random seed of the project's stream. */
	draw(): number;
}

export class FbpiOrderStore {
	private readonly projects = new Map<string, ProjectOrders>();
	private readonly quirks = new Map<string, Omit<FbpiOrderQuirks, 'projectCode'>>();
	/** Per project: the key page tokens are signed with (32 bytes). */
	private readonly tokenKeys = new Map<string, Buffer>();
	/** Per project: random seeds drawn since its quirks were set. */
	private readonly draws = new Map<string, number>();
	/** Serial of the tokens past the end (`endlessTokens`): never the same token twice. */
	private endlessSerial = 0;
	private nextGenerated = 1;

	/** The project's quirks from now on (checked); null: none. Restarts its random stream. */
	setQuirks(projectCode: string, quirks: FbpiOrderQuirks | null): void {
		if (quirks === null) this.quirks.delete(projectCode);
		else this.quirks.set(projectCode, checkQuirks(quirks));
		this.draws.delete(projectCode);
	}

	/** Every page token the project's ListFbpiOrders issued so far is refused (a new signing key). */
	expireTokens(projectCode: string): void {
		this.tokenKeys.set(projectCode, randomBytes(32));
	}

	/** An order as the project's answers give it (its quirks applied), a copy. */
	private answered(projectCode: string, stored: StoredOrder, listed: boolean): FbpiOrder {
		const quirks = this.quirks.get(projectCode);
		const order = structuredClone(stored.order);
		if (quirks?.zonelessTimes) order.order_created_at = zoneless(stored.createdAt);
		if (listed && quirks?.listWithoutItems) delete (order as Partial<FbpiOrder>).items;
		return order;
	}

	/** GetFbpiOrder: the order (quirks applied), NOT_FOUND when there is none or it is unreadable. */
	read(projectCode: string, orderNr: string, now: number): FbpiOrder {
		const stored = this.live(projectCode, orderNr, now) ?? bulkOrder(projectCode, orderNr);
		if (!stored || this.quirks.get(projectCode)?.unreadable?.includes(orderNr))
			throw new ApiError('NOT_FOUND', `FBPI order ${JSON.stringify(orderNr)} not found`);
		return this.answered(projectCode, stored, false);
	}

	/** ListFbpiOrders' creation-time bounds, as the project's quirks read the filters. */
	private bounds(projectCode: string, filters: OrderFilters): { after: number; before: number } {
		const quirks = this.quirks.get(projectCode);
		const shift = quirks?.filterShiftMs ?? 0;
		const after =
			filters.created_after === undefined ? -Infinity : Date.parse(filters.created_after);
		const before =
			filters.created_before === undefined ? Infinity : Date.parse(filters.created_before);
		if (after > before)
			throw invalidArgument('created_after must not be later than created_before');
		if (quirks?.ignoreFilters) return { after: -Infinity, before: Infinity };
		return { after: after - shift, before: before - shift };
	}

	private projectOrders(projectCode: string): ProjectOrders {
		let orders = this.projects.get(projectCode);
		if (!orders) {
			orders = { byNr: new Map(), byWarehouse: new Map(), nextSeq: 1 };
			this.projects.set(projectCode, orders);
		}
		return orders;
	}

	/** Copies the seeded orders into a new project. */
	seedProject(projectCode: string): void {
		for (const seed of SEEDED_FBPI_ORDER_TABLE) {
			const createdAt = Date.parse(seed.created_at);
			this.store(projectCode, buildOrder({ ...seed, projectCode, createdAt }), createdAt);
		}
	}

	private store(
		projectCode: string,
		order: FbpiOrder,
		createdAt: number,
		expiresAt?: number,
		listedFrom?: number,
	): StoredOrder {
		const project = this.projectOrders(projectCode);
		const stored: StoredOrder = {
			order,
			createdAt,
			seq: project.nextSeq++,
			expiresAt,
			listed: true,
			listedFrom,
		};
		project.byNr.set(order.fbpi_order_nr, stored);
		let list = project.byWarehouse.get(order.warehouse_code);
		if (!list) project.byWarehouse.set(order.warehouse_code, (list = []));
		const last = list[list.length - 1];
		list.push(stored);
		if (last && byCreation(last, stored) > 0) list.sort(byCreation);
		return stored;
	}

	private live(projectCode: string, orderNr: string, now: number): StoredOrder | undefined {
		const stored = this.projects.get(projectCode)?.byNr.get(orderNr);
		if (stored && stored.expiresAt !== undefined && now >= stored.expiresAt) return undefined;
		return stored;
	}

	/** A sandbox order's FBPI order (kept until `expiresAt`). */
	addSandboxOrder(
		projectCode: string,
		order: FbpiOrder,
		createdAt: number,
		expiresAt: number,
	): void {
		this.store(projectCode, order, createdAt, expiresAt);
	}

	/** The order (a copy), or undefined when the project has no such (live) order. */
	find(projectCode: string, orderNr: string, now: number): FbpiOrder | undefined {
		const stored = this.live(projectCode, orderNr, now) ?? bulkOrder(projectCode, orderNr);
		return stored && structuredClone(stored.order);
	}

	/**
	 * Sets the integration status of the order's items `mpItemNrs`; nothing changes when the
	 * order or one of the items does not exist (NOT_FOUND, INVALID_ARGUMENT naming the item).
	 * Returns the order after the change (a copy).
	 */
	setItemsIntegrationStatus(
		projectCode: string,
		orderNr: string,
		mpItemNrs: readonly string[],
		status: IntegrationItemStatus,
		now: number,
	): FbpiOrder {
		let stored = this.live(projectCode, orderNr, now);
		if (!stored) {
			const bulk = bulkOrder(projectCode, orderNr);
			if (!bulk) throw new ApiError('NOT_FOUND', `FBPI order ${JSON.stringify(orderNr)} not found`);
			this.projectOrders(projectCode).byNr.set(orderNr, bulk);
			stored = bulk;
		}
		const items = mpItemNrs.map((nr, i) => {
			const item = stored.order.items.find((candidate) => candidate.mp_item_nr === nr);
			if (!item)
				throw invalidArgument(
					`items[${i}].mp_item_nr ${JSON.stringify(nr)} is not an item of FBPI order ${orderNr}`,
				);
			return item;
		});
		for (const item of items) item.integration_status = status;
		return structuredClone(stored.order);
	}

	/**
	 * Cancels the order's items `mpItemNrs` (mp_status CANCELLED, with `reason`): the items of a
	 * cancelled shipment. Nothing happens for an order that is gone.
	 */
	cancelItems(
		projectCode: string,
		orderNr: string,
		mpItemNrs: readonly string[],
		reason: string,
		now: number,
	): void {
		const stored = this.live(projectCode, orderNr, now);
		for (const item of stored?.order.items ?? []) {
			if (!mpItemNrs.includes(item.mp_item_nr)) continue;
			item.mp_status = 'MP_ITEM_STATUS_CANCELLED';
			item.cancellation_reason_code = reason;
		}
	}

	/** Adds orders (control API); returns them. */
	add(projectCode: string, options: AddFbpiOrdersOptions, now: number): FbpiOrder[] {
		if (options === null || typeof options !== 'object')
			throw invalidArgument('addFbpiOrders takes an object');
		const inputs = this.inputsOf(options);
		const start = timeOf(options.createdAt, now, 'createdAt');
		const listedFrom =
			options.listedFrom === undefined ? undefined : timeOf(options.listedFrom, now, 'listedFrom');
		const interval = options.intervalMs ?? 1000;
		if (typeof interval !== 'number' || !Number.isFinite(interval) || interval < 0)
			throw invalidArgument('intervalMs must be a number >= 0');
		const planned = inputs.map((input, i) =>
			this.planOrder(projectCode, options, input, i, start + i * interval, listedFrom),
		);
		const numbers = new Set<string>();
		for (const { order } of planned) {
			const nr = order.fbpi_order_nr;
			if (numbers.has(nr) || this.projects.get(projectCode)?.byNr.has(nr))
				throw new ApiError(
					'ALREADY_EXISTS',
					`FBPI order ${nr} already exists in project ${projectCode}`,
				);
			numbers.add(nr);
		}
		return planned.map(({ order, createdAt, listedFrom }) =>
			structuredClone(this.store(projectCode, order, createdAt, undefined, listedFrom).order),
		);
	}

	private inputsOf(options: AddFbpiOrdersOptions): FbpiOrderInput[] {
		if (options.orders !== undefined) {
			if (!Array.isArray(options.orders)) throw invalidArgument('orders must be a list');
			if (options.orders.length > MAX_ADDED_ORDERS)
				throw invalidArgument(`at most ${MAX_ADDED_ORDERS} orders at a time`);
			return options.orders;
		}
		const count = options.count ?? 1;
		if (!Number.isInteger(count) || count < 1 || count > MAX_ADDED_ORDERS)
			throw invalidArgument(`count must be an integer from 1 to ${MAX_ADDED_ORDERS}`);
		return Array.from({ length: count }, () => ({}));
	}

	private planOrder(
		projectCode: string,
		options: AddFbpiOrdersOptions,
		input: FbpiOrderInput,
		i: number,
		defaultTime: number,
		defaultListedFrom: number | undefined,
	): { order: FbpiOrder; createdAt: number; listedFrom?: number } {
		if (input === null || typeof input !== 'object')
			throw invalidArgument(`orders[${i}] must be an object`);
		const country = input.countryCode ?? options.countryCode ?? 'ae';
		if (!COUNTRIES.includes(country))
			throw invalidArgument(`orders[${i}].countryCode must be ae, sa or eg`);
		const warehouseCode = input.warehouseCode ?? options.warehouseCode ?? SEEDED_WAREHOUSES.dubai;
		if (typeof warehouseCode !== 'string' || warehouseCode === '')
			throw invalidArgument(`orders[${i}].warehouseCode must be a non-empty string`);
		const items = input.items ?? options.items;
		if (items !== undefined && !Array.isArray(items))
			throw invalidArgument(`orders[${i}].items must be a list`);
		items?.forEach((item, j) => checkItemInput(item, `orders[${i}].items[${j}]`));
		const fbpiOrderNr =
			input.fbpiOrderNr ??
			`N${country.toUpperCase()}ORD${String(this.nextGenerated++).padStart(8, '0')}`;
		if (typeof fbpiOrderNr !== 'string' || fbpiOrderNr === '')
			throw invalidArgument(`orders[${i}].fbpiOrderNr must be a non-empty string`);
		const createdAt = timeOf(input.createdAt, defaultTime, `orders[${i}].createdAt`);
		const listedFrom =
			input.listedFrom === undefined
				? defaultListedFrom
				: timeOf(input.listedFrom, 0, `orders[${i}].listedFrom`);
		const order = buildOrder({
			fbpiOrderNr,
			projectCode,
			warehouseCode,
			country,
			createdAt,
			mpCode: input.mpCode,
			items,
		});
		return { order, createdAt, listedFrom };
	}

	/**
	 * One page of ListFbpiOrders: at most 50 orders (the quirk `pageSize`: that many) after the
	 * token's, in the project's list order; a token refused (expired, signed with an earlier key,
	 * for other filters) is INVALID_ARGUMENT.
	 */
	page(
		projectCode: string,
		filters: OrderFilters,
		nextToken: string | undefined,
		now: number,
	): { next_token: string; orders: FbpiOrder[] } {
		const quirks = this.quirks.get(projectCode);
		const { after, before } = this.bounds(projectCode, filters);
		const fingerprint = hashOf(
			JSON.stringify([
				projectCode,
				filters.warehouse_code,
				filters.created_after ?? null,
				filters.created_before ?? null,
			]),
		);
		const order = quirks?.listOrder ?? 'oldest';
		const token =
			nextToken === undefined
				? undefined
				: this.openToken(projectCode, nextToken, { f: fingerprint, m: order }, now);
		const listed: ListedPage =
			token?.e !== undefined
				? { orders: [] }
				: LISTERS[order]({
						list: this.projects.get(projectCode)?.byWarehouse.get(filters.warehouse_code) ?? [],
						after,
						before,
						now,
						pageSize: quirks?.pageSize ?? ORDERS_PAGE_SIZE,
						cursor: token,
						draw: () => this.draw(projectCode),
					});
		const next = listed.next ?? (quirks?.endlessTokens ? { e: ++this.endlessSerial } : undefined);
		return {
			next_token: next
				? this.sealToken(projectCode, { ...next, f: fingerprint, m: order, i: now })
				: '',
			orders: listed.orders.map((stored) => this.answered(projectCode, stored, true)),
		};
	}

	/** The next seed of the project's random stream (restarted by `setQuirks`). */
	private draw(projectCode: string): number {
		const count = (this.draws.get(projectCode) ?? 0) + 1;
		this.draws.set(projectCode, count);
		return mix(this.quirks.get(projectCode)?.seed ?? 0, count);
	}

	private tokenKey(projectCode: string): Buffer {
		let key = this.tokenKeys.get(projectCode);
		if (!key) this.tokenKeys.set(projectCode, (key = randomBytes(32)));
		return key;
	}

	/** The token as text: its JSON, then its signature (22 characters), base64url. */
	private sealToken(projectCode: string, token: PageToken): string {
		const payload = Buffer.from(JSON.stringify(token)).toString('base64url');
		return payload + signatureOf(this.tokenKey(projectCode), payload);
	}

	/** The token's contents, once its signature, age, filters and list order are checked. */
	private openToken(
		projectCode: string,
		text: string,
		expected: Pick<PageToken, 'f' | 'm'>,
		now: number,
	): PageToken {
		const token = decodeToken(text);
		const payload = text.slice(0, -SIGNATURE_LENGTH);
		const lifetime = this.quirks.get(projectCode)?.tokenLifetimeMs;
		if (
			signatureOf(this.tokenKey(projectCode), payload) !== text.slice(-SIGNATURE_LENGTH) ||
			(lifetime !== undefined && now - token.i > lifetime)
		)
			throw invalidArgument(TOKEN_REFUSED);
		if (token.f !== expected.f)
			throw invalidArgument(
				'next_token was issued for other filters: send the filters of the first page with it',
			);
		if (token.m !== expected.m)
			throw invalidArgument(`next_token was issued for another list order (${token.m})`);
		return token;
	}
}

/** Whether ListFbpiOrders shows the order at `now` (not gone, not listed later). */
function visible(stored: StoredOrder, now: number): boolean {
	if (stored.expiresAt !== undefined && now >= stored.expiresAt) return false;
	return stored.listedFrom === undefined || now >= stored.listedFrom;
}

/** The visible orders created within the bounds, in creation order. */
function within(request: PageRequest): StoredOrder[] {
	const { list, after, before, now } = request;
	const orders: StoredOrder[] = [];
	for (let i = firstIndex(list, (o) => o.createdAt >= after); i < list.length; i++) {
		if (list[i].createdAt > before) break;
		if (visible(list[i], now)) orders.push(list[i]);
	}
	return orders;
}

/** The page of each list order. */
const LISTERS: Readonly<Record<ListOrder, (request: PageRequest) => ListedPage>> = {
	oldest: oldestFirst,
	newest: newestFirst,
	shuffled,
	changing,
};

/** Creation order, keyset: the orders after the cursor's (createdAt, seq). */
function oldestFirst(request: PageRequest): ListedPage {
	const { list, after, before, now, pageSize, cursor } = request;
	let index = firstIndex(list, (o) => o.createdAt >= after);
	if (cursor?.t !== undefined) {
		const { t, s = 0 } = cursor;
		index = Math.max(
			index,
			firstIndex(list, (o) => o.createdAt > t || (o.createdAt === t && o.seq > s)),
		);
	}
	const orders: StoredOrder[] = [];
	for (; index < list.length && list[index].createdAt <= before; index++) {
		if (!visible(list[index], now)) continue;
		if (orders.length === pageSize) return { orders, next: lastOf(orders) };
		orders.push(list[index]);
	}
	return { orders };
}

/** The reverse of creation order, keyset: the orders before the cursor's (createdAt, seq). */
function newestFirst(request: PageRequest): ListedPage {
	const { list, after, before, now, pageSize, cursor } = request;
	let index = firstIndex(list, (o) => o.createdAt > before) - 1;
	if (cursor?.t !== undefined) {
		const { t, s = 0 } = cursor;
		index = Math.min(
			index,
			firstIndex(list, (o) => o.createdAt > t || (o.createdAt === t && o.seq >= s)) - 1,
		);
	}
	const orders: StoredOrder[] = [];
	for (; index >= 0 && list[index].createdAt >= after; index--) {
		if (!visible(list[index], now)) continue;
		if (orders.length === pageSize) return { orders, next: lastOf(orders) };
		orders.push(list[index]);
	}
	return { orders };
}

const lastOf = (orders: readonly StoredOrder[]): Cursor => {
	const last = orders[orders.length - 1];
	return { t: last.createdAt, s: last.seq };
};

/**
 * A random order fixed for one listing: by (rank, seq), the rank drawn from the listing's seed
 * (a new one for each listing started without a token); keyset on (rank, seq).
 */
function shuffled(request: PageRequest): ListedPage {
	const { pageSize, cursor } = request;
	const seed = cursor?.r ?? request.draw();
	const ranked = within(request).map((stored) => ({ stored, rank: mix(seed, stored.seq) }));
	const after = ranked.filter(
		({ stored, rank }) =>
			cursor?.t === undefined ||
			rank > cursor.t ||
			(rank === cursor.t && stored.seq > (cursor.s ?? 0)),
	);
	const page = smallest(after, pageSize + 1, byRank);
	if (page.length <= pageSize) return { orders: page.map((entry) => entry.stored) };
	const last = page[pageSize - 1];
	return {
		orders: page.slice(0, pageSize).map((entry) => entry.stored),
		next: { r: seed, t: last.rank, s: last.stored.seq },
	};
}

/** Every page request shuffles the whole list anew; the token keeps how many orders were given. */
function changing(request: PageRequest): ListedPage {
	const { pageSize, cursor } = request;
	const seed = request.draw();
	const ranked = within(request)
		.map((stored) => ({ stored, rank: mix(seed, stored.seq) }))
		.sort(byRank);
	const offset = cursor?.o ?? 0;
	const orders = ranked.slice(offset, offset + pageSize).map((entry) => entry.stored);
	return offset + pageSize < ranked.length
		? { orders, next: { o: offset + pageSize } }
		: { orders };
}

interface Ranked {
	stored: StoredOrder;
	rank: number;
}

const byRank = (a: Ranked, b: Ranked) => a.rank - b.rank || a.stored.seq - b.stored.seq;

/** The `count` smallest entries by `compare`, sorted: one pass, a sorted buffer of `count`. */
function smallest<T>(entries: readonly T[], count: number, compare: (a: T, b: T) => number): T[] {
	const buffer: T[] = [];
	for (const entry of entries) {
		if (buffer.length === count && compare(entry, buffer[count - 1]) >= 0) continue;
		let low = 0;
		let high = buffer.length;
		while (low < high) {
			const mid = (low + high) >>> 1;
			if (compare(buffer[mid], entry) <= 0) low = mid + 1;
			else high = mid;
		}
		buffer.splice(low, 0, entry);
		if (buffer.length > count) buffer.pop();
	}
	return buffer;
}

/** A 32-bit mix of two integers (murmur3's finaliser): the random rank and seed stream. */
function mix(a: number, b: number): number {
	let h = (Math.imul(a | 0, 0x9e3779b1) ^ Math.imul(b | 0, 0x85ebca77)) >>> 0;
	h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
	h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
	return (h ^ (h >>> 16)) >>> 0;
}

/** First index of a sorted list where `test` holds (it holds from there on). */
function firstIndex(list: readonly StoredOrder[], test: (order: StoredOrder) => boolean): number {
	let low = 0;
	let high = list.length;
	while (low < high) {
		const mid = (low + high) >>> 1;
		if (test(list[mid])) high = mid;
		else low = mid + 1;
	}
	return low;
}

/** Characters of a token's signature (16 bytes of HMAC-SHA256, base64url). */
const SIGNATURE_LENGTH = 22;

function signatureOf(key: Buffer, payload: string): string {
	return createHmac('sha256', key).update(payload).digest().subarray(0, 16).toString('base64url');
}

function decodeToken(text: string): PageToken {
	try {
		const token = JSON.parse(
			Buffer.from(text.slice(0, -SIGNATURE_LENGTH), 'base64url').toString('utf8'),
		) as PageToken;
		if (
			text.length > SIGNATURE_LENGTH &&
			typeof token.f === 'number' &&
			LIST_ORDERS.includes(token.m) &&
			Number.isFinite(token.i)
		)
			return token;
	} catch {
		// refused below
	}
	throw invalidArgument('next_token is not a token this service issued');
}
