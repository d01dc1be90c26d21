/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The live suite (test/live) as a maintainer with a real credential meets it, against an emulator
 * that answers as another gateway might: no value of an answer, nor a secret, reaches a shape or a
 * printed line (keys that are data, echoed tokens, messages with data, odd cookies); writes and
 * the 429 probe are refused away from the sandbox; a half-set environment fails; a gateway that
 * is down, never answers, trickles or sends too much ends the run with one line; and the shape
 * comparison names camelCase spellings, numbers as text, empty lists left out and list orders.
 */
import { execFile } from 'child_process';
import { generateKeyPairSync } from 'crypto';
import { mkdtempSync, readdirSync } from 'fs';
import { createServer } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';

import { startEmulator, type Emulator } from '../emulator';
import { sentSecrets } from './fixture';
import type { FaultSpec } from '../emulator/types';
import { CallFailed, liveClient } from '../live/client';
import { plainText } from '../live/safe';
import { diffShapes, headerFacts, MAX_DEPTH, orderFacts, type Shape } from '../live/shape';
import { compareShapes, readShapes, runSuite, updateShapes, type Report } from '../live/suite';
import {
	emulatorVariables,
	hostOf,
	readVariables,
	REQUIRED,
	SANDBOX_URL,
	writesRefusal,
} from '../live/variables';

const PRODUCTION_URL = 'https://noon-api-gateway.noon.partners';
const READ_ONLY = { writes: false, rateLimit: false, tokenWaitMs: 0 };

let emulator: Emulator;
beforeEach(async () => (emulator = await startEmulator()));
afterEach(async () => await emulator.close());

/** The read-only suite against the emulator, with these faults queued first. */
async function readOnlyRun(...faults: FaultSpec[]) {
	const vars = emulatorVariables(emulator);
	const client = liveClient(vars);
	for (const fault of faults) emulator.injectFaults(fault);
	const report = await runSuite(client.call, vars, READ_ONLY, client.secrets, () => {});
	return { report, secrets: client.secrets() };
}

const shapeOfRun = (report: Report, operation: string) =>
	report.shapes.find((shape) => shape.operation === operation)!;

/** Every secret the run sent: the login tokens, the cookies, the credential's values. */
function secretsOfRun(secrets: string[]): string[] {
	const { tokens, cookies } = sentSecrets(emulator);
	return [...secrets, ...tokens, ...cookies].filter((secret) => secret.length >= 8);
}

