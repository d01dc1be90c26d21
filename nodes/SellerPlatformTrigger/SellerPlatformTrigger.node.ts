import { createHash, randomBytes, timingSafeEqual } from 'crypto';
import {
	NodeApiError,
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
	type JsonObject,
} from 'n8n-workflow';

import { EVENT_TYPE_PATTERN } from '../api/constants';
import { apiRequest } from '../api/request';
import { deliveries, rememberKey } from '../api/state';

/** Header that carries the secret of this n8n on every delivery. */
export const DELIVERY_HEADER = 'X-N8n-Seller-Platform-Secret';

export const KNOWN_EVENTS = [
	{ name: 'FBPI::ORDER_SYNC (New or Changed FBPI Order)', value: 'FBPI::ORDER_SYNC' },
	{ name: 'FBPO::PO_SYNC (New or Changed Purchase Order)', value: 'FBPO::PO_SYNC' },
	{ name: 'FBPI::ORDER_CREATED (FBPI Order Created)', value: 'FBPI::ORDER_CREATED' },
];

/** What an activation registered, kept in the node's static data. */
interface Registration {
	destinationCode: string;
	webhookUrl: string;
	events: string[];
	secret: string;
	seen?: string[];
}

function registration(ctx: IHookFunctions | IWebhookFunctions): Registration | undefined {
	const data = ctx.getWorkflowStaticData('node') as IDataObject;
	const value = data.registration as Registration | undefined;
	return value && typeof value.secret === 'string' && value.secret ? value : undefined;
}

