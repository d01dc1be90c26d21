/**
 * CreateSandboxOrder: the warehouse must exist and take order webhooks; idempotent by key.
 * ListFbpiOrders and UpdateOrder: the store (state/fbpiOrders.ts) pages and changes the orders.
 */
import type { ApiResult, EndpointContext } from '../endpoint';
import { ApiError } from '../errors';
import type { Format } from '../schema';
import type { SandboxCountry } from '../seed';
import type { SandboxItemStatus, SandboxOrderRequest } from '../state/fbpi';
import { parseUtcTimestamp, type OrderFilters } from '../state/fbpiOrders';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 10;
export const ITEM_STATUSES: readonly SandboxItemStatus[] = [
	'MP_ITEM_STATUS_CONFIRMED',
	'MP_ITEM_STATUS_CANCELLED',
];

export interface SandboxOrderBody {
	warehouse_code: string;
	idempotency_key: string;
	items: Array<{ status: SandboxItemStatus; partner_sku?: string }>;
	country_code?: SandboxCountry;
}

export function createSandboxOrder({
	state,
	body,
	projectCode,
	now,
}: EndpointContext<SandboxOrderBody>): ApiResult {
	// Key order matters: idempotency compares this request's JSON with the first one's.
	const request: SandboxOrderRequest = {
		warehouse_code: body.warehouse_code,
		idempotency_key: body.idempotency_key,
		country_code: body.country_code ?? 'ae',
		items: body.items.map((item) => ({
			status: item.status,
			partner_sku: item.partner_sku ?? null,
		})),
	};
	const warehouse = state.fbpi.warehouse(projectCode, request.warehouse_code);
	if (!warehouse) {
		throw new ApiError(
			'NOT_FOUND',
			`warehouse_code ${JSON.stringify(request.warehouse_code)} not found in project ${projectCode}`,
		);
	}
	if (!warehouse.receives_order_webhooks) {
		throw new ApiError(
			'FAILED_PRECONDITION',
			`warehouse ${request.warehouse_code} is not configured to receive order webhooks; sandbox orders need such a warehouse`,
		);
	}
	const { order, created } = state.fbpi.createSandboxOrder(projectCode, request, now);
	if (created) state.events.emit('sandboxOrderCreated', order);
	return { body: { fbpi_order_nr: order.fbpi_order_nr } };
}

// --- ListFbpiOrders, UpdateOrder ---------------------------------------------------------------

/** `created_after` / `created_before` of ListFbpiOrders: `YYYY-MM-DDTHH:MM:SSZ` (fractions allowed). */
export const utcTimestampProblem: Format<string> = (value, path) => {
	const parsed = parseUtcTimestamp(value, path);
	return typeof parsed === 'string' ? parsed : null;
};

export const UPDATE_ITEM_STATUS_OUT_OF_STOCK = 'UPDATE_ORDER_REQUEST_ITEM_STATUS_OUT_OF_STOCK';

export function listFbpiOrders({
	state,
	body,
	query,
	projectCode,
	now,
}: EndpointContext<OrderFilters>): ApiResult {
	return { body: state.fbpi.orders.page(projectCode, body, query.next_token, now) };
}

export interface UpdateOrderBody {
	fbpi_order_nr: string;
	items: Array<{ mp_item_nr: string; status: typeof UPDATE_ITEM_STATUS_OUT_OF_STOCK }>;
}

/** Marks the listed items out of stock (all or none); the others keep their status. */
export function updateOrder({
	state,
	body,
	projectCode,
	now,
}: EndpointContext<UpdateOrderBody>): ApiResult {
	state.fbpi.orders.setItemsIntegrationStatus(
		projectCode,
		body.fbpi_order_nr,
		body.items.map((item) => item.mp_item_nr),
		'INTEGRATION_ITEM_STATUS_OUT_OF_STOCK',
		now,
	);
	return { body: {} };
}
