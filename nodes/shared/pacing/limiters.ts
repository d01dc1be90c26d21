/**
 * Every piece of state that outlives one node run lives here, in the memory of one n8n process
 * (module state lasts as long as n8n keeps the package loaded). Each entry says its key and its
 * bound. Nothing here is shared between n8n processes (queue mode workers, webhook processes);
 * what they share goes through n8n: the session through the stored credential (n8n saves what
 * the login returns), the trigger's delivery keys through the workflow's static data, and the
 * rate plan through the service itself (each process paces at its share of the plan and adapts
 * it from 429 answers, rateController.ts). The README's "Running in n8n queue mode" says what follows.
 *
 * Per-run entries are keyed by the run's execution context object (WeakMap): they go when n8n
 * drops the context at the end of the run.
 */
import type { IDataObject } from 'n8n-workflow';

import { wait, type SharedTask } from './abort';

import type { RunPolicy } from './policy';
import { PlanLimiter, type Clock } from './rateLimiter';
import type { ConnectionSettings } from './settings';
import type { RunLogin } from './session';
import { Slots } from './slots';

/**
 * Logins, per login identity (the fingerprint of base URL, key id, key and project; see
 * session.ts). Bound: one entry per identity this process has logged in with, each holding at
 * most one running login, one session and `MAX_RETIRED_SESSIONS` retired ones.
 */
export const sessions = {
	/** The login running now: callers that arrive meanwhile share it (each may leave on a stop). */
	inFlight: new Map<string, SharedTask<IDataObject>>(),
	/** The newest session this process obtained. */
	newest: new Map<string, string>(),
	/** Sessions this process replaced by a newer login: known to be older than the newest. */
	retired: new Map<string, Set<string>>(),
	/** When the last login of each identity ended (requests waiting for it left after that). */
	lastLoginEnd: new Map<string, number>(),
	/** When the login that obtained the newest session started, per identity. */
	newestStartedAt: new Map<string, number>(),
	/**
	 * When this process first sent each session (its own or one another n8n process stored in
	 * the credential): a session first sent before our newest login started is older than it.
	 */
	firstSent: new Map<string, number>(),
	/** How many logins of each identity this process completed (the run's hints count them). */
	loginsDone: new Map<string, number>(),
};

/** Notes the first time this process sends `session` (the oldest dropped beyond the bound). */
export function noteSessionSent(session: string, now: number) {
	if (sessions.firstSent.has(session)) return;
	sessions.firstSent.set(session, now);
	if (sessions.firstSent.size > MAX_RETIRED_SESSIONS) {
		sessions.firstSent.delete(sessions.firstSent.keys().next().value as string);
	}
}
export const MAX_RETIRED_SESSIONS = 50;

/** Keeps `session` among the retired ones of `identity` (oldest dropped beyond the bound). */
export function retireSession(identity: string, session: string | undefined) {
	if (!session) return;
	const retired = sessions.retired.get(identity) ?? new Set<string>();
	retired.add(session);
	if (retired.size > MAX_RETIRED_SESSIONS) retired.delete(retired.values().next().value as string);
	sessions.retired.set(identity, retired);
}

/**
 * The refusal of a request `authenticate` did not send (its address is not the gateway's), per
 * decrypted credentials object: n8n's legacy request helper logs in again after any failure, and
 * gets this refusal instead of a login (session.ts). Bound: weak, gone with the object.
 */
export const refusedRequests = new WeakMap<object, Error>();

/**
 * Login fingerprints, per decrypted credentials object (n8n hands one object to every request of
 * a run, so each is hashed once). Bound: weak, gone with the object.
 */
export const fingerprints = new WeakMap<object, { source: string; digest: string }>();

/**
 * One limiter per (gateway, project, endpoint, plan), shared by every execution in this n8n
 * process (module state lives as long as the loaded package).
 */
export class RateLimiterRegistry {
	private readonly limiters = new Map<string, PlanLimiter>();

	constructor(private readonly clock: Clock) {}

	get(scope: string, endpoint: string, requestsPerMinute: number): PlanLimiter {
		const plan = Math.max(1, Math.floor(requestsPerMinute));
		// The plan is part of the key: two credentials of one project with different plans must not
		// keep replacing each other's limiter (and so forget each other's history).
		const key = `${scope}\u0000${endpoint}\u0000${plan}`;
		let limiter = this.limiters.get(key);
		if (!limiter) {
			limiter = new PlanLimiter(plan, this.clock);
			this.limiters.set(key, limiter);
		}
		return limiter;
	}
}

