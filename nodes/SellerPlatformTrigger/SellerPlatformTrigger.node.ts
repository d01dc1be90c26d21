import {
	NodeConnectionTypes,
	type IDataObject,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { NODE_DESCRIPTION } from '../shared';
import { authenticate } from './authentication';
import { deliveryKey, firstDelivery, memoryKey } from './deliveries';
import { DEDUPLICATE_OPTION, deduplicates, SECRET_GRACE_OPTION } from './parameters';
import { DELIVERY_HEADER, destinationWebhookMethods, triggerId } from './registration';

export { DELIVERY_HEADER };

export const KNOWN_EVENTS = [
	{ name: 'FBPI::ORDER_SYNC (New or Changed FBPI Order)', value: 'FBPI::ORDER_SYNC' },
	{ name: 'FBPO::PO_SYNC (New or Changed Purchase Order)', value: 'FBPO::PO_SYNC' },
	{ name: 'FBPI::ORDER_CREATED (FBPI Order Created)', value: 'FBPI::ORDER_CREATED' },
];

/** Answers the delivery at once, starting nothing. */
function refuse(ctx: IWebhookFunctions, status: number, message: string): IWebhookResponseData {
	ctx.getResponseObject().status(status).json({ message });
	return { noWebhookResponse: true };
}

/** The delivery's body, when it is a JSON object. */
function deliveryOf(ctx: IWebhookFunctions): IDataObject | undefined {
	const body = ctx.getBodyData() as unknown;
	return body && typeof body === 'object' && !Array.isArray(body)
		? (body as IDataObject)
		: undefined;
}

export class SellerPlatformTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Seller Platform Trigger',
		name: 'sellerPlatformTrigger',
		icon: {
			light: 'file:../../icons/sellerPlatform.svg',
			dark: 'file:../../icons/sellerPlatform.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["destinationCode"]}}',
		// The node picker's "Seller Platform" entry shows this (see NODE_DESCRIPTION).
		description: NODE_DESCRIPTION,
		defaults: { name: 'Seller Platform Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'sellerPlatformApi', required: true }],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
		properties: [
			{
				displayName:
					"Activating this workflow takes over the destination below: its URL is replaced by this workflow's webhook address and ALL its existing headers are replaced by one secret header of this n8n. Deactivating unsubscribes the chosen events, deactivates the destination and removes that header, unless another workflow has taken the destination since. Use a destination reserved for n8n; while the workflow is active, listen for test events with another destination.",
				name: 'takeoverNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Destination Code',
				name: 'destinationCode',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'e.g. DST-1001',
				description:
					'The destination_code of an existing HTTPS destination of your project that n8n takes over',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: KNOWN_EVENTS,
				default: ['FBPI::ORDER_SYNC'],
				description: 'Event types to subscribe the destination to; only these start the workflow',
			},
			{
				displayName: 'Custom Events',
				name: 'customEvents',
				type: 'string',
				default: '',
				placeholder: 'e.g. FBPI::ORDER_CREATED, CATALOG::IMPORT_COMPLETED',
				description: 'Further event types, comma-separated, each NAMESPACE::EVENT_NAME',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				// Beside the code that reads them: parameters.ts.
				options: [SECRET_GRACE_OPTION, DEDUPLICATE_OPTION],
			},
		],
	};

	// Registration and release of the destination: registration.ts.
	webhookMethods = { default: destinationWebhookMethods };

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const current = authenticate(this);
		if (!current) return refuse(this, 401, 'Unauthorized');

		const delivery = deliveryOf(this);
		if (!delivery) return refuse(this, 400, 'The delivery must be a JSON object');
		const eventType = typeof delivery.event_type === 'string' ? delivery.event_type : '';
		if (!current.events.includes(eventType)) {
			return {
				webhookResponse: { received: true, ignored: 'event type not subscribed by this workflow' },
			};
		}

		if (
			deduplicates(this) &&
			!firstDelivery(memoryKey(triggerId(this), current), deliveryKey(delivery), current)
		) {
			return { webhookResponse: { received: true, ignored: 'duplicate delivery' } };
		}

		// Answering here (rather than letting n8n answer) makes n8n save the static data changed
		// above before the execution starts.
		this.getResponseObject().status(200).json({ received: true });
		return { noWebhookResponse: true, workflowData: [[{ json: delivery }]] };
	}
}
