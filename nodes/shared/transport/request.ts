/**
 * The single path every request of both nodes takes: the connection settings (read once per node
 * run), the URL, the headers, n8n's authenticated request (n8n logs in again on 401 and repeats
 * once) within a total deadline, the pacing and retries of pacing/ (paced.ts, retries.ts), and
 * one error the user can read (errors/errors.ts). The run's own state is in run.ts.
 */
import {
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IHttpRequestOptions,
} from 'n8n-workflow';

import { loginFingerprint, LoginTimedOut } from '../auth/login';
import { atGateway } from '../auth/proven';
import { adoptSession, loginGate, loginHelper, sharedLogin } from '../auth/session';
import { deadline, DeadlineExceeded, withinDeadline, withSignal } from '../common/abort';
import { CREDENTIAL_TYPE, USER_AGENT } from '../common/constants';
import { baseUrlField, projectCodeField } from '../credential/fields';
import { apiError, classify, PolicyStop } from '../errors/errors';
import { cookieSecrets, secretsIn } from '../errors/redact';
import { readCapped, readErrorBody } from '../gateway/answer';
import { ENDPOINTS, takesBody, type Endpoint } from '../gateway/endpoints';
import { buildUrl, redirectStep } from '../gateway/url';
import { limiters } from '../pacing/limiters';
import { paced } from '../pacing/paced';
import type { RunPolicy } from '../pacing/policy';
import type { PlanLimiter } from '../pacing/rateLimiter';
import { withRetries } from '../pacing/retries';
import { RETRY_POLICY } from '../pacing/waits';
import {
	loginTimedOut,
	noteLoginIdentity,
	noteLoginTimedOut,
	noteRunLimiter,
	runPolicy,
	type RequestContext,
} from './run';
import { connectionSettings, type ConnectionSettings } from './settings';

export interface ApiRequestOptions {
	/** Values for the `{name}` placeholders of the endpoint's path. */
	pathParams?: Record<string, string>;
	body?: IDataObject;
	/** Query parameters, URL-encoded after the path (a list's `next_token`); none when absent. */
	query?: Record<string, string>;
	/** Item the request is made for: used for the credential lookup and in errors. */
	itemIndex?: number;
}

/**
 * Without a stored session, logs in (once for all concurrent requests, session.ts) before the
 * requests take their slots of the rate plan: a request must not hold a slot while it waits for a
 * login, then leave with all the others that waited. n8n's own login step then finds the session
 * (no second login) and stores it in the credential, for later executions and other processes.
 * A stop ends the wait at once; after a login that timed out, the run's later requests fail with
 * its error instead of waiting for another.
 */
async function loginBeforePacing(
	ctx: RequestContext,
	data: ICredentialDataDecryptedObject,
	policy: RunPolicy,
) {
	if (typeof data.sessionCookie === 'string' && data.sessionCookie) return;
	const earlier = loginTimedOut(policy);
	if (earlier) throw earlier;
	// A login that timed out is remembered (rejection handled here, the caller still gets it).
	const login = sharedLogin.call(loginHelper(ctx), data, policy.signal);
	login.catch((error: unknown) => {
		if (error instanceof LoginTimedOut) noteLoginTimedOut(policy, error);
	});
	await login;
}

/** The error of a request without its whole answer within `RETRY_POLICY.requestTimeoutMs`. */
function timedOut(endpoint: Endpoint) {
	const seconds = RETRY_POLICY.requestTimeoutMs / 1000;
	return new DeadlineExceeded(
		`The Seller Platform API timed out: no complete answer to ${endpoint} within ${seconds} s`,
		`Every request gets ${seconds} s for its whole answer and is not repeated after a time-out. Check that this n8n can reach the ${baseUrlField.displayName} of the credential, or try again later.`,
	);
}

