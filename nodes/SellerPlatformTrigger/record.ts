/**
 * The trigger's records in the node's static data: `registration` (what an activation registered)
 * and `released` (the secret of the last release). Every reader goes through `savedRegistration`
 * or `previousSecret`, which put a record of another shape back in shape (a text or an object
 * where a list belongs, a number where a text belongs), in place, so that no activation,
 * deactivation or delivery fails on it and a deactivation still releases the destination.
 */
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

/** No delivery key is longer: longer message ids are hashed (deliveries.ts `deliveryKey`). */
export const MAX_DELIVERY_KEY_LENGTH = 128;

/** Delivery keys remembered per registration, in this process and in `seen` (deliveries.ts). */
export const MAX_REMEMBERED_DELIVERIES = 1000;

/** What an activation registered, kept in the node's static data (`registration`). */
export interface Registration {
	destinationCode: string;
	webhookUrl: string;
	events: string[];
	/** '' when the saved one was not a text: no delivery authenticates, and activation renews it. */
	secret: string;
	seen?: string[];
	/**
	 * When this registration took the destination (owners.ts `nextRegistrationStamp`): of two
	 * workflows on one destination, the one with the higher stamp owns it, also after a restart.
	 * 0 for a registration saved before the stamp existed.
	 */
	since?: number;
}

/**
 * The secret of the last release, kept in the node's static data (`released`) for a
 * re-registration or late deliveries.
 */
export interface Released {
	destinationCode: string;
	secret: string;
	until: number;
}

type TriggerContext = IHookFunctions | IWebhookFunctions;

/** The strings of a list as saved: a list, a comma-separated text, or an object's values. */
function stringList(value: unknown): string[] {
	const entries =
		typeof value === 'string'
			? value.split(/[\s,]+/)
			: Array.isArray(value)
				? value
				: value && typeof value === 'object'
					? Object.values(value)
					: [];
	return entries.filter((entry): entry is string => typeof entry === 'string' && entry !== '');
}

/** A destination code as saved: a text, or a finite number written out; anything else is ''. */
function text(value: unknown): string {
	if (typeof value === 'string') return value;
	return typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
}

/**
 * Puts the record back in shape, in place (static data is saved as changed): `events` a list of
 * event types, `seen` a list of at most `MAX_REMEMBERED_DELIVERIES` bounded keys, the texts texts
 * ('' when they are not: a secret '' authenticates nothing, a URL '' is taken as the node's own
 * on release), `since` a number.
 */
export function repairRecord(record: Registration): Registration {
	if (!Array.isArray(record.events) || record.events.some((e) => typeof e !== 'string')) {
		record.events = stringList(record.events);
	}
	const seen: unknown = record.seen;
	const valid = (key: unknown) => typeof key === 'string' && key.length <= MAX_DELIVERY_KEY_LENGTH;
	if (seen !== undefined && (!Array.isArray(seen) || !seen.every(valid))) {
		record.seen = stringList(seen).filter(valid).slice(-MAX_REMEMBERED_DELIVERIES);
	}
	if (typeof record.destinationCode !== 'string')
		record.destinationCode = text(record.destinationCode);
	if (typeof record.webhookUrl !== 'string') record.webhookUrl = '';
	if (typeof record.secret !== 'string') record.secret = '';
	if (record.since !== undefined && !Number.isFinite(record.since)) record.since = 0;
	return record;
}

/**
 * The registration saved in the node's static data, repaired (`repairRecord`), if it names a
 * destination; its `secret` may be '' (see `Registration`).
 */
export function savedRegistration(ctx: TriggerContext): Registration | undefined {
	const data = ctx.getWorkflowStaticData('node') as IDataObject;
	const value = data.registration as unknown;
	if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
	const record = repairRecord(value as Registration);
	return record.destinationCode ? record : undefined;
}

/** The secret of the last release saved in the node's static data, while its grace period lasts. */
export function previousSecret(ctx: TriggerContext): Released | undefined {
	const value = (ctx.getWorkflowStaticData('node') as IDataObject).released as Released | undefined;
	return value &&
		typeof value === 'object' &&
		typeof value.secret === 'string' &&
		value.secret &&
		typeof value.until === 'number' &&
		value.until > Date.now()
		? value
		: undefined;
}
