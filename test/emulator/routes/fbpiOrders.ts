/** FBPI orders: customer details, and sandbox orders. */
import { ApiError, invalidArgument } from '../errors';
import { SANDBOX_COUNTRIES, type SandboxCountry } from '../seed';
import type { SandboxItemStatus, SandboxOrderRequest } from '../state/fbpi';
import {
	at,
	objectAt,
	optionalArray,
	optionalString,
	requiredString,
	type JsonObject,
} from '../validate';
import type { RouteModule } from './types';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 10;
const ITEM_STATUSES: readonly SandboxItemStatus[] = [
	'MP_ITEM_STATUS_CONFIRMED',
	'MP_ITEM_STATUS_CANCELLED',
];

function parseSandboxOrder(body: JsonObject): SandboxOrderRequest {
	const warehouseCode = requiredString(body, 'warehouse_code');
	const idempotencyKey = requiredString(body, 'idempotency_key');
	if (idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
		throw invalidArgument(
			`idempotency_key must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, got ${idempotencyKey.length}`,
		);
	}
	const rawItems = optionalArray(body, 'items');
	if (!rawItems || rawItems.length === 0)
		throw invalidArgument('items must list at least one item');
	const items = rawItems.map((raw, i) => {
		const item = objectAt(raw, at('items', i));
		const status = optionalString(item, 'status', at('items', i, 'status'));
		if (!ITEM_STATUSES.includes(status as SandboxItemStatus)) {
			throw invalidArgument(
				`${at('items', i, 'status')} must be MP_ITEM_STATUS_CONFIRMED or MP_ITEM_STATUS_CANCELLED, got ${JSON.stringify(status ?? null)}`,
			);
		}
		const partnerSku = optionalString(item, 'partner_sku', at('items', i, 'partner_sku'));
		return { status: status as SandboxItemStatus, partner_sku: partnerSku ? partnerSku : null };
	});
	const countryCode = optionalString(body, 'country_code') || 'ae';
	if (!SANDBOX_COUNTRIES.includes(countryCode as SandboxCountry)) {
		throw invalidArgument(
			`country_code must be one of ${SANDBOX_COUNTRIES.join(', ')}, got ${JSON.stringify(countryCode)}`,
		);
	}
	return {
		warehouse_code: warehouseCode,
		idempotency_key: idempotencyKey,
		country_code: countryCode as SandboxCountry,
		items,
	};
}

export const fbpiOrderRoutes: RouteModule = ({ prefixes }) => [
	{
		operation: 'GetFbpiOrderCustomerData',
		method: 'GET',
		path: '/fbpi/v1/fbpi-order/{fbpi_order_nr}/customer-details/get',
		auth: 'session',
		rateLimited: true,
		handler: ({ state, params, session, now }) => {
			const details = state.fbpi.customerDetails(session!.projectCode, params.fbpi_order_nr, now);
			if (!details)
				throw new ApiError(
					'NOT_FOUND',
					`FBPI order ${JSON.stringify(params.fbpi_order_nr)} not found`,
				);
			return { body: details };
		},
	},
	{
		operation: 'CreateSandboxOrder',
		method: 'POST',
		path: `${prefixes.sandboxOrder}/v1/sandbox-order/create`,
		auth: 'session',
		rateLimited: true,
		handler: ({ state, body, session, now }) => {
			const request = parseSandboxOrder(body);
			const projectCode = session!.projectCode;
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
		},
	},
];
