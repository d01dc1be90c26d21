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
 * `it.failing` marks what the credential does not do yet as the app runs it (each says why);
 * such a test starts failing, on purpose, once the credential or the nodes are fixed: then make
 * it a plain `it`.
 */
import { generateKeyPairSync } from 'crypto';
import { createServer } from 'net';
import type { AddressInfo } from 'net';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { SellerPlatformApi } from '../../credentials/SellerPlatformApi.credentials';
import { startEmulator, type Emulator } from '../emulator';
import { createTestEnvironment, type TestEnvironment } from '../helpers';

const TEST_PATH = '/fbpo/v1/po/n8n-credential-test/get';
const LOGIN_PATH = '/identity/public/v1/api/login';
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]*/;

let emulator: Emulator;
let env: TestEnvironment;

beforeEach(async () => {
	emulator = await startEmulator();
	env = createTestEnvironment({ credentialTypes: [new SellerPlatformApi()] });
});
afterEach(async () => await emulator.close());

/** Saves a credential as the user would fill it from the emulator's credentials file. */
function saveCredential(id: string, overrides: ICredentialDataDecryptedObject = {}): void {
	env.addCredential(id, 'sellerPlatformApi', {
		baseUrl: emulator.baseUrl,
		keyId: emulator.credential.key_id,
		privateKey: emulator.credential.private_key,
		projectCode: emulator.credential.project_code,
		sessionCookie: '',
		...overrides,
	});
}

function otherRsaKey(): string {
	return generateKeyPairSync('rsa', { modulusLength: 2048 })
		.privateKey.export({ type: 'pkcs8', format: 'pem' })
		.toString();
}

const testRequests = () => emulator.requests().filter((r) => r.path === TEST_PATH);
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
	it('answers OK after one login and one test request, and stores the session', async () => {
		saveCredential('cred-1');

		const result = await env.testCredential('cred-1');

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(emulator.stats().logins).toBe(1);
		expect(loginRequests()).toHaveLength(1);
		const [request] = testRequests();
		expect(testRequests()).toHaveLength(1);
		expect(request.method).toBe('GET');
		expect(request.headers['user-agent']).toMatch(/^n8n-nodes-seller-platform\//);
		// The service accepted the session: "not found" for the made-up PO, not "unauthenticated".
		expect(request.status).toBe(404);

		// Like the app, the login of a test persists its session to the saved credential.
		const session = env.credentialData('cred-1').sessionCookie as string;
		expect(session).toMatch(/_npsid=/);
		expect(request.headers.cookie).toBe(session);
		expect(env.logins).toEqual([expect.objectContaining({ credentialId: 'cred-1', reason: 'empty', succeeded: true })]);
	});

	it('a trailing slash on the Base URL is removed by the test request', async () => {
		saveCredential('cred-1', { baseUrl: `${emulator.baseUrl}//` });

		expect(await env.testCredential('cred-1')).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(testRequests()).toHaveLength(1);
	});

	// What the app does: its temp node is of type `noOp` (n8n's loader keeps the class's name),
	// not the 'n8n-nodes-base.noOp' its credentials helper checks for "a test is running", so
	// a test logs in only when no session is stored.
	it('pressing Test again reuses the stored session: no new login (current n8n)', async () => {
		saveCredential('cred-1');
		await env.testCredential('cred-1');
		const session = env.credentialData('cred-1').sessionCookie;

		expect(await env.testCredential('cred-1')).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(await env.testCredential('cred-1')).toEqual({ status: 'OK', message: 'Connection successful!' });

		expect(emulator.stats().logins).toBe(1);
		expect(testRequests()).toHaveLength(3);
		expect(testRequests().every((r) => r.headers.cookie === session)).toBe(true);
		expect(env.logins).toHaveLength(1);
	});

	// On n8n versions whose loader stored '<package>.<name>' as the node type's name, the
	// helper's `isTestingCredentials` check matched: every test logged in, session or not.
	it('pressing Test again logs in again when n8n recognises the test node (prefixed node type names)', async () => {
		saveCredential('cred-1');
		const options = { prefixedNodeTypeNames: true };

		expect(await env.testCredential('cred-1', options)).toMatchObject({ status: 'OK' });
		const first = env.credentialData('cred-1').sessionCookie;
		expect(await env.testCredential('cred-1', options)).toMatchObject({ status: 'OK' });
		const second = env.credentialData('cred-1').sessionCookie;

		expect(emulator.stats().logins).toBe(2);
		expect(testRequests()).toHaveLength(2);
		expect(second).not.toBe(first);
		expect(testRequests()[1].headers.cookie).toBe(second);
		expect(env.logins.map((l) => [l.reason, l.succeeded])).toEqual([
			['empty', true],
			['test', true],
		]);
	});

	// KNOWN ISSUE (credentials/SellerPlatformApi.credentials.ts): the test request sets
	// `ignoreHttpStatusErrors: true`, so the 401 for the expired session is an ordinary answer:
	// n8n-core only re-runs `preAuthentication` (credentialsExpired) when the request throws a
	// 401. No login happens and the `status_id: 16` rule answers 'Error' ("The login succeeded
	// but the service did not accept the session cookies") for a valid credential.
	it.failing('after the stored session expired, Test logs in again and answers OK', async () => {
		saveCredential('cred-1');
		await env.testCredential('cred-1');
		emulator.expireSessions();

		const result = await env.testCredential('cred-1');

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(emulator.stats().logins).toBe(2);
	});

	// KNOWN ISSUE (n8n + credential): with a session stored, the app's test does not log in (see
	// above), so a wrong private key typed into the form is never used: the old session passes.
	it.failing('a wrong private key typed into the form is reported even while a session is stored', async () => {
		saveCredential('cred-1');
		await env.testCredential('cred-1');

		const result = await env.testCredential('cred-1', { data: { privateKey: otherRsaKey() } });

		expect(result.status).toBe('Error');
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
		expect(env.logins[0].error?.message).toBe('Seller Platform login failed: invalid token signature');
	});

	// KNOWN ISSUE (nodes/SellerPlatform/transport/login.ts): the login error carries
	// `httpCode: '401'`; n8n-core wraps it in `NodeApiError`, which replaces the message of an
	// error with an HTTP code by its generic text. The test answers "Authorization failed -
	// please check your credentials"; the service's message survives only in `messages`.
	it.failing('the message carries the service message', async () => {
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

	// KNOWN ISSUE: as for the wrong key, `httpCode: '403'` makes NodeApiError answer "Forbidden -
	// perhaps check your credentials?" instead of the service's message.
	it.failing('the message carries the service message', async () => {
		saveCredential('cred-1', { projectCode: 'PRJ000000' });

		const result = await env.testCredential('cred-1');

		expect(result.status).toBe('Error');
		expect(result.message).toContain('credential has no access to project "PRJ000000"');
	});
});

describe('credential Test with a malformed private key', () => {
	it('names the field and sends nothing', async () => {
		saveCredential('cred-1', { privateKey: '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----' });

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
		expect(env.logins[0].error?.message).toMatch(/^Could not reach the Seller Platform login at .*ECONNREFUSED$/);
		expect(emulator.requests()).toHaveLength(0);
	});
});
