/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * What the package keeps for the whole process is bounded in count and in bytes, whatever a
 * credential's server answers: a hostile server (on loopback, as any user may run one) answers
 * every login with a new session of the largest size a login may set and every other request
 * 401, or lists huge warehouses, or accepts every import; the process state is filled to its
 * bound with made-up key ids and long values, and the heap is measured (after a forced garbage
 * collection). A working credential keeps its session and its pace meanwhile.
 *
 * The figures (heap growth per map) are printed with `SHOW_HEAP=1`.
 */
import { generateKeyPairSync, randomBytes } from 'crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import { setFlagsFromString } from 'v8';
import { runInNewContext } from 'vm';
import { OutboundHttp } from '@n8n/backend-network';
import { Container } from '@n8n/di';
import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestHelper } from 'n8n-workflow';

import { SellerPlatformApi } from '../../dist/credentials/SellerPlatformApi.credentials';
import { loginFingerprint } from '../../dist/nodes/shared/auth/login';
import {
	MAX_LOGIN_IDENTITIES,
	MAX_RETIRED_SESSIONS,
	sessions,
} from '../../dist/nodes/shared/auth/session';
import { importRequests } from '../../dist/nodes/SellerPlatform/actions/import/sentRequests';
import {
	firstDelivery,
	MAX_REMEMBERED_REGISTRATIONS,
	recentDeliveries,
} from '../../dist/nodes/SellerPlatformTrigger/deliveries';
import {
	MAX_DELIVERY_KEY_LENGTH,
	MAX_REMEMBERED_DELIVERIES,
} from '../../dist/nodes/SellerPlatformTrigger/record';
import * as owners from '../../dist/nodes/SellerPlatformTrigger/owners';
import { credentialFields, startEmulator, type Emulator } from '../emulator';
import { chain, createTestEnvironment, listSearch, type TestEnvironment } from '../helpers';

const LOGIN_PATH = '/identity/public/v1/api/login';
const KIB = 1024;
const MIB = 1024 * 1024;

/** The session a login may set at most (login.ts): 8 KiB. */
const SESSION_CAP = 8 * KIB;

// --- the heap ------------------------------------------------------------------------------------

let gc: () => void;
beforeAll(() => {
	setFlagsFromString('--expose-gc');
	gc = runInNewContext('gc') as () => void;
});

/** The heap in use after two full collections. */
function heapUsed(): number {
	gc();
	gc();
	return process.memoryUsage().heapUsed;
}

const figures: string[] = [];
const show = (line: string) => figures.push(line);
afterAll(() => {
	if (process.env.SHOW_HEAP) console.log(figures.join('\n'));
});
const mb = (bytes: number) => `${(bytes / MIB).toFixed(2)} MB`;

// --- the hostile server ----------------------------------------------------------------------------

interface Hostile {
	baseUrl: string;
	/** Bytes of the Cookie header each login's session makes (`s=` and the value). */
	cookieBytes: number;
	/** Bytes of the 200 login answer's body. */
	loginBodyBytes: number;
	logins: number;
	/** What ListWarehouses answers (one page), or undefined for 401. */
	warehouses?: IDataObject[];
	/** Whether CreateBarcodeImport is accepted (else 401). */
	acceptImports: boolean;
	server: Server;
}

let hostile: Hostile;
let counter = 0;

/** A session value of `bytes` bytes, new on every call. */
function sessionOf(bytes: number): string {
	const id = `${++counter}-${randomBytes(8).toString('hex')}-`;
	return `s=${id}${'x'.repeat(bytes - 2 - id.length)}`;
}

