/**
 * The Integration Shipment Number is the seller's key of a shipment. A create is never repeated
 * by the node (a lost answer may hide a shipment that was made); when the service refuses a
 * number because a shipment already has it, that shipment is read (GetShipment) and returned,
 * flagged `alreadyExisted`, only when it is this very shipment: the same order, the same items and
 * the same AWBs (each compared as a set), and not cancelled. Otherwise the item fails naming the
 * number and what differs. So a re-run after any failure creates a shipment at most once and never
 * fails confusingly.
 *
 * GetShipment's answer has no status (the reference gives it the order, the AWBs and the items
 * only). The reference says that CancelShipment cancels every item of the shipment: so a shipment
 * is cancelled when each of its items is cancelled in its order (GetFbpiOrder, mp_status
 * CANCELLED). Its number stays taken, and nothing will be shipped under it: the item fails. When
 * that order cannot be read, the item fails too, saying that the shipment matches but its state
 * is not known (never a bare error of the read).
 */
import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';

import { apiRequest } from '../../../shared';
import { asNodeError } from '../runner';
import type { CourierAwb, ShipmentKey } from './shipment';

export interface ShipmentRequest extends ShipmentKey, IDataObject {
	fbpi_order_nr: string;
	awbs: CourierAwb[];
	items: Array<{ mp_item_nr: string }>;
}

