/**
 * Taking over a destination and giving it back, carefully:
 * - the process knows which trigger owns each destination (state.ts `destinationOwners`), so a
 *   test listener never re-points a destination an active workflow owns, and a release never
 *   touches a destination another workflow has taken since;
 * - a re-registration within the grace period (publishing a new version: n8n calls `delete`, then
 *   `create`) keeps the secret, so deliveries already sent with it still pass;
 * - taking over a destination from another URL is logged.
 */
import { randomBytes } from 'crypto';
import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IHookFunctions,
	type IWebhookFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE, EVENT_TYPE_PATTERN } from '../api/constants';
import { apiRequest } from '../api/request';
import { deliveries, destinationOwners } from '../api/state';
import { addressForLog, gatewayScope } from '../api/url';
import { quoted } from '../api/values';
import { checkTriggerOptions, textListParameter, textParameter } from './parameters';

/** Header that carries the secret of this n8n on every delivery. */
export const DELIVERY_HEADER = 'X-N8n-Seller-Platform-Secret';

/** What an activation registered, kept in the node's static data. */
export interface Registration {
	destinationCode: string;
	webhookUrl: string;
	events: string[];
	secret: string;
	seen?: string[];
}

/** The secret of the last release, kept in static data for a re-registration or late deliveries. */
interface Released {
	destinationCode: string;
	secret: string;
	until: number;
}

export function registration(ctx: IHookFunctions | IWebhookFunctions): Registration | undefined {
	const data = ctx.getWorkflowStaticData('node') as IDataObject;
	const value = data.registration as Registration | undefined;
	return value && typeof value.secret === 'string' && value.secret ? value : undefined;
}

/** The previous secret, while its grace period lasts. */
export function released(ctx: IHookFunctions | IWebhookFunctions): Released | undefined {
	const value = (ctx.getWorkflowStaticData('node') as IDataObject).released as Released | undefined;
	return value && typeof value.secret === 'string' && value.until > Date.now() ? value : undefined;
}

