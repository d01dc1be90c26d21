/**
 * What the shipment handlers need of the FBPI orders (state/fbpiOrders.ts): an order's warehouse
 * and items, each with whether it can still be shipped, and the items of a shipment marked
 * shipped (integration status SHIPPED) or cancelled with it (mp_status CANCELLED).
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

/** The reason code a cancelled shipment's items get. */
export const SHIPMENT_CANCELLED_REASON = 'SHIPMENT_CANCELLED';

export function findOrder(
	state: EmulatorState,
	projectCode: string,
	orderNr: string,
	now: number,
): OrderView | undefined {
	const order = state.fbpi.orders.find(projectCode, orderNr, now);
	if (!order) return undefined;
	return {
		fbpi_order_nr: order.fbpi_order_nr,
		warehouse_code: order.warehouse_code,
		items: order.items.map((item) => {
			const blocked =
				item.mp_status === 'MP_ITEM_STATUS_CANCELLED'
					? 'it is cancelled'
					: item.integration_status === 'INTEGRATION_ITEM_STATUS_OUT_OF_STOCK'
						? 'it is marked out of stock'
						: item.integration_status === 'INTEGRATION_ITEM_STATUS_SHIPPED'
							? 'it is already shipped'
							: '';
			return {
				mp_item_nr: item.mp_item_nr,
				partner_sku: item.partner_sku,
				shippable: blocked === '',
				state: blocked,
			};
		}),
	};
}

export function markItems(
	state: EmulatorState,
	projectCode: string,
	order: OrderView,
	items: ReadonlyArray<{ mp_item_nr: string }>,
	mark: 'shipped' | 'cancelled',
	now: number,
): void {
	const numbers = items.map((item) => item.mp_item_nr);
	const orderNr = order.fbpi_order_nr;
	if (mark === 'shipped') {
		state.fbpi.orders.setItemsIntegrationStatus(
			projectCode,
			orderNr,
			numbers,
			'INTEGRATION_ITEM_STATUS_SHIPPED',
			now,
		);
	} else {
		state.fbpi.orders.cancelItems(projectCode, orderNr, numbers, SHIPMENT_CANCELLED_REASON, now);
	}
}
