/**
 * The event webhook endpoints, under the event-notifications prefix the seed gives its
 * destination update (configurable: `prefixes.eventNotifications`, '' for the reference file's
 * bare `/v1/create-webhook`), and the event schemas (their reference gives no prefix). A webhook is a
 * destination of the emulator (state/webhooks.ts).
 */
import type { Endpoint } from '../endpoint';
import { s } from '../schema';
import { destinationUrlProblem, eventTypeProblem, headerProblem } from '../state/destinations';

/** GetEventSchema's answer: the payload of each event type, its fields as the reference gives them. */
export const EVENT_SCHEMAS = {
	fbpi_order_sync: { order_nr: 'string' },
	fbpo_po_sync: { po_nr: 'string' },
} as const;

export const EVENT_WEBHOOK_ENDPOINTS: readonly Endpoint[] = [
	{
		operation: 'CreateWebhook',
		method: 'POST',
		path: '/event-notifications/v1/create-webhook',
		prefix: 'eventNotifications',
		body: {
			url: s.string({ required: true, format: destinationUrlProblem }),
			credentials: s.map(headerProblem, { required: true }),
		},
		handler: ({ state, body, projectCode, now }) => {
			const webhook = state.webhooks.create(projectCode, body.url, body.credentials, now);
			return { body: { webhook_code: webhook.destination_code } };
		},
	},
	{
		operation: 'CreateSubscription',
		method: 'POST',
		path: '/event-notifications/v1/create-subscription',
		prefix: 'eventNotifications',
		body: {
			webhook_code: s.string({ required: true }),
			event_type: s.string({ required: true, format: eventTypeProblem }),
		},
		handler: ({ state, body, projectCode, now }) => {
			const { subscription, destination } = state.webhooks.subscribe(
				projectCode,
				body.webhook_code,
				body.event_type,
				now,
			);
			state.events.emit('destinationUpdated', destination);
			return { body: { subscription_code: subscription.subscription_code } };
		},
	},
	{
		operation: 'AssignDeveloperToWebhook',
		method: 'POST',
		path: '/event-notifications/v1/webhook/assign-developer',
		prefix: 'eventNotifications',
		body: {
			dev_code: s.string({ required: true }),
			webhook_code: s.string({ required: true }),
		},
		handler: ({ state, body, projectCode }) => ({
			body: state.webhooks.assignDeveloper(projectCode, body.webhook_code, body.dev_code),
		}),
	},
	{
		operation: 'GetEventSchema',
		method: 'GET',
		path: '/v1/event-schemas',
		resource: 'event schema',
		answer: () => structuredClone(EVENT_SCHEMAS),
	},
];