/** The chosen event types plus the custom ones, each NAMESPACE::EVENT_NAME, sorted, unique. */
function chosenEvents(ctx: IHookFunctions): string[] {
	const events = (ctx.getNodeParameter('events', []) as string[]).map((e) => e.trim());
	const custom = String(ctx.getNodeParameter('customEvents', '') ?? '')
		.split(/[\s,]+/)
		.map((e) => e.trim())
		.filter(Boolean);
	const all = [...new Set([...events, ...custom])].sort();
	const wrong = all.find((event) => !EVENT_TYPE_PATTERN.test(event));
	if (wrong !== undefined) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The event type "${wrong}" must have the form NAMESPACE::EVENT_NAME, e.g. FBPI::ORDER_SYNC`,
		);
	}
	if (!all.length) {
		throw new NodeOperationError(
			ctx.getNode(),
			'Choose at least one event type in "Events" or "Custom Events"',
		);
	}
	return all;
}

function destinationCode(ctx: IHookFunctions): string {
	const code = String(ctx.getNodeParameter('destinationCode', '') ?? '').trim();
	if (!code) {
		throw new NodeOperationError(
			ctx.getNode(),
			'The parameter "Destination Code" (destinationCode) must not be empty',
		);
	}
	return code;
}

/** n8n serves test webhooks ("listen for test event") under /webhook-test/. */
function isTestWebhookUrl(url: string): boolean {
	return /\/webhook-test\//.test(url);
}

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
		description:
			'Starts the workflow when the Seller Platform sends an event (new orders, purchase orders, …) to a destination this workflow takes over',
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
					"Activating this workflow takes over the destination below: its URL is replaced by this workflow's webhook address and ALL its existing headers are replaced by one secret header of this n8n. Deactivating unsubscribes the chosen events, deactivates the destination and removes that header. Use a destination reserved for n8n.",
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

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const current = registration(this);
				if (!current) return false;
				return (
					current.destinationCode === destinationCode(this) &&
					current.webhookUrl === this.getNodeWebhookUrl('default') &&
					current.events.join(',') === chosenEvents(this).join(',')
				);
			},

			async create(this: IHookFunctions): Promise<boolean> {
				const code = destinationCode(this);
				const events = chosenEvents(this);
				const webhookUrl = this.getNodeWebhookUrl('default') as string;
				const live = registration(this);
				if (this.getMode() === 'manual' && live && live.webhookUrl !== webhookUrl) {
					// A destination points at one address only: re-pointing it at the test URL would cut
					// off the active workflow, and removing the test webhook would deactivate it.
					throw new NodeOperationError(
						this.getNode(),
						`Destination "${live.destinationCode}" is registered to this workflow's production webhook, so it cannot listen for test events now`,
						{
							description:
								'Deactivate the workflow to listen for test events, or use another destination for testing.',
						},
					);
				}
				const secret = randomBytes(32).toString('hex');
				await apiRequest.call(this, 'UpdateDestination', {
					pathParams: { destination_code: code },
					body: {
						url: webhookUrl,
						is_active: true,
						credentials: { values: { [DELIVERY_HEADER]: secret } },
						event_types: events.map((event_type) => ({ event_type, is_active: true })),
					},
				});
				const data = this.getWorkflowStaticData('node');
				data.registration = {
					destinationCode: code,
					webhookUrl,
					events,
					secret,
					seen: [],
				} satisfies Registration;
				return true;
			},

			async delete(this: IHookFunctions): Promise<boolean> {
				const current = registration(this);
				if (!current) return true;
				// Removing a test webhook (also after a refused "listen for test event") must not undo the
				// registration of the production webhook.
				const url = this.getNodeWebhookUrl('default') ?? '';
				if (current.webhookUrl !== url && isTestWebhookUrl(url)) return true;
				try {
					await apiRequest.call(this, 'UpdateDestination', {
						pathParams: { destination_code: current.destinationCode },
						body: {
							is_active: false,
							credentials: { values: {} },
							event_types: current.events.map((event_type) => ({ event_type, is_active: false })),
						},
					});
				} catch (error) {
					// Gone on the service: nothing is left to undo. Anything else is reported, and the
					// registration is kept so the next deactivation can try again.
					if ((error as { httpCode?: string }).httpCode !== '404') {
						throw new NodeApiError(this.getNode(), error as JsonObject);
					}
				}
				delete this.getWorkflowStaticData('node').registration;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const current = registration(this);
		const headers = this.getHeaderData() as IDataObject;
		if (!current || !sameSecret(current.secret, headers[DELIVERY_HEADER.toLowerCase()])) {
			this.getResponseObject().status(401).json({ message: 'Unauthorized' });
			return { noWebhookResponse: true };
		}

		const delivery = this.getBodyData() as IDataObject;
		const eventType = typeof delivery.event_type === 'string' ? delivery.event_type : '';
		if (!current.events.includes(eventType)) {
			return {
				webhookResponse: { received: true, ignored: 'event type not subscribed by this workflow' },
			};
		}

		const options = this.getNodeParameter('options', {}) as IDataObject;
		if (options.deduplicate !== false) {
			const metadata = (delivery.metadata ?? {}) as IDataObject;
			const key =
				typeof metadata.message_id === 'string' && metadata.message_id
					? `id:${metadata.message_id}`
					: `sha256:${createHash('sha256').update(JSON.stringify(delivery)).digest('hex')}`;
			const scope = `${this.getWorkflow().id ?? ''}\u0000${this.getNode().id ?? this.getNode().name}`;
			// n8n does not save static data that `webhook()` changed when an execution starts, so the
			// process's memory of deliveries (state.ts) is the first line, static data the second.
			if (deliveries.seen(scope, key) || current.seen?.includes(key)) {
				return { webhookResponse: { received: true, ignored: 'duplicate delivery' } };
			}
			deliveries.remember(scope, key);
			current.seen = rememberKey(current.seen, key);
		}

		// Answering here (rather than letting n8n answer) makes n8n save the static data changed
		// above before the execution starts.
		this.getResponseObject().status(200).json({ received: true });
		return { noWebhookResponse: true, workflowData: [this.helpers.returnJsonArray([delivery])] };
	}
}