describe('no value of an answer nor a secret reaches a shape or a printed line', () => {
	const DATA = ['NAE40012345', 'jane.doe@example.com', 'PRJ1234', '971501234567', 'Jane Doe'];

	it('writes keys that are data (order numbers, e-mails, names with spaces) as <key>', async () => {
		const set = {
			by_order: { NAE40012345: { email: 'x' }, 'jane.doe@example.com': { email: 'y', n: 1 } },
			PRJ1234: 1,
			'+971501234567': 'x',
			'Jane Doe': 'x',
			history: [{ NAE40012345_at: '2026-01-01T00:00:00Z' }, { NAE40012345_at: 'x' }],
		};
		const { report } = await readOnlyRun({ count: 1, operation: 'GetFbpiOrder', answer: { set } });
		const shape = shapeOfRun(report, 'GetFbpiOrder');
		const text = JSON.stringify(shape);
		for (const value of DATA) expect(text).not.toContain(value);
		const body = shape.body as Record<string, Shape>;
		expect(body.by_order).toEqual({ '<key>': { email: 'string', 'n?': 'number' } });
		expect(body['<key>']).toBe('number|string');
		expect(Object.keys(shape.order)).toEqual(['body.history[].<key>']);
		expect(compareShapes([shape], readShapes())).toContain(
			'GetFbpiOrder: body.<key>: in the answer, not in the shape file',
		);
	});

	it('writes a map, or list elements, of more than 200 plain-word keys as one <key>; cuts nesting at 32', async () => {
		const letters = (i: number) => i.toString(26).replace(/\d/g, (d) => 'qrstuvwxyz'[+d]);
		const byName = Object.fromEntries([...Array(300)].map((_, i) => [`sku_${letters(i)}`, i]));
		let deep: unknown = 'leaf';
		for (let i = 0; i < 1000; i++) deep = i % 2 ? { inner: deep } : [deep];
		const rows = Object.entries(byName).map(([name, value]) => ({ [name]: value }));
		const set = { by_name: byName, rows, deep };
		const { report } = await readOnlyRun({ count: 1, operation: 'GetFbpiOrder', answer: { set } });
		const body = shapeOfRun(report, 'GetFbpiOrder').body as Record<string, Shape>;
		expect(body.by_name).toEqual({ '<key>': 'number' });
		expect(body.rows).toEqual([{ '<key>': 'number' }]);
		const depth = (shape: Shape): number =>
			typeof shape === 'string' ? 0 : 1 + Math.max(0, ...Object.values(shape).map(depth));
		expect(depth(body.deep)).toBeLessThanOrEqual(MAX_DEPTH);
	});

	it('prints no login token, cookie or body that an error echoes', async () => {
		const { report, secrets } = await readOnlyRun(
			{ count: 1, operation: 'Login', status: 400, echo: { field: 'message' } },
			{ count: 1, operation: 'Whoami', status: 400, echo: true },
		);
		expect(report.lines[0]).toMatch(/^FAIL Login: 400 \(/);
		expect(report.lines.find((line) => line.includes('Whoami'))).toMatch(/^FAIL Whoami: 400/);
		const all = secretsOfRun(secrets);
		expect(all.length).toBeGreaterThanOrEqual(4);
		const text = JSON.stringify(report.shapes) + report.lines.join('\n');
		for (const secret of all) expect(text).not.toContain(secret);
	});

	it('prints only the plain words of an error message that holds data', async () => {
		const message =
			'order NAE40012345 of jane.doe@example.com (+971 50 123 4567) not found, retry in 30 s';
		const { report } = await readOnlyRun({ count: 1, operation: 'Whoami', status: 400, message });
		const line = report.lines.find((l) => l.startsWith('FAIL Whoami'))!;
		expect(line).toContain('order … of … not found, retry in 30 s');
		for (const value of ['NAE40012345', 'jane.doe', '971', '4567'])
			expect(line).not.toContain(value);
		expect(plainText(`${'x'.repeat(10)} token\nat secret (file.ts:1:2)`)).toBe('xxxxxxxxxx token');
		expect(plainText('refused the connection - perhaps it is offline')).toBe(
			'refused the connection - perhaps it is offline',
		);
	});

	it('prints only the size of an answer that is not JSON (a proxy’s page)', async () => {
		const answer = { prefix: '<html>Jane Doe NAE40012345</html>', status: 502 };
		const { report } = await readOnlyRun({ count: 1, operation: 'Whoami', answer });
		const line = report.lines.find((l) => l.startsWith('FAIL Whoami'));
		expect(line).toMatch(/^FAIL Whoami: 502 \(a body that is not JSON, \d+ characters\)$/);
	});

	it('writes cookie and header names that are data, and unknown attributes, as <key>', () => {
		const facts = headerFacts({
			'set-cookie': ['NAE40012345=abc; Path=/; jane@example.com', '__Host-s=v; Secure'],
			'x-rate-limit-PRJ1234': '1',
		});
		expect(facts).toEqual({
			names: ['<key>', 'set-cookie'],
			cookies: [
				{ name: '<key>', attributes: ['<key>', 'path'], size: 'up to 16 bytes' },
				{ name: '__Host-s', attributes: ['secure'], size: 'up to 16 bytes' },
			],
		});
	});
});

describe('writes and the 429 probe only against the sandbox or a local emulator', () => {
	const both = { writes: true, rateLimit: true };
	it.each([
		[PRODUCTION_URL, { writes: true, rateLimit: false }],
		[PRODUCTION_URL, { writes: false, rateLimit: true }],
		[`https://noon-sandbox-api-gateway.noon.partners@noon-api-gateway.noon.partners`, both],
		['https://NOON-API-GATEWAY.noon.partners:443/', both],
		['https://noon-sandbox-api-gateway.noon.partners.example.com', both],
		['not a url', both],
	])('refuses %s %j', (baseUrl, wanted) => {
		expect(writesRefusal(baseUrl, wanted, undefined)).toMatch(
			/^test:live refused: .*not the sandbox/,
		);
		expect(writesRefusal(baseUrl, wanted, SANDBOX_URL)).toMatch(/^test:live refused/);
	});

	it('allows the sandbox, a local host, read-only runs, and a host named by --allow-writes-to', () => {
		expect(writesRefusal(`${SANDBOX_URL}/`, both, undefined)).toBeUndefined();
		expect(writesRefusal(emulator.baseUrl, both, undefined)).toBeUndefined();
		expect(writesRefusal('http://localhost:5678', both, undefined)).toBeUndefined();
		const readOnly = { writes: false, rateLimit: false };
		expect(writesRefusal(PRODUCTION_URL, readOnly, undefined)).toBeUndefined();
		expect(writesRefusal(PRODUCTION_URL, both, 'noon-api-gateway.noon.partners')).toBeUndefined();
		expect(hostOf('https://me:pw@noon-sandbox-api-gateway.noon.partners/x?token=abc')).toBe(
			'noon-sandbox-api-gateway.noon.partners',
		);
	});

	it('the default gateway is the sandbox', () => {
		const env = Object.fromEntries(REQUIRED.map((name) => [name, 'x']));
		expect(readVariables(env)).toMatchObject({ baseUrl: SANDBOX_URL });
		expect(readVariables({ ...env, SELLER_PLATFORM_BASE_URL: ' ' })).toMatchObject({
			baseUrl: SANDBOX_URL,
		});
	});
});

describe('a gateway that never answers, trickles or sends too much ends the request', () => {
	it.each([
		['never answers', { hang: true }],
		['trickles', { trickleMs: 300 }],
	])('within its deadline when it %s', async (_, fault) => {
		const client = liveClient(emulatorVariables(emulator), 1000);
		emulator.injectFaults({ count: 1, operation: 'Whoami', ...fault });
		const start = Date.now();
		const failed = await client.call({ endpoint: 'Whoami' }).catch((error: unknown) => error);
		expect(failed).toBeInstanceOf(CallFailed);
		expect((failed as CallFailed).reason).toBe('no complete answer within 1 s');
		expect(Date.now() - start).toBeLessThan(5000);
	});

	it('reads at most 16 MB of an answer', async () => {
		const client = liveClient(emulatorVariables(emulator));
		emulator.injectFaults({ count: 1, operation: 'Whoami', huge: { megabytes: 64, gzip: true } });
		const failed = await client.call({ endpoint: 'Whoami' }).catch((error: unknown) => error);
		expect((failed as CallFailed).reason).toMatch(/larger than 16 MB/);
	});
});

describe('the shape comparison names how another gateway differs', () => {
	const differences = async (operation: string, fault: Omit<FaultSpec, 'count'>) => {
		const { report } = await readOnlyRun({ ...fault, count: 1, operation });
		return compareShapes([shapeOfRun(report, operation)], readShapes());
	};

	it('camelCase spellings, each once', async () => {
		const answer = {
			omit: ['fbpi_order_nr', 'order_created_at'],
			set: { fbpiOrderNr: 'X', orderCreatedAt: '2026-01-01T00:00:00Z' },
		};
		expect(await differences('GetFbpiOrder', { answer })).toEqual([
			'GetFbpiOrder: body.fbpi_order_nr: written fbpiOrderNr in the answer (camelCase)',
			'GetFbpiOrder: body.order_created_at: written orderCreatedAt in the answer (camelCase)',
		]);
	});

	it('a number written as text', async () => {
		const status = { details: [], message: 'OK', status_code: 'OK', status_id: 0 };
		const item = { partner_sku: 'S', qty: '7', status, stock_updated_at: 'T', warehouse_code: 'W' };
		expect(await differences('GetStock', { answer: { set: { items: [item] } } })).toEqual([
			'GetStock: body.items[0].qty: "number" in the shape file, "string" in the answer (a number written as text)',
		]);
	});

	it('an empty list left out', async () => {
		expect(await differences('GetFbpiOrder', { answer: { omit: ['items'] } })).toEqual([
			'GetFbpiOrder: body.items: in the shape file, not in the answer',
		]);
	});

	it('list orders: each list of a path, camelCase times, lists of one element', () => {
		const at = (minute: number) => `2026-01-01T00:0${minute}:00Z`;
		const items = (...minutes: number[]) => minutes.map((m) => ({ item_at: at(m) }));
		const body = {
			orders: [
				{ createdAt: at(2), items: items(1, 2) },
				{ createdAt: at(1), items: items(2, 1) },
				{ createdAt: at(1), items: items(3) },
			],
		};
		expect(orderFacts(body)).toEqual({
			'body.orders[].createdAt': 'descending',
			'body.orders[].items[].item_at': 'mixed',
		});
		expect(orderFacts({ orders: [{ createdAt: at(1) }] })).toEqual({});
	});

	it('a field sometimes missing', () => {
		expect(diffShapes({ a: 'string' }, { 'a?': 'string' }, 'body')).toEqual([
			'body.a: sometimes missing in the answer, always there in the shape file',
		]);
	});

	it('--update-shapes writes nothing from a run with a failed check', () => {
		const dir = mkdtempSync(join(tmpdir(), 'shapes-'));
		const shape = { operation: 'Whoami', status: 401, body: {}, order: {} };
		const report = {
			shapes: [{ ...shape, headers: { names: [], cookies: [] } }],
			lines: [],
			failures: ['Whoami answered 401, not 200'],
		};
		expect(updateShapes(report, dir)).toBe('shapes not written: 1 checks failed (fix those first)');
		expect(readdirSync(dir)).toEqual([]);
	});
});

describe('npm run test:live exits with one line saying why', () => {
	const root = join(__dirname, '..', '..');
	const key = generateKeyPairSync('rsa', {
		modulusLength: 2048,
		privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
		publicKeyEncoding: { type: 'spki', format: 'pem' },
	}).privateKey;
	const KEY_ID = 'noon-partners-key-id-0123456789abcdef0123456789abcdef';
	const credential = {
		SELLER_PLATFORM_KEY_ID: KEY_ID,
		SELLER_PLATFORM_PRIVATE_KEY: key,
		SELLER_PLATFORM_PROJECT_CODE: 'PRJ4242',
		SELLER_PLATFORM_WAREHOUSE_CODE: 'WH-DXB-01',
	};

	/** `npm run test:live -- args` with these variables only: its exit code and output. */
	async function live(args: string[], vars: Record<string, string>) {
		const env: NodeJS.ProcessEnv = { ...process.env };
		for (const name of Object.keys(env)) if (name.startsWith('SELLER_PLATFORM_')) delete env[name];
		const bin = require.resolve('ts-node/dist/bin');
		const command = [bin, '--transpile-only', 'test/live/run.ts', ...args];
		const start = Date.now();
		return await new Promise<{ code: number; lines: string[]; stderr: string; ms: number }>(
			(resolve) => {
				execFile(
					process.execPath,
					command,
					{ cwd: root, env: { ...env, ...vars }, encoding: 'utf8', timeout: 240_000 },
					(error, stdout, stderr) =>
						resolve({
							code: error ? Number(error.code ?? 1) : 0,
							lines: stdout.trim().split('\n'),
							stderr,
							ms: Date.now() - start,
						}),
				);
			},
		);
	}

	const closedPort = async () =>
		await new Promise<number>((resolve) => {
			const server = createServer().listen(0, '127.0.0.1', () => {
				const { port } = server.address() as { port: number };
				server.close(() => resolve(port));
			});
		});

	it('fails on a half-set environment, refuses production writes, ends a run that is down or too long', async () => {
		const port = await closedPort();
		const vars = emulatorVariables(emulator);
		emulator.injectFaults({ count: 10_000, delayMs: 700 });
		const fromEmulator = {
			SELLER_PLATFORM_BASE_URL: vars.baseUrl,
			SELLER_PLATFORM_KEY_ID: vars.keyId,
			SELLER_PLATFORM_PRIVATE_KEY: vars.privateKey,
			SELLER_PLATFORM_PROJECT_CODE: vars.projectCode,
			SELLER_PLATFORM_WAREHOUSE_CODE: vars.warehouseCode,
		};
		const production = { ...credential, SELLER_PLATFORM_BASE_URL: PRODUCTION_URL };
		const [partial, urlOnly, writes, rateLimit, down, slow] = await Promise.all([
			live([], { SELLER_PLATFORM_KEY_ID: KEY_ID }),
			live([], { SELLER_PLATFORM_BASE_URL: SANDBOX_URL }),
			live(['--writes', '--no-build'], production),
			live(['--rate-limit', '--no-build'], production),
			live(['--no-build'], { ...credential, SELLER_PLATFORM_BASE_URL: `http://127.0.0.1:${port}` }),
			live(['--no-build', '--deadline=3'], fromEmulator),
		]);
		expect(partial).toMatchObject({ code: 1, stderr: '' });
		expect(partial.lines).toEqual([
			'test:live failed: SELLER_PLATFORM_PRIVATE_KEY, SELLER_PLATFORM_PROJECT_CODE, SELLER_PLATFORM_WAREHOUSE_CODE not set (the other Seller Platform variables are: all of SELLER_PLATFORM_KEY_ID, SELLER_PLATFORM_PRIVATE_KEY, SELLER_PLATFORM_PROJECT_CODE, SELLER_PLATFORM_WAREHOUSE_CODE are needed, see test/live/README.md)',
		]);
		expect(urlOnly.code).toBe(1);
		expect(urlOnly.lines[0]).toMatch(/^test:live failed: SELLER_PLATFORM_KEY_ID, /);
		for (const refused of [writes, rateLimit]) {
			expect(refused).toMatchObject({ code: 1, stderr: '' });
			expect(refused.lines).toHaveLength(1);
			expect(refused.lines[0]).toMatch(
				/^test:live refused: --(writes|rate-limit) against noon-api-gateway\.noon\.partners, which is not the sandbox/,
			);
		}
		expect(down).toMatchObject({ code: 1, stderr: '' });
		expect(down.lines).toEqual([
			'test:live against 127.0.0.1',
			expect.stringMatching(/^test:live failed: Login: /),
		]);
		expect(slow).toMatchObject({ code: 1, stderr: '' });
		expect(slow.lines.at(-1)).toBe('test:live failed: the run did not end within 3 s (--deadline)');
		const everything = [partial, urlOnly, writes, rateLimit, down, slow].flatMap((run) => [
			...run.lines,
			run.stderr,
		]);
		for (const line of everything) {
			expect(line).not.toMatch(/^\s+at |PRIVATE KEY|PRJ4242/);
			for (const secret of [KEY_ID, vars.keyId, vars.privateKey.split('\n')[1]]) {
				expect(line).not.toContain(secret);
			}
		}
		// Six ts-node processes at once: each compiles for seconds alone, for over a minute beside
		// the rest of `npm test` on 2 cores.
	}, 300_000);
});
