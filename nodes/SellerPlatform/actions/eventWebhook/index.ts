import { resource } from '../resource';
import * as assignDeveloper from './assignDeveloper.operation';
import * as create from './create.operation';
import * as subscribe from './subscribe.operation';

export const { option, operations, description } = resource({
	value: 'eventWebhook',
	name: 'Event Webhook',
	default: 'create',
	operations: {
		assignDeveloper: {
			name: 'Assign Developer',
			action: 'Assign a developer to a webhook',
			description: 'Link a webhook to a developer you have authorised',
			operation: assignDeveloper,
		},
		create: {
			name: 'Create',
			action: 'Create an event webhook',
			description:
				'Create a webhook: the HTTPS address events are delivered to, with the headers sent along (never repeated automatically)',
			operation: create,
		},
		subscribe: {
			name: 'Subscribe',
			action: 'Subscribe a webhook to an event type',
			description: 'Deliver the events of one type to a webhook',
			operation: subscribe,
		},
	},
});
