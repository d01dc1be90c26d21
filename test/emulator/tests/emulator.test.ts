/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The emulator must be as strict as the real gateway, or the package's tests prove nothing. Kept
 * here: what the package's tests never send (bad tokens, missing cookies, odd paths), the rate
 * plan models' edge cases, and the fault specs it refuses. Over real HTTP.
 */
import { createPrivateKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';

import { SignJWT } from 'jose';

import {
	DEFAULT_RATE_PLAN,
	GRPC_CODES,
	LOGIN_PATH,
	SEEDED_PO,
	startEmulator,
	type CredentialFile,
	type EchoSpec,
	type Emulator,
	type GrpcCode,
} from '..';
import { SlidingWindowLimiter } from '../ratePlan';

const USER_AGENT = 'n8n-nodes-seller-platform-test';

let emulator: Emulator;

beforeAll(async () => {
	emulator = await startEmulator();
});

afterAll(() => emulator.close());

afterEach(() => {
	emulator.clearFaults();
	emulator.setRatePlan(DEFAULT_RATE_PLAN);
	emulator.setRequireJsonBody(true);
});

const otherKey = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

interface TokenOverrides {
	sub?: string;
	iat?: number;
	jti?: string;
	typ?: string;
	/** Signing key; default the credential's private key. */
	key?: KeyObject;
}

function signLoginToken(
	credential: CredentialFile,
	overrides: TokenOverrides = {},
): Promise<string> {
	return new SignJWT({ jti: overrides.jti ?? randomUUID() })
		.setProtectedHeader({ alg: 'RS256', typ: overrides.typ ?? 'JWT' })
		.setSubject(overrides.sub ?? credential.key_id)
		.setIssuedAt(overrides.iat ?? Math.floor(Date.now() / 1000))
		.sign(overrides.key ?? createPrivateKey(credential.private_key));
}

function postLogin(
	token: string,
	projectCode: string | undefined = emulator.projectCode,
): Promise<Response> {
	return fetch(`${emulator.baseUrl}${LOGIN_PATH}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT },
		body: JSON.stringify({ token, default_project_code: projectCode }),
	});
}

/** Logs in and returns the `Cookie` header made of every cookie the login set. */
async function login(credential: CredentialFile = emulator.credential): Promise<string> {
	const res = await postLogin(await signLoginToken(credential), credential.project_code);
	expect(res.status).toBe(200);
	return res.headers
		.getSetCookie()
		.map((cookie) => cookie.split(';')[0])
		.join('; ');
}

function getPurchaseOrder(poNr: string, cookie: string): Promise<Response> {
	return fetch(`${emulator.baseUrl}/fbpo/v1/po/${encodeURIComponent(poNr)}/get`, {
		headers: { cookie, 'user-agent': USER_AGENT },
	});
}

async function expectError(
	res: Response,
	code: GrpcCode,
	message?: string | RegExp,
): Promise<void> {
	expect(res.status).toBe(GRPC_CODES[code].http);
	expect(res.headers.get('content-type')).toBe('application/json');
	expect(await res.json()).toEqual({
		status_id: GRPC_CODES[code].id,
		status_code: code,
		message: message === undefined ? expect.any(String) : expect.stringMatching(message),
		details: [],
	});
}

describe('login', () => {
	const now = () => Math.floor(Date.now() / 1000);
	it.each<[string, () => Promise<TokenOverrides>, RegExp]>([
		[
			'a token signed with another key',
			async () => ({ key: otherKey() }),
			/invalid token signature/,
		],
		['an iat 10 minutes old', async () => ({ iat: now() - 600 }), /iat/],
		['a typ other than JWT', async () => ({ typ: 'at+jwt' }), /typ/],
		[
			'an unknown key id',
			async () => ({ sub: `noon-partners-key-id-${'0'.repeat(32)}` }),
			/unknown key id/,
		],
	])('rejects %s', async (_what, overrides, message) => {
		const token = await signLoginToken(emulator.credential, await overrides());
		await expectError(await postLogin(token), 'UNAUTHENTICATED', message);
	});

	it('rejects a replayed jti', async () => {
		const token = await signLoginToken(emulator.credential);
		expect((await postLogin(token)).status).toBe(200);
		await expectError(await postLogin(token), 'UNAUTHENTICATED', /replayed/);
	});

	it('rejects an expired credential, and one used from an address it does not list', async () => {
		const expired = await emulator.addCredential({ expiresAt: new Date(Date.now() - 60_000) });
		await expectError(
			await postLogin(await signLoginToken(expired)),
			'UNAUTHENTICATED',
			/credential expired/,
		);
		const elsewhere = await emulator.addCredential({ whitelistedIps: ['10.20.30.40'] });
		await expectError(
			await postLogin(await signLoginToken(elsewhere)),
			'UNAUTHENTICATED',
			/not whitelisted/,
		);
		const local = await emulator.addCredential({ whitelistedIps: ['10.20.30.40', '127.0.0.1'] });
		expect((await postLogin(await signLoginToken(local))).status).toBe(200);
	});
});

describe('sessions', () => {
	it('needs both cookies', async () => {
		const [first, second] = (await login()).split('; ');
		await expectError(await getPurchaseOrder(SEEDED_PO.released, first), 'UNAUTHENTICATED');
		await expectError(await getPurchaseOrder(SEEDED_PO.released, second), 'UNAUTHENTICATED');
		await expectError(await getPurchaseOrder(SEEDED_PO.released, ''), 'UNAUTHENTICATED');
		const forged = `${first}; ${second.split('=')[0]}=forged`;
		await expectError(await getPurchaseOrder(SEEDED_PO.released, forged), 'UNAUTHENTICATED');
	});

	it('ends a session after sessionTtlMs', async () => {
		// 1 s: the first request comes within a few ms of the login, even on a loaded machine.
		const shortLived = await startEmulator({ sessionTtlMs: 1000 });
		try {
			const res = await fetch(`${shortLived.baseUrl}${LOGIN_PATH}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT },
				body: JSON.stringify({ token: await signLoginToken(shortLived.credential) }),
			});
			expect(res.status).toBe(200);
			const cookie = res.headers
				.getSetCookie()
				.map((c) => c.split(';')[0])
				.join('; ');
			const get = () =>
				fetch(`${shortLived.baseUrl}/fbpo/v1/po/${SEEDED_PO.released}/get`, {
					headers: { cookie, 'user-agent': USER_AGENT },
				});
			expect((await get()).status).toBe(200);
			await new Promise((resolve) => setTimeout(resolve, 1100));
			await expectError(await get(), 'UNAUTHENTICATED');
		} finally {
			await shortLived.close();
		}
	});
});

