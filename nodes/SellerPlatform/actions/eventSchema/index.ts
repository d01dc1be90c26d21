import { resource } from '../resource';
import * as get from './get.operation';

export const { option, operations, description } = resource({
	value: 'eventSchema',
	name: 'Event Schema',
	operations: {
		get: {
			name: 'Get',
			action: 'Get the event schemas',
			description:
				'Get what the payload of each event type holds (FBPI::ORDER_SYNC, FBPO::PO_SYNC)',
			operation: get,
		},
	},
});
