/**
 * The Seller Platform session shared in this process: logins shared between concurrent callers,
 * the newest session per login identity, and the login of the Session → Log In operation.
 *
 * Used by the credential's `preAuthentication`, so n8n runs it when the stored session is empty,
 * when a request answers 401, and when the user presses "Test". Nothing here ever puts the private
 * key, the token or a cookie into an error message.
 */
import { createHash } from 'crypto';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestHelper,
} from 'n8n-workflow';

import { abortable, sharedTask, type SharedTask } from '../common/abort';
import { monotonicNow } from '../common/clock';
import { CREDENTIAL_TYPE } from '../common/constants';
import { apiError } from '../errors/errors';
import type { LoginGate } from '../pacing/paced';
import { login, loginFingerprint } from './login';
import { atGateway, isProven, noteAnswer, noteProven } from './proven';

/**
 * Logins, per login identity (the fingerprint of base URL, key id, key and project; login.ts
 * `loginFingerprint`, 64 characters). Bound: `MAX_LOGIN_IDENTITIES` identities (failed ones
 * included; beyond it, the failed one whose login ended longest ago is forgotten first, in every
 * map but `inFlight`, which holds running logins only, each ended by its 30 s deadline), each with
 * at most one running login, one session (at most `MAX_SESSION_COOKIE_BYTES`, 8 KB: login.ts) and
 * the digests of `MAX_RETIRED_SESSIONS` retired ones; `MAX_RETIRED_SESSIONS` first-sent dates in
 * all, keyed by digest. An identity at its bound holds about 14 KB of heap (its 8 KB session, 50
 * digests of 64 characters), so all of them at most about 14 MB: any user who can save a credential
 * can fill them, with made-up key ids and a server of their own.
 */
export const sessions = {
	/** The login running now: callers that arrive meanwhile share it (each may leave on a stop). */
	inFlight: new Map<string, SharedTask<IDataObject>>(),
	/** The newest session this process obtained. */
	newest: new Map<string, string>(),
	/**
	 * Sessions this process replaced by a newer login (their digests, `sessionDigest`): known to
	 * be older than the newest.
	 */
	retired: new Map<string, Set<string>>(),
	/** When the last login of each identity ended (requests waiting for it left after that). */
	lastLoginEnd: new Map<string, number>(),
	/** When the login that obtained the newest session started, per identity. */
	newestStartedAt: new Map<string, number>(),
	/**
	 * When this process first sent each session (its digest; its own or one another n8n process
	 * stored in the credential): a session first sent before our newest login started is older
	 * than it.
	 */
	firstSent: new Map<string, number>(),
	/** How many logins of each identity this process completed (the run's hints count them). */
	loginsDone: new Map<string, number>(),
};

export const MAX_RETIRED_SESSIONS = 50;

/** Login identities remembered (`sessions`): far more than the credentials one n8n uses. */
export const MAX_LOGIN_IDENTITIES = 1000;

/**
 * Notes that a login of `identity` ended `now`, as the newest identity; beyond
 * `MAX_LOGIN_IDENTITIES`, one identity is forgotten (a credential Test with made-up values, for
 * one, would otherwise leave an entry each): the one whose login ended longest ago among those
 * without a session (failed logins), else among all; never one whose login is running.
 */
function noteLoginEnd(identity: string, now: number) {
	sessions.lastLoginEnd.delete(identity);
	sessions.lastLoginEnd.set(identity, now);
	if (sessions.lastLoginEnd.size <= MAX_LOGIN_IDENTITIES) return;
	const idle = [...sessions.lastLoginEnd.keys()].filter((key) => !sessions.inFlight.has(key));
	const forgotten = idle.find((key) => !sessions.newest.has(key)) ?? idle[0];
	if (forgotten !== undefined) forget(forgotten);
}

/** Forgets what this process knows of a login identity. */
function forget(identity: string) {
	sessions.lastLoginEnd.delete(identity);
	for (const map of [sessions.newest, sessions.retired, sessions.newestStartedAt]) {
		map.delete(identity);
	}
	sessions.loginsDone.delete(identity);
}

/**
 * What the maps keep of a session they only compare (`retired`, `firstSent`): its SHA-256, 64
 * hex characters whatever the session's length.
 */
export const sessionDigest = (session: string) =>
	createHash('sha256').update(session).digest('hex');

/** Notes the first time this process sends `session` (the oldest dropped beyond the bound). */
export function noteSessionSent(session: string, now: number) {
	const digest = sessionDigest(session);
	if (sessions.firstSent.has(digest)) return;
	sessions.firstSent.set(digest, now);
	if (sessions.firstSent.size > MAX_RETIRED_SESSIONS) {
		sessions.firstSent.delete(sessions.firstSent.keys().next().value as string);
	}
}

/** Whether this process replaced `session` of `identity` by a newer login. */
export function isRetired(identity: string, session: string): boolean {
	return sessions.retired.get(identity)?.has(sessionDigest(session)) ?? false;
}

/** Keeps `session` among the retired ones of `identity` (oldest dropped beyond the bound). */
function retireSession(identity: string, session: string | undefined) {
	if (!session) return;
	const retired = sessions.retired.get(identity) ?? new Set<string>();
	retired.add(sessionDigest(session));
	if (retired.size > MAX_RETIRED_SESSIONS) retired.delete(retired.values().next().value as string);
	sessions.retired.set(identity, retired);
}

/**
 * The refusal of a request `authenticate` did not send (its address is not the gateway's), per
 * decrypted credentials object: n8n's legacy request helper logs in again after any failure, and
 * gets this refusal instead of a login (`sharedLogin`; authenticate.ts sets it). Bound: weak,
 * gone with the object.
 */
export const refusedRequests = new WeakMap<object, Error>();

