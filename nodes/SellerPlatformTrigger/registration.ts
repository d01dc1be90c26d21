/**
 * Taking over a destination and giving it back, carefully (n8n calls these as the trigger's
 * webhook methods: `checkExists`, `create`, `delete`):
 * - the process knows which trigger owns each destination (owners.ts `destinationOwners`), so a
 *   test listener never re-points a destination an active workflow owns, and a release never
 *   touches a destination another workflow has taken since; each registration records when it
 *   took the destination (`since`), so after a restart the newest one owns it again, whatever
 *   order n8n calls `checkExists` in;
 * - each registration (the production webhook, the test webhook) has its own memory of
 *   deliveries (deliveries.ts), which a new registration and a release clear;
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
	type INodeType,
	type IWebhookFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { addressForLog, apiRequest, CREDENTIAL_TYPE, gatewayScope } from '../shared';
import { forgetDeliveries, memoryKey } from './deliveries';
import {
	destinationOwners,
	keepOwner,
	nextRegistrationStamp,
	ownerKey,
	registrationClock,
	type DestinationOwner,
} from './owners';
import { checkTriggerOptions, chosenEvents, destinationCode, secretGraceMs } from './parameters';
import { previousSecret, savedRegistration, type Registration, type Released } from './record';

/** Header that carries the secret of this n8n on every delivery. */
export const DELIVERY_HEADER = 'X-N8n-Seller-Platform-Secret';

export type { Registration };

type TriggerContext = IHookFunctions | IWebhookFunctions;

/**
 * `<workflow id>\0<node id>` of this trigger: the owner of its destination (owners.ts
 * `destinationOwners`); with a registration's webhook URL, the key of the deliveries that
 * registration remembers (deliveries.ts `memoryKey`).
 */
export function triggerId(ctx: TriggerContext): string {
	return `${ctx.getWorkflow().id ?? ''}\u0000${ctx.getNode().id ?? ctx.getNode().name}`;
}

/** n8n serves test webhooks ("listen for test event") under /webhook-test/. */
function isTestWebhookUrl(url: string): boolean {
	return /\/webhook-test\//.test(url);
}

/** One destination of one project, in one spelling (owners.ts `ownerKey`). */
async function destinationKey(ctx: IHookFunctions, code: string): Promise<string> {
	return ownerKey(gatewayScope(await ctx.getCredentials(CREDENTIAL_TYPE)), code);
}

/**
 * Webhook method `checkExists`: whether the saved registration is the one the node asks for. After
 * a restart, n8n calls it for every active workflow: the one whose registration took the
 * destination last owns it again, in whatever order the calls come.
 */
export async function isRegistered(this: IHookFunctions): Promise<boolean> {
	const current = savedRegistration(this);
	if (!current?.secret) return false;
	const exists =
		current.destinationCode === destinationCode(this) &&
		current.webhookUrl === this.getNodeWebhookUrl('default') &&
		current.events.join(',') === chosenEvents(this).join(',');
	if (!exists) return false;
	const since = current.since ?? 0;
	registrationClock.last = Math.max(registrationClock.last, since);
	const key = await destinationKey(this, current.destinationCode);
	const owner = destinationOwners.get(key);
	if (!owner || owner.since < since) {
		keepOwner(key, {
			owner: triggerId(this),
			webhookUrl: current.webhookUrl,
			mode: isTestWebhookUrl(current.webhookUrl) ? 'test' : 'production',
			since,
		});
	}
	return true;
}

/**
 * A destination points at one address: re-pointing it at the test URL would cut off the active
 * workflow's deliveries while listening, and releasing it would deactivate them.
 */
function testListenerRefused(
	ctx: IHookFunctions,
	code: string,
	owner: DestinationOwner,
): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`Destination "${code}" is registered to ${owner.owner === triggerId(ctx) ? "this workflow's production webhook" : 'the production webhook of another active workflow'}, so it cannot listen for test events now`,
		{
			description:
				'Deactivate that workflow to listen for test events, or use another destination for testing.',
		},
	);
}

/** The previous secret when it was this destination's (in its grace period), else a new one. */
function secretFor(ctx: IHookFunctions, code: string): string {
	const previous = previousSecret(ctx);
	return previous?.destinationCode === code ? previous.secret : randomBytes(32).toString('hex');
}

/**
 * Points the destination at `webhookUrl` with the secret as its only header, subscribed to
 * `events`; answers the URL it pointed at before, when the service says.
 */
async function pointDestination(
	ctx: IHookFunctions,
	code: string,
	{ webhookUrl, secret, events }: Pick<Registration, 'webhookUrl' | 'secret' | 'events'>,
): Promise<string | undefined> {
	const answer = await apiRequest.call(ctx, 'UpdateDestination', {
		pathParams: { destination_code: code },
		body: {
			url: webhookUrl,
			is_active: true,
			credentials: { values: { [DELIVERY_HEADER]: secret } },
			event_types: events.map((event_type) => ({ event_type, is_active: true })),
		},
	});
	return typeof answer.previous_url === 'string' ? answer.previous_url : undefined;
}

