/**
 * The Seller Platform login: an RS256 JWT signed with the credential's private key, posted to
 * the login endpoint; the session lives in the cookies the 200 answer sets.
 *
 * Used by the credential's `preAuthentication`, so n8n runs it when the stored session is empty,
 * when a request answers 401, and when the user presses "Test". Nothing here ever puts the private
 * key, the JWT or a cookie into an error message.
 */
import { createHash, createPrivateKey, randomUUID, type KeyObject } from 'crypto';
import { SignJWT } from 'jose';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
} from 'n8n-workflow';

import { LOGIN_PATH, USER_AGENT } from './constants';
import { joinUrl, parseErrorBody } from './url';

/**
 * A failed login, carrying the service's answer but no secret. Its fields are deliberately not
 * named `httpCode`, `statusCode` or `status`: n8n wraps errors of `preAuthentication` in a
 * NodeApiError, which would then replace the service's message with a generic one.
 */
export class SellerPlatformLoginError extends Error {
	readonly httpStatus?: number;
	readonly serviceStatusCode?: string;
	readonly serviceStatusId?: number;
	readonly serviceDetails?: unknown[];
	readonly description: string;

	constructor(
		message: string,
		info: {
			httpCode?: number;
			statusCode?: string;
			statusId?: number;
			details?: unknown[];
			description?: string;
		} = {},
	) {
		super(message);
		this.name = 'SellerPlatformLoginError';
		this.httpStatus = info.httpCode;
		this.serviceStatusCode = info.statusCode;
		this.serviceStatusId = info.statusId;
		this.serviceDetails = info.details;
		this.description =
			info.description ??
			'Check the Key ID, Private Key and Project Code of the Seller Platform API credential.';
	}
}

const PEM_HINT =
	'paste the whole PEM block, including the "-----BEGIN PRIVATE KEY-----" (PKCS#8) or "-----BEGIN RSA PRIVATE KEY-----" (PKCS#1) line';

/**
 * Reads the credential's private key. Accepts PKCS#8 and PKCS#1 PEM, keys pasted with literal
 * `\n` sequences (as they appear inside the credentials JSON file), surrounding quotes and
 * Windows line ends. Throws a message that names the field and never echoes the key.
 */
