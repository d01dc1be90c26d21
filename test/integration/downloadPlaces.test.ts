/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Fair export download places, against the emulator: credentials whose files never end (the
 * emulator's `trickleMs` fault on DownloadExport: one byte every 100 ms of a 1 MB file) hold
 * places, each until its Download Timeout, and another credential's download still starts at
 * once; only 16 downloads of 14 credentials or more fill every place. Download Timeout has a
 * maximum (3,600 s), also from an expression, checked before anything is sent.
 */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { credentialFields, type RequestLogEntry } from '../emulator';
import type { StartedExecution } from '../helpers';
import { CREDENTIAL_ID, startFixture, workflowWithItems, type Fixture } from './fixture';

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => boolean, ms = 10_000) {
	const end = Date.now() + ms;
	while (!condition()) {
		if (Date.now() > end) throw new Error('condition not met in time');
		await sleep(20);
	}
}

let f: Fixture;
beforeAll(async () => {
	f = await startFixture({ ratePlan: null });
});
afterAll(async () => await f.close());
beforeEach(() => {
	f.emulator.clearFaults();
	f.emulator.clearRequests();
});

interface Credential {
	id: string;
	projectCode: string;
}

const VICTIM: Credential = { id: CREDENTIAL_ID, projectCode: '' };

/** A credential of its own (own n8n id, made-up project code) on the emulator. */
async function credential(id: string): Promise<Credential> {
	const projectCode = `PRJ-${id.toUpperCase()}`;
	const file = await f.emulator.addCredential({ projectCode });
	f.env.addCredential(
		id,
		'sellerPlatformApi',
		credentialFields({ baseUrl: f.emulator.baseUrl, credential: file }),
	);
	return { id, projectCode };
}

/**
 * Another n8n credential (its own id) with the victim's key and project: places are kept per n8n
 * credential, whatever the gateway and project.
 */
function sameKey(id: string): Credential {
	f.env.addCredential(id, 'sellerPlatformApi', credentialFields(f.emulator));
	return { id, projectCode: '' };
}

/** Export codes whose downloads are endless (the trickling ones). */
const endless = new Set<string>();

/** Export → Get Status with Download File for `count` complete exports of `who` (continue on fail). */
function downloads(who: Credential, count: number, options: INodeParameters = {}, hostile = false) {
	const items = Array.from({ length: count }, () => ({
		code: f.emulator.addExport({
			states: ['COMPLETE'],
			fileSizeBytes: 1_000_000,
			projectCode: who.projectCode || undefined,
		}).export_code,
	}));
	if (hostile) for (const { code } of items) endless.add(code);
	return workflowWithItems(
		items,
		{
			resource: 'export',
			operation: 'getStatus',
			exportCode: '={{ $json.code }}',
			options: { download: true, concurrency: 10, ...options },
		},
		{ continueOnFail: true, credentials: { sellerPlatformApi: who.id } },
	);
}

/** The endless downloads whose connection is open: each holds a download place. */
const holdingPlaces = () =>
	f.emulator
		.requests()
		.filter(
			(entry: RequestLogEntry) =>
				entry.operation === 'DownloadExport' &&
				entry.clientClosedAt === undefined &&
				endless.has(
					decodeURIComponent(entry.path.split('?')[0].split('/').pop()!).replace(/\.csv$/, ''),
				),
		).length;

/**
 * Starts `count` downloads of each hostile credential whose files never end (one trickling
 * answer each) and waits until every one is in flight (holds a place).
 */
async function holdPlaces(
	hostile: Credential[],
	count: number,
	options: INodeParameters,
): Promise<StartedExecution[]> {
	const before = holdingPlaces();
	f.emulator.injectFaults({
		count: hostile.length * count,
		operation: 'DownloadExport',
		trickleMs: 100,
	});
	const started = await Promise.all(
		hostile.map(async (who) => await f.env.startExecution(downloads(who, count, options, true))),
	);
	await waitFor(() => holdingPlaces() === before + hostile.length * count);
	return started;
}

