import { createHash, timingSafeEqual } from 'crypto';
import {
	NodeConnectionTypes,
	type IDataObject,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { NODE_DESCRIPTION } from '../api/constants';
import { deliveries } from '../api/state';
import { deliveryKey, repairRecord } from './deliveries';
import {
	checkExists as registrationExists,
	create as register,
	DELIVERY_HEADER,
	registration,
	release,
	released,
} from './registration';
import { deduplicates } from './parameters';

export { DELIVERY_HEADER };

export const KNOWN_EVENTS = [
	{ name: 'FBPI::ORDER_SYNC (New or Changed FBPI Order)', value: 'FBPI::ORDER_SYNC' },
	{ name: 'FBPO::PO_SYNC (New or Changed Purchase Order)', value: 'FBPO::PO_SYNC' },
	{ name: 'FBPI::ORDER_CREATED (FBPI Order Created)', value: 'FBPI::ORDER_CREATED' },
];

function sameSecret(expected: string, given: unknown): boolean {
	if (typeof given !== 'string') return false;
	const a = createHash('sha256').update(expected).digest();
	const b = createHash('sha256').update(given).digest();
	return timingSafeEqual(a, b);
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
				options: [
					{
						displayName: 'Accept the Previous Secret For (Minutes)',
						name: 'secretGraceMinutes',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: 10,
						description:
							'When the workflow is registered again (publishing a new version, re-activating), its secret header is kept if the re-registration comes within this time, and deliveries sent with the previous secret are accepted for this long',
					},
					{
						displayName: 'Drop Duplicate Deliveries',
						name: 'deduplicate',
						type: 'boolean',
						default: true,
						description:
							'Whether to start nothing for a delivery already received (the service delivers at least once, so the same event can arrive twice). Deliveries are recognised by metadata.message_id, or by their content.',
					},
				],
			},
		],
	};

	// Registration and release of the destination: registration.ts.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await registrationExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await register.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await release.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const current = registration(this);
		const given = (this.getHeaderData() as IDataObject)[DELIVERY_HEADER.toLowerCase()];
		const previous = released(this);
		const authentic =
			current &&
			(sameSecret(current.secret, given) ||
				(previous?.destinationCode === current.destinationCode &&
					sameSecret(previous.secret, given)));
		if (!current || !authentic) {
			this.getResponseObject().status(401).json({ message: 'Unauthorized' });
			return { noWebhookResponse: true };
		}
		repairRecord(current);

		const body = this.getBodyData() as unknown;
		if (!body || typeof body !== 'object' || Array.isArray(body)) {
			this.getResponseObject().status(400).json({ message: 'The delivery must be a JSON object' });
			return { noWebhookResponse: true };
		}
		const delivery = body as IDataObject;
		const eventType = typeof delivery.event_type === 'string' ? delivery.event_type : '';
		if (!current.events.includes(eventType)) {
			return {
				webhookResponse: { received: true, ignored: 'event type not subscribed by this workflow' },
			};
		}

		if (deduplicates(this)) {
			const key = deliveryKey(delivery);
			const scope = `${this.getWorkflow().id ?? ''}\u0000${this.getNode().id ?? this.getNode().name}`;
			// n8n does not save static data that `webhook()` changed when an execution starts, so the
			// process's memory of deliveries (state.ts) is the first line, static data the second.
			if (deliveries.seen(scope, key) || current.seen?.includes(key)) {
				return { webhookResponse: { received: true, ignored: 'duplicate delivery' } };
			}
			// n8n reads the static data from its database for each delivery and saves it after: of
			// concurrent deliveries, the last save wins. So every delivery of this process whose save
			// may still be to come gets every key this process knows: no key is lost to a later save.
			deliveries.remember(scope, key, current);
		}

		// Answering here (rather than letting n8n answer) makes n8n save the static data changed
		// above before the execution starts.
		this.getResponseObject().status(200).json({ received: true });
		return { noWebhookResponse: true, workflowData: [[{ json: delivery }]] };
	}
}
