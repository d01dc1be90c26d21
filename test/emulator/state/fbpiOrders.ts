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
 * keyset tokens: a token names the last order of its page and the filters it was issued for.
 *
 * Quirks of a real service a test can switch on per project (`setQuirks`, `FbpiOrderQuirks`):
 * filters shifted or ignored, times without a zone, list entries without items, and orders
 * listed although GetFbpiOrder does not find them yet (`read` answers GetFbpiOrder).
 */
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
	orders?: FbpiOrderInput[];
}

/** ListFbpiOrders' filters, checked. */
export interface OrderFilters {
	warehouse_code: string;
	created_after?: string;
	created_before?: string;
}

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
}

/** The quirks checked (INVALID_ARGUMENT naming the field), without `projectCode`. */
export function checkQuirks(quirks: FbpiOrderQuirks): Omit<FbpiOrderQuirks, 'projectCode'> {
	if (quirks === null || typeof quirks !== 'object' || Array.isArray(quirks))
		throw invalidArgument('the FBPI order quirks must be an object or null');
	const { unreadable, filterShiftMs, pageSize, ...flags } = quirks;
	delete flags.projectCode;
	for (const [key, value] of Object.entries(flags)) {
		if (!['ignoreFilters', 'zonelessTimes', 'listWithoutItems'].includes(key))
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
	return { ...flags, filterShiftMs, pageSize, unreadable: unreadable && [...unreadable] };
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

interface PageToken {
	/** Fingerprint of the filters (and project) the token was issued for. */
	f: number;
	/** Last order of the page: createdAt, seq. */
	t: number;
	s: number;
}

export class FbpiOrderStore {
	private readonly projects = new Map<string, ProjectOrders>();
	private readonly quirks = new Map<string, Omit<FbpiOrderQuirks, 'projectCode'>>();
	private nextGenerated = 1;

	/** The project's quirks from now on (checked); null: none. */
	setQuirks(projectCode: string, quirks: FbpiOrderQuirks | null): void {
		if (quirks === null) this.quirks.delete(projectCode);
		else this.quirks.set(projectCode, checkQuirks(quirks));
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
	): StoredOrder {
		const project = this.projectOrders(projectCode);
		const stored: StoredOrder = {
			order,
			createdAt,
			seq: project.nextSeq++,
			expiresAt,
			listed: true,
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
		const interval = options.intervalMs ?? 1000;
		if (typeof interval !== 'number' || !Number.isFinite(interval) || interval < 0)
			throw invalidArgument('intervalMs must be a number >= 0');
		const planned = inputs.map((input, i) =>
			this.planOrder(projectCode, options, input, i, start + i * interval),
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
		return planned.map(({ order, createdAt }) =>
			structuredClone(this.store(projectCode, order, createdAt).order),
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
	): { order: FbpiOrder; createdAt: number } {
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
		const order = buildOrder({
			fbpiOrderNr,
			projectCode,
			warehouseCode,
			country,
			createdAt,
			mpCode: input.mpCode,
			items,
		});
		return { order, createdAt };
	}

	/**
	 * One page of ListFbpiOrders: at most 50 orders (the quirk `pageSize`: that many) after the
	 * token's, in creation order.
	 */
	page(
		projectCode: string,
		filters: OrderFilters,
		nextToken: string | undefined,
		now: number,
	): { next_token: string; orders: FbpiOrder[] } {
		const { after, before } = this.bounds(projectCode, filters);
		const fingerprint = hashOf(
			JSON.stringify([
				projectCode,
				filters.warehouse_code,
				filters.created_after ?? null,
				filters.created_before ?? null,
			]),
		);
		const list = this.projects.get(projectCode)?.byWarehouse.get(filters.warehouse_code) ?? [];
		let index = firstIndex(list, (o) => o.createdAt >= after);
		if (nextToken !== undefined) {
			const token = decodeToken(nextToken);
			if (token.f !== fingerprint)
				throw invalidArgument(
					'next_token was issued for other filters: send the filters of the first page with it',
				);
			index = Math.max(
				index,
				firstIndex(
					list,
					(o) => o.createdAt > token.t || (o.createdAt === token.t && o.seq > token.s),
				),
			);
		}
		const pageSize = this.quirks.get(projectCode)?.pageSize ?? ORDERS_PAGE_SIZE;
		const orders: StoredOrder[] = [];
		let more = false;
		for (; index < list.length && list[index].createdAt <= before; index++) {
			const stored = list[index];
			if (stored.expiresAt !== undefined && now >= stored.expiresAt) continue;
			if (orders.length === pageSize) {
				more = true;
				break;
			}
			orders.push(stored);
		}
		const last = orders[orders.length - 1];
		return {
			next_token: more ? encodeToken({ f: fingerprint, t: last.createdAt, s: last.seq }) : '',
			orders: orders.map((stored) => this.answered(projectCode, stored, true)),
		};
	}
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

function encodeToken(token: PageToken): string {
	return Buffer.from(JSON.stringify(token)).toString('base64url');
}

function decodeToken(text: string): PageToken {
	try {
		const token = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as PageToken;
		if ([token.f, token.t, token.s].every((n) => typeof n === 'number' && Number.isFinite(n)))
			return token;
	} catch {
		// refused below
	}
	throw invalidArgument('next_token is not a token this service issued');
}