/**
 * Rate limiters, one per (gateway and project, endpoint, plan): shared by every execution in
 * this process. Bound: credentials × 9 endpoints × plans in use; each limiter keeps at most one
 * window of start times, 64 round trips, and while a throttling episode is open the service's
 * last Retry-After (a later run fails at once while it lies beyond the run's waiting budget; a
 * minute after the last refusal one request probes, and an answer without a 429 clears it).
 */
export const limiters = new RateLimiterRegistry({
	now: () => Date.now(),
	sleep: async (ms, signal) => await wait(ms, signal),
});

/**
 * 429 answers to requests that were already on their way when an earlier 429 paused their plan
 * (policy.ts `paced`): one event, counted once by the circuit breaker, however many requests were
 * in flight. Bound: weak, gone with the error objects.
 */
export const rateLimitEchoes = new WeakSet<object>();

/**
 * Export downloads in flight in this process (download.ts): at most `MAX_DOWNLOADS_IN_FLIGHT` at
 * once, so that n8n's in-memory binary data mode never holds more files than that while they
 * arrive, and at most `MAX_DOWNLOADS_PER_CREDENTIAL` of one credential's gateway and project
 * (url.ts `gatewayScope`), so that one credential's slow downloads never hold every place; the
 * others wait in line, each for a bounded time (a stop takes them out). Bound: the line, one entry
 * per waiting download; one count per scope with a download in flight.
 */
export const MAX_DOWNLOADS_IN_FLIGHT = 4;
export const MAX_DOWNLOADS_PER_CREDENTIAL = 2;
export const downloadSlots = new Slots(MAX_DOWNLOADS_IN_FLIGHT, MAX_DOWNLOADS_PER_CREDENTIAL);

/**
 * Per node run, keyed by the run's context: the connection settings with the credential read and
 * decrypted once (settings.ts), the run's limits (policy.ts `RunPolicy`), the rate plan its last
 * request used (the automatic concurrency follows it), and the login of the Session → Login
 * operation shared by the run's items (session.ts). Bound: weak, gone with the run's context.
 */
export const perRun = {
	settings: new WeakMap<object, Promise<ConnectionSettings>>(),
	policies: new WeakMap<object, RunPolicy>(),
	limiters: new WeakMap<object, PlanLimiter>(),
	logins: new WeakMap<object, Promise<RunLogin>>(),
};

/**
 * What the trigger remembers of its deliveries in this process, per registration (deliveries.ts
 * `memoryKey`: `<workflow id>\0<node id>\0<webhook URL>`, so a trigger's production webhook and
 * its "listen for test event" webhook are two registrations that never share or wipe each
 * other's memory): the first line of its de-duplication (static data, the registration record's
 * `seen`, is the second). `keys` answers membership in O(1); `list` holds the same keys, oldest
 * first, and is the one array every pending record's `seen` points at (no record holds a copy).
 * Bound: at most `MAX_REMEMBERED_DELIVERIES` keys per registration, and at most
 * `MAX_REMEMBERED_REGISTRATIONS` registrations (the one whose last delivery is oldest is dropped
 * beyond); an entry goes when its registration is released or registered again.
 */
export const MAX_REMEMBERED_DELIVERIES = 1000;
export const MAX_REMEMBERED_REGISTRATIONS = 100;
export interface RememberedKeys {
	keys: Set<string>;
	list: string[];
}
export const recentDeliveries = new Map<string, RememberedKeys>();

/**
 * The static data records (`{ seen }`) of the latest deliveries per registration (same key as
 * `recentDeliveries`), whose saves by n8n may still be to come; each record's `seen` is the
 * registration's shared `list`. Bound: `MAX_PENDING_RECORDS` per registration, and the
 * registrations of `recentDeliveries` (dropped and released with them).
 */
export const MAX_PENDING_RECORDS = 64;
export const pendingRecords = new Map<string, Array<{ seen?: string[] }>>();

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
 * registration with the highest `since` wins, as it did before the restart. Bound: one entry per destination a trigger of this process registered.
 */
export const destinationOwners = new Map<string, DestinationOwner>();

/**
 * What the Create Barcode Import operation sent under each client reference and the service
 * accepted: the digest of the request (actions/import/sentRequests.ts), keyed `<gateway and
 * project>\0<client_reference>`, oldest first. The memory that proves a re-run of a manual
 * execution (whose static data n8n does not save) is the same request; the node's static data is
 * the other. Bound: the newest `MAX_REMEMBERED_IMPORT_REQUESTS` references of this process.
 */
export const MAX_REMEMBERED_IMPORT_REQUESTS = 2000;
export const importRequests = new Map<string, string>();
