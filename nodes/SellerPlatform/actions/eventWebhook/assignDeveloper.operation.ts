/**
 * Event Webhook → Assign Developer: links a webhook to a developer the seller authorised
 * (AssignDeveloperToWebhook). The output is the service's answer: the webhook and the developer.
 */
import { bodyFromFields } from '../shapes/bodyFromFields';
import { webhookCodeProperty } from './webhookCode';

export const { description, plan } = bodyFromFields({
	show: { resource: 'eventWebhook', operation: 'assignDeveloper' },
	endpoint: 'AssignDeveloperToWebhook',
	properties: [
		webhookCodeProperty('The webhook to assign the developer to'),
		{
			displayName: 'Developer Code',
			name: 'devCode',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. DEV-1001',
			description: 'The code of a developer you have authorized for your account',
		},
	],
	body: { webhook_code: 'webhookCode', dev_code: 'devCode' },
});
