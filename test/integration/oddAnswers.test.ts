/**
 * Answers of another shape than the spec's, from the emulator's `answer` fault (a wrapper object,
 * the fields at the top level, an array, a text with a prefix, odd values): the private key of a
 * new credential is only where the user asked for it, never in errors or hints; a purchase order
 * whose release date cannot be read is still a successful item.
 *
 * This file does not use fixture.ts: it holds every output to the operation's output schema, and
 * these answers are off the spec on purpose.
 */
import { createPrivateKey, generateKeyPairSync } from 'crypto';
import fc from 'fast-check';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import {
	credentialFields,
	SEEDED_API_USER,
	SEEDED_PO,
	startEmulator,
	type AnswerShape,
	type Emulator,
} from '../emulator';
import {
	chain,
	createTestEnvironment,
	type TestEnvironment,
	type WorkflowResult,
} from '../helpers';

let emulator: Emulator;
let env: TestEnvironment;
beforeAll(async () => {
	emulator = await startEmulator({ ratePlan: null, maxKeysPerUser: 1000 });
	env = createTestEnvironment();
	env.addCredential('cred-1', 'sellerPlatformApi', credentialFields(emulator));
});
afterAll(async () => await emulator.close());
beforeEach(() => emulator.clearFaults());

async function run(
	parameters: INodeParameters,
	items: object[] = [{}],
	settings: { continueOnFail?: boolean } = {},
	credential = 'cred-1',
): Promise<WorkflowResult> {
	return await env.runWorkflow({
		nodes: [
			{ name: 'Items', type: 'testItems', parameters: { items: JSON.stringify(items) } },
			{
				name: 'Seller Platform',
				type: 'sellerPlatform',
				parameters,
				credentials: { sellerPlatformApi: credential },
				...settings,
			},
		],
		connections: chain('Items', 'Seller Platform'),
	});
}

const hintsOf = (result: WorkflowResult) =>
	result.run.data.resultData.runData['Seller Platform'][0].hints ?? [];

/** Everything of a run the user sees but the binary files: output JSON, errors, hints, logs. */
const seen = (result: WorkflowResult) =>
	JSON.stringify([
		result.run.data.resultData.runData['Seller Platform']?.[0]?.data?.main,
		result.nodeError('Seller Platform'),
		result.nodeError('Seller Platform')?.description,
		hintsOf(result),
		env.logger.entries,
	]).replace(/"binary":\{[^}]*\}/g, '');

const CREATE: INodeParameters = {
	resource: 'apiCredential',
	operation: 'create',
	userCode: SEEDED_API_USER.userCode,
};

const SHAPES: Array<[string, AnswerShape]> = [
	['inside a wrapper object', { wrap: ['result'] }],
	['with its fields at the top level', { unwrap: 'credential' }],
	['in an array', { array: true }],
	[
		'deep inside wrappers and an array',
		{ unwrap: 'credential', wrap: ['data', 'items'], array: true },
	],
	['as a text after a prefix (JSON-escaped in { data })', { prefix: ")]}'\n" }],
	['as plain text after a prefix', { prefix: 'OK ', contentType: 'text/plain' }],
];

/** The base64 lines of a PEM key: none of them may be in what the user sees either. */
const keyLines = (pem: string) =>
	pem.split('\n').filter((line) => line.length >= 40 && !line.startsWith('-----'));

