/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The emulator must be as strict as the real gateway, or the package's tests prove nothing.
 * These tests talk to it over real HTTP.
 */
import { createPrivateKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';

import { SignJWT } from 'jose';

import {
	DEFAULT_RATE_PLAN,
	GRPC_CODES,
	LOGIN_PATH,
	SEEDED_PO,
	SEEDED_PO_NUMBERS,
	startEmulator,
	type CredentialFile,
	type EchoSpec,
	type Emulator,
	type GrpcCode,
} from '..';
import { SlidingWindowLimiter, validateRatePlan } from '../ratePlan';

const USER_AGENT = 'n8n-nodes-seller-platform-test';

let emulator: Emulator;

beforeAll(async () => {
	emulator = await startEmulator();
});

afterAll(() => emulator.close());

afterEach(() => {
	emulator.clearFaults();
	emulator.setRatePlan(DEFAULT_RATE_PLAN);
});

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

describe('provisioning', () => {
	it('hands out a portal-style credential', () => {
		const { credential } = emulator;
		expect(emulator.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(credential).toEqual({
			key_id: expect.stringMatching(/^noon-partners-key-id-[0-9a-f]{32}$/),
			private_key: expect.stringContaining('-----BEGIN PRIVATE KEY-----'),
			project_code: emulator.projectCode,
			channel_identifier: expect.stringMatching(/^n8n-emulator@p\d+\.idp\.noon\.partners$/),
			type: 'apijwt',
			issued_at: expect.any(String),
		});
		expect(emulator.projectCode).toMatch(/^PRJ\d+$/);
		expect(emulator.publicKeyPem).toContain('-----BEGIN PUBLIC KEY-----');
	});
});

describe('login', () => {
	it('accepts a valid JWT, sets two cookies, and the session reads a purchase order', async () => {
		const res = await postLogin(await signLoginToken(emulator.credential));
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({});
		const cookies = res.headers.getSetCookie();
		expect(cookies).toHaveLength(2);

		const cookie = cookies.map((c) => c.split(';')[0]).join('; ');
		const po = await getPurchaseOrder(SEEDED_PO.released, cookie);
		expect(po.status).toBe(200);
		expect(await po.json()).toMatchObject({
			po_nr: SEEDED_PO.released,
			po_status: 'PO_STATUS_RELEASED',
		});
	});

	it('rejects a replayed jti', async () => {
		const token = await signLoginToken(emulator.credential);
		expect((await postLogin(token)).status).toBe(200);
		await expectError(await postLogin(token), 'UNAUTHENTICATED', /replayed/);
	});

	it('rejects a token signed with another key', async () => {
		const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
		await expectError(
			await postLogin(await signLoginToken(emulator.credential, { key: privateKey })),
			'UNAUTHENTICATED',
			/invalid token signature/,
		);
	});

	it('rejects an iat 10 minutes old', async () => {
		const iat = Math.floor(Date.now() / 1000) - 600;
		await expectError(
			await postLogin(await signLoginToken(emulator.credential, { iat })),
			'UNAUTHENTICATED',
			/iat/,
		);
	});

	it('rejects a typ other than JWT', async () => {
		await expectError(
			await postLogin(await signLoginToken(emulator.credential, { typ: 'at+jwt' })),
			'UNAUTHENTICATED',
			/typ/,
		);
	});

	it('rejects an unknown key id', async () => {
		const sub = 'noon-partners-key-id-00000000000000000000000000000000';
		await expectError(
			await postLogin(await signLoginToken(emulator.credential, { sub })),
			'UNAUTHENTICATED',
			/unknown key id/,
		);
	});

	it('refuses a project the credential does not belong to', async () => {
		await expectError(
			await postLogin(await signLoginToken(emulator.credential), 'PRJ1'),
			'PERMISSION_DENIED',
		);
	});

	it('rejects an expired credential', async () => {
		const expired = await emulator.addCredential({ expiresAt: new Date(Date.now() - 60_000) });
		await expectError(
			await postLogin(await signLoginToken(expired)),
			'UNAUTHENTICATED',
			/credential expired/,
		);
	});

	it('enforces the IP whitelist', async () => {
		const elsewhere = await emulator.addCredential({ whitelistedIps: ['10.20.30.40'] });
		await expectError(
			await postLogin(await signLoginToken(elsewhere)),
			'UNAUTHENTICATED',
			/not whitelisted/,
		);

		const local = await emulator.addCredential({ whitelistedIps: ['10.20.30.40', '127.0.0.1'] });
		expect((await postLogin(await signLoginToken(local))).status).toBe(200);
	});

	it('rejects a body that is not JSON', async () => {
		const res = await fetch(`${emulator.baseUrl}${LOGIN_PATH}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT },
			body: 'token=abc',
		});
		await expectError(res, 'INVALID_ARGUMENT', /JSON/);
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

	it('ends every session on expireSessions', async () => {
		const cookie = await login();
		expect((await getPurchaseOrder(SEEDED_PO.released, cookie)).status).toBe(200);
		emulator.expireSessions();
		await expectError(await getPurchaseOrder(SEEDED_PO.released, cookie), 'UNAUTHENTICATED');
		expect((await getPurchaseOrder(SEEDED_PO.released, await login())).status).toBe(200);
	});

	it('ends a session after sessionTtlMs', async () => {
		const shortLived = await startEmulator({ sessionTtlMs: 200 });
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
			await new Promise((resolve) => setTimeout(resolve, 300));
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

	it('returns every seeded purchase order with every field', async () => {
		for (const poNr of SEEDED_PO_NUMBERS) {
			const res = await getPurchaseOrder(poNr, cookie);
			expect(res.status).toBe(200);
			const po = (await res.json()) as Record<string, unknown>;
			expect(Object.keys(po).sort()).toEqual([
				'merchant_code',
				'po_currency',
				'po_lines',
				'po_nr',
				'po_release_date',
				'po_status',
				'warehouse_code',
			]);
			expect(po.po_nr).toBe(poNr);
			expect(po.merchant_code).toMatch(/^STR/);
		}
		const noDate = await (await getPurchaseOrder(SEEDED_PO.pendingNoDate, cookie)).json();
		expect(noDate).toMatchObject({
			po_status: 'PO_STATUS_PENDING',
			po_release_date: { year: 0, month: 0, day: 0 },
		});
		const dayZero = await (await getPurchaseOrder(SEEDED_PO.pendingDayZero, cookie)).json();
		expect(dayZero).toMatchObject({ po_status: 'PO_STATUS_PENDING', po_release_date: { day: 0 } });
	});

	it('generates PO-BULK-<n> purchase orders', async () => {
		const res = await getPurchaseOrder('PO-BULK-4242', cookie);
		expect(res.status).toBe(200);
		expect(await res.json()).toMatchObject({
			po_nr: 'PO-BULK-4242',
			po_status: 'PO_STATUS_RELEASED',
		});
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
		const { port } = new URL(emulator.baseUrl);
		const { status, body } = await new Promise<{ status: number; body: string }>(
			(resolve, reject) => {
				const req = httpRequest(
					{
						host: '127.0.0.1',
						port,
						path: `/fbpo/v1/po/${SEEDED_PO.released}/get`,
						headers: { cookie },
					},
					(res) => {
						let text = '';
						res.setEncoding('utf8');
						res.on('data', (chunk: string) => (text += chunk));
						res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
					},
				);
				req.on('error', reject);
				req.end();
			},
		);
		expect(status).toBe(400);
		expect(JSON.parse(body)).toMatchObject({
			status_code: 'INVALID_ARGUMENT',
			message: expect.stringMatching(/User-Agent/),
		});
	});
});

describe('rate plan', () => {
	it('answers 429 with Retry-After once the window is full, but never limits Login', async () => {
		const cookie = await login();
		emulator.setRatePlan({ limit: 3, windowMs: 60_000 });
		for (let i = 0; i < 3; i++)
			expect((await getPurchaseOrder(SEEDED_PO.released, cookie)).status).toBe(200);
		const limited = await getPurchaseOrder(SEEDED_PO.released, cookie);
		const retryAfter = Number(limited.headers.get('retry-after'));
		expect(retryAfter).toBeGreaterThanOrEqual(1);
		expect(retryAfter).toBeLessThanOrEqual(60);
		await expectError(
			limited,
			'RESOURCE_EXHAUSTED',
			`rate plan exceeded for GetPurchaseOrder: at most 3 requests per 60000 ms, retry in ${retryAfter} s`,
		);
		for (let i = 0; i < 4; i++) await login();
	});

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

	it('has no fixed windows without model or with model sliding', () => {
		for (const plan of [
			{ limit: 12, windowMs: 6000 },
			{ limit: 12, windowMs: 6000, model: 'sliding' as const },
		]) {
			const limiter = new SlidingWindowLimiter(plan);
			for (let t = 0; t < 12; t++) expect(limiter.take('k', t)).toEqual({ allowed: true });
			expect(limiter.take('k', 12)).toEqual({
				allowed: false,
				retryAfterMs: 5988,
				exceeded: [{ kind: 'sliding', limit: 12, windowMs: 6000 }],
			});
		}
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

	it('validates the model', () => {
		expect(validateRatePlan({ limit: 6, windowMs: 60 })).toEqual({ limit: 6, windowMs: 60 });
		for (const model of ['sliding', 'strict'])
			expect(validateRatePlan({ limit: 6, windowMs: 60, model })).toEqual({
				limit: 6,
				windowMs: 60,
				model,
			});
		for (const model of ['STRICT', 'fixed', '', null, 1, true, ['strict'], { strict: true }])
			expect(() => validateRatePlan({ limit: 6, windowMs: 60, model })).toThrow(
				'rate plan model must be one of sliding, strict',
			);
	});

	it('refuses an invalid model among the emulator options', async () => {
		// Closed again should it start, so a failure here cannot keep Jest running.
		const started = startEmulator({
			ratePlan: { limit: 6, windowMs: 60, model: 'fixed' as never },
		}).then(async (other) => (await other.close(), other));
		await expect(started).rejects.toThrow('rate plan model must be one of sliding, strict');
	});
});

describe('faults', () => {
	let cookie: string;
	beforeAll(async () => {
		cookie = await login();
	});

	it('fails the next requests with the injected status, then recovers', async () => {
		emulator.injectFaults({ count: 2, status: 503, retryAfter: 2 });
		for (let i = 0; i < 2; i++) {
			const res = await getPurchaseOrder(SEEDED_PO.released, cookie);
			expect(res.headers.get('retry-after')).toBe('2');
			await expectError(res, 'UNAVAILABLE');
		}
		expect((await getPurchaseOrder(SEEDED_PO.released, cookie)).status).toBe(200);
	});

	it('applies a fault only to its operation', async () => {
		emulator.injectFaults({ count: 1, status: 500, operation: 'Login' });
		expect((await getPurchaseOrder(SEEDED_PO.released, cookie)).status).toBe(200);
		await expectError(await postLogin(await signLoginToken(emulator.credential)), 'INTERNAL');
	});

	it('echoes what the request carried (its cookie), as a careless service might', async () => {
		emulator.injectFaults({ count: 1, status: 400, echo: true, operation: 'GetPurchaseOrder' });
		const res = await getPurchaseOrder(SEEDED_PO.released, cookie);
		expect(res.status).toBe(400);
		const body = (await res.json()) as { message: string; details: Array<{ cookie: string }> };
		expect(body.message).toContain(JSON.stringify(cookie).slice(1, -1));
		expect(body.details).toEqual([{ cookie, body: null }]);
	});

	it('answers a redirect to the location given, and refuses a fault without an effect', async () => {
		emulator.injectFaults({
			count: 1,
			redirect: { location: 'http://127.0.0.2:9/elsewhere', status: 308 },
		});
		const res = await fetch(`${emulator.baseUrl}/fbpo/v1/po/${SEEDED_PO.released}/get`, {
			headers: { Cookie: cookie, 'User-Agent': 'test' },
			redirect: 'manual',
		});
		expect(res.status).toBe(308);
		expect(res.headers.get('location')).toBe('http://127.0.0.2:9/elsewhere');
		expect(() => emulator.injectFaults({ count: 1, echo: true })).toThrow(
			'a fault needs status, delayMs, reset, redirect, hang, trickleMs, answer or huge',
		);
		expect(() => emulator.injectFaults({ count: 1, redirect: { location: '' } })).toThrow(
			'fault redirect needs a location',
		);
	});

	it('answers in another shape (set over the control API): fields set, wrapped, in an array, after a prefix', async () => {
		const set = await fetch(`${emulator.controlUrl}/faults`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				count: 1,
				operation: 'GetPurchaseOrder',
				answer: {
					set: { po_release_date: { year: 'x' } },
					wrap: ['result', 'po'],
					array: true,
					prefix: ")]}'\n",
				},
			}),
		});
		expect(set.status).toBe(200);
		const res = await getPurchaseOrder(SEEDED_PO.released, cookie);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
		const text = await res.text();
		expect(text.startsWith(")]}'\n")).toBe(true);
		const [answer] = JSON.parse(text.slice(5)) as Array<{
			result: { po: Record<string, unknown> };
		}>;
		expect(answer.result.po).toMatchObject({
			po_nr: SEEDED_PO.released,
			po_release_date: { year: 'x' },
		});
		// Once: the next answer has the operation's own shape.
		expect(await (await getPurchaseOrder(SEEDED_PO.released, cookie)).json()).toMatchObject({
			po_nr: SEEDED_PO.released,
			po_release_date: { year: 2024, month: 3, day: 15 },
		});
		expect(() => emulator.injectFaults({ count: 1, status: 500, answer: { array: true } })).toThrow(
			'an answer fault reshapes the operation',
		);
		expect(() => emulator.injectFaults({ count: 1, answer: { wrap: 'result' } as never })).toThrow(
			'fault answer wrap must be an array of field names',
		);
	});

	it('resets the connection', async () => {
		emulator.injectFaults({ count: 1, reset: true });
		await expect(getPurchaseOrder(SEEDED_PO.released, cookie)).rejects.toThrow();
		expect((await getPurchaseOrder(SEEDED_PO.released, cookie)).status).toBe(200);
	});

	it('never answers a hanging login (set over the control API), and notes when the client gives up', async () => {
		const set = await fetch(`${emulator.controlUrl}/faults`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ count: 1, hang: true, operation: 'Login' }),
		});
		expect(set.status).toBe(200);
		emulator.clearRequests();
		const token = await signLoginToken(emulator.credential);
		const started = Date.now();
		await expect(
			fetch(`${emulator.baseUrl}${LOGIN_PATH}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT },
				body: JSON.stringify({ token, default_project_code: emulator.projectCode }),
				signal: AbortSignal.timeout(500),
			}),
		).rejects.toThrow();
		await new Promise((resolve) => setTimeout(resolve, 50));
		const [held] = emulator.requests();
		expect(held).toMatchObject({ operation: 'Login', status: null });
		expect(held.clientClosedAt! - started).toBeGreaterThanOrEqual(450);
		// One use: the next login is answered.
		expect((await postLogin(await signLoginToken(emulator.credential))).status).toBe(200);
	});

	it('trickles an answer: its headers at once, then its body one byte at a time', async () => {
		emulator.injectFaults({ count: 1, status: 503, trickleMs: 10, operation: 'GetPurchaseOrder' });
		const started = Date.now();
		const { headersAt, chunks, body } = await new Promise<{
			headersAt: number;
			chunks: number;
			body: string;
		}>((resolve, reject) => {
			const url = `${emulator.baseUrl}/fbpo/v1/po/${SEEDED_PO.released}/get`;
			httpRequest(url, { headers: { cookie, 'user-agent': USER_AGENT } }, (res) => {
				const headersAt = Date.now();
				const parts: Buffer[] = [];
				res.on('data', (chunk: Buffer) => parts.push(chunk));
				res.on('end', () =>
					resolve({ headersAt, chunks: parts.length, body: Buffer.concat(parts).toString() }),
				);
				res.on('error', reject);
			})
				.on('error', reject)
				.end();
		});
		const elapsed = Date.now() - started;
		expect(JSON.parse(body)).toMatchObject({ status_code: 'UNAVAILABLE' });
		expect(headersAt - started).toBeLessThan(elapsed / 2);
		// One byte per 10 ms at the most: the whole body takes its length in hundredths of a second.
		expect(elapsed).toBeGreaterThanOrEqual(body.length * 10 - 20);
		expect(chunks).toBeGreaterThan(body.length / 2);
		// The operation's own answer trickles too, and a client that leaves early is noted.
		emulator.clearRequests();
		emulator.injectFaults({ count: 1, trickleMs: 50, operation: 'GetPurchaseOrder' });
		const leaving = await fetch(`${emulator.baseUrl}/fbpo/v1/po/${SEEDED_PO.released}/get`, {
			headers: { cookie, 'user-agent': USER_AGENT },
		});
		expect(leaving.status).toBe(200);
		const reader = leaving.body!.getReader();
		expect((await reader.read()).value).toHaveLength(1);
		await reader.cancel();
		await new Promise((resolve) => setTimeout(resolve, 100));
		const [left] = emulator.requests();
		expect(left).toMatchObject({ status: 200, clientClosedAt: expect.any(Number) });
		expect((await getPurchaseOrder(SEEDED_PO.released, cookie)).status).toBe(200);
	});

	it('answers a huge body, plain or as a gzip bomb, generated as it is sent; a client leaving early is noted', async () => {
		emulator.injectFaults({ count: 1, huge: { megabytes: 64, gzip: true } });
		const wire = await new Promise<{ encoding?: string; bytes: Buffer }>((resolve, reject) => {
			const url = `${emulator.baseUrl}/fbpo/v1/po/${SEEDED_PO.released}/get`;
			httpRequest(url, { headers: { cookie, 'user-agent': USER_AGENT } }, (res) => {
				const parts: Buffer[] = [];
				res.on('data', (chunk: Buffer) => parts.push(chunk));
				res.on('end', () =>
					resolve({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(parts) }),
				);
				res.on('error', reject);
			})
				.on('error', reject)
				.end();
		});
		expect(wire.encoding).toBe('gzip');
		// A bomb: well under 1 MB on the wire, 64 MiB of JSON once decoded.
		expect(wire.bytes.length).toBeLessThan(1024 * 1024);
		const decoded = gunzipSync(wire.bytes);
		expect(decoded.length).toBe(64 * 1024 * 1024);
		expect(decoded.subarray(0, 12).toString()).toBe('{"padding":"');
		expect(decoded.subarray(-2).toString()).toBe('"}');
		// Plain: a reader that stops after the first chunk closes the connection before the end.
		emulator.clearRequests();
		emulator.injectFaults({ count: 1, huge: { megabytes: 256 }, operation: 'GetPurchaseOrder' });
		const leaving = await fetch(`${emulator.baseUrl}/fbpo/v1/po/${SEEDED_PO.released}/get`, {
			headers: { cookie, 'user-agent': USER_AGENT },
		});
		expect(leaving.status).toBe(200);
		const reader = leaving.body!.getReader();
		expect((await reader.read()).done).toBe(false);
		await reader.cancel();
		await new Promise((resolve) => setTimeout(resolve, 100));
		const [left] = emulator.requests();
		expect(left).toMatchObject({ status: null, clientClosedAt: expect.any(Number) });
		expect((await getPurchaseOrder(SEEDED_PO.released, cookie)).status).toBe(200);
		expect(() => emulator.injectFaults({ count: 1, huge: { megabytes: 0 } })).toThrow(
			'fault huge.megabytes must be a number from 1 to 4096',
		);
		expect(() =>
			emulator.injectFaults({ count: 1, huge: { megabytes: 1 }, trickleMs: 10 }),
		).toThrow('a huge answer takes no hang, reset, redirect or trickleMs');
	});

	it('refuses a hanging fault with an answer, and a trickle outside 1-60000 ms', () => {
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

	it('logs API requests as sent, with stats, and stays out of the log itself', async () => {
		await control('/requests', { method: 'DELETE' });
		const before = (await (await control('/stats')).json()) as {
			logins: number;
			loginFailures: number;
		};
		const cookie = await login();
		await postLogin('not-a-jwt');
		await getPurchaseOrder(SEEDED_PO.released, cookie);

		const log = (await (await control('/requests')).json()) as Array<Record<string, unknown>>;
		expect(log.map((e) => [e.operation, e.status])).toEqual([
			['Login', 200],
			['Login', 401],
			['GetPurchaseOrder', 200],
		]);
		expect(log[1].body).toEqual({ token: 'not-a-jwt', default_project_code: emulator.projectCode });
		expect(log[2]).toMatchObject({
			method: 'GET',
			path: `/fbpo/v1/po/${SEEDED_PO.released}/get`,
			headers: expect.objectContaining({ cookie, 'user-agent': USER_AGENT }),
			remoteAddress: '127.0.0.1',
		});

		const after = (await (await control('/stats')).json()) as {
			logins: number;
			loginFailures: number;
		};
		expect(after.logins - before.logins).toBe(1);
		expect(after.loginFailures - before.loginFailures).toBe(1);
		expect(await (await control('/credential')).json()).toEqual(emulator.credential);
	});

	it('steers faults, rate plan and sessions over HTTP', async () => {
		const cookie = await login();
		const post = (path: string, body: unknown) =>
			control(path, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});

		expect((await post('/faults', { count: 1, status: 429 })).status).toBe(200);
		await expectError(await getPurchaseOrder(SEEDED_PO.released, cookie), 'RESOURCE_EXHAUSTED');
		await expectError(await post('/faults', { count: 0, status: 503 }), 'INVALID_ARGUMENT');

		expect((await post('/rate-plan', { limit: 1, windowMs: 60_000 })).status).toBe(200);
		expect((await getPurchaseOrder(SEEDED_PO.released, cookie)).status).toBe(200);
		expect((await getPurchaseOrder(SEEDED_PO.released, cookie)).status).toBe(429);
		expect((await post('/rate-plan', null)).status).toBe(200);
		expect((await getPurchaseOrder(SEEDED_PO.released, cookie)).status).toBe(200);

		expect((await post('/sessions/expire', {})).status).toBe(200);
		await expectError(await getPurchaseOrder(SEEDED_PO.released, cookie), 'UNAUTHENTICATED');
	});

	it('sets a strict rate plan over HTTP: 429 beyond a fixed sixth, 400 for an unknown model', async () => {
		const cookie = await login();
		const post = (body: unknown) =>
			control('/rate-plan', {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
		// Sixths of 10^9 ms (11.6 days): the three requests share one fixed window; 2 fit in it.
		const windowMs = 6_000_000_000;
		const sixth = windowMs / 6;
		expect((await post({ limit: 12, windowMs, model: 'strict' })).status).toBe(200);
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
		expect((await post({ limit: 12, windowMs, model: 'sliding' })).status).toBe(200);
		for (let i = 0; i < 3; i++)
			expect((await getPurchaseOrder(SEEDED_PO.released, cookie)).status).toBe(200);

		await expectError(
			await post({ limit: 12, windowMs, model: 'fixed' }),
			'INVALID_ARGUMENT',
			'rate plan model must be one of sliding, strict',
		);
		await expectError(
			await post({ limit: 12, windowMs, model: 6 }),
			'INVALID_ARGUMENT',
			'rate plan model must be one of sliding, strict',
		);
		// The refused plans left the sliding one in place: its 4th request in the window is allowed.
		expect((await getPurchaseOrder(SEEDED_PO.released, cookie)).status).toBe(200);
	});
});
