import {
	NodeConnectionTypes,
	type IDataObject,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { NODE_DESCRIPTION, quoted, shown } from '../shared';
import { authenticate } from './authentication';
import { deliveryKey, firstDelivery, markChangedAfterStart, memoryKey } from './deliveries';
import { destinationCodeProperty, properties } from './description';
import { mayHaveRunBefore, withMark } from './resent';
import { deduplicates, noonSendersOnly } from './parameters';
import { DELIVERY_HEADER, destinationWebhookMethods, triggerId } from './registration';
import { fromNoon, senderAddress } from './senders';

export { DELIVERY_HEADER };

/** The forms of `event_schema_version` noon is documented to send: the text "1.0", the number 1. */
export const KNOWN_SCHEMA_VERSIONS: ReadonlyArray<unknown> = ['1.0', 1];

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
		subtitle: `={{$parameter["${destinationCodeProperty.name}"]}}`,
		// The node picker's "Seller Platform" entry shows this (see NODE_DESCRIPTION).
		description: NODE_DESCRIPTION,
		defaults: { name: 'Seller Platform Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'sellerPlatformApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// n8n's answer to a delivery that starts the workflow (webhook() below). Without
				// responseData n8n takes "firstEntryJson" and sends that text; it never reads the
				// webhookResponse returned with workflowData.
				responseData: '={{ ({ received: true }) }}',
				path: 'webhook',
			},
		],
		// Declared once in description.ts; parameters.ts reads their labels, names and defaults.
		properties,
	};

	// Registration and release of the destination: registration.ts.
	webhookMethods = { default: destinationWebhookMethods };

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		if (noonSendersOnly(this) && !fromNoon(this)) {
			this.logger.warn(
				`Seller Platform Trigger refused a delivery from ${quoted(senderAddress(this))}: not one of noon's sender addresses`,
			);
			return refuse(this, 403, 'Forbidden');
		}
		const current = authenticate(this);
		if (!current) return refuse(this, 401, 'Unauthorized');

		const delivery = deliveryOf(this);
		if (!delivery) return refuse(this, 400, 'The delivery must be a JSON object');
		const version = delivery.event_schema_version;
		if (version !== undefined && !KNOWN_SCHEMA_VERSIONS.includes(version)) {
			// Taken all the same: refusing would make noon retry and give the order up.
			this.logger.warn(
				`Seller Platform Trigger received a delivery with event_schema_version ${shown(version)}; it knows the text "1.0" and the number 1, and passes the delivery on as it came`,
			);
		}
		const eventType = typeof delivery.event_type === 'string' ? delivery.event_type : '';
		if (!current.events.includes(eventType)) {
			return {
				webhookResponse: { received: true, ignored: 'event type not subscribed by this workflow' },
			};
		}

		let marked = false;
		if (deduplicates(this)) {
			if (!firstDelivery(memoryKey(triggerId(this), current), deliveryKey(delivery), current)) {
				return { webhookResponse: { received: true, ignored: 'duplicate delivery' } };
			}
			markChangedAfterStart(current);
			marked = mayHaveRunBefore(delivery);
		}
		const json = withMark(delivery, marked);

		// n8n answers, with the description's responseData. n8n 2.x creates the execution (and
		// starts it), saves the static data (the remembered deliveries), then answers: killed in
		// between, the first execution may even have ended, and the service sends the delivery
		// again, to an n8n that remembers nothing of it (resent.ts marks that one). n8n 1.x saves
		// the static data and answers while it creates the execution, so a crash in between loses
		// the delivery (docs/triggers.md).
		return { workflowData: [[{ json }]] };
	}
}
