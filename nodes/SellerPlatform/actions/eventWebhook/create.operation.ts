/**
 * Event Webhook → Create: a new webhook, the HTTPS address events are delivered to with its
 * headers (CreateWebhook). Each run creates new webhooks: the request is never repeated, and the
 * error of a later failure names the webhooks created before it. The output has the webhook code,
 * the address and the header names, their values masked.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { named, quoted, redactValue } from '../../../shared';
import { invalidParameter, readRequiredText } from '../parameters';
import { bodyFromFields } from '../shapes/bodyFromFields';
import { headersProperty, maskedHeaders, readHeaders } from './headers';

const urlProperty: INodeProperties = {
	displayName: 'URL',
	name: 'url',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'https://example.com/webhooks/seller-platform',
	description: 'HTTPS address of your server that receives the events',
};

/** An https:// address. */
function readUrl(ctx: IExecuteFunctions, itemIndex: number): string {
	const url = readRequiredText(ctx, urlProperty, itemIndex);
	let protocol: string | undefined;
	try {
		protocol = new URL(url).protocol;
	} catch {
		protocol = undefined;
	}
	if (protocol !== 'https:') {
		const message = `${named(urlProperty)} must be an https:// address, got ${quoted(url)}`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	return url;
}

export const { description, plan } = bodyFromFields({
	show: { resource: 'eventWebhook', operation: 'create' },
	endpoint: 'CreateWebhook',
	properties: [urlProperty, headersProperty],
	body: { url: readUrl, credentials: readHeaders },
	task: () => ({
		creates: {
			describe: (json: IDataObject) => `webhook ${quoted(String(json.webhook_code))}`,
			advice:
				'Running the workflow again creates new webhooks: run only the items that failed, or use the webhook codes above.',
		},
	}),
	output: (_ctx, answer, request) => {
		const body = request.body as IDataObject;
		const credentials = body.credentials as Record<string, string>;
		// Should the service ever answer with a header value, the output still shows none.
		const json = redactValue(answer, Object.values(credentials));
		return { json: { ...json, url: body.url, headers: maskedHeaders(credentials) } };
	},
});
