/** CreateSandboxOrder: the warehouse must exist and take order webhooks; idempotent by key. */
import type { ApiResult, EndpointContext } from '../endpoint';
import { ApiError } from '../errors';
import type { SandboxCountry } from '../seed';
import type { SandboxItemStatus, SandboxOrderRequest } from '../state/fbpi';

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