/** One request of a node run to one endpoint, with what every attempt of it needs. */
interface Call {
	ctx: RequestContext;
	endpoint: Endpoint;
	settings: ConnectionSettings;
	policy: RunPolicy;
	limiter: PlanLimiter;
	body?: IDataObject;
}

/**
 * The limiter a request takes its slot from: the rate scope's shared one once its login identity
 * is proven in this process (auth/proven.ts), else one of the identity's own, so that a credential
 * with made-up values sent at a shared scope never uses up the plan of the credentials that work.
 */
function limiterOf(call: Call, identity: string, proven: boolean): PlanLimiter {
	if (proven) return call.limiter;
	const { settings, endpoint } = call;
	return limiters.get(`${settings.rateScope}|${identity}`, endpoint, settings.requestsPerMinute);
}

/** The credential's Project Code, as an endpoint's project header carries it. */
const projectCodeOf = (settings: ConnectionSettings) =>
	String(settings.data.projectCode ?? '').trim();

/** An endpoint that needs the Project Code in a header, with a credential that has none. */
function missingProject(ctx: RequestContext, endpoint: Endpoint, itemIndex: number) {
	const header = ENDPOINTS[endpoint].projectHeader;
	return new NodeOperationError(
		ctx.getNode(),
		`The credential has no ${projectCodeField.displayName}: ${endpoint} needs it in its ${header} header`,
		{
			itemIndex,
			description: `Set the ${projectCodeField.displayName} of the Seller Platform API credential (the project_code of its key).`,
		},
	);
}

const JSON_TYPE = 'application/json';

/** The request to `url`, as n8n's helpers take it. */
function requestTo(call: Call, url: string): IHttpRequestOptions {
	const { method, projectHeader } = ENDPOINTS[call.endpoint];
	const headers: IDataObject = { Accept: JSON_TYPE, 'User-Agent': USER_AGENT };
	if (projectHeader) headers[projectHeader] = projectCodeOf(call.settings);
	const request: IHttpRequestOptions = {
		method,
		url,
		headers,
		json: true,
		// Read here within the size cap (answer.ts), not buffered whole by n8n's client.
		encoding: 'stream',
		timeout: RETRY_POLICY.requestTimeoutMs,
		disableFollowRedirect: true,
	};
	if (call.body) {
		// As JSON text with its type: n8n's helpers (1.x and 2.x) send an object body only when it
		// has a field, so `{}` would leave with no body and no Content-Type at all.
		headers['Content-Type'] = JSON_TYPE;
		request.body = JSON.stringify(call.body);
	}
	return request;
}

/**
 * One attempt: n8n's authenticated request, its answer (or the failure's) read within the size
 * cap before the deadline. Closing the connection (`own`) also ends a body nobody reads further.
 */
async function sendOnce(
	call: Call,
	url: string,
	data: ICredentialDataDecryptedObject,
	signal: AbortSignal,
): Promise<unknown> {
	const { ctx, settings } = call;
	const own = new AbortController();
	const stop = () => own.abort();
	let failed: unknown;
	try {
		const body = await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			CREDENTIAL_TYPE,
			withSignal(requestTo(call, url), AbortSignal.any([signal, own.signal])),
			{ credentialsDecrypted: { ...settings.credential, data } },
		);
		return await readCapped(body, 'API', stop);
	} catch (error) {
		failed = error;
	}
	await readErrorBody(failed, stop);
	throw failed;
}

/**
 * Sends the call to `url`: logged in, paced, repeated per pacing/retries.ts, each attempt's whole answer
 * within its deadline (a stop ends it at once). Gives the answer, or the failure with the session
 * cookies it may hold.
 */