/** Webhook method `create`: takes over the destination for this trigger's webhook. */
export async function registerDestination(this: IHookFunctions): Promise<boolean> {
	const code = destinationCode(this);
	const events = chosenEvents(this);
	checkTriggerOptions(this);
	const webhookUrl = this.getNodeWebhookUrl('default') as string;
	const test = this.getMode() === 'manual' || isTestWebhookUrl(webhookUrl);
	const key = await destinationKey(this, code);
	const owner = destinationOwners.get(key);
	if (test && owner?.mode === 'production') throw testListenerRefused(this, code, owner);
	if (owner && owner.owner !== triggerId(this)) {
		this.logger.warn(
			`Seller Platform Trigger takes over destination "${code}" from another workflow (it pointed at ${addressForLog(owner.webhookUrl)})`,
		);
	}
	const secret = secretFor(this, code);
	const before = await pointDestination(this, code, { webhookUrl, secret, events });
	if (before && before !== webhookUrl && !owner) {
		this.logger.warn(
			`Seller Platform Trigger took over destination "${code}", which pointed at ${addressForLog(before)}`,
		);
	} else if (!before && !owner && !test) {
		this.logger.info(
			`Seller Platform Trigger took over destination "${code}"; where it pointed before is not known (the API has no read of a destination)`,
		);
	}
	const since = nextRegistrationStamp(Date.now());
	const data = this.getWorkflowStaticData('node');
	data.registration = {
		destinationCode: code,
		webhookUrl,
		events,
		secret,
		seen: [],
		since,
	} satisfies Registration;
	forgetDeliveries(memoryKey(triggerId(this), { webhookUrl }));
	keepOwner(key, {
		owner: triggerId(this),
		webhookUrl,
		mode: test ? 'test' : 'production',
		since,
	});
	return true;
}

/**
 * Unsubscribes the events, deactivates the destination and removes its header. A destination
 * gone on the service (404) leaves nothing to undo. Any other failure is reported as `apiRequest`
 * reported it (its NodeApiError, rethrown as it is), and the registration is kept so the next
 * deactivation can try again.
 */
async function deactivateDestination(ctx: IHookFunctions, current: Registration): Promise<void> {
	let failed: unknown;
	try {
		await apiRequest.call(ctx, 'UpdateDestination', {
			pathParams: { destination_code: current.destinationCode },
			body: {
				is_active: false,
				credentials: { values: {} },
				event_types: current.events.map((event_type) => ({ event_type, is_active: false })),
			},
		});
	} catch (error) {
		failed = error;
	}
	if (failed === undefined || (failed as { httpCode?: string }).httpCode === '404') return;
	if (failed instanceof NodeApiError) throw failed;
	throw new NodeApiError(ctx.getNode(), failed as JsonObject);
}

/**
 * The registration `delete` releases: the saved one, or, when one was saved in a shape that names
 * no destination (a text, a list, a code that is no text), the node's own destination, so that a
 * deactivation still releases it.
 */
function registrationToRelease(ctx: IHookFunctions): Registration | undefined {
	const saved = savedRegistration(ctx);
	const stored = (ctx.getWorkflowStaticData('node') as IDataObject).registration;
	if (saved || stored === undefined || stored === null) return saved;
	try {
		const webhookUrl = ctx.getNodeWebhookUrl('default') ?? '';
		return {
			destinationCode: destinationCode(ctx),
			webhookUrl,
			events: chosenEvents(ctx),
			secret: '',
		};
	} catch {
		// No destination the node names either: nothing is known to release.
		return undefined;
	}
}

/** Webhook method `delete`: gives the destination back, unless another registration owns it now. */
export async function releaseDestination(this: IHookFunctions): Promise<boolean> {
	const current = registrationToRelease(this);
	if (!current) return true;
	// Removing a test webhook (also after a refused "listen for test event") must not undo the
	// registration of the production webhook.
	const url = this.getNodeWebhookUrl('default') ?? '';
	if (current.webhookUrl !== url && isTestWebhookUrl(url)) return true;
	// A registration whose URL was not saved as a text (record.ts) was this webhook's.
	current.webhookUrl ||= url;
	const data = this.getWorkflowStaticData('node');
	const key = await destinationKey(this, current.destinationCode);
	const owner = destinationOwners.get(key);
	const memory = memoryKey(triggerId(this), current);
	if (owner && (owner.owner !== triggerId(this) || owner.webhookUrl !== current.webhookUrl)) {
		// Another workflow (or this one's other webhook) has taken the destination since: leave it.
		this.logger.info(
			`Seller Platform Trigger leaves destination "${current.destinationCode}" as it is: another registration owns it now`,
		);
		forgetDeliveries(memory);
		delete data.registration;
		return true;
	}
	await deactivateDestination(this, current);
	destinationOwners.delete(key);
	forgetDeliveries(memory);
	if (current.secret && !isTestWebhookUrl(current.webhookUrl)) {
		data.released = {
			destinationCode: current.destinationCode,
			secret: current.secret,
			until: Date.now() + secretGraceMs(this),
		} satisfies Released;
	}
	delete data.registration;
	return true;
}

/** The trigger's `webhookMethods.default`: n8n registers and releases the destination with them. */
export const destinationWebhookMethods = {
	checkExists: isRegistered,
	create: registerDestination,
	delete: releaseDestination,
} satisfies NonNullable<INodeType['webhookMethods']>['default'];
