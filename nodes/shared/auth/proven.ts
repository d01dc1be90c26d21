/**
 * Login identities proven in this process: a login of the identity succeeded here, or a request
 * of it got a successful answer (2xx), which a gateway gives only to a session it knows. Only a
 * proven identity's requests take the rate scope's shared limiter, and only its 429 changes what
 * every run of the scope shares (the pause, the share, the probe: pacing/paced.ts); another's
 * requests are paced on a limiter of their own and its 429 is waited out by its own run alone. So
 * a credential with made-up values, or a made-up session, can neither use up nor pause the plan of
 * a credential that works.
 */
import { gatewayBaseUrl } from '../credential/baseUrl';
import { isGatewayDomain } from '../gateway/url';

/** Identities kept in each of the two sets of `proven`. */
export const MAX_PROVEN_IDENTITIES = 1000;

/**
 * The proven login identities (login.ts `loginFingerprint`: SHA-256 digests, 64 hex characters),
 * in the order they were last proven, apart for a Base URL at the gateways (a host under
 * noon.partners: only a real key logs in there) and for any other (a server anyone may run, whose
 * logins a co-tenant can make up by the thousand): made-up logins never push a gateway identity
 * out. Bound: `MAX_PROVEN_IDENTITIES` digests in each, those proven last (the oldest forgotten
 * first): about 300 kB in all.
 */
const proven = { gateway: new Set<string>(), other: new Set<string>() };

/** Whether a credential's Base URL is at the gateways (a host under noon.partners). */
export function atGateway(credentials: Record<string, unknown>): boolean {
	try {
		return isGatewayDomain(new URL(gatewayBaseUrl(credentials)).hostname);
	} catch {
		return false;
	}
}

/** Notes that `identity` (at the gateways: `gateway`) is proven now (see the top of the file). */
export function noteProven(identity: string, gateway = false): void {
	const set = gateway ? proven.gateway : proven.other;
	set.delete(identity);
	set.add(identity);
	if (set.size > MAX_PROVEN_IDENTITIES) set.delete(set.values().next().value as string);
}

/**
 * Notes a request's answer (`httpStatus`): a success (2xx) proves its identity. Nothing else does:
 * a 401 says the session is unknown, a redirect may send an unknown session to a sign-in page, a
 * 429 or another error may come before the session is checked.
 */
export function noteAnswer(identity: string, httpStatus: number, gateway = false): void {
	if (httpStatus >= 200 && httpStatus < 300) noteProven(identity, gateway);
}

/** Whether `identity` is proven in this n8n process (see the top of the file). */
export function isProven(identity: string): boolean {
	return proven.gateway.has(identity) || proven.other.has(identity);
}
