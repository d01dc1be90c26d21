/**
 * Which trigger of this process owns each destination, and the clock that dates registrations:
 * the newest registration of a destination owns it, also after a restart (registration.ts).
 */
import { createHash } from 'crypto';

/** A trigger that pointed a destination at its webhook. */
export interface DestinationOwner {
	/** `<workflow id>\0<node id>` of the trigger. */
	owner: string;
	webhookUrl: string;
	mode: 'production' | 'test';
	/** When the registration took the destination (its record's `since`): the newest one owns it. */
	since: number;
}

/**
 * The last `since` stamp given to a registration, or read from one (`nextRegistrationStamp`):
 * stamps only grow, so the newest registration has the highest. Bound: one number.
 */
export const registrationClock = { last: 0 };

/** A stamp for a registration taking a destination now: later than every stamp known. */
export function nextRegistrationStamp(now: number): number {
	registrationClock.last = Math.max(now, registrationClock.last + 1);
	return registrationClock.last;
}

/** Destinations whose owner this process keeps: far more than the triggers one n8n runs. */
export const MAX_DESTINATION_OWNERS = 10_000;

/**
 * Which trigger of this process owns each destination, keyed by `ownerKey`. Webhook registration
 * runs on n8n's main process only (queue mode included), so this is the instance's view. After a
 * restart, n8n's `checkExists` calls rebuild it in any order: the registration with the highest
 * `since` wins, as it did before the restart. Bound: one entry per destination a trigger of this
 * process registered and did not release, at most `MAX_DESTINATION_OWNERS` (the one kept longest
 * dropped first); each a 64-character key and n8n's own ids and webhook URL (about 5 MB in all
 * with n8n webhook URLs of 100 characters).
 */
export const destinationOwners = new Map<string, DestinationOwner>();

/**
 * The key of a destination: the SHA-256 of `<gateway>|<project>|<destination code>` (texts of the
 * user's, of any length), one destination of one project in one spelling.
 */
export function ownerKey(scope: string, code: string): string {
	return createHash('sha256').update(`${scope}|${code}`).digest('hex');
}

/** Notes the owner of a destination, dropping the one kept longest beyond the bound. */
export function keepOwner(key: string, owner: DestinationOwner): void {
	destinationOwners.delete(key);
	destinationOwners.set(key, owner);
	if (destinationOwners.size > MAX_DESTINATION_OWNERS) {
		destinationOwners.delete(destinationOwners.keys().next().value as string);
	}
}