async function sendTo(
	call: Call,
	url: string,
): Promise<{ answer: unknown } | { failed: unknown; secrets: string[] }> {
	const { ctx, settings, policy } = call;
	// Each request carries its own copy of the credential: when it is answered 401, the login
	// then knows which session it used (session.ts), however the 401s are spread over time.
	const data = { ...settings.data };
	const send = async () =>
		await withinDeadline(
			deadline(RETRY_POLICY.requestTimeoutMs, policy.signal),
			async (signal) => await sendOnce(call, url, data, signal),
			() => timedOut(call.endpoint),
		);
	let failed: unknown;
	try {
		noteLoginIdentity(policy, settings.data);
		await loginBeforePacing(ctx, settings.data, policy);
		const identity = loginFingerprint(settings.data);
		const repeatable = ENDPOINTS[call.endpoint].repeatable;
		const login = loginGate(identity, atGateway(settings.data));
		const paceAndSend = async () =>
			await paced(limiterOf(call, identity, login.proven()), send, policy, login);
		return { answer: await withRetries(repeatable, paceAndSend, policy) };
	} catch (error) {
		failed = error;
	} finally {
		adoptSession(settings.data, data);
	}
	return {
		failed,
		secrets: [...cookieSecrets(data.sessionCookie), ...cookieSecrets(settings.data.sessionCookie)],
	};
}

/**
 * Sends a request to an endpoint of the API and gives its JSON answer; any failure becomes one
 * NodeApiError (errors.ts). A redirect is followed only as `redirectStep` (url.ts) allows.
 */
export async function apiRequest(
	this: RequestContext,
	endpoint: Endpoint,
	options: ApiRequestOptions = {},
): Promise<IDataObject> {
	const itemIndex = options.itemIndex ?? 0;
	const settings = await connectionSettings(this, itemIndex);
	if (ENDPOINTS[endpoint].projectHeader && !projectCodeOf(settings))
		throw missingProject(this, endpoint, itemIndex);
	const limiter = limiters.get(settings.rateScope, endpoint, settings.requestsPerMinute);
	noteRunLimiter(this, limiter);
	const body = takesBody(endpoint) ? (options.body ?? {}) : undefined;
	const call: Call = { ctx: this, endpoint, settings, policy: runPolicy(this), limiter, body };
	let url = withQuery(
		buildUrl(settings.baseUrl, endpoint, options.pathParams, settings.prefixes),
		options.query,
	);
	for (let redirects = 0; ; redirects++) {
		const outcome = await sendTo(call, url);
		if ('answer' in outcome) return normaliseBody(outcome.answer);
		const context = {
			node: this.getNode(),
			endpoint,
			itemIndex,
			secrets: [...secretsIn(body), ...outcome.secrets],
		};
		const { httpStatus, location } = classify(outcome.failed);
		const redirected = httpStatus && httpStatus >= 300 && httpStatus < 400 && location;
		const step = redirected
			? redirectStep('request', location, url, redirects, httpStatus)
			: undefined;
		if (!step) throw apiError(outcome.failed, context);
		if ('refuse' in step) {
			throw apiError(new PolicyStop(step.refuse, step.description, httpStatus), context);
		}
		url = step.follow;
	}
}

/**
 * The session cookies of the run's credential (each value and the whole header): what a
 * successful answer that speaks of a failure (a batch row's status) must not show, should the
 * service echo them.
 */
export async function sessionSecrets(ctx: RequestContext, itemIndex = 0): Promise<string[]> {
	return cookieSecrets((await connectionSettings(ctx, itemIndex)).data.sessionCookie);
}

/** `url` with the query parameters appended (none: as it is). */
function withQuery(url: string, query?: Record<string, string>): string {
	const search = new URLSearchParams(query ?? {}).toString();
	return search ? `${url}?${search}` : url;
}

function normaliseBody(response: unknown): IDataObject {
	if (response === undefined || response === null || response === '') return {};
	if (typeof response === 'string') {
		try {
			return normaliseBody(JSON.parse(response));
		} catch {
			return { data: response };
		}
	}
	if (typeof response !== 'object' || Array.isArray(response))
		return { data: response as IDataObject[] };
	return response as IDataObject;
}