describe('GetPurchaseOrder', () => {
	let cookie: string;
	beforeAll(async () => {
		cookie = await login();
	});

	it('decodes path segments after splitting: ..%2Fx is a po_nr, not a path', async () => {
		emulator.clearRequests();
		const res = await fetch(`${emulator.baseUrl}/fbpo/v1/po/..%2Fx/get`, {
			headers: { cookie, 'user-agent': USER_AGENT },
		});
		await expectError(res, 'NOT_FOUND', /"\.\.\/x"/);
		const [entry] = emulator.requests();
		expect(entry).toMatchObject({
			path: '/fbpo/v1/po/..%2Fx/get',
			operation: 'GetPurchaseOrder',
			status: 404,
		});
	});

	it('answers an unknown route with 404 and the error body', async () => {
		await expectError(
			await fetch(`${emulator.baseUrl}/fbpo/v1/nothing`, {
				headers: { cookie, 'user-agent': USER_AGENT },
			}),
			'NOT_FOUND',
		);
	});

	it('rejects a request without User-Agent', async () => {
		const res = await fetch(`${emulator.baseUrl}/fbpo/v1/po/${SEEDED_PO.released}/get`, {
			headers: { cookie, 'user-agent': '' },
		});
		await expectError(res, 'INVALID_ARGUMENT', /User-Agent header is required/);
	});
});

