/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The "Test" button of the Seller Platform API credential, run the way the n8n app runs it
 * (test/helpers/credential-test.ts mirrors CredentialsTester.testCredentials), against the
 * emulator.
 *
 * How the app runs our credential's test: a temp NoOp node makes the `test.request` through
 * `httpRequestWithAuthentication`, so the credentials helper's `preAuthentication` (our login)
 * runs first, then `authenticate` adds the session cookies. A failed login reaches the test as a
 * `NodeApiError` and the test answers its `message`.
 *
 * The test request asks the gateway whose session it is (`GET /identity/v1/whoami`): with no
 * session, or one the service refuses, or one obtained with other values than the form's, n8n
 * logs in with the form's values first. No login token is ever handed to the test request.
 */
import { generateKeyPairSync } from 'crypto';
import { createServer } from 'net';
import type { AddressInfo } from 'net';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { MAX_LOGIN_IDENTITIES, sessions } from '../../dist/nodes/shared/auth/session';
import { credentialFields, startEmulator, type Emulator } from '../emulator';
import { createTestEnvironment, type TestEnvironment } from '../helpers';

/** Anything but the login: the test request (whoami). */
const isOtherRequest = (path: string) => path !== LOGIN_PATH;
const LOGIN_PATH = '/identity/public/v1/api/login';
const WHOAMI_PATH = '/identity/v1/whoami';
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]*/;

let emulator: Emulator;
let env: TestEnvironment;

beforeEach(async () => {
	emulator = await startEmulator();
	env = createTestEnvironment();
});
afterEach(async () => await emulator.close());

/** Saves a credential as the user would fill it from the emulator's credentials file. */
function saveCredential(id: string, overrides: ICredentialDataDecryptedObject = {}): void {
	env.addCredential(id, 'sellerPlatformApi', credentialFields(emulator, overrides));
}

function otherRsaKey(): string {
	return generateKeyPairSync('rsa', { modulusLength: 2048 })
		.privateKey.export({ type: 'pkcs8', format: 'pem' })
		.toString();
}

const testRequests = () => emulator.requests().filter((r) => isOtherRequest(r.path));
const loginRequests = () => emulator.requests().filter((r) => r.path === LOGIN_PATH);

/** No 24-character run of a PEM's base64 body appears in `text`. */
function expectNoPartOfKey(text: string, pem: string): void {
	const body = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
	for (let i = 0; i + 24 <= body.length; i += 12) {
		expect(text).not.toContain(body.slice(i, i + 24));
	}
}

async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

describe('credential Test with a valid credential', () => {
	it('answers OK after a real login and a check of the session, and stores the session', async () => {
		saveCredential('cred-1');

		const result = await env.testCredential('cred-1');

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		// No session yet: n8n logs in through preAuthentication (storing the session), then the
		// test request asks the gateway whose session it is. No token is handed to the request.
		const [login] = loginRequests();
		expect(loginRequests()).toHaveLength(1);
		expect(login.status).toBe(200);
		expect(login.headers['user-agent']).toMatch(/^n8n-nodes-seller-platform\//);
		expect(login.body).toEqual({
			token: expect.stringMatching(JWT),
			default_project_code: emulator.credential.project_code,
		});
		expect(testRequests().map((r) => [r.method, r.path, r.status])).toEqual([
			['GET', WHOAMI_PATH, 200],
		]);
		expect(testRequests()[0].headers.cookie).toMatch(/_npsid=/);

		expect(env.credentialData('cred-1').sessionCookie).toMatch(/_npsid=/);
		expect(env.logins).toEqual([
			expect.objectContaining({ credentialId: 'cred-1', reason: 'empty', succeeded: true }),
		]);
	});

	it('a trailing slash on the Base URL is removed by the test request', async () => {
		saveCredential('cred-1', { baseUrl: `${emulator.baseUrl}//` });

		expect(await env.testCredential('cred-1')).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(testRequests().map((r) => [r.path, r.status])).toEqual([[WHOAMI_PATH, 200]]);
	});

	it('pressing Test again checks the stored session (a login only when the service refuses it)', async () => {
		saveCredential('cred-1');
		await env.testCredential('cred-1');

		expect(await env.testCredential('cred-1')).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(emulator.stats().logins).toBe(1);
		expect(testRequests().map((r) => r.status)).toEqual([200, 200]);
	});

	it('after the stored session expired, Test logs in and answers OK', async () => {
		saveCredential('cred-1');
		await env.testCredential('cred-1');
		emulator.expireSessions();

		const result = await env.testCredential('cred-1');

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(emulator.stats().logins).toBe(2);
		expect(testRequests().map((r) => r.status)).toEqual([200, 401, 200]);
	});

	it('a wrong private key typed into the form is reported even while a session is stored', async () => {
		saveCredential('cred-1');
		await env.testCredential('cred-1');

		const result = await env.testCredential('cred-1', { data: { privateKey: otherRsaKey() } });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/invalid token signature/);
	});
});