/** The chosen event types plus the custom ones, each NAMESPACE::EVENT_NAME, sorted, unique. */
export function chosenEvents(ctx: IHookFunctions): string[] {
	const events = textListParameter(ctx, 'events', 'Events');
	const custom = textParameter(ctx, 'customEvents', 'Custom Events')
		.split(/[\s,]+/)
		.map((e) => e.trim())
		.filter(Boolean);
	const all = [...new Set([...events, ...custom])].sort();
	const wrong = all.find((event) => !EVENT_TYPE_PATTERN.test(event));
	if (wrong !== undefined) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The event type ${quoted(wrong)} must have the form NAMESPACE::EVENT_NAME, e.g. FBPI::ORDER_SYNC`,
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

export function destinationCode(ctx: IHookFunctions): string {
	const code = textParameter(ctx, 'destinationCode', 'Destination Code');
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

/** `<workflow id>\0<node id>` of this trigger. */
function ownerId(ctx: IHookFunctions): string {
	return `${ctx.getWorkflow().id ?? ''}\u0000${ctx.getNode().id ?? ctx.getNode().name}`;
}

/** `<gateway>|<project>|<destination code>`: one destination of one project, in one spelling. */
async function destinationKey(ctx: IHookFunctions, code: string): Promise<string> {
	return `${gatewayScope(await ctx.getCredentials(CREDENTIAL_TYPE))}|${code}`;
}

function graceMs(ctx: IHookFunctions): number {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const minutes = Number(options.secretGraceMinutes ?? 10);
	return Number.isFinite(minutes) && minutes >= 0 ? minutes * 60_000 : 600_000;
}

export async function checkExists(this: IHookFunctions): Promise<boolean> {
	const current = registration(this);
	if (!current) return false;
	const exists =
		current.destinationCode === destinationCode(this) &&
		current.webhookUrl === this.getNodeWebhookUrl('default') &&
		current.events.join(',') === chosenEvents(this).join(',');
	// n8n restarted with the workflow active: remember that this trigger owns the destination.
	const key = await destinationKey(this, current.destinationCode);
	if (exists && !destinationOwners.has(key)) {
		destinationOwners.set(key, {
			owner: ownerId(this),
			webhookUrl: current.webhookUrl,
			mode: isTestWebhookUrl(current.webhookUrl) ? 'test' : 'production',
		});
	}
	return exists;
}

export async function create(this: IHookFunctions): Promise<boolean> {
	const code = destinationCode(this);
	const events = chosenEvents(this);
	checkTriggerOptions(this);
	const webhookUrl = this.getNodeWebhookUrl('default') as string;
	const test = this.getMode() === 'manual' || isTestWebhookUrl(webhookUrl);
	const key = await destinationKey(this, code);
	const owner = destinationOwners.get(key);
	if (test && owner?.mode === 'production') {
		// A destination points at one address: re-pointing it at the test URL would cut off the
		// active workflow's deliveries while listening, and releasing it would deactivate them.
		throw new NodeOperationError(
			this.getNode(),
			`Destination "${code}" is registered to ${owner.owner === ownerId(this) ? "this workflow's production webhook" : 'the production webhook of another active workflow'}, so it cannot listen for test events now`,
			{
				description:
					'Deactivate that workflow to listen for test events, or use another destination for testing.',
			},
		);
	}
	if (owner && owner.owner !== ownerId(this)) {
		this.logger.warn(
			`Seller Platform Trigger takes over destination "${code}" from another workflow (it pointed at ${addressForLog(owner.webhookUrl)})`,
		);
	}
	const previous = released(this);
	const secret =
		previous?.destinationCode === code ? previous.secret : randomBytes(32).toString('hex');
	const answer = await apiRequest.call(this, 'UpdateDestination', {
		pathParams: { destination_code: code },
		body: {
			url: webhookUrl,
			is_active: true,
			credentials: { values: { [DELIVERY_HEADER]: secret } },
			event_types: events.map((event_type) => ({ event_type, is_active: true })),
		},
	});
	const before = typeof answer.previous_url === 'string' ? answer.previous_url : undefined;
	if (before && before !== webhookUrl && !owner) {
		this.logger.warn(
			`Seller Platform Trigger took over destination "${code}", which pointed at ${addressForLog(before)}`,
		);
	} else if (!before && !owner && !test) {
		this.logger.info(
			`Seller Platform Trigger took over destination "${code}"; where it pointed before is not known (the API has no read of a destination)`,
		);
	}
	const data = this.getWorkflowStaticData('node');
	data.registration = {
		destinationCode: code,
		webhookUrl,
		events,
		secret,
		seen: [],
	} satisfies Registration;
	deliveries.forget(ownerId(this));
	destinationOwners.set(key, {
		owner: ownerId(this),
		webhookUrl,
		mode: test ? 'test' : 'production',
	});
	return true;
}

export async function release(this: IHookFunctions): Promise<boolean> {
	const current = registration(this);
	if (!current) return true;
	// Removing a test webhook (also after a refused "listen for test event") must not undo the
	// registration of the production webhook.
	const url = this.getNodeWebhookUrl('default') ?? '';
	if (current.webhookUrl !== url && isTestWebhookUrl(url)) return true;
	const data = this.getWorkflowStaticData('node');
	const key = await destinationKey(this, current.destinationCode);
	const owner = destinationOwners.get(key);
	if (owner && (owner.owner !== ownerId(this) || owner.webhookUrl !== current.webhookUrl)) {
		// Another workflow (or this one's other webhook) has taken the destination since: leave it.
		this.logger.info(
			`Seller Platform Trigger leaves destination "${current.destinationCode}" as it is: another registration owns it now`,
		);
		delete data.registration;
		return true;
	}
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
	destinationOwners.delete(key);
	if (!isTestWebhookUrl(current.webhookUrl)) {
		data.released = {
			destinationCode: current.destinationCode,
			secret: current.secret,
			until: Date.now() + graceMs(this),
		} satisfies Released;
	}
	delete data.registration;
	return true;
}
