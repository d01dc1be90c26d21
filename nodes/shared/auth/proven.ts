/**
 * Login identities proven in this process: a login of the identity succeeded here, or a request
 * of it got an answer that a gateway gives only to a session it knows. Only a proven identity's
 * 429 changes what every run of its rate scope shares (the pause, the share, the probe:
 * pacing/paced.ts); another's is waited out by its own run alone. So a credential with made-up
 * values, or a made-up session, cannot pause or slow the runs of a credential that works.
 */

/**
 * Identities kept (`proven`): as many as the login identities of session.ts
 * (`MAX_LOGIN_IDENTITIES`).
 */
export const MAX_PROVEN_IDENTITIES = 1000;

/**
 * The proven login identities (login.ts `loginFingerprint`: SHA-256 digests, 64 hex characters),
 * in the order they were last proven. Bound: `MAX_PROVEN_IDENTITIES` digests, those proven last
 * (the oldest forgotten first): about 150 kB with the set's own.
 */
const proven = new Set<string>();

/** Notes that `identity` is proven now (see the top of the file). */
export function noteProven(identity: string): void {
	proven.delete(identity);
	proven.add(identity);
	if (proven.size > MAX_PROVEN_IDENTITIES) proven.delete(proven.values().next().value as string);
}

/**
 * Notes a request's answer (`httpStatus`): one below 400 proves its identity (a 401 says the
 * session is unknown; a 429 or another error may come before the session is checked).
 */
export function noteAnswer(identity: string, httpStatus: number): void {
	if (httpStatus < 400) noteProven(identity);
}

/** Whether `identity` is proven in this process (its 429 changes what its scope shares). */
export function isProven(identity: string): boolean {
	return proven.has(identity);
}
