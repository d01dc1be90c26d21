import { resource } from '../resource';
import * as update from './update.operation';

export const { option, operations, description } = resource({
	value: 'destination',
	name: 'Destination',
	operations: {
		update: {
			name: 'Update',
			action: 'Update an event destination',
			description:
				'Change an HTTPS destination for event notifications: its address, headers, state and event subscriptions',
			operation: update,
		},
	},
});