/** The service refused the shipment number because a shipment already has it. */
export function numberTaken(error: unknown): boolean {
	const { httpCode, context } = error as NodeApiError;
	return context?.statusCode === 'ALREADY_EXISTS' || httpCode === '409';
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const listed = (values: string[]) => (values.length ? values.join(', ') : 'none');

/** `what` of the existing shipment against this request's, as sets: empty when they match. */
function setDifference(what: string, existing: string[], wanted: string[]): string[] {
	const have = new Set(existing);
	const want = new Set(wanted);
	const extra = [...have].filter((value) => !want.has(value));
	const missing = [...want].filter((value) => !have.has(value));
	if (!extra.length && !missing.length) return [];
	return [
		`${what} ${listed([...have])} instead of ${listed([...want])} (not in this request: ${listed(extra)}; only in this request: ${listed(missing)})`,
	];
}

const awbText = (awb: unknown) => {
	const { courier, awb_nr } = (awb ?? {}) as IDataObject;
	return `${text(awb_nr)} (${text(courier)})`;
};
const itemText = (item: unknown) => text(((item ?? {}) as IDataObject).mp_item_nr);
const entries = (value: unknown) => (Array.isArray(value) ? (value as unknown[]) : []);

/** How the existing shipment differs from this request; empty when it is this very shipment. */
export function differences(request: ShipmentRequest, existing: IDataObject): string[] {
	const found: string[] = [];
	const order = text(existing.fbpi_order_nr);
	if (order !== request.fbpi_order_nr) {
		found.push(`order ${order || '(none)'} instead of ${request.fbpi_order_nr}`);
	}
	found.push(
		...setDifference(
			'items',
			entries(existing.items).map(itemText),
			request.items.map((item) => item.mp_item_nr),
		),
		...setDifference('AWBs', entries(existing.awbs).map(awbText), request.awbs.map(awbText)),
	);
	return found;
}

const CANCELLED = 'MP_ITEM_STATUS_CANCELLED';

/**
 * The shipment's items as its order lists them, when every one is cancelled (the shipment was
 * cancelled: CancelShipment cancels its items); otherwise none.
 */
async function cancelledItems(
	ctx: IExecuteFunctions,
	request: ShipmentRequest,
	itemIndex: number,
): Promise<IDataObject[]> {
	let order: IDataObject;
	try {
		order = await apiRequest.call(ctx, 'GetFbpiOrder', {
			pathParams: { fbpi_order_nr: request.fbpi_order_nr },
			itemIndex,
		});
	} catch (error) {
		throw unknownStateError(asNodeError(ctx, error, itemIndex), request);
	}
	const wanted = new Set(request.items.map((item) => item.mp_item_nr));
	const items = entries(order.items).filter((item) => wanted.has(itemText(item))) as IDataObject[];
	const allCancelled =
		items.length === wanted.size && items.every((i) => i.mp_status === CANCELLED);
	return allCancelled ? items : [];
}

/** The refusal, kept (message, HTTP code, status_code), with `note` and the shipment named. */
function keptRefusal(refused: NodeApiError, request: ShipmentRequest, note: string) {
	const { integration_shipment_nr, warehouse_code } = request;
	refused.description = refused.description ? `${note}\n\n${refused.description}` : note;
	Object.assign(refused.context, { existingShipment: { warehouse_code, integration_shipment_nr } });
	return refused;
}

const numberNamed = (request: ShipmentRequest) =>
	`shipment number ${request.integration_shipment_nr} (warehouse ${request.warehouse_code})`;

/**
 * The failed read of the order (its message, HTTP code and status_code kept), saying that a
 * shipment like this one holds the number but whether it was cancelled is not known.
 */
function unknownStateError(failed: Error, request: ShipmentRequest) {
	const named = numberNamed(request);
	failed.message = `${failed.message}: the shipment with ${named} matches this one, but whether it was cancelled could not be read (GetFbpiOrder)`;
	const note = `The ${named} is already used by a shipment with this order, items and AWBs (made by an earlier run whose answer was lost, or cancelled since). Reading order ${request.fbpi_order_nr} to tell failed, so this item is not reported as alreadyExisted. Nothing was created. Run again to check; to see the shipment, use FBPI Shipment → Get.`;
	const withNote = failed as NodeApiError;
	withNote.description = withNote.description ? `${note}\n\n${withNote.description}` : note;
	const { integration_shipment_nr, warehouse_code } = request;
	if (withNote.context)
		Object.assign(withNote.context, {
			existingShipment: { warehouse_code, integration_shipment_nr },
		});
	return failed;
}

/** The refusal naming the number and what differs. */
function takenError(refused: NodeApiError, request: ShipmentRequest, found: string[]) {
	const named = numberNamed(request);
	if (!refused.message.includes(request.integration_shipment_nr))
		refused.message = `${refused.message}: ${named}`;
	const note = `The ${named} is already used by another shipment, which differs from this one: ${found.join('; ')}. Nothing was created. Use a new Integration Shipment Number for a new shipment; to see the existing one, use FBPI Shipment → Get.`;
	Object.assign(refused.context, { differences: found });
	return keptRefusal(refused, request, note);
}

/** The refusal saying that the shipment with this number was cancelled. */
function cancelledError(refused: NodeApiError, request: ShipmentRequest, items: IDataObject[]) {
	const named = numberNamed(request);
	const reasons = [...new Set(items.map((item) => text(item.cancellation_reason_code)))];
	const reason = reasons.filter(Boolean).length ? `, reason ${listed(reasons)}` : '';
	refused.message = refused.message.includes(request.integration_shipment_nr)
		? `${refused.message}: the shipment with this number was cancelled`
		: `${refused.message}: the shipment with ${named} was cancelled`;
	const note = `The ${named} belongs to a shipment that was cancelled (its items ${listed(items.map(itemText))} are cancelled in order ${request.fbpi_order_nr}${reason}). Nothing was created, and nothing will be shipped under this number: a cancelled shipment keeps its number, so a new shipment needs a new Integration Shipment Number (and items of the order that are not cancelled: see FBPI Order → Get).`;
	Object.assign(refused.context, { cancelledShipment: true });
	return keptRefusal(refused, request, note);
}

/**
 * After the service refused `request`: the shipment that holds its number, when it is this very
 * shipment and not cancelled; otherwise the refusal, naming it. A refusal of another kind, or a
 * number that no shipment can be found under, is rethrown as it came.
 */
export async function findExistingShipment(
	ctx: IExecuteFunctions,
	request: ShipmentRequest,
	refused: unknown,
	itemIndex: number,
): Promise<IDataObject> {
	if (!numberTaken(refused)) throw refused;
	const { warehouse_code, integration_shipment_nr } = request;
	let existing: IDataObject;
	try {
		existing = await apiRequest.call(ctx, 'GetShipment', {
			body: { warehouse_code, integration_shipment_nr },
			itemIndex,
		});
	} catch (error) {
		// No shipment has the number after all: the refusal was about something else.
		if ((error as NodeApiError).httpCode === '404') throw refused;
		throw asNodeError(ctx, error, itemIndex);
	}
	const found = differences(request, existing);
	if (found.length) throw takenError(refused as NodeApiError, request, found);
	const cancelled = await cancelledItems(ctx, request, itemIndex);
	if (cancelled.length) throw cancelledError(refused as NodeApiError, request, cancelled);
	return { warehouse_code, integration_shipment_nr, ...existing, alreadyExisted: true };
}