describe('credential Test with a wrong private key', () => {
	it('answers Error, stores no session and shows no key or token', async () => {
		const wrongKey = otherRsaKey();
		saveCredential('cred-1', { privateKey: wrongKey });

		const result = await env.testCredential('cred-1');

		expect(result.status).toBe('Error');
		expect(result.message).not.toBe('');
		expect(env.credentialData('cred-1').sessionCookie).toBe('');
		expect(emulator.stats().logins).toBe(0);
		expect(loginRequests().map((r) => r.status)).toEqual([401]);
		expect(testRequests()).toHaveLength(0);

		const token = (loginRequests()[0].body as { token: string }).token;
		expect(token).toMatch(JWT);
		expect(result.message).not.toContain(token);
		expect(result.message).not.toMatch(JWT);
		expectNoPartOfKey(result.message, wrongKey);
		expectNoPartOfKey(result.message, emulator.credential.private_key);
		// The login itself failed with the service's message (recorded by the harness).
		expect(env.logins[0].error?.message).toBe(
			'Seller Platform login failed: invalid token signature',
		);
	});

	it('the message carries the service message', async () => {
		saveCredential('cred-1', { privateKey: otherRsaKey() });

		const result = await env.testCredential('cred-1');

		expect(result.status).toBe('Error');
		expect(result.message).toContain('invalid token signature');
	});
});

describe('credential Test with a wrong project code', () => {
	it('answers Error after the login was refused with 403', async () => {
		saveCredential('cred-1', { projectCode: 'PRJ000000' });

		const result = await env.testCredential('cred-1');

		expect(result.status).toBe('Error');
		expect(loginRequests().map((r) => r.status)).toEqual([403]);
		expect(testRequests()).toHaveLength(0);
		expect(env.credentialData('cred-1').sessionCookie).toBe('');
		expect(env.logins[0].error?.message).toBe(
			'Seller Platform login failed: credential has no access to project "PRJ000000"',
		);
	});

	it('the message carries the service message', async () => {
		saveCredential('cred-1', { projectCode: 'PRJ000000' });

		const result = await env.testCredential('cred-1');

		expect(result.status).toBe('Error');
		expect(result.message).toContain('credential has no access to project "PRJ000000"');
	});
});

describe('credential Test with a malformed private key', () => {
	it('names the field and sends nothing', async () => {
		saveCredential('cred-1', {
			privateKey: '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----',
		});

		const result = await env.testCredential('cred-1');

		expect(result).toEqual({
			status: 'Error',
			message: 'The "Private Key" field of the credential is not a valid PEM private key',
		});
		expect(emulator.requests()).toHaveLength(0);
		expect(emulator.stats().requests).toBe(0);
	});
});

describe('credential Test with an unreachable Base URL', () => {
	it('answers Error with a clear message', async () => {
		saveCredential('cred-1', { baseUrl: `http://127.0.0.1:${await closedPort()}` });

		const result = await env.testCredential('cred-1');

		// NodeApiError turns the login's "Could not reach the Seller Platform login at <url>:
		// ECONNREFUSED" into its text for ECONNREFUSED.
		expect(result).toEqual({
			status: 'Error',
			message: 'The service refused the connection - perhaps it is offline',
		});
		expect(env.logins[0].error?.message).toMatch(
			/^Could not reach the Seller Platform login at .*ECONNREFUSED$/,
		);
		expect(emulator.requests()).toHaveLength(0);
	});
});

describe('credential Test with a plain http:// Base URL on the internet', () => {
	it('answers Error saying why, and sends nothing in clear text', async () => {
		saveCredential('cred-1', { baseUrl: 'http://gateway.noon.partners' });

		const result = await env.testCredential('cred-1');

		const why =
			'The "Base URL" field of the credential must start with https:// for gateway.noon.partners: http:// would send the login token and the session in clear text, so it is accepted only for a loopback or private address or a local host name (such as a local emulator)';
		expect(result).toEqual({ status: 'Error', message: why });
		expect(env.logins[0].error?.message).toBe(why);
	});
});