async function download(who: Credential, options: INodeParameters = {}) {
	const result = await f.env.runWorkflow(downloads(who, 1, options));
	return result.outputs('Seller Platform')[0];
}

/** Runs `run`; its result and how long it took. */
async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
	const startedAt = Date.now();
	const result = await run();
	return [result, Date.now() - startedAt];
}

const BUSY =
	'Export downloads are busy: no download place was free within 1 s, so the export file was not downloaded';

describe('two credentials whose files never end', () => {
	it('cannot stop a third credential’s download; theirs end at their Download Timeout, and downloads go on as usual after', async () => {
		const hostile = [await credential('hostile-a'), await credential('hostile-b')];
		// Two endless downloads each: on the old code, the process's 4 places.
		const holding = await holdPlaces(hostile, 2, { downloadTimeoutSeconds: 4 });
		await sleep(200);

		// Waiting 1 s at most for a place: the old code failed it "Export downloads are busy".
		const [item, took] = await timed(
			async () => await download(VICTIM, { waitingBudgetSeconds: 1 }),
		);
		expect(item.json.error).toBeUndefined();
		expect(Buffer.from(item.binary!.data.data, 'base64')).toHaveLength(1_000_000);
		// A login, a status read and 1 MB from loopback: well under a second when idle.
		expect(took).toBeLessThan(3000);
		// The hostile downloads still hold their places.
		expect(holdingPlaces()).toBe(4);

		// Each endless download ends at its 4 s deadline, its connection closed.
		const ended = await Promise.all(holding.map(async (execution) => await execution.finished));
		const errors = ended.flatMap((run) =>
			run.outputs('Seller Platform').map((entry) => entry.json.error),
		);
		expect(errors).toEqual(
			Array.from({ length: 4 }, () => 'The export file did not finish downloading within 4 s'),
		);
		await waitFor(() => holdingPlaces() === 0, 3000);

		// Every place is back: the same credentials (their server now ends its files) and the
		// victim, three downloads each at once, all complete, none waiting over its 5 s budget.
		const runs = await Promise.all(
			[...hostile, VICTIM].map(
				async (who) => await f.env.runWorkflow(downloads(who, 3, { waitingBudgetSeconds: 5 })),
			),
		);
		expect(
			runs.flatMap((run) => run.outputs('Seller Platform').map((entry) => entry.json.error)),
		).toEqual(Array.from({ length: 9 }, () => undefined));
	}, 30_000);
});

describe('the bound of the download places', () => {
	it('gives a credential its first place while 15 others are held; 16 held (14 credentials or more) fill every place', async () => {
		const hostile = Array.from({ length: 16 }, (_, i) => sameKey(`bound-${i}`));
		const options = { downloadTimeoutSeconds: 60 };
		// 15 credentials, one endless download each.
		const holding = await holdPlaces(hostile.slice(0, 15), 1, options);
		await sleep(200);
		const first = await download(VICTIM, { waitingBudgetSeconds: 1 });
		expect(first.json.error).toBeUndefined();

		// A sixteenth: every place is held.
		holding.push(...(await holdPlaces(hostile.slice(15), 1, options)));
		await sleep(200);
		const [blocked, took] = await timed(
			async () => await download(VICTIM, { waitingBudgetSeconds: 1 }),
		);
		expect(blocked.json.error).toBe(BUSY);
		expect(blocked.json.details).toMatchObject({
			description: expect.stringContaining(
				'at most 2 export files at once per credential (the second while fewer than 4 run in all) and 16 in all',
			),
		});
		expect(took).toBeGreaterThanOrEqual(900);
		expect(took).toBeLessThan(5000);
		expect(holdingPlaces()).toBe(16);

		// Stopped, they give every place back at once.
		for (const execution of holding) execution.cancel();
		await Promise.all(holding.map(async (execution) => await execution.finished));
		await waitFor(() => holdingPlaces() === 0, 3000);
		const after = await download(VICTIM, { waitingBudgetSeconds: 1 });
		expect(after.json.error).toBeUndefined();
	}, 60_000);
});