function answer(res: ServerResponse, status: number, body: unknown, headers = {}) {
	res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
	res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

async function startHostile(): Promise<Hostile> {
	const state = {
		cookieBytes: 15_000,
		loginBodyBytes: 2,
		logins: 0,
		warehouses: undefined,
		acceptImports: false,
	} as Omit<Hostile, 'baseUrl' | 'server'>;
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		req.resume();
		req.on('end', () => {
			const path = new URL(req.url ?? '/', 'http://hostile').pathname;
			if (path === LOGIN_PATH) {
				state.logins++;
				const body =
					state.loginBodyBytes > 2 ? `{"x":"${'y'.repeat(state.loginBodyBytes - 8)}"}` : '{}';
				return answer(res, 200, body, {
					'Set-Cookie': [`${sessionOf(state.cookieBytes)}; Path=/`],
				});
			}
			if (path.endsWith('/warehouses/list') && state.warehouses) {
				return answer(res, 200, { warehouses: state.warehouses });
			}
			if (path.endsWith('/v1/import/barcode') && state.acceptImports) {
				return answer(res, 200, { import_reference: `imp-${++counter}` });
			}
			answer(res, 401, { message: 'session expired or invalid: log in again' });
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return Object.assign(state, { baseUrl: `http://127.0.0.1:${port}`, server });
}

/** Any RSA key: the hostile server takes any token (a small key signs fast). */
const anyKey = generateKeyPairSync('rsa', { modulusLength: 1024 })
	.privateKey.export({ type: 'pkcs8', format: 'pem' })
	.toString();

const hostileCredential = (keyId: string, extra: ICredentialDataDecryptedObject = {}) => ({
	gateway: 'custom',
	baseUrl: hostile.baseUrl,
	keyId,
	privateKey: anyKey,
	projectCode: 'PRJ-HOSTILE',
	sessionCookie: '',
	...extra,
});

/** n8n's request helper as the credential's `preAuthentication` gets it (n8n-core's). */
const n8nHelper: IHttpRequestHelper = {
	helpers: {
		httpRequest: async (options) =>
			await Container.get(OutboundHttp)
				.requests()
				.request(options as never),
	},
} as IHttpRequestHelper;
const credentialType = new SellerPlatformApi();

let emulator: Emulator;
let env: TestEnvironment;
beforeAll(async () => {
	hostile = await startHostile();
	emulator = await startEmulator({ ratePlan: null });
	env = createTestEnvironment();
	env.addCredential('working', 'sellerPlatformApi', credentialFields(emulator));
});
afterAll(async () => {
	await emulator.close();
	await new Promise((resolve) => hostile.server.close(resolve));
});

// --- a login's session and answer are bounded --------------------------------------------------------

describe("a login's session and answer are bounded in bytes", () => {
	beforeEach(() => {
		hostile.cookieBytes = 15_000;
		hostile.loginBodyBytes = 2;
	});

	it('refuses a 15 KB session at login, with no part of it in the error, and keeps nothing of it', async () => {
		env.addCredential('big-cookie', 'sellerPlatformApi', hostileCredential('big-cookie-key'));
		const before = hostile.logins;
		const result = await env.testCredential('big-cookie');
		expect(hostile.logins).toBe(before + 1);
		expect(result).toEqual({
			status: 'Error',
			message:
				'Seller Platform login answered 200 but set session cookies of 15000 bytes, more than the 8 KB the node keeps',
		});
		expect(result.message).not.toContain('xxxxxxxx');
		const kept = [...sessions.newest.values()].filter((s) => s.length > SESSION_CAP);
		expect(kept).toEqual([]);
	});

	it('takes a session of exactly 8 KiB', async () => {
		hostile.cookieBytes = SESSION_CAP;
		const output = await credentialType.preAuthentication.call(
			n8nHelper,
			hostileCredential('exact-cookie-key'),
		);
		expect(String(output.sessionCookie)).toHaveLength(SESSION_CAP);
	});

	it('refuses a login answer beyond 64 KB, reading no further', async () => {
		hostile.cookieBytes = 100;
		hostile.loginBodyBytes = 100 * KIB;
		await expect(
			credentialType.preAuthentication.call(n8nHelper, hostileCredential('big-answer-key')),
		).rejects.toThrow(
			'The answer of the Seller Platform login was larger than 64 KB (decoded), so it was not read',
		);
	});
});

// --- the process state, filled to its bounds -------------------------------------------------------------

describe('process state filled with hostile values stays within its bounds', () => {
	/** Who Am I with the working credential (emulator): one request, and the run's time. */
	async function workingRun() {
		const started = Date.now();
		const result = await env.runWorkflow({
			nodes: [
				{
					name: 'Seller Platform',
					type: 'sellerPlatform',
					parameters: { resource: 'session', operation: 'whoAmI' },
					credentials: { sellerPlatformApi: 'working' },
				},
			],
			connections: {},
		});
		expect(result.nodeError('Seller Platform')).toBeUndefined();
		return Date.now() - started;
	}

	/** Empties the login maps (a measure starts from none). */
	function emptySessions(): void {
		for (const map of Object.values(sessions)) map.clear();
	}

	/**
	 * Logs `identity` in `logins` times with made-up 8 KiB sessions (each login retires two: the
	 * newest, and the one the request used, which this process never saw, so each call logs in),
	 * and has it send two more (first-sent dates).
	 */
	async function fill(identity: string, logins: number) {
		const credentials: ICredentialDataDecryptedObject = hostileCredential(identity);
		for (let login = 0; login < logins; login++) {
			credentials.sessionCookie = sessionOf(SESSION_CAP);
			await credentialType.preAuthentication.call(n8nHelper, credentials);
		}
		for (let sent = 0; sent < 2; sent++) {
			const data: ICredentialDataDecryptedObject = {
				...credentials,
				sessionCookie: sessionOf(SESSION_CAP),
			};
			data.sessionFingerprint = loginFingerprint(data);
			await credentialType.authenticate(data, { url: `${hostile.baseUrl}/x` });
		}
	}

	const FULL = 64;
	it(`logins: ${FULL} identities with ${MAX_RETIRED_SESSIONS} retired 8 KiB sessions grow the heap by at most 32 KiB each; ${MAX_LOGIN_IDENTITIES + 24} made-up key ids keep ${MAX_LOGIN_IDENTITIES} identities of at most 16 KiB; the working credential keeps its session and its pace`, async () => {
		await workingRun();
		const loginsBefore = emulator.stats().logins;
		const firstRunMs = await workingRun();
		hostile.cookieBytes = SESSION_CAP;
		hostile.loginBodyBytes = 2;
		// n8n's client and the login code loaded and compiled before anything is measured.
		for (let i = 0; i < FULL; i++) await fill(`warm-up-${i}`, MAX_RETIRED_SESSIONS / 2 + 1);
		emptySessions();

		// Each identity to its bound: 50 retired sessions, the newest, first-sent dates.
		const beforeFull = heapUsed();
		for (let i = 0; i < FULL; i++) await fill(`full-${i}`, MAX_RETIRED_SESSIONS / 2 + 1);
		const perFull = (heapUsed() - beforeFull) / FULL;
		const isDigest = (text: string) => /^[0-9a-f]{64}$/.test(text);
		const retiredSizes = [...sessions.retired.values()].map((retired) => retired.size);
		const allDigests =
			[...sessions.retired.values()].every((retired) => [...retired].every(isDigest)) &&
			[...sessions.firstSent.keys()].every(isDigest);
		const firstSent = sessions.firstSent.size;
		emptySessions();
		show(
			`logins: an identity at its bound (8 KiB session, 50 retired) grows the heap by ${(perFull / KIB).toFixed(1)} KiB`,
		);
		expect(Math.max(...retiredSizes)).toBe(MAX_RETIRED_SESSIONS);
		expect(retiredSizes.filter((size) => size === MAX_RETIRED_SESSIONS)).toHaveLength(FULL);
		expect(firstSent).toBe(MAX_RETIRED_SESSIONS);
		expect(allDigests).toBe(true);
		expect(perFull).toBeLessThan(32 * KIB);

		// The count: more identities than the bound, each with its 8 KiB session.
		const identities = MAX_LOGIN_IDENTITIES + 24;
		const beforeCount = heapUsed();
		for (let i = 0; i < identities; i++) await fill(`made-up-${i}`, 1);
		const held = heapUsed() - beforeCount;
		for (const [name, map] of Object.entries(sessions)) {
			expect([name, map.size <= MAX_LOGIN_IDENTITIES]).toEqual([name, true]);
		}
		expect(sessions.newest.size).toBe(MAX_LOGIN_IDENTITIES);
		for (const session of sessions.newest.values()) {
			expect(session.length).toBeLessThanOrEqual(SESSION_CAP);
		}

		// The working credential: its stored session still serves, no new login, no added wait.
		const afterMs = await workingRun();
		expect(emulator.stats().logins).toBe(loginsBefore);
		expect(afterMs).toBeLessThan(firstRunMs + 2_000);

		show(
			`logins: ${identities} made-up key ids keep ${MAX_LOGIN_IDENTITIES} identities: heap +${mb(held)} (${(held / MAX_LOGIN_IDENTITIES / KIB).toFixed(1)} KiB each)`,
		);
		expect(held).toBeLessThan(MAX_LOGIN_IDENTITIES * 16 * KIB);
	}, 900_000);
	it('warehouse lists: 60 credentials listing 500 warehouses of long codes and names keep at most 20,000 warehouses of bounded texts', async () => {
		hostile.cookieBytes = 100;
		hostile.loginBodyBytes = 2;
		const names = (i: number) => `Warehouse ${i} ${'n'.repeat(1_000)}`;
		hostile.warehouses = Array.from({ length: 500 }, (_, i) => ({
			warehouse_code: i < 10 ? `W${i}${'c'.repeat(150)}` : `W${i}-${'c'.repeat(95)}`.slice(0, 100),
			display_name: names(i),
			is_active: true,
		}));
		const base = heapUsed();
		for (let c = 0; c < 60; c++) {
			const id = `warehouses-${c}`;
			env.addCredential(
				id,
				'sellerPlatformApi',
				hostileCredential(`warehouse-key-${c}`, { projectCode: `PRJ-W${c}` }),
			);
			const result = await listSearch(env, {
				method: 'searchWarehouses',
				credentials: { sellerPlatformApi: id },
				parameters: { resource: 'fbpiOrder', operation: 'createSandbox' },
			});
			if (c === 0) {
				// Codes too long for a code are left out; names are cut at 100 characters.
				const code = String(hostile.warehouses![10].warehouse_code);
				expect(result.results[0]).toEqual({
					name: `${names(10).slice(0, 100)} (${code})`,
					value: code,
				});
				expect(result.results.every((r) => String(r.value).length <= 100)).toBe(true);
			}
		}
		hostile.warehouses = undefined;
		const grown = heapUsed() - base;
		show(`warehouse lists: 60 credentials × 500 warehouses, heap +${mb(grown)}`);
		expect(grown).toBeLessThan(12 * MIB);
	}, 300_000);

	it('import references: 2,100 accepted imports of a 10,000-character project keep 2,000 short entries', async () => {
		hostile.cookieBytes = 100;
		hostile.loginBodyBytes = 2;
		hostile.acceptImports = true;
		env.addCredential(
			'imports',
			'sellerPlatformApi',
			hostileCredential('import-key', {
				projectCode: `P${'p'.repeat(9_999)}`,
				requestsPerMinute: 1_000_000,
			}),
		);
		importRequests.clear();
		const base = heapUsed();
		const items = Array.from({ length: 2_100 }, (_, i) => ({ ref: `ref-${i}-${'r'.repeat(80)}` }));
		let result = await env.runWorkflow({
			nodes: [
				{ name: 'Items', type: 'testItems', parameters: { items: JSON.stringify(items) } },
				{
					name: 'Seller Platform',
					type: 'sellerPlatform',
					parameters: {
						resource: 'import',
						operation: 'createBarcode',
						source: 'fileUrl',
						fileUrl: 'https://example.com/barcodes.csv',
						clientReference: '={{ $json.ref }}',
					},
					credentials: { sellerPlatformApi: 'imports' },
				},
			],
			connections: chain('Items', 'Seller Platform'),
		});
		expect(result.nodeError('Seller Platform')).toBeUndefined();
		expect(result.json('Seller Platform')).toHaveLength(2_100);
		result = undefined as never;
		hostile.acceptImports = false;
		const grown = heapUsed() - base;
		expect(importRequests.size).toBe(2_000);
		for (const key of importRequests.keys()) expect(key.length).toBeLessThanOrEqual(64);
		// What the map itself holds: the heap it frees.
		const before = heapUsed();
		importRequests.clear();
		const held = before - heapUsed();
		show(`import references: 2,000 entries hold ${mb(held)} (the whole run: heap +${mb(grown)})`);
		expect(held).toBeLessThan(1 * MIB);
	}, 300_000);

	it(`trigger deliveries: ${MAX_REMEMBERED_REGISTRATIONS + 10} registrations × ${MAX_REMEMBERED_DELIVERIES + 10} keys of ${MAX_DELIVERY_KEY_LENGTH} characters keep the bound`, () => {
		recentDeliveries.clear();
		const base = heapUsed();
		for (let r = 0; r < MAX_REMEMBERED_REGISTRATIONS + 10; r++) {
			const registration = `wf-${r}\u0000node\u0000https://n8n.example.com/webhook/${r}/seller-platform`;
			let first = 0;
			for (let k = 0; k < MAX_REMEMBERED_DELIVERIES + 10; k++) {
				const key = `id:${r}/${k}/`.padEnd(MAX_DELIVERY_KEY_LENGTH, 'k');
				// As n8n reads it for each delivery: a record of its own, its saved keys empty.
				const record = { seen: [] as string[] } as never;
				if (firstDelivery(registration, key, record)) first++;
			}
			expect(first).toBe(MAX_REMEMBERED_DELIVERIES + 10);
		}
		const grown = heapUsed() - base;
		show(
			`trigger deliveries: ${recentDeliveries.size} registrations × ${MAX_REMEMBERED_DELIVERIES} keys, heap +${mb(grown)}`,
		);
		expect(recentDeliveries.size).toBe(MAX_REMEMBERED_REGISTRATIONS);
		for (const memory of recentDeliveries.values()) {
			expect(memory.keys.size).toBe(MAX_REMEMBERED_DELIVERIES);
		}
		expect(grown).toBeLessThan(40 * MIB);
		recentDeliveries.clear();
	});

	it('destination owners: 10,010 destinations of a 10,000-character project keep 10,000 short keys', () => {
		const { keepOwner, ownerKey, MAX_DESTINATION_OWNERS } = owners as unknown as {
			keepOwner: (key: string, owner: object) => void;
			ownerKey: (scope: string, code: string) => string;
			MAX_DESTINATION_OWNERS: number;
		};
		expect(typeof keepOwner).toBe('function');
		owners.destinationOwners.clear();
		const scope = `${hostile.baseUrl}|P${'p'.repeat(9_999)}`;
		const base = heapUsed();
		for (let d = 0; d < MAX_DESTINATION_OWNERS + 10; d++) {
			keepOwner(ownerKey(scope, `DEST-${d}`), {
				owner: `wf-${d}\u0000node-${d}`,
				webhookUrl: `https://n8n.example.com/webhook/${d}/seller-platform`,
				mode: 'production',
				since: d,
			});
		}
		const grown = heapUsed() - base;
		show(`destination owners: ${owners.destinationOwners.size} entries, heap +${mb(grown)}`);
		expect(owners.destinationOwners.size).toBe(MAX_DESTINATION_OWNERS);
		expect(grown).toBeLessThan(8 * MIB);
		owners.destinationOwners.clear();
	});
});