/**
 * The login of the Session → Log In operation, per node run (keyed by the run's context) and
 * shared by the run's items (`loginForRun`). Bound: weak, gone with the run's context.
 */
const runLogins = new WeakMap<object, Promise<RunLogin>>();

/** The login of `identity` (at the gateways: `gateway`) as pacing waits for it (pacing/paced.ts). */
export function loginGate(identity: string, gateway = false): LoginGate {
	return {
		running: () => sessions.inFlight.get(identity)?.task,
		endedAt: () => sessions.lastLoginEnd.get(identity),
		proven: () => isProven(identity),
		answered: (httpStatus) => noteAnswer(identity, httpStatus, gateway),
	};
}

/**
 * Logins shared across concurrent callers, per login identity (base URL, key id, key, project).
 *
 * n8n calls `preAuthentication` once per request that found no session or got a 401. With many
 * items in flight, that would be one login per item. Instead:
 * - callers that arrive while a login is running wait for it and share its session;
 * - a caller without a session, or whose rejected session is older than the newest one obtained
 *   here, gets the newest one (another request already logged in);
 * - only a caller whose rejected session is the newest one, or when this process has none yet,
 *   starts a new login.
 */
export async function sharedLogin(
	this: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
	cancel?: AbortSignal,
): Promise<IDataObject> {
	// n8n's legacy request helper (the HTTP Request node's) logs in again after any failure: not
	// for a request `authenticate` refused, which gets its refusal again instead.
	const refused = refusedRequests.get(credentials);
	if (refused) {
		refusedRequests.delete(credentials);
		throw refused;
	}
	const identity = loginFingerprint(credentials);
	const running = sessions.inFlight.get(identity);
	if (running && !running.abandoned()) return await running.join(cancel);

	// A caller without a session, or with one this process knows to be older than its newest,
	// takes the newest: one it replaced, or one it first sent before its newest login started
	// (another n8n process's, read from the stored credential earlier). A session first seen
	// after that may be fresher than ours: then a real login follows. Should the newest have
	// expired too, the service answers 401 and the caller comes back with it, which logs in below.
	const used = typeof credentials.sessionCookie === 'string' ? credentials.sessionCookie : '';
	const newest = sessions.newest.get(identity);
	const olderThanNewest =
		!used ||
		isRetired(identity, used) ||
		(sessions.firstSent.get(sessionDigest(used)) ?? Infinity) <
			(sessions.newestStartedAt.get(identity) ?? 0);
	if (newest && used !== newest && olderThanNewest) {
		return { sessionCookie: newest, sessionFingerprint: identity };
	}

	// Each caller waits with its own cancel signal; once every caller stopped, the login is closed
	// (abort.ts `sharedTask`) and the next caller starts a new one.
	const startedAt = monotonicNow();
	const shared: SharedTask<IDataObject> = sharedTask(async (abandoned) => {
		try {
			const result = await login.call(this, credentials, abandoned);
			retireSession(identity, sessions.newest.get(identity));
			retireSession(identity, used);
			sessions.newest.set(identity, String(result.sessionCookie));
			sessions.newestStartedAt.set(identity, startedAt);
			sessions.loginsDone.set(identity, (sessions.loginsDone.get(identity) ?? 0) + 1);
			noteProven(identity, atGateway(credentials));
			return result;
		} finally {
			if (sessions.inFlight.get(identity) === shared) sessions.inFlight.delete(identity);
			noteLoginEnd(identity, monotonicNow());
		}
	});
	sessions.inFlight.set(identity, shared);
	return await shared.join(cancel);
}

/** The login's request helper: n8n's plain one, as the credential's own login gets it. */
export function loginHelper(ctx: { helpers: IHttpRequestHelper['helpers'] }): IHttpRequestHelper {
	return { helpers: { httpRequest: ctx.helpers.httpRequest } };
}

/** What the Session → Login operation reports: whose login, and when it ended. */
export interface RunLogin {
	credentials: ICredentialDataDecryptedObject;
	sessionCookie: string;
	loggedInAt: string;
}

/**
 * A login of its own (not shared with requests), once per node run and shared by the run's
 * items: the Session → Login operation. A stop ends the wait at once; a failure is the same
 * NodeApiError as a request's (errors.ts).
 */
export async function loginForRun(ctx: IExecuteFunctions, itemIndex: number): Promise<RunLogin> {
	let pending = runLogins.get(ctx);
	if (!pending) {
		pending = (async () => {
			const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
			const cancel = ctx.getExecutionCancelSignal?.();
			const { sessionCookie } = await login.call(loginHelper(ctx), credentials, cancel);
			noteProven(loginFingerprint(credentials), atGateway(credentials));
			return {
				credentials,
				sessionCookie: String(sessionCookie),
				loggedInAt: new Date().toISOString(),
			};
		})();
		runLogins.set(ctx, pending);
	}
	let failed: unknown;
	try {
		// A login ends at its own deadline; a stop ends it and the node's wait at once.
		return await abortable(pending, ctx.getExecutionCancelSignal?.());
	} catch (error) {
		failed = error;
	}
	throw apiError(failed, { node: ctx.getNode(), endpoint: 'Login', itemIndex });
}

/**
 * After a request: the shared credential of the run takes the session its copy ended with, unless
 * this process already knows a newer one.
 */
export function adoptSession(
	shared: ICredentialDataDecryptedObject,
	copy: ICredentialDataDecryptedObject,
) {
	const session = copy.sessionCookie;
	if (typeof session !== 'string' || !session || session === shared.sessionCookie) return;
	const identity = loginFingerprint(copy);
	if (isRetired(identity, session)) return;
	shared.sessionCookie = session;
	shared.sessionFingerprint = copy.sessionFingerprint;
}
