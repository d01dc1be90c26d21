import { resource } from '../resource';
import { WAREHOUSES } from '../toolDescription';
import * as createSandbox from './createSandbox.operation';
import * as get from './get.operation';
import * as getCustomerData from './getCustomerData.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export const { option, operations, description } = resource({
	value: 'fbpiOrder',
	name: 'FBPI Order',
	default: 'getCustomerData',
	operations: {
		createSandbox: {
			name: 'Create Sandbox Order',
			action: 'Create a sandbox FBPI order',
			description:
				'Create a test order in a sandbox warehouse; it is never fulfilled and triggers the order-creation webhook',
			operation: createSandbox,
		},
		get: {
			name: 'Get',
			action: 'Get an FBPI order',
			description: 'Get an FBPI order with its items, their statuses and prices',
			tool: 'Gets one FBPI order by its fbpi_order_nr (as FBPI Order → Get Many, the tool that gets many FBPI orders, lists it): mp_order_nr, mp_country_code, warehouse_code, order_created_at and its items with mp_item_nr, partner_sku, mp_status and integration_status.',
			operation: get,
		},
		getCustomerData: {
			name: 'Get Customer Data',
			action: 'Get the customer of an FBPI order',
			description: 'Get the customer name, city and administrative division of an FBPI order',
			operation: getCustomerData,
		},
		getMany: {
			name: 'Get Many',
			action: 'Get many FBPI orders',
			description:
				'List the FBPI orders of a warehouse, optionally created within a time range, one item per order',
			tool: `Lists the FBPI orders of one warehouse, oldest first: for each, fbpi_order_nr, mp_order_nr, mp_country_code, warehouse_code, order_created_at and items (mp_item_nr, partner_sku, mp_status, integration_status). Takes a warehouse_code exactly as ${WAREHOUSES} lists it (upper and lower case as listed): a code that is not listed there is refused.`,
			operation: getMany,
		},
		update: {
			name: 'Update',
			action: 'Mark items of an FBPI order out of stock',
			description:
				'Mark items of an FBPI order out of stock before the shipment, so the marketplace cancels them',
			operation: update,
		},
	},
});