describe('apiCredential/create: the private key only where "Private Key Output" says', () => {
	it.each(SHAPES)('Nowhere: an answer %s keeps no trace of the key', async (_, answer) => {
		emulator.injectFaults({ count: 1, operation: 'CreateCredential', answer });
		const result = await run({ ...CREATE, options: { privateKeyOutput: 'none' } });
		expect(result.status).toBe('success');
		const [out] = result.outputs('Seller Platform');
		expect(out.binary).toBeUndefined();
		expect(seen(result)).not.toMatch(/PRIVATE KEY|MII[A-Za-z0-9+/]{20}/);
		if (answer.prefix) {
			expect(out.json.data).toEqual(
				expect.stringContaining('[removed: Private Key Output is Nowhere]'),
			);
		}
	});

	it.each(SHAPES)(
		'As a Binary PEM File: an answer %s puts the key in the file, and only there',
		async (_, answer) => {
			emulator.injectFaults({ count: 1, operation: 'CreateCredential', answer });
			const result = await run({ ...CREATE, options: { privateKeyOutput: 'binary' } });
			expect(result.status).toBe('success');
			const [out] = result.outputs('Seller Platform');
			const file = out.binary?.privateKey;
			expect(file).toBeDefined();
			const pem = Buffer.from(file!.data, 'base64').toString();
			expect(pem).toMatch(
				/^-----BEGIN PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+-----END PRIVATE KEY-----\n?$/,
			);
			expect(createPrivateKey(pem).asymmetricKeyType).toBe('rsa');
			// Named after the key's ID, wherever the answer had it.
			expect(file!.fileName).toMatch(/^[\w-]+\.pem$/);
			expect(file!.fileName).not.toBe('private-key.pem');
			expect(JSON.stringify(out.json)).toContain(file!.fileName!.replace(/\.pem$/, ''));

			const text = seen(result);
			expect(text).not.toContain('PRIVATE KEY');
			for (const line of keyLines(pem)) expect(text).not.toContain(line);
		},
	);

	it('the key taken out of a text answer is the real one: it logs in', async () => {
		emulator.injectFaults({
			count: 1,
			operation: 'CreateCredential',
			answer: { prefix: ")]}'\n", wrap: ['result'] },
		});
		const result = await run({ ...CREATE, options: { privateKeyOutput: 'binary' } });
		const [out] = result.outputs('Seller Platform');
		const file = out.binary!.privateKey;
		env.addCredential('made', 'sellerPlatformApi', {
			...credentialFields(emulator),
			keyId: file.fileName!.replace(/\.pem$/, ''),
			privateKey: Buffer.from(file.data, 'base64').toString(),
			sessionCookie: '',
		});
		const login = await run(
			{ resource: 'purchaseOrder', operation: 'get', poNr: SEEDED_PO.released },
			[{}],
			{},
			'made',
		);
		expect(login.status).toBe('success');
		expect(login.json('Seller Platform')[0].po_nr).toBe(SEEDED_PO.released);
	});

	it('errors and hints name a created key by its ID, wherever the answer had it, never by its key', async () => {
		emulator.injectFaults({
			count: 1,
			operation: 'CreateCredential',
			answer: { wrap: ['result'] },
		});
		emulator.injectFaults({ count: 1, operation: 'CreateCredential', status: 500 });
		const result = await run({ ...CREATE, options: { privateKeyOutput: 'binary' } }, [{}, {}], {
			continueOnFail: true,
		});
		const [created, failed] = result.outputs('Seller Platform');
		const keyId = ((created.json.result as IDataObject).credential as IDataObject).key_id;
		expect(failed.json.error).toEqual(expect.any(String));
		const messages = hintsOf(result).map((hint) => hint.message);
		expect(messages).toContainEqual(
			`1 object was created before the first failure, and is in the output: key ID ${String(keyId)}`,
		);
		expect(seen(result)).not.toContain('PRIVATE KEY');
	});

	it('a service error that repeats a private key shows none of it', async () => {
		const pem = generateKeyPairSync('rsa', { modulusLength: 1024 })
			.privateKey.export({ type: 'pkcs8', format: 'pem' })
			.toString();
		emulator.injectFaults({
			count: 2,
			operation: 'CreateCredential',
			status: 409,
			message: `a key exists already: ${pem}`,
		});
		const kept = await run(CREATE, [{}], { continueOnFail: true });
		const [item] = kept.outputs('Seller Platform');
		expect(String(item.json.error)).toContain('a key exists already');
		const stopped = await run(CREATE);
		expect(stopped.status).toBe('error');
		for (const result of [kept, stopped]) {
			const text = seen(result);
			expect(text).not.toContain('PRIVATE KEY');
			for (const line of keyLines(pem)) expect(text).not.toContain(line);
		}
	});
});

describe('purchaseOrder/get: a release date that cannot be read', () => {
	const GET: INodeParameters = {
		resource: 'purchaseOrder',
		operation: 'get',
		poNr: SEEDED_PO.released,
	};
	const HINT =
		'For 1 item, po_release_date could not be read as a date (a part is not a whole number, is out of range, or the day is not in its month): po_release_date_iso is null, po_release_date is as the service sent it';

	async function getWithDate(date: unknown): Promise<WorkflowResult> {
		emulator.injectFaults({
			count: 1,
			operation: 'GetPurchaseOrder',
			answer: { set: { po_release_date: date } },
		});
		return await run(GET);
	}

	it.each([
		['a year "x"', { year: 'x', month: 3, day: 15 }],
		['a month true', { year: 2024, month: true, day: 15 }],
		['a day {}', { year: 2024, month: 3, day: {} }],
		['a day []', { year: 2024, month: 3, day: [] }],
		['month 13', { year: 2024, month: 13, day: 1 }],
		['year 1e20', { year: 1e20, month: 1, day: 1 }],
		['a text', '2024-03-15'],
	])('%s: the item succeeds, the date kept as sent, with a hint', async (_, date) => {
		const result = await getWithDate(date);
		expect(result.status).toBe('success');
		const [out] = result.outputs('Seller Platform');
		expect(out.json).toMatchObject({ po_nr: SEEDED_PO.released, po_release_date_iso: null });
		expect(out.json.po_release_date).toEqual(date);
		expect(hintsOf(result).map((hint) => hint.message)).toContain(HINT);
	});

	it('any JSON value in any part never fails the item (property, fixed seed)', async () => {
		const part = fc.oneof(
			fc.jsonValue(),
			fc.integer({ min: -20, max: 10_000 }),
			fc.constant(undefined),
		);
		await fc.assert(
			fc.asyncProperty(fc.record({ year: part, month: part, day: part }), async (date) => {
				const result = await getWithDate(date);
				expect(result.status).toBe('success');
				const [out]: INodeExecutionData[] = result.outputs('Seller Platform');
				const iso = out.json.po_release_date_iso;
				expect(iso === null || /^\d{4}-\d{2}-\d{2}$/.test(String(iso))).toBe(true);
			}),
			{ seed: 26, numRuns: 60 },
		);
	});

	it('only a date it cannot read gets the hint, not one of the spec (all zeros, a real day)', async () => {
		for (const date of [{ year: 0, month: 0, day: 0 }, {}, { year: 2024, month: 2, day: 29 }]) {
			const result = await getWithDate(date);
			expect(hintsOf(result).map((hint) => hint.message)).not.toContain(HINT);
		}
		const odd = await getWithDate({ year: 2024, month: 2, day: 30 });
		expect(odd.json('Seller Platform')[0].po_release_date_iso).toBeNull();
		expect(hintsOf(odd).map((hint) => hint.message)).toContain(HINT);
	});
});
