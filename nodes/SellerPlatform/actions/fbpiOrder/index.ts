import { resource } from '../resource';
import * as createSandbox from './createSandbox.operation';
import * as getCustomerData from './getCustomerData.operation';

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
		getCustomerData: {
			name: 'Get Customer Data',
			action: 'Get the customer of an FBPI order',
			description: 'Get the customer name, city and administrative division of an FBPI order',
			operation: getCustomerData,
		},
	},
});