describe('JSON bodies, as a gateway strict to the reference', () => {
	const LIST_WAREHOUSES = '/warehouse_platform/v1/warehouses/list';
	let cookie: string;
	beforeAll(async () => {
		cookie = await login();
	});

	const listWarehouses = (headers: Record<string, string>, body?: string) =>
		fetch(`${emulator.baseUrl}${LIST_WAREHOUSES}`, {
			method: 'POST',
			headers: { cookie, 'user-agent': USER_AGENT, ...headers },
			body,
		});

	/** A 415 with the service's error body and its message. */
	async function expect415(res: Response, message: string): Promise<void> {
		expect(res.status).toBe(415);
		expect(res.headers.get('content-type')).toBe('application/json');
		expect(await res.json()).toEqual({
			status_id: GRPC_CODES.INVALID_ARGUMENT.id,
			status_code: 'INVALID_ARGUMENT',
			message,
			details: [],
		});
	}

	const wanted = `POST ${LIST_WAREHOUSES} takes a JSON body (Content-Type: application/json, {} when empty)`;

	it('answers 415 to a body endpoint without a body or without a JSON Content-Type', async () => {
		await expect415(
			await listWarehouses({}),
			`unsupported media type: ${wanted}, got no Content-Type`,
		);
		await expect415(
			await listWarehouses({ 'content-type': 'text/plain' }, '{}'),
			`unsupported media type: ${wanted}, got Content-Type "text/plain"`,
		);
		await expect415(
			await listWarehouses({ 'content-type': 'application/json' }),
			`request body required: ${wanted}, got none`,
		);
		// The login too: a public endpoint, still one that takes a body.
		const login = await fetch(`${emulator.baseUrl}${LOGIN_PATH}`, {
			method: 'POST',
			headers: { 'user-agent': USER_AGENT },
			body: JSON.stringify({ token: await signLoginToken(emulator.credential) }),
		});
		expect(login.status).toBe(415);
		// The request log shows what came: the headers and the (missing) body.
		const logged = emulator.requests().filter((r) => r.operation === 'ListWarehouses');
		expect(logged.slice(-3).map((r) => [r.status, r.headers['content-type'], r.body])).toEqual([
			[415, undefined, null],
			[415, 'text/plain', {}],
			[415, 'application/json', null],
		]);
	});

	it('takes {} with a JSON Content-Type (parameters allowed); a GET needs neither', async () => {
		const res = await listWarehouses({ 'content-type': 'Application/JSON; charset=utf-8' }, '{}');
		expect(res.status).toBe(200);
		expect(((await res.json()) as { warehouses: unknown[] }).warehouses).toHaveLength(5);
		expect((await getPurchaseOrder(SEEDED_PO.released, cookie)).status).toBe(200);
	});

	it('is relaxed only by its control knob (a body-less request then counts as {})', async () => {
		const control = (body: unknown) =>
			fetch(`${emulator.controlUrl}/json-body`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
		expect((await control({ required: false })).status).toBe(200);
		expect((await listWarehouses({})).status).toBe(200);
		await expectError(
			await control({ required: 'no' }),
			'INVALID_ARGUMENT',
			'required must be a boolean',
		);
		expect((await control({ required: true })).status).toBe(200);
		expect((await listWarehouses({})).status).toBe(415);
	});
});

describe('rate plan', () => {
	it('is a strict sliding window', () => {
		const limiter = new SlidingWindowLimiter({ limit: 2, windowMs: 1000 });
		const exceeded = [{ kind: 'sliding', limit: 2, windowMs: 1000 }];
		expect(limiter.take('k', 0)).toEqual({ allowed: true });
		expect(limiter.take('k', 10)).toEqual({ allowed: true });
		expect(limiter.take('k', 20)).toEqual({ allowed: false, retryAfterMs: 980, exceeded });
		expect(limiter.take('other', 20)).toEqual({ allowed: true });
		expect(limiter.take('k', 999)).toEqual({ allowed: false, retryAfterMs: 1, exceeded });
		expect(limiter.take('k', 1000)).toEqual({ allowed: true });
		expect(limiter.take('k', 1005)).toEqual({ allowed: false, retryAfterMs: 5, exceeded });
	});

	it('strict: admits limit/6 per aligned fixed sixth of the window, per key', () => {
		// 12 per 6000 ms: fixed windows [0, 1000), [1000, 2000), ... of at most 2 each.
		const limiter = new SlidingWindowLimiter({ limit: 12, windowMs: 6000, model: 'strict' });
		const fixed = [{ kind: 'fixed', limit: 2, windowMs: 1000 }];
		expect(limiter.take('k', 100)).toEqual({ allowed: true });
		expect(limiter.take('k', 200)).toEqual({ allowed: true });
		// The third inside [0, 1000) waits until that window ends, not for the sliding window.
		expect(limiter.take('k', 300)).toEqual({ allowed: false, retryAfterMs: 700, exceeded: fixed });
		expect(limiter.take('k', 999)).toEqual({ allowed: false, retryAfterMs: 1, exceeded: fixed });
		expect(limiter.take('other', 300)).toEqual({ allowed: true });
		// The next sixth admits again: the refused requests counted nowhere.
		expect(limiter.take('k', 1000)).toEqual({ allowed: true });
		expect(limiter.take('k', 1500)).toEqual({ allowed: true });
		expect(limiter.take('k', 1999)).toEqual({ allowed: false, retryAfterMs: 1, exceeded: fixed });
		expect(limiter.take('k', 2000)).toEqual({ allowed: true });
		// Windows are aligned to the clock, not to the first request.
		const late = new SlidingWindowLimiter({ limit: 12, windowMs: 6000, model: 'strict' });
		expect(late.take('k', 5900)).toEqual({ allowed: true });
		expect(late.take('k', 5950)).toEqual({ allowed: true });
		expect(late.take('k', 5960)).toEqual({ allowed: false, retryAfterMs: 40, exceeded: fixed });
		expect(late.take('k', 6000)).toEqual({ allowed: true });
		expect(late.take('k', 6001)).toEqual({ allowed: true });
		expect(late.take('k', 6002)).toEqual({ allowed: false, retryAfterMs: 998, exceeded: fixed });
		// A new plan starts from a clean slate, fixed windows included.
		late.setPlan({ limit: 12, windowMs: 6000, model: 'strict' });
		expect(late.take('k', 6003)).toEqual({ allowed: true });
	});

	it('strict: admits at least 1 per fixed window when limit < 6', () => {
		const limiter = new SlidingWindowLimiter({ limit: 5, windowMs: 600, model: 'strict' });
		expect(limiter.take('k', 0)).toEqual({ allowed: true });
		expect(limiter.take('k', 50)).toEqual({
			allowed: false,
			retryAfterMs: 50,
			exceeded: [{ kind: 'fixed', limit: 1, windowMs: 100 }],
		});
		expect(limiter.take('k', 100)).toEqual({ allowed: true });
	});

	it('strict: the sliding limit still binds across sixths; refused by both, waits the longer', () => {
		const limiter = new SlidingWindowLimiter({ limit: 12, windowMs: 6000, model: 'strict' });
		const sliding = { kind: 'sliding', limit: 12, windowMs: 6000 };
		const fixed = { kind: 'fixed', limit: 2, windowMs: 1000 };
		for (const t of [900, 950, 1500, 1501, 2000, 2001, 3000, 3001, 4000, 4001, 5000, 5001])
			expect(limiter.take('k', t)).toEqual({ allowed: true });
		// A fresh sixth, but 12 accepted in the last 6000 ms: wait until 900 ages out.
		expect(limiter.take('k', 6000)).toEqual({
			allowed: false,
			retryAfterMs: 900,
			exceeded: [sliding],
		});
		expect(limiter.take('k', 6899)).toEqual({
			allowed: false,
			retryAfterMs: 1,
			exceeded: [sliding],
		});
		expect(limiter.take('k', 6900)).toEqual({ allowed: true });
		expect(limiter.take('k', 6950)).toEqual({ allowed: true });
		// Both spent: the fixed window ends at 7000, but 1500 leaves the sliding window only at 7500.
		expect(limiter.take('k', 6960)).toEqual({
			allowed: false,
			retryAfterMs: 540,
			exceeded: [sliding, fixed],
		});
	});

	it("an operation's own plan: its window and its burst window, in the emulator's model", () => {
		const limiter = new SlidingWindowLimiter({ limit: 1500, windowMs: 60_000 });
		const own = { limit: 4, windowMs: 6000, burst: { limit: 2, windowMs: 3000 } };
		const burst = [{ kind: 'sliding', limit: 2, windowMs: 3000 }];
		expect(limiter.take('k', 0, own)).toEqual({ allowed: true });
		expect(limiter.take('k', 100, own)).toEqual({ allowed: true });
		expect(limiter.take('k', 200, own)).toEqual({
			allowed: false,
			retryAfterMs: 2800,
			exceeded: burst,
		});
		expect(limiter.take('k', 3000, own)).toEqual({ allowed: true });
		expect(limiter.take('k', 3100, own)).toEqual({ allowed: true });
		// 4 in the last 6000 ms: the window binds (and the burst too, until 6000).
		expect(limiter.take('k', 5000, own)).toEqual({
			allowed: false,
			retryAfterMs: 1000,
			exceeded: [{ kind: 'sliding', limit: 4, windowMs: 6000 }, ...burst],
		});
		// At 6000 the start at 0 has left both windows; the one at 100 leaves the window at 6100.
		expect(limiter.take('k', 6000, own)).toEqual({ allowed: true });
		expect(limiter.take('k', 6050, own)).toMatchObject({ allowed: false, retryAfterMs: 50 });
		// The emulator's plan is not the operation's: another key without its own plan admits.
		expect(limiter.take('other', 200)).toEqual({ allowed: true });
		// Strict: the own plan's sixths too (1 per 1000 ms); off: nothing binds.
		const strict = new SlidingWindowLimiter({ limit: 1500, windowMs: 60_000, model: 'strict' });
		expect(strict.take('k', 0, { limit: 6, windowMs: 6000 })).toEqual({ allowed: true });
		expect(strict.take('k', 10, { limit: 6, windowMs: 6000 })).toMatchObject({ allowed: false });
		const off = new SlidingWindowLimiter(null);
		for (let i = 0; i < 5; i++) expect(off.take('k', i, own)).toEqual({ allowed: true });
	});

	it('sliding-10s, fixed-10s, fixed-60s: one window each, of a sixth of the plan or the whole', () => {
		// 12 per 6000 ms: a sixth is 2 per 1000 ms.
		const sixth = (kind: string) => [{ kind, limit: 2, windowMs: 1000 }];
		const sliding = new SlidingWindowLimiter({ limit: 12, windowMs: 6000, model: 'sliding-10s' });
		expect(sliding.take('k', 900)).toEqual({ allowed: true });
		expect(sliding.take('k', 950)).toEqual({ allowed: true });
		// In any 1000 ms: the next sixth of the clock does not admit, the start at 900 leaves at 1900.
		const slidingExceeded = sixth('sliding');
		expect(sliding.take('k', 1000)).toEqual({
			allowed: false,
			retryAfterMs: 900,
			exceeded: slidingExceeded,
		});
		expect(sliding.take('k', 1900)).toEqual({ allowed: true });
		// No limit on the whole window: 2 per 1000 ms for 6000 ms and more.
		for (let t = 3000; t < 10_000; t += 500)
			expect(sliding.take('k', t)).toEqual({ allowed: true });

		const fixed = new SlidingWindowLimiter({ limit: 12, windowMs: 6000, model: 'fixed-10s' });
		expect(fixed.take('k', 900)).toEqual({ allowed: true });
		expect(fixed.take('k', 950)).toEqual({ allowed: true });
		expect(fixed.take('k', 960)).toEqual({
			allowed: false,
			retryAfterMs: 40,
			exceeded: sixth('fixed'),
		});
		// A new aligned window admits at once, however recent the last ones.
		expect(fixed.take('k', 1000)).toEqual({ allowed: true });
		expect(fixed.take('k', 1001)).toEqual({ allowed: true });
		for (let t = 2000; t < 9000; t += 500) expect(fixed.take('k', t)).toEqual({ allowed: true });

		const minute = new SlidingWindowLimiter({ limit: 12, windowMs: 6000, model: 'fixed-60s' });
		for (let i = 0; i < 12; i++) expect(minute.take('k', 5000 + i)).toEqual({ allowed: true });
		expect(minute.take('k', 5500)).toEqual({
			allowed: false,
			retryAfterMs: 500,
			exceeded: [{ kind: 'fixed', limit: 12, windowMs: 6000 }],
		});
		// 12 more right after the window's end: 24 within 1 s, as a fixed window allows.
		for (let i = 0; i < 12; i++) expect(minute.take('k', 6000 + i)).toEqual({ allowed: true });
		expect(minute.take('k', 6100)).toMatchObject({ allowed: false, retryAfterMs: 5900 });
	});

	it('refuses an invalid model among the emulator options', async () => {
		// Closed again should it start, so a failure here cannot keep Jest running.
		const started = startEmulator({
			ratePlan: { limit: 6, windowMs: 60, model: 'fixed' as never },
		}).then(async (other) => (await other.close(), other));
		await expect(started).rejects.toThrow(
			'rate plan model must be one of sliding, strict, sliding-10s, fixed-10s, fixed-60s',
		);
	});
});

describe('faults', () => {
	it('refuses a fault it cannot carry out', () => {
		expect(() => emulator.injectFaults({ count: 1, echo: true })).toThrow(
			'a fault needs status, delayMs, reset, lostAnswer, redirect, hang, trickleMs, answer or huge',
		);
		expect(() => emulator.injectFaults({ count: 1, redirect: { location: '' } })).toThrow(
			'fault redirect needs a location',
		);
		expect(() => emulator.injectFaults({ count: 1, status: 500, answer: { array: true } })).toThrow(
			'an answer fault reshapes the operation',
		);
		expect(() => emulator.injectFaults({ count: 1, answer: { wrap: 'result' } as never })).toThrow(
			'fault answer wrap must be an array of field names',
		);
		expect(() => emulator.injectFaults({ count: 1, huge: { megabytes: 0 } })).toThrow(
			'fault huge.megabytes must be a number from 1 to 4096',
		);
		expect(() =>
			emulator.injectFaults({ count: 1, huge: { megabytes: 1 }, trickleMs: 10 }),
		).toThrow('a huge answer takes no hang, reset, redirect or trickleMs');
		expect(() => emulator.injectFaults({ count: 1, hang: true, status: 503 })).toThrow(
			'a hanging fault never answers: it takes no status, reset, redirect or trickleMs',
		);
		for (const trickleMs of [0, 60_001, Number.NaN]) {
			expect(() => emulator.injectFaults({ count: 1, trickleMs })).toThrow(
				'fault trickleMs must be a number of ms from 1 to 60000',
			);
		}
		expect(() => emulator.injectFaults({ count: 1, hang: 'yes' as never })).toThrow(
			'fault hang must be a boolean',
		);
	});
});

describe("the emulator's echo", () => {
	it('refuses an echo it cannot make', async () => {
		const inject = (echo: unknown) =>
			emulator.injectFaults({ count: 1, status: 400, echo: echo as EchoSpec });
		expect(() => inject({ field: 'cookie' })).toThrow(
			'fault echo field must be one of message, status_code, details, text',
		);
		expect(() => inject({ encoding: 'rot13' })).toThrow(
			'fault echo encoding must be one of raw, hex, url, base64, base64url',
		);
		expect(() => inject({ at: -1 })).toThrow('fault echo at must be an integer from 0 to 1000000');
		expect(() => inject('yes')).toThrow('fault echo must be a boolean or an object');
	});
});

describe('control API', () => {
	const control = (path: string, init?: RequestInit) =>
		fetch(`${emulator.controlUrl}${path}`, init);
	/** Sets the emulator's rate plan over HTTP (POST /rate-plan with `body` as JSON). */
	const postRatePlan = (body: unknown) =>
		control('/rate-plan', {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});

	it('sets a strict rate plan over HTTP: 429 beyond a fixed sixth, 400 for an unknown model', async () => {
		const cookie = await login();
		// Sixths of 10^9 ms (11.6 days): the three requests share one fixed window; 2 fit in it.
		const windowMs = 6_000_000_000;
		const sixth = windowMs / 6;
		expect((await postRatePlan({ limit: 12, windowMs, model: 'strict' })).status).toBe(200);
		for (let i = 0; i < 2; i++)
			expect((await getPurchaseOrder(SEEDED_PO.released, cookie)).status).toBe(200);
		const sentAt = Date.now();
		const limited = await getPurchaseOrder(SEEDED_PO.released, cookie);
		const answeredAt = Date.now();
		// Retry-After runs to the end of the fixed window (the sliding one would say ~6 * 10^6 s).
		const windowEnd = (Math.floor(answeredAt / sixth) + 1) * sixth;
		const retryAfter = Number(limited.headers.get('retry-after'));
		expect(retryAfter).toBeGreaterThanOrEqual(Math.ceil((windowEnd - answeredAt) / 1000));
		expect(retryAfter).toBeLessThanOrEqual(Math.ceil((windowEnd - sentAt) / 1000));
		await expectError(
			limited,
			'RESOURCE_EXHAUSTED',
			`rate plan exceeded for GetPurchaseOrder: at most 2 requests per ${sixth} ms window, retry in ${retryAfter} s`,
		);

		// The same plan as a sliding window admits the third.
		expect((await postRatePlan({ limit: 12, windowMs, model: 'sliding' })).status).toBe(200);
		for (let i = 0; i < 3; i++)
			expect((await getPurchaseOrder(SEEDED_PO.released, cookie)).status).toBe(200);

		await expectError(
			await postRatePlan({ limit: 12, windowMs, model: 'fixed' }),
			'INVALID_ARGUMENT',
			'rate plan model must be one of sliding, strict, sliding-10s, fixed-10s, fixed-60s',
		);
		await expectError(
			await postRatePlan({ limit: 12, windowMs, model: 6 }),
			'INVALID_ARGUMENT',
			'rate plan model must be one of sliding, strict, sliding-10s, fixed-10s, fixed-60s',
		);
		// The refused plans left the sliding one in place: its 4th request in the window is allowed.
		expect((await getPurchaseOrder(SEEDED_PO.released, cookie)).status).toBe(200);
	});

	it('answers 429 without Retry-After when the plan says so (retryAfter: false)', async () => {
		const cookie = await login();
		const windowMs = 6_000_000_000;
		expect(
			(await postRatePlan({ limit: 6, windowMs, model: 'fixed-10s', retryAfter: false })).status,
		).toBe(200);
		expect((await getPurchaseOrder(SEEDED_PO.released, cookie)).status).toBe(200);
		const limited = await getPurchaseOrder(SEEDED_PO.released, cookie);
		expect(limited.headers.get('retry-after')).toBeNull();
		await expectError(
			limited,
			'RESOURCE_EXHAUSTED',
			`rate plan exceeded for GetPurchaseOrder: at most 1 requests per ${windowMs / 6} ms window`,
		);
		await expectError(
			await postRatePlan({ limit: 6, windowMs, retryAfter: 'no' }),
			'INVALID_ARGUMENT',
			'rate plan retryAfter must be true or false',
		);
		expect((await postRatePlan({ limit: 1500, windowMs: 60_000 })).status).toBe(200);
	});
});
