/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The live suite (test/live) against the emulator: the shapes of its answers are the shipped
 * test/live/shapes/*.json (a difference fails naming the field), every check passes, the probes
 * print what the emulator does, nothing printed or recorded holds a secret, and without a
 * credential `npm run test:live` says so in one line.
 */
import { execFileSync } from 'child_process';
import { join } from 'path';

import { startEmulator, type Emulator } from '../emulator';
import { sentSecrets } from './fixture';
import { liveClient } from '../live/client';
import type { AnswerShape } from '../live/shape';
import { compareShapes, readShapes, runSuite, type Report } from '../live/suite';
import { emulatorVariables, REQUIRED } from '../live/variables';

const OPERATIONS = [
	'Login',
	'Whoami',
	'ListWarehouses',
	'ListFbpiOrders',
	'GetFbpiOrder',
	'GetStock',
	'CreateSandboxOrder',
	'UpdateOrder',
	'CreateShipment',
	'UpdateStock',
	'ListWarehouses-429',
];

describe('the live suite against the emulator', () => {
	let emulator: Emulator;
	let report: Report;
	let secrets: string[];
	beforeAll(async () => {
		emulator = await startEmulator();
		const vars = emulatorVariables(emulator);
		const client = liveClient(vars);
		const options = { writes: true, rateLimit: true, tokenWaitMs: 0 };
		report = await runSuite(client.call, vars, options, client.secrets, () => {});
		secrets = client.secrets();
	});
	afterAll(async () => await emulator.close());

	it('passes every check, and each answer has the shape of its file in test/live/shapes', () => {
		expect(report.failures).toEqual([]);
		expect(report.shapes.map((shape) => shape.operation)).toEqual(OPERATIONS);
		expect([...readShapes().keys()].sort()).toEqual([...OPERATIONS].sort());
		expect(compareShapes(report.shapes, readShapes())).toEqual([]);
	});

	it('fails naming the field path when a shape file differs from the answer', () => {
		const changed = (operation: string, change: (file: any) => void) => {
			const files = readShapes();
			change(files.get(operation));
			return compareShapes(report.shapes, files);
		};
		expect(
			changed('ListFbpiOrders', (file) => (file.body.orders[0].order_created_at = 'number')),
		).toEqual([
			'ListFbpiOrders: body.orders[0].order_created_at: "number" in the shape file, "string" in the answer (a number written as text)',
		]);
		expect(changed('GetFbpiOrder', (file) => delete file.body.items)).toEqual([
			'GetFbpiOrder: body.items: in the answer, not in the shape file',
		]);
		expect(changed('Login', (file) => (file.headers.cookies[0].name = 'SESSION'))).toEqual([
			'Login: headers.cookies[0].name: "SESSION" in the shape file, "_npgw" in the answer',
		]);
		// Not differences: an empty list of a body, a list order where one side has too few entries.
		expect(changed('GetFbpiOrder', (file) => (file.body.items = []))).toEqual([]);
		expect(changed('ListFbpiOrders', (file) => (file.order = {}))).toEqual([]);
		expect(changed('ListWarehouses-429', (file) => (file.headers.names = []))).toEqual([
			'ListWarehouses-429: headers.names: [] in the shape file, ["retry-after"] in the answer',
		]);
	});

	it('prints what each probe saw of the emulator', () => {
		const probe = (name: string) => report.lines.find((line) => line.startsWith(`probe ${name}:`));
		expect(probe('session')).toBe(
			'probe session: _npsid no lifetime (until the client closes), _npgw no lifetime (until the client closes)',
		);
		expect(probe('list order')).toMatch(/60 orders over 2 pages .* ascending, 0 listed twice/);
		expect(probe('page tokens')).toMatch(/at once: 200; with other filters: 400 INVALID_ARGUMENT/);
		expect(probe('lateness')).toMatch(
			/read by GetFbpiOrder after 0\.\d s, listed .* after 0\.\d s/,
		);
		expect(probe('429')).toMatch(
			/request 15 answered 429 \(RESOURCE_EXHAUSTED .*Retry-After: "\d+"/,
		);
	});

	it('records and prints no value of the key, the login token or a session cookie', () => {
		const { tokens, cookies } = sentSecrets(emulator);
		const all = [...secrets, ...tokens, ...cookies].filter((secret) => secret.length >= 8);
		expect(tokens.length).toBeGreaterThanOrEqual(2); // the suite's own login, the credential's
		expect(new Set(cookies.filter(Boolean)).size).toBeGreaterThanOrEqual(2);
		const text = JSON.stringify(report.shapes) + report.lines.join('\n');
		for (const secret of all) expect(text).not.toContain(secret);
		expect(text).not.toContain(emulator.credential.key_id);
	});

	it('shapes have no values: every leaf is a JSON type, a status, an order fact or a size class', () => {
		const leaves = (value: unknown): unknown[] =>
			typeof value === 'object' && value !== null ? Object.values(value).flatMap(leaves) : [value];
		const bodies = report.shapes.flatMap((shape: AnswerShape) => leaves(shape.body));
		for (const leaf of bodies)
			expect(leaf).toMatch(/^(string|number|boolean|null|object|array)(\|.+)?$/);
	});
});

it('without a credential, npm run test:live says it skipped and why in one line, and exits 0', () => {
	const env = { ...process.env };
	for (const name of [...REQUIRED, 'SELLER_PLATFORM_BASE_URL']) delete env[name];
	const root = join(__dirname, '..', '..');
	const out = execFileSync(
		process.execPath,
		[require.resolve('ts-node/dist/bin'), '--transpile-only', 'test/live/run.ts'],
		{ cwd: root, env, encoding: 'utf8' },
	);
	expect(out.trim().split('\n')).toEqual([
		`test:live skipped: no sandbox credential (${REQUIRED.join(', ')} not set; all of 4 needed, see test/live/README.md)`,
	]);
});