export function parsePrivateKey(raw: unknown): KeyObject {
	if (typeof raw !== 'string' || raw.trim() === '') {
		throw new SellerPlatformLoginError('The "Private Key" field of the credential is empty', {
			description: `Copy private_key from the credentials file the seller portal gave you: ${PEM_HINT}.`,
		});
	}
	let pem = raw.trim();
	if (/^["'].*["']$/s.test(pem)) pem = pem.slice(1, -1);
	pem = pem.replace(/\\r/g, '').replace(/\\n/g, '\n').replace(/\r\n?/g, '\n').trim();

	const key = tryCreatePrivateKey(pem);
	if (!key) {
		throw new SellerPlatformLoginError(
			'The "Private Key" field of the credential is not a valid PEM private key',
			{ description: `The key could not be read: ${PEM_HINT}.` },
		);
	}
	if (key.asymmetricKeyType !== 'rsa') {
		throw new SellerPlatformLoginError(
			`The "Private Key" field of the credential holds a ${key.asymmetricKeyType ?? 'non-RSA'} key, but the login needs an RSA key`,
			{ description: `The service signs logins with RS256: ${PEM_HINT}.` },
		);
	}
	return key;
}

function tryCreatePrivateKey(pem: string): KeyObject | undefined {
	try {
		return createPrivateKey({ key: pem, format: 'pem' });
	} catch {
		// Deliberately dropped: OpenSSL's message says nothing useful and must not echo the key.
		return undefined;
	}
}

/** Builds the login JWT exactly as the spec says: header alg/typ, claims sub, iat, jti. */
export async function signLoginToken(
	keyId: string,
	privateKey: KeyObject,
	nowMs: number = Date.now(),
): Promise<string> {
	return await new SignJWT({ jti: randomUUID() })
		.setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
		.setSubject(keyId)
		.setIssuedAt(Math.floor(nowMs / 1000))
		.sign(privateKey);
}

/** `name=value` of every cookie a response sets, joined for a `Cookie` header. */
export function cookieHeaderFromSetCookie(setCookie: unknown): string {
	const list = Array.isArray(setCookie) ? setCookie : typeof setCookie === 'string' ? [setCookie] : [];
	const pairs = new Map<string, string>();
	for (const entry of list) {
		const pair = String(entry).split(';', 1)[0].trim();
		const eq = pair.indexOf('=');
		if (eq <= 0) continue;
		pairs.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
	}
	return [...pairs].map(([name, value]) => `${name}=${value}`).join('; ');
}

function requireField(credentials: ICredentialDataDecryptedObject, field: string, label: string) {
	const value = credentials[field];
	if (typeof value !== 'string' || value.trim() === '') {
		throw new SellerPlatformLoginError(`The "${label}" field of the credential is empty`);
	}
	return value.trim();
}

type LoginResponse = { statusCode: number; headers: IDataObject; body: unknown } | { networkError: string };

async function postLogin(ctx: IHttpRequestHelper, url: string, body: IDataObject): Promise<LoginResponse> {
	try {
		return (await ctx.helpers.httpRequest({
			method: 'POST',
			url,
			body,
			json: true,
			headers: { Accept: 'application/json', 'User-Agent': USER_AGENT },
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		})) as LoginResponse;
	} catch (error) {
		// A transport failure: the HTTP client's error carries the request, and so the JWT. Keep
		// only its code; the caller reports it.
		return { networkError: String((error as { code?: string }).code ?? 'network error') };
	}
}

/**
 * Logs in and returns the session as the credential's expirable property. Success only on 200.
 */
export async function login(
	this: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	const keyId = requireField(credentials, 'keyId', 'Key ID');
	const privateKey = parsePrivateKey(credentials.privateKey);
	const projectCode = typeof credentials.projectCode === 'string' ? credentials.projectCode.trim() : '';
	const baseUrl = requireField(credentials, 'baseUrl', 'Base URL');
	const token = await signLoginToken(keyId, privateKey);

	const body: IDataObject = { token };
	if (projectCode) body.default_project_code = projectCode;

	const response = await postLogin(this, joinUrl(baseUrl, LOGIN_PATH), body);
	if ('networkError' in response) {
		throw new SellerPlatformLoginError(
			`Could not reach the Seller Platform login at ${baseUrl}: ${response.networkError}`,
			{ description: 'Check the Base URL of the credential and that this n8n can reach it.' },
		);
	}
	if (response.statusCode !== 200) {
		const parsed = parseErrorBody(response.body);
		const message = (parsed.message ?? `HTTP ${response.statusCode}`).split(token).join('<jwt>');
		if (parsed.details) parsed.details = JSON.parse(JSON.stringify(parsed.details).split(token).join('<jwt>')) as unknown[];
		throw new SellerPlatformLoginError(`Seller Platform login failed: ${message}`, {
			httpCode: response.statusCode,
			statusCode: parsed.status_code,
			statusId: parsed.status_id,
			details: parsed.details,
		});
	}

	const sessionCookie = cookieHeaderFromSetCookie(response.headers['set-cookie']);
	if (!sessionCookie) {
		throw new SellerPlatformLoginError(
			'Seller Platform login answered 200 but set no session cookie',
			{ httpCode: 200, description: 'Check that the Base URL points at the Seller Platform gateway.' },
		);
	}
	return { sessionCookie, sessionFingerprint: loginFingerprint(credentials) };
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
const inFlight = new Map<string, Promise<IDataObject>>();
const newestSession = new Map<string, string>();
/** Sessions this process replaced by a newer login (bounded): known to be older than the newest. */
const retiredSessions = new Map<string, Set<string>>();
const MAX_RETIRED_SESSIONS = 50;

function retire(identity: string, session: string | undefined) {
	if (!session) return;
	const retired = retiredSessions.get(identity) ?? new Set<string>();
	retired.add(session);
	if (retired.size > MAX_RETIRED_SESSIONS) retired.delete(retired.values().next().value as string);
	retiredSessions.set(identity, retired);
}

/**
 * A digest of what a login depends on (base URL, key id, key, project). Stored beside the session
 * so a session obtained with other values (the user edited the credential) is not used.
 */
const fingerprints = new WeakMap<object, { source: string; digest: string }>();

export function loginFingerprint(credentials: ICredentialDataDecryptedObject): string {
	const source = ['baseUrl', 'keyId', 'privateKey', 'projectCode']
		.map((k) => String(credentials[k] ?? '').trim())
		.join('\u0000');
	// n8n hands the same credentials object to every request of a run: hash each one once.
	const cached = fingerprints.get(credentials);
	if (cached?.source === source) return cached.digest;
	const digest = createHash('sha256').update(source).digest('hex');
	fingerprints.set(credentials, { source, digest });
	return digest;
}

export async function sharedLogin(
	this: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	const identity = loginFingerprint(credentials);
	const running = inFlight.get(identity);
	if (running) return await running;

	// A caller without a session, or with one this process knows to be older than its newest,
	// takes the newest. (A session this process does not know may come from another n8n process
	// and be fresher than ours: then a real login follows.) Should the newest have expired too,
	// the service answers 401 and the caller comes back with it, which logs in below.
	const used = typeof credentials.sessionCookie === 'string' ? credentials.sessionCookie : '';
	const newest = newestSession.get(identity);
	if (newest && used !== newest && (!used || retiredSessions.get(identity)?.has(used))) {
		return { sessionCookie: newest, sessionFingerprint: identity };
	}

	const pending = login.call(this, credentials);
	inFlight.set(identity, pending);
	try {
		const result = await pending;
		retire(identity, newestSession.get(identity));
		retire(identity, used);
		newestSession.set(identity, String(result.sessionCookie));
		return result;
	} finally {
		inFlight.delete(identity);
	}
}

function isLoginRequest(options: IHttpRequestOptions): boolean {
	const target = `${options.baseURL ?? ''}${options.url}`.split('?')[0];
	return target.replace(/\/+$/, '').endsWith(LOGIN_PATH);
}

/**
 * The credential's `authenticate`, run by n8n just before every request it sends for us:
 * - a request to the login endpoint (the credential's "Test") gets a freshly signed token, so
 *   "Test" always performs a real login with the values in the form;
 * - any other request gets the session cookies, unless they were obtained with other credential
 *   values: then none are sent, the service answers 401 and n8n logs in again with the new values.
 */
export async function authenticateRequest(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const options: IHttpRequestOptions = { ...requestOptions, headers: { ...(requestOptions.headers ?? {}) } };
	if (isLoginRequest(options)) {
		const keyId = requireField(credentials, 'keyId', 'Key ID');
		const token = await signLoginToken(keyId, parsePrivateKey(credentials.privateKey));
		const projectCode = typeof credentials.projectCode === 'string' ? credentials.projectCode.trim() : '';
		options.body = projectCode ? { token, default_project_code: projectCode } : { token };
		options.json = true;
		return options;
	}
	const session = typeof credentials.sessionCookie === 'string' ? credentials.sessionCookie : '';
	if (session && credentials.sessionFingerprint === loginFingerprint(credentials)) {
		options.headers!.Cookie = session;
	}
	return options;
}
