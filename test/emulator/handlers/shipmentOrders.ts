/**
 * What the shipment handlers need of the FBPI order model: an order's warehouse and items (each
 * with whether it can still be shipped), and setting the items a shipment holds to shipped or
 * cancelled. Interim: over the sandbox orders, until the order model (GetFbpiOrder) is merged.
 */
import type { EmulatorState } from '../state';

export interface OrderItemView {
	mp_item_nr: string;
	partner_sku: string;
	shippable: boolean;
	/** Why it cannot be shipped, when it cannot. */
	state: string;
}

export interface OrderView {
	fbpi_order_nr: string;
	warehouse_code: string;
	items: OrderItemView[];
}

/** Interim item states by `project item`: shipped items (sandbox orders carry no such status). */
const interim = new Map<string, 'shipped' | 'cancelled'>();

export function findOrder(
	state: EmulatorState,
	projectCode: string,
	orderNr: string,
	now: number,
): OrderView | undefined {
	const order = state.fbpi.list(projectCode, now).find((o) => o.fbpi_order_nr === orderNr);
	if (!order) return undefined;
	return {
		fbpi_order_nr: order.fbpi_order_nr,
		warehouse_code: order.warehouse_code,
		items: order.items.map((item) => {
			const mark = interim.get(`${projectCode} ${item.item_nr}`);
			const cancelled = item.status === 'MP_ITEM_STATUS_CANCELLED' || mark === 'cancelled';
			const blocked = cancelled
				? 'it is cancelled'
				: mark === 'shipped'
					? 'it is already shipped'
					: '';
			return {
				mp_item_nr: item.item_nr,
				partner_sku: item.partner_sku,
				shippable: blocked === '',
				state: blocked,
			};
		}),
	};
}

export function markItems(
	_state: EmulatorState,
	projectCode: string,
	_order: OrderView,
	items: ReadonlyArray<{ mp_item_nr: string }>,
	mark: 'shipped' | 'cancelled',
	_now: number,
): void {
	for (const item of items) interim.set(`${projectCode} ${item.mp_item_nr}`, mark);
}