/**
 * A loopback stand-in for every host on the internet: n8n's HTTP client goes through the proxy its
 * environment names (HTTPS_PROXY, NO_PROXY for the emulator), so any connection to a foreign host
 * reaches this listener, which counts it and closes it.
 */
async function startCountingProxy() {
	const counted = { connections: 0 };
	const server = createServer((socket) => {
		counted.connections++;
		socket.destroy();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const saved = { ...process.env };
	Object.assign(process.env, {
		HTTPS_PROXY: `http://127.0.0.1:${port}`,
		HTTP_PROXY: `http://127.0.0.1:${port}`,
		NO_PROXY: '127.0.0.1,localhost,::1',
	});
	const close = async () => {
		for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY']) {
			if (saved[name] === undefined) delete process.env[name];
			else process.env[name] = saved[name];
		}
		await new Promise<void>((resolve) => server.close(() => resolve()));
	};
	return { counted, close };
}

describe('credential Test with a Base URL on a host that is no gateway', () => {
	const FOREIGN = 'https://gateway.attacker.example';
	const why =
		'The "Base URL" field of the credential names gateway.attacker.example, which is not a Seller Platform gateway, so nothing was sent. The login token, signed with the private key, names no gateway and logs in at the real one wherever it is sent: so it is sent only to a host under noon.partners (the noon and Namshi gateways, any port) or to a loopback or private address or a local host name (a local emulator, a tunnel you run).';
	let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
	beforeEach(async () => (proxy = await startCountingProxy()));
	afterEach(async () => await proxy.close());

	it('refuses a new credential before any connection, saying which hosts get the token and why', async () => {
		saveCredential('cred-1', { baseUrl: FOREIGN });

		expect(await env.testCredential('cred-1')).toEqual({ status: 'Error', message: why });
		expect(proxy.counted.connections).toBe(0);
		expect(emulator.requests()).toHaveLength(0);
	});

	it('refuses a saved credential whose Base URL an editor changed (its session kept), before any connection', async () => {
		saveCredential('cred-1');
		expect((await env.testCredential('cred-1')).status).toBe('OK');
		const before = emulator.requests().length;

		const result = await env.testCredential('cred-1', { data: { baseUrl: `${FOREIGN}:8443/` } });

		expect(result.status).toBe('Error');
		expect(result.message).toContain(
			'names gateway.attacker.example, which is not a Seller Platform gateway',
		);
		expect(proxy.counted.connections).toBe(0);
		expect(emulator.requests()).toHaveLength(before);
	});

	// The check above can fail: a Base URL that is allowed reaches the stand-in.
	it('a custom address under noon.partners is accepted: its login reaches the proxy', async () => {
		saveCredential('cred-1', {
			gateway: 'custom',
			baseUrl: 'https://noon-api-gateway.noon.partners',
		});
		const result = await env.testCredential('cred-1');
		expect(result.message).not.toContain('not a Seller Platform gateway');
		expect(proxy.counted.connections).toBeGreaterThan(0);
	});
});

describe('credential Tests with made-up values leave a bounded memory', () => {
	const DISTINCT = 10_000;

	it(`${DISTINCT} Tests, each with another key ID the service refuses, leave at most ${MAX_LOGIN_IDENTITIES} login identities`, async () => {
		saveCredential('cred-1');
		const sizes = () =>
			Object.entries(sessions).map(([name, map]) => [name, map.size] as [string, number]);
		for (let start = 0; start < DISTINCT; start += 25) {
			const batch = Array.from({ length: Math.min(25, DISTINCT - start) }, (_, i) =>
				env.testCredential('cred-1', { data: { keyId: `made-up-key-${start + i}` } }),
			);
			for (const result of await Promise.all(batch)) expect(result.status).toBe('Error');
		}
		expect(emulator.stats().logins).toBe(0);
		expect(loginRequests()).toHaveLength(DISTINCT);
		for (const [name, size] of sizes()) {
			expect([name, size <= MAX_LOGIN_IDENTITIES]).toEqual([name, true]);
		}
		expect(sessions.lastLoginEnd.size).toBe(MAX_LOGIN_IDENTITIES);

		// The real credential still logs in, and its session is shared as before.
		expect(await env.testCredential('cred-1')).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(sessions.newest.size).toBe(1);
	}, 600_000);
});
