/**
 * Event Webhook → Subscribe: the webhook receives the events of one more type
 * (CreateSubscription). The output has the subscription code, with the webhook and event type.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { EVENT_TYPE_PATTERN, named, quoted } from '../../../shared';
import { invalidParameter, readRequiredText } from '../parameters';
import { bodyFromFields } from '../shapes/bodyFromFields';
import { webhookCodeProperty } from './webhookCode';

const eventType: INodeProperties = {
	displayName: 'Event Type',
	name: 'eventType',
	type: 'string',
	required: true,
	default: 'FBPI::ORDER_SYNC',
	placeholder: 'e.g. FBPO::PO_SYNC',
	description:
		'The events to deliver to the webhook, NAMESPACE::EVENT_NAME: FBPI::ORDER_SYNC (FBPI orders), FBPO::PO_SYNC (purchase orders), or another type the service publishes',
};

function readEventType(ctx: IExecuteFunctions, itemIndex: number): string {
	const value = readRequiredText(ctx, eventType, itemIndex);
	if (!EVENT_TYPE_PATTERN.test(value)) {
		const message = `${named(eventType)} must have the form NAMESPACE::EVENT_NAME (capital letters, digits and _), e.g. FBPI::ORDER_SYNC, got ${quoted(value)}`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	return value;
}

export const { description, plan } = bodyFromFields({
	show: { resource: 'eventWebhook', operation: 'subscribe' },
	endpoint: 'CreateSubscription',
	properties: [webhookCodeProperty('The webhook to deliver the events to'), eventType],
	body: { webhook_code: 'webhookCode', event_type: readEventType },
	output: (_ctx, answer, request) => ({
		json: { ...(request.body as IDataObject), ...answer },
	}),
});