describe('the maximum Download Timeout', () => {
	const MESSAGE =
		'The option "Download Timeout (Seconds)" (downloadTimeoutSeconds) must be a positive number of at most 3600 (one hour)';

	it('is the option’s maxValue in the editor', async () => {
		const { downloadTimeoutOption } =
			await import('../../dist/nodes/shared/transport/downloadOptions');
		expect(downloadTimeoutOption.typeOptions).toEqual({ minValue: 1, maxValue: 3600 });
	});

	/**
	 * Whether the node takes `value` (from an expression): a number, or text holding one (blank
	 * text and every other JSON type are no number); unset is the default, 600.
	 */
	function accepted(value: unknown): boolean {
		if (value === undefined || value === null || value === '') return true;
		const seconds =
			typeof value === 'number'
				? value
				: typeof value === 'string' && value.trim() !== ''
					? Number(value)
					: NaN;
		return seconds > 0 && seconds <= 3600;
	}

	it('holds for every value an expression gives (every JSON type), refused before anything is sent, naming the option and the rule', async () => {
		const near = fc.constantFrom(
			3600,
			3600.0001,
			3601,
			'3600',
			' 3601 ',
			'3.6e3',
			'0x e10',
			1e9,
			2_147_484,
			0.001,
			-0,
			'-0',
			7200,
		);
		const value = fc.oneof(
			{ weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
			{ weight: 2, arbitrary: fc.double({ min: -10_000, max: 10_000, noNaN: true }) },
			{ weight: 2, arbitrary: fc.integer({ min: 3500, max: 3700 }).map(String) },
			{ weight: 2, arbitrary: near },
			{ weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity, undefined) },
		);
		const values = fc.sample(value, { numRuns: 150, seed: 43 });
		// Numbers JSON cannot carry travel as text, the expression turns them back.
		const carried = (v: unknown): IDataObject =>
			typeof v === 'number' && !Number.isFinite(v)
				? { x: String(v) }
				: v === undefined
					? {}
					: { v: v as IDataObject };
		const codes = values.map(() => f.emulator.addExport({ states: ['COMPLETE'] }).export_code);
		const items = values.map((v, i) => ({ code: codes[i], ...carried(v) }));
		const result = await f.env.runWorkflow(
			workflowWithItems(
				items,
				{
					resource: 'export',
					operation: 'getStatus',
					exportCode: '={{ $json.code }}',
					options: {
						download: true,
						concurrency: 10,
						downloadTimeoutSeconds: '={{ $json.x === undefined ? $json.v : Number($json.x) }}',
					},
				},
				{ continueOnFail: true },
			),
		);
		const out = result.outputs('Seller Platform');
		expect(out).toHaveLength(values.length);
		const asked = new Set(
			f.emulator
				.requests()
				.filter((entry) => entry.operation === 'GetExportStatus')
				.map((entry) => JSON.stringify(entry.body)),
		);
		const wrong = values.flatMap((v, i) => {
			const { error, details } = out[i].json as { error?: string; details?: IDataObject };
			const sent = [...asked].some((body) => body.includes(`"${codes[i]}"`));
			const ok = accepted(v);
			const right = ok
				? sent &&
					// A tiny Download Timeout is taken, and ends the download at once.
					(error === undefined
						? out[i].binary?.data !== undefined
						: /^The export file did not finish downloading within /.test(String(error)))
				: error === MESSAGE &&
					!sent &&
					String(details?.description).includes(
						'The maximum holds also for a value an expression gives',
					);
			return right ? [] : [{ value: v, accepted: ok, error, sent }];
		});
		expect(wrong).toEqual([]);
		// Both kinds are among the cases.
		expect(values.filter(accepted).length).toBeGreaterThan(20);
		expect(values.filter((v) => !accepted(v)).length).toBeGreaterThan(20);
	}, 60_000);
});
