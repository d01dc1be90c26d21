/**
 * FBPI shipments: CreateShipment (the order must be in the warehouse, the items its own and still
 * to ship; a taken integration_shipment_nr is ALREADY_EXISTS, checked first, so a repeated create
 * is told apart from a bad one), GetShipment, CancelShipment (the items cancelled with it),
 * AddShipmentCourierAwbs, and GetNoonLogisticsAWBs. The field rules are in the endpoint table.
 */
import type { ApiResult, EndpointContext } from '../endpoint';
import { ApiError, invalidArgument } from '../errors';
import type { SandboxCountry } from '../seed';
import type { EmulatorState } from '../state';
import type { Shipment, ShipmentAwb } from '../state/shipments';
import { findOrder, markItems, type OrderView } from './shipmentOrders';

/** GetNoonLogisticsAWBs: at most this many numbers per request (the reference's cap). */
export const MAX_AWBS_PER_REQUEST = 1000;

export interface ShipmentKeyBody {
	warehouse_code: string;
	integration_shipment_nr: string;
}

export interface CreateShipmentBody extends ShipmentKeyBody {
	fbpi_order_nr: string;
	awbs: ShipmentAwb[];
	items: Array<{ mp_item_nr: string }>;
}

export interface AddAwbsBody extends ShipmentKeyBody {
	awbs: ShipmentAwb[];
}

const q = (value: string) => JSON.stringify(value);

function requireWarehouse(state: EmulatorState, projectCode: string, code: string): void {
	if (!state.fbpi.warehouse(projectCode, code)) {
		throw new ApiError(
			'NOT_FOUND',
			`warehouse_code ${q(code)} not found in project ${projectCode}`,
		);
	}
}

function requireShipment(
	state: EmulatorState,
	projectCode: string,
	body: ShipmentKeyBody,
): Shipment {
	requireWarehouse(state, projectCode, body.warehouse_code);
	const shipment = state.shipments.find(
		projectCode,
		body.warehouse_code,
		body.integration_shipment_nr,
	);
	if (!shipment) {
		throw new ApiError(
			'NOT_FOUND',
			`shipment ${q(body.integration_shipment_nr)} not found in warehouse ${body.warehouse_code}`,
		);
	}
	return shipment;
}

/** Refuses a list that names one AWB (courier and number) twice. */
function checkDistinctAwbs(awbs: ShipmentAwb[]): void {
	const seen = new Set<string>();
	awbs.forEach((awb, i) => {
		const key = JSON.stringify([awb.courier, awb.awb_nr]);
		if (seen.has(key))
			throw invalidArgument(`awbs[${i}] repeats the AWB ${q(awb.awb_nr)} of ${q(awb.courier)}`);
		seen.add(key);
	});
}

/** The order's items the request names: each its own, once, and still to ship. */
function itemsToShip(order: OrderView, body: CreateShipmentBody) {
	const seen = new Set<string>();
	return body.items.map(({ mp_item_nr }, i) => {
		if (seen.has(mp_item_nr))
			throw invalidArgument(`items[${i}].mp_item_nr repeats ${q(mp_item_nr)}`);
		seen.add(mp_item_nr);
		const item = order.items.find((entry) => entry.mp_item_nr === mp_item_nr);
		if (!item) {
			throw invalidArgument(
				`items[${i}].mp_item_nr ${q(mp_item_nr)} is not an item of order ${order.fbpi_order_nr}`,
			);
		}
		const blocked = item.shippable ? undefined : item.state;
		if (blocked) {
			throw new ApiError(
				'FAILED_PRECONDITION',
				`item ${mp_item_nr} of order ${order.fbpi_order_nr} cannot be shipped: ${blocked}`,
			);
		}
		return { mp_item_nr, partner_sku: item.partner_sku };
	});
}

export function createShipment({
	state,
	body,
	projectCode,
	now,
}: EndpointContext<CreateShipmentBody>): ApiResult {
	requireWarehouse(state, projectCode, body.warehouse_code);
	const taken = state.shipments.find(
		projectCode,
		body.warehouse_code,
		body.integration_shipment_nr,
	);
	if (taken) {
		throw new ApiError(
			'ALREADY_EXISTS',
			`integration_shipment_nr ${q(body.integration_shipment_nr)} already exists in warehouse ${body.warehouse_code}`,
		);
	}
	const order = findOrder(state, projectCode, body.fbpi_order_nr, now);
	if (!order || order.warehouse_code !== body.warehouse_code) {
		throw new ApiError(
			'NOT_FOUND',
			`FBPI order ${q(body.fbpi_order_nr)} not found in warehouse ${body.warehouse_code}`,
		);
	}
	checkDistinctAwbs(body.awbs);
	const items = itemsToShip(order, body);
	state.shipments.add({
		project_code: projectCode,
		warehouse_code: body.warehouse_code,
		integration_shipment_nr: body.integration_shipment_nr,
		fbpi_order_nr: body.fbpi_order_nr,
		awbs: body.awbs.map(({ courier, awb_nr }) => ({ courier, awb_nr })),
		items,
		status: 'CREATED',
		created_at: new Date(now).toISOString(),
	});
	markItems(state, projectCode, order, items, 'shipped', now);
	return { body: {} };
}

/** GetShipment's answer: the order, the AWBs and the items (the reference's three fields). */
export function shipmentView({ state, body, projectCode }: EndpointContext<ShipmentKeyBody>) {
	const shipment = requireShipment(state, projectCode, body);
	return {
		fbpi_order_nr: shipment.fbpi_order_nr,
		awbs: shipment.awbs.map((awb) => ({ ...awb })),
		items: shipment.items.map((item) => ({ ...item })),
	};
}

/** Cancels the shipment and its items; cancelling a cancelled shipment changes nothing. */
export function cancelShipment(ctx: EndpointContext<ShipmentKeyBody>): ApiResult {
	const { state, body, projectCode, now } = ctx;
	const shipment = requireShipment(state, projectCode, body);
	if (shipment.status === 'CANCELLED') return { body: {} };
	shipment.status = 'CANCELLED';
	shipment.cancelled_at = new Date(now).toISOString();
	const order = findOrder(state, projectCode, shipment.fbpi_order_nr, now);
	if (order) markItems(state, projectCode, order, shipment.items, 'cancelled', now);
	return { body: {} };
}

/** Adds AWBs to a live shipment; one it already has is not added twice. */
export function addShipmentCourierAwbs(ctx: EndpointContext<AddAwbsBody>): ApiResult {
	const { state, body, projectCode } = ctx;
	const shipment = requireShipment(state, projectCode, body);
	if (shipment.status === 'CANCELLED') {
		throw new ApiError(
			'FAILED_PRECONDITION',
			`shipment ${q(body.integration_shipment_nr)} is cancelled: no AWB can be added`,
		);
	}
	checkDistinctAwbs(body.awbs);
	for (const { courier, awb_nr } of body.awbs) {
		const known = shipment.awbs.some((awb) => awb.courier === courier && awb.awb_nr === awb_nr);
		if (!known) shipment.awbs.push({ courier, awb_nr });
	}
	return { body: {} };
}

export function getNoonLogisticsAwbs({
	state,
	body,
	projectCode,
	now,
}: EndpointContext<{ country_code: SandboxCountry; qty: number }>): ApiResult {
	return {
		body: { awb_nrs: state.shipments.generate(projectCode, body.country_code, body.qty, now) },
	};
}
