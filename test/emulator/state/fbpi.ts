/**
 * FBPI orders: the seeded ones, generated `FBPI-BULK-<n>`, and sandbox orders created through
 * CreateSandboxOrder (per project, with idempotency and a retention period), plus the warehouses
 * sandbox orders are placed in (ListWarehouses lists them; tests add more with `addWarehouses`).
 * The orders as GetFbpiOrder answers them are in `orders`
 * (state/fbpiOrders.ts): a sandbox order becomes one there too, with the same lifetime.
 */
import { ApiError } from '../errors';
import {
	BULK_FBPI_PATTERN,
	generatedCustomer,
	SEEDED_FBPI_CUSTOMERS,
	SEEDED_WAREHOUSE_TABLE,
	type CustomerDetails,
	type SandboxCountry,
} from '../seed';
import { buildOrder, FbpiOrderStore } from './fbpiOrders';

export type SandboxItemStatus = 'MP_ITEM_STATUS_CONFIRMED' | 'MP_ITEM_STATUS_CANCELLED';

export interface Warehouse {
	warehouse_code: string;
	display_name: string;
	fulfillment_system_code: string;
	is_active: boolean;
	project_code: string;
	country_code: SandboxCountry;
	/** Configured to receive order webhooks: only these accept sandbox orders. */
	receives_order_webhooks: boolean;
}

/** A validated CreateSandboxOrder request, defaults applied (what idempotency compares). */
export interface SandboxOrderRequest {
	warehouse_code: string;
	idempotency_key: string;
	country_code: SandboxCountry;
	/** partner_sku null when the request left it out or empty (the server assigns a dummy). */
	items: Array<{ status: SandboxItemStatus; partner_sku: string | null }>;
}

/** A stored sandbox order, as `sandboxOrderCreated` listeners and `emulator.sandboxOrders()` see it. */
export interface SandboxOrder {
	fbpi_order_nr: string;
	project_code: string;
	warehouse_code: string;
	country_code: SandboxCountry;
	idempotency_key: string;
	/** ISO 8601. */
	created_at: string;
	items: Array<{ item_nr: string; partner_sku: string; status: SandboxItemStatus }>;
	customer: CustomerDetails;
}

interface StoredSandboxOrder {
	order: SandboxOrder;
	request: string;
	createdAt: number;
}

export class FbpiStore {
	/** Warehouses by project, then code. */
	private readonly warehouses = new Map<string, Map<string, Warehouse>>();
	private readonly sandboxOrders = new Map<string, StoredSandboxOrder>();
	/** `<project> <idempotency_key>` → order number. */
	private readonly idempotency = new Map<string, string>();
	private nextOrder = 1;
	/** FBPI orders as GetFbpiOrder and ListFbpiOrders answer them. */
	readonly orders = new FbpiOrderStore();

	constructor(private readonly retentionMs: number) {}

	seedProject(projectCode: string): void {
		const warehouses = new Map<string, Warehouse>();
		for (const seed of SEEDED_WAREHOUSE_TABLE)
			warehouses.set(seed.warehouse_code, { ...seed, project_code: projectCode });
		this.warehouses.set(projectCode, warehouses);
		this.orders.seedProject(projectCode);
	}

	warehouse(projectCode: string, code: string): Warehouse | undefined {
		return this.warehouses.get(projectCode)?.get(code);
	}

	listWarehouses(projectCode: string): Warehouse[] {
		return [...(this.warehouses.get(projectCode)?.values() ?? [])].map((w) => ({ ...w }));
	}

	/**
	 * Adds warehouses to a project (after the ones it has, in ListWarehouses' order); a code it
	 * already has is refused. They take no sandbox orders.
	 */
	addWarehouses(projectCode: string, warehouses: readonly Omit<Warehouse, 'project_code'>[]): void {
		const known = this.warehouses.get(projectCode);
		if (!known) throw new ApiError('NOT_FOUND', `project ${projectCode} not found`);
		for (const warehouse of warehouses) {
			if (known.has(warehouse.warehouse_code)) {
				throw new ApiError(
					'ALREADY_EXISTS',
					`warehouse ${warehouse.warehouse_code} already exists in project ${projectCode}`,
				);
			}
		}
		for (const warehouse of warehouses)
			known.set(warehouse.warehouse_code, { ...warehouse, project_code: projectCode });
	}

