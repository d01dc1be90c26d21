/**
 * Event webhooks (CreateWebhook, CreateSubscription, AssignDeveloperToWebhook). In the emulator a
 * webhook IS an HTTPS destination (state/destinations.ts): the same address, header map and
 * event-type subscriptions, in the same event-notifications service, counted against the same
 * limit of destinations per project. Its webhook_code is the destination code, so events
 * published to a subscribed type are delivered to it, and UpdateDestination (or the trigger)
 * can take it over. This store keeps what destinations do not: the subscription codes and the
 * developers assigned to each webhook.
 */
import { randomBytes } from 'node:crypto';

import { ApiError } from '../errors';
import { SEEDED_DEVELOPERS } from '../seed';
import type { DestinationState, DestinationStore } from './destinations';

export interface WebhookSubscription {
	subscription_code: string;
	webhook_code: string;
	event_type: string;
}

export interface WebhookDeveloper {
	webhook_code: string;
	dev_code: string;
}

const DEVELOPERS: ReadonlySet<string> = new Set(Object.values(SEEDED_DEVELOPERS));

export class WebhookStore {
	/** Subscriptions by project, then by `webhook_code event_type`. */
	private readonly subscriptions = new Map<string, Map<string, WebhookSubscription>>();
	private readonly developers = new Map<string, WebhookDeveloper[]>();

	constructor(private readonly destinations: DestinationStore) {}

	/** A new webhook: a new destination, active, with no subscription yet. */
	create(
		projectCode: string,
		url: string,
		credentials: Record<string, string>,
		now: number,
	): DestinationState {
		return this.destinations.add(
			projectCode,
			{ url, credentials: { ...credentials }, destinationName: 'Webhook', isActive: true },
			now,
		);
	}

	private webhook(projectCode: string, code: string): DestinationState {
		const found = this.destinations.list(projectCode).find((d) => d.destination_code === code);
		if (!found) {
			const message = `webhook_code ${JSON.stringify(code)} not found in project ${projectCode}`;
			throw new ApiError('NOT_FOUND', message);
		}
		return found;
	}

	/**
	 * Subscribes the webhook to the event type (an inactive subscription is switched on). A type
	 * it is subscribed to already keeps its subscription code. Returns it, and the destination.
	 */
	subscribe(projectCode: string, webhookCode: string, eventType: string, now: number) {
		this.webhook(projectCode, webhookCode);
		let codes = this.subscriptions.get(projectCode);
		if (!codes) this.subscriptions.set(projectCode, (codes = new Map()));
		const key = `${webhookCode} ${eventType}`;
		let subscription = codes.get(key);
		if (!subscription) {
			const code = `SUB-${randomBytes(4).toString('hex').toUpperCase()}`;
			subscription = { subscription_code: code, webhook_code: webhookCode, event_type: eventType };
			codes.set(key, subscription);
		}
		const event_types = [{ event_type: eventType, is_active: true }];
		const destination = this.destinations.update(projectCode, webhookCode, { event_types }, now);
		return { subscription: { ...subscription }, destination };
	}

	/** Assigns an authorised developer to the webhook; assigning it again changes nothing. */
	assignDeveloper(projectCode: string, webhookCode: string, devCode: string): WebhookDeveloper {
		this.webhook(projectCode, webhookCode);
		if (!DEVELOPERS.has(devCode)) {
			const message = `dev_code ${JSON.stringify(devCode)} is not a developer authorised by project ${projectCode}`;
			throw new ApiError('NOT_FOUND', message);
		}
		let assigned = this.developers.get(projectCode);
		if (!assigned) this.developers.set(projectCode, (assigned = []));
		const pair = { webhook_code: webhookCode, dev_code: devCode };
		if (!assigned.some((a) => a.webhook_code === webhookCode && a.dev_code === devCode)) {
			assigned.push(pair);
		}
		return { ...pair };
	}

	listSubscriptions(projectCode: string): WebhookSubscription[] {
		return [...(this.subscriptions.get(projectCode)?.values() ?? [])].map((s) => ({ ...s }));
	}

	listDevelopers(projectCode: string): WebhookDeveloper[] {
		return (this.developers.get(projectCode) ?? []).map((d) => ({ ...d }));
	}
}
