/** The webhook an Event Webhook operation works on: the code Event Webhook → Create answered. */
import type { INodeProperties } from 'n8n-workflow';

export const webhookCodeProperty = (description: string): INodeProperties => ({
	displayName: 'Webhook Code',
	name: 'webhookCode',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. ={{ $json.webhook_code }}',
	description: `${description} (the webhook_code Event Webhook → Create returns)`,
});
