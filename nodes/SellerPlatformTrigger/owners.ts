/**
 * Which trigger of this process owns each destination, and the clock that dates registrations:
 * the newest registration of a destination owns it, also after a restart (registration.ts).
 */

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

/**
 * Which trigger of this process owns each destination, keyed `<gateway>|<project>|<destination
 * code>`. Webhook registration runs on n8n's main process only (queue mode included), so this is
 * the instance's view. After a restart, n8n's `checkExists` calls rebuild it in any order: the
 * registration with the highest `since` wins, as it did before the restart. Bound: one entry per
 * destination a trigger of this process registered.
 */
export const destinationOwners = new Map<string, DestinationOwner>();
