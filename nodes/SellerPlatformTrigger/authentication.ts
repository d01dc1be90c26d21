/**
 * Which deliveries are authentic: those carrying this n8n's secret header (DELIVERY_HEADER) with
 * the secret of the trigger's registration, or with the previous secret of the same destination
 * while its grace period lasts (deliveries the service sent before a re-registration).
 */
import { createHash, timingSafeEqual } from 'crypto';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { previousSecret, savedRegistration, type Registration } from './record';
import { DELIVERY_HEADER } from './registration';

/** Compares in constant time (both sides hashed to one length first). */
function sameSecret(expected: string, given: unknown): boolean {
	if (typeof given !== 'string') return false;
	const a = createHash('sha256').update(expected).digest();
	const b = createHash('sha256').update(given).digest();
	return timingSafeEqual(a, b);
}

/** The registration the delivery authenticates for; undefined when there is none or it does not. */
export function authenticate(ctx: IWebhookFunctions): Registration | undefined {
	const current = savedRegistration(ctx);
	if (!current?.secret) return undefined;
	const given = (ctx.getHeaderData() as IDataObject)[DELIVERY_HEADER.toLowerCase()];
	const previous = previousSecret(ctx);
	const authentic =
		sameSecret(current.secret, given) ||
		(previous?.destinationCode === current.destinationCode && sameSecret(previous.secret, given));
	return authentic ? current : undefined;
}