	/** Customer details of a seeded, generated or (live, same-project) sandbox order. */
	customerDetails(projectCode: string, orderNr: string, now: number): CustomerDetails | undefined {
		const seeded = SEEDED_FBPI_CUSTOMERS[orderNr];
		if (seeded) return { ...seeded };
		if (BULK_FBPI_PATTERN.test(orderNr)) return generatedCustomer(orderNr, 'ae');
		const sandbox = this.liveOrder(orderNr, now);
		if (sandbox)
			return sandbox.order.project_code === projectCode ? { ...sandbox.order.customer } : undefined;
		// An order added through the control API.
		const order = this.orders.find(projectCode, orderNr, now);
		return order && generatedCustomer(orderNr, order.customer_country_code);
	}

	private liveOrder(orderNr: string, now: number): StoredSandboxOrder | undefined {
		const stored = this.sandboxOrders.get(orderNr);
		if (stored && now - stored.createdAt >= this.retentionMs) {
			this.sandboxOrders.delete(orderNr);
			this.idempotency.delete(`${stored.order.project_code} ${stored.order.idempotency_key}`);
			return undefined;
		}
		return stored;
	}

	/**
	 * Creates the order, or returns the one an earlier identical request with the same
	 * idempotency key created (`created: false`). The same key with another body is a conflict.
	 */
	createSandboxOrder(
		projectCode: string,
		request: SandboxOrderRequest,
		now: number,
	): { order: SandboxOrder; created: boolean } {
		const idempotencyKey = `${projectCode} ${request.idempotency_key}`;
		const canonical = JSON.stringify(request);
		const previousNr = this.idempotency.get(idempotencyKey);
		const previous = previousNr === undefined ? undefined : this.liveOrder(previousNr, now);
		if (previous) {
			if (previous.request !== canonical) {
				throw new ApiError(
					'ALREADY_EXISTS',
					`idempotency_key ${JSON.stringify(request.idempotency_key)} was already used for sandbox order ${previous.order.fbpi_order_nr} with a different request body; use a new idempotency_key`,
				);
			}
			return { order: structuredClone(previous.order), created: false };
		}
		const serial = this.nextOrder++;
		const orderNr = `N${request.country_code.toUpperCase()}SBX${String(serial).padStart(8, '0')}`;
		const order: SandboxOrder = {
			fbpi_order_nr: orderNr,
			project_code: projectCode,
			warehouse_code: request.warehouse_code,
			country_code: request.country_code,
			idempotency_key: request.idempotency_key,
			created_at: new Date(now).toISOString(),
			items: request.items.map((item, i) => ({
				item_nr: `${orderNr}-${i + 1}`,
				partner_sku: item.partner_sku ?? `SANDBOX-DUMMY-SKU-${i + 1}`,
				status: item.status,
			})),
			customer: generatedCustomer(orderNr, request.country_code),
		};
		this.sandboxOrders.set(orderNr, { order, request: canonical, createdAt: now });
		this.orders.addSandboxOrder(
			projectCode,
			buildOrder({
				fbpiOrderNr: orderNr,
				projectCode,
				warehouseCode: order.warehouse_code,
				country: order.country_code,
				createdAt: now,
				items: order.items.map((item) => ({
					mpItemNr: item.item_nr,
					partnerSku: item.partner_sku,
					mpStatus: item.status,
				})),
			}),
			now,
			now + this.retentionMs,
		);
		this.idempotency.set(idempotencyKey, orderNr);
		return { order: structuredClone(order), created: true };
	}

	/** Live sandbox orders, oldest first; of one project when given. */
	list(projectCode: string | undefined, now: number): SandboxOrder[] {
		const orders: SandboxOrder[] = [];
		for (const orderNr of [...this.sandboxOrders.keys()]) {
			const stored = this.liveOrder(orderNr, now);
			if (stored && (projectCode === undefined || stored.order.project_code === projectCode)) {
				orders.push(structuredClone(stored.order));
			}
		}
		return orders;
	}
}
