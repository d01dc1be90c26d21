/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * A client_reference is an idempotency key (CreateBarcodeImport): it replays only the import it
 * was first used for, and only when this is provably the same request. An identical re-run finds
 * that import; a reuse for other mappings (the same number of them included: the status record
 * shows a count, not the mappings), another file or table, or other settings is refused with the
 * service's message and the import that holds the reference, and so is a reuse for mappings that
 * nothing proves are the same (no record of what was sent under the reference). Nothing of the
 * new data is reported as imported.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import fc from 'fast-check';
import type { IDataObject, INodeParameters, IPairedItemData } from 'n8n-workflow';

import { importRequests } from '../../dist/nodes/SellerPlatform/actions/import/sentRequests';

import { credentialFields } from '../emulator';
import { startFixture, workflowWithItems, type Fixture } from './fixture';

let f: Fixture;
beforeAll(async () => {
	f = await startFixture({ ratePlan: null, importStepMs: 30 });
});
afterAll(async () => await f.close());
beforeEach(() => {
	f.emulator.clearRequests();
	f.emulator.clearFaults();
});

const IMPORT = { resource: 'import', operation: 'createBarcode' };

const defineBelow = (count: number): INodeParameters => ({
	...IMPORT,
	source: 'items',
	itemsInput: 'defineBelow',
	mappings: {
		mapping: Array.from({ length: count }, (_, i) => ({
			partnerSku: `SKU-${i}`,
			barcode: `${4_000_000_000_000 + i}`,
		})),
	},
});
const fromFile = (fileUrl: string): INodeParameters => ({ ...IMPORT, source: 'fileUrl', fileUrl });
const fromTable = (bqTable: string): INodeParameters => ({ ...IMPORT, source: 'bqTable', bqTable });

const importsWith = (reference: string) =>
	f.emulator.imports().filter((i) => i.client_reference === reference);
const createsWith = (reference: string) =>
	f.emulator
		.requests()
		.filter(
			(r) =>
				r.operation === 'CreateBarcodeImport' &&
				(r.body as IDataObject).client_reference === reference,
		);

async function run(parameters: INodeParameters, items: object[] = [{}], settings = {}) {
	return await f.env.runWorkflow(workflowWithItems(items, parameters, settings));
}

/** A production execution (n8n saves the node's static data after it; not after manual ones). */
async function runInProduction(parameters: INodeParameters, items: object[] = [{}], id?: string) {
	const workflow = { ...workflowWithItems(items, parameters), id };
	return await f.env.runWorkflow(workflow, { mode: 'trigger' });
}

/**
 * What an n8n restart does to the package: its process memory is gone (static data is in n8n's
 * database). Looked up by name: the code before the fix had no such memory.
 */
const restartN8n = () => importRequests.clear();

const savedRequests = (workflowId?: string) =>
	(f.env.workflowStaticData(workflowId)['node:Seller Platform'] as IDataObject | undefined)
		?.importRequests as string[][] | undefined;

/** `defineBelow(count)` with its mappings changed by `change`. */
const changedMappings = (count: number, change: (mapping: IDataObject[]) => void) => {
	const parameters = defineBelow(count);
	change((parameters.mappings as { mapping: IDataObject[] }).mapping);
	return parameters;
};

/** Create Barcode Import from input items `{ sku, ean }`. */
const fromItems = (clientReference: string): INodeParameters => ({
	...IMPORT,
	source: 'items',
	itemsInput: 'fromInputItems',
	partnerSkuField: 'sku',
	barcodeField: 'ean',
	clientReference,
});

interface ApiErrorShape {
	message: string;
	description: string;
	httpCode: string;
	context: IDataObject;
}

describe('a reused client reference', () => {
	it.each([
		['other mappings', defineBelow(2), defineBelow(3), '2 mappings instead of 3'],
		[
			'a file instead of mappings',
			defineBelow(2),
			fromFile('gs://bucket/new.csv'),
			'file_url none instead of "gs://bucket/new.csv"',
		],
		[
			'another file',
			fromFile('gs://bucket/a.csv'),
			fromFile('gs://bucket/b.csv'),
			'file_url "gs://bucket/a.csv" instead of "gs://bucket/b.csv"',
		],
		[
			'another table',
			fromTable('proj.ds.first'),
			fromTable('proj.ds.second'),
			'bq_table "proj.ds.first" instead of "proj.ds.second"',
		],
		[
			'other settings',
			fromTable('proj.ds.t'),
			{ ...fromTable('proj.ds.t'), config: { forceSync: true } },
			'config.force_sync false instead of true',
		],
	])(
		'for %s is refused with the service message and the existing import',
		async (name, first, second, difference) => {
			const clientReference = `reuse-${name.replace(/\W+/g, '-')}`;
			const made = await run({ ...first, clientReference });
			expect(made.status).toBe('success');
			const existing = made.json('Seller Platform')[0].import_reference as string;

			const result = await run({ ...second, clientReference });
			expect(result.status).toBe('error');
			const error = result.nodeError('Seller Platform') as unknown as ApiErrorShape;
			expect(error.message).toContain(
				`client_reference "${clientReference}" is already used by import ${existing}`,
			);
			expect(error.httpCode).toBe('409');
			expect(error.description).toContain(
				`already used by import ${existing} (client reference ${clientReference})`,
			);
			expect(error.description).toContain(difference);
			expect(error.description).toContain('Use a new Client Reference');
			expect(error.context.existingImport).toEqual({
				import_reference: existing,
				client_reference: clientReference,
			});
			expect(importsWith(clientReference)).toHaveLength(1);
			expect(createsWith(clientReference)).toHaveLength(2);
		},
	);

	it('with continue on fail gives one error item for the refused import, paired with its item', async () => {
		await run({ ...fromTable('proj.ds.kept'), clientReference: 'reuse-cof' });
		const result = await run(
			{ ...fromTable('={{ $json.table }}'), clientReference: '={{ $json.ref }}' },
			[
				{ ref: 'reuse-cof', table: 'proj.ds.other' },
				{ ref: 'reuse-cof-new', table: 'proj.ds.other' },
			],
			{ continueOnFail: true },
		);
		const [refused, created] = result.outputs('Seller Platform');
		expect(refused.pairedItem).toEqual({ item: 0 });
		expect(refused.json.error).toContain('is already used by import');
		expect(refused.json.details).toMatchObject({
			httpCode: '409',
			status_code: 'ALREADY_EXISTS',
			description: expect.stringContaining('bq_table "proj.ds.kept" instead of "proj.ds.other"'),
		});
		expect(created.pairedItem).toEqual({ item: 1 });
		expect(created.json).toMatchObject({ client_reference: 'reuse-cof-new' });
		expect(created.json.alreadyExisted).toBeUndefined();
	});
});

describe('a reused client reference with the same number of mappings', () => {
	// The status record shows how many mappings an import has, not which: the count is no proof.
	const changed = (change: (mapping: IDataObject[]) => void) => changedMappings(3, change);
	it.each([
		['one other barcode', changed((m) => void (m[1].barcode = '6291041500213'))],
		['one other partner SKU', changed((m) => void (m[2].partnerSku = 'SKU-NEW'))],
		['Force Sync on one mapping', changed((m) => void (m[0].forceSync = true))],
		['the same mappings in another order', changed((m) => m.reverse())],
	])(
		'and %s is refused, naming the import; nothing is reported as imported',
		async (name, second) => {
			const clientReference = `count-${name.replace(/\W+/g, '-')}`;
			const made = await run({ ...defineBelow(3), clientReference });
			expect(made.status).toBe('success');
			const existing = made.json('Seller Platform')[0].import_reference as string;

			const result = await run({ ...second, clientReference });
			expect(result.status).toBe('error');
			expect(result.outputs('Seller Platform')).toEqual([]);
			const error = result.nodeError('Seller Platform') as unknown as ApiErrorShape;
			expect(error.message).toContain(
				`client_reference "${clientReference}" is already used by import ${existing}`,
			);
			expect(error.httpCode).toBe('409');
			expect(error.description).toContain(
				`already used by import ${existing} (client reference ${clientReference}), which differs from this request: other mappings`,
			);
			expect(error.description).toContain('Use a new Client Reference');
			expect(error.description).toContain('run again with exactly the request first sent');
			expect(error.context.existingImport).toEqual({
				import_reference: existing,
				client_reference: clientReference,
			});
			expect(importsWith(clientReference)).toHaveLength(1);
		},
	);

	it('from input items, with continue on fail, gives an error item paired with every item and no alreadyExisted', async () => {
		const items = [
			{ sku: 'SKU-A', ean: '4000000000001' },
			{ sku: 'SKU-B', ean: '4000000000002' },
			{ sku: 'SKU-C', ean: '4000000000003' },
		];
		const made = await run(fromItems('daily-barcodes'), items);
		const existing = made.json('Seller Platform')[0].import_reference as string;
		const today = items.map((item, i) => (i === 1 ? { ...item, ean: '4000000000099' } : item));

		const result = await run(fromItems('daily-barcodes'), today, { continueOnFail: true });
		const out = result.outputs('Seller Platform');
		expect(out).toHaveLength(1);
		expect(out[0].json.alreadyExisted).toBeUndefined();
		expect(out[0].json.error).toContain(`is already used by import ${existing}`);
		expect((out[0].json.details as IDataObject).description).toContain('other mappings');
		expect((out[0].pairedItem as IPairedItemData[]).map((p) => p.item)).toEqual([0, 1, 2]);
		expect(importsWith('daily-barcodes')).toHaveLength(1);
	});

	it('is replayed exactly when every mapping is the same (property)', async () => {
		let n = 0;
		const mapping = fc.record({
			sku: fc.stringMatching(/^[A-Z0-9-]{1,10}$/),
			ean: fc.stringMatching(/^\d{8,14}$/),
		});
		const change = fc.record({
			at: fc.nat(),
			kind: fc.constantFrom('sku', 'ean', 'swap'),
		});
		await fc.assert(
			fc.asyncProperty(
				fc.array(mapping, { minLength: 1, maxLength: 6 }),
				change,
				async (mappings, { at, kind }) => {
					const clientReference = `prop-${++n}`;
					const i = at % mappings.length;
					const j = (i + 1) % mappings.length;
					const other = mappings.map((m) => ({ ...m }));
					if (kind === 'swap' && JSON.stringify(other[i]) !== JSON.stringify(other[j])) {
						[other[i], other[j]] = [other[j], other[i]];
					} else if (kind === 'ean') {
						other[i].ean = `${other[i].ean.slice(0, -1)}${(Number(other[i].ean.at(-1)) + 1) % 10}`;
					} else {
						other[i].sku = `${other[i].sku}X`;
					}
					const made = await run(fromItems(clientReference), mappings);
					const existing = made.json('Seller Platform')[0].import_reference;

					const same = await run(fromItems(clientReference), mappings);
					expect(same.json('Seller Platform')).toEqual([
						expect.objectContaining({
							import_reference: existing,
							alreadyExisted: true,
							mappings_count: mappings.length,
						}),
					]);
					const differing = await run(fromItems(clientReference), other);
					expect(differing.status).toBe('error');
					expect(differing.nodeError('Seller Platform')?.message).toContain(
						`is already used by import ${existing}`,
					);
					expect(importsWith(clientReference)).toHaveLength(1);
				},
			),
			{ seed: 26, numRuns: 15 },
		);
	});
});

describe('what was sent under each client reference', () => {
	it('is kept in the static data of production runs: a re-run after a restart still finds the same import and refuses other mappings', async () => {
		const parameters = { ...defineBelow(3), clientReference: 'kept-1' };
		const made = await runInProduction(parameters);
		expect(made.status).toBe('success');
		expect(savedRequests()).toContainEqual(['kept-1', expect.any(String), expect.any(String)]);

		restartN8n();
		const again = await runInProduction(parameters);
		expect(again.json('Seller Platform')[0]).toMatchObject({
			import_reference: made.json('Seller Platform')[0].import_reference,
			alreadyExisted: true,
			mappings_count: 3,
		});
		restartN8n();
		const other = changedMappings(3, (m) => void (m[1].barcode = '6291041500213'));
		const refused = await runInProduction({ ...other, clientReference: 'kept-1' });
		expect(refused.status).toBe('error');
		expect(
			(refused.nodeError('Seller Platform') as unknown as ApiErrorShape).description,
		).toContain('which differs from this request: other mappings');
		expect(importsWith('kept-1')).toHaveLength(1);
	});

	it('of a manual run is in memory only: after a restart nothing proves the request, and the reuse is refused', async () => {
		const parameters = { ...defineBelow(2), clientReference: 'manual-1' };
		const made = await run(parameters);
		const existing = made.json('Seller Platform')[0].import_reference as string;
		expect((await run(parameters)).json('Seller Platform')[0].alreadyExisted).toBe(true);

		restartN8n();
		const result = await run(parameters);
		expect(result.status).toBe('error');
		const error = result.nodeError('Seller Platform') as unknown as ApiErrorShape;
		expect(error.description).toContain(
			`already used by import ${existing} (client reference manual-1), which is not shown to be this request: nothing shows that its mappings are these`,
		);
		expect(error.description).toContain(
			`Use a new Client Reference to import this data; to see what ${existing} holds, use Import → Get Status`,
		);
	});

	it('is kept for the newest 500 client references of the node', async () => {
		// Static data saved by earlier executions: 500 client references already.
		const older = Array.from({ length: 500 }, (_, i) => [`older-${i}`, 'tag', 'digest']);
		const saved = await f.env.createWorkflow(
			{ ...workflowWithItems([{}], {}), id: 'bound-workflow' },
			{ 'node:Seller Platform': { importRequests: older } },
		);
		saved.staticData.__dataChanged = true;
		f.env.saveStaticData(saved);

		const made = await runInProduction(
			{ ...defineBelow(1), clientReference: 'bound-newest' },
			[{}],
			'bound-workflow',
		);
		expect(made.status).toBe('success');
		const references = (savedRequests('bound-workflow') ?? []).map(([reference]) => reference);
		expect(references).toHaveLength(500);
		expect(references.at(-1)).toBe('bound-newest');
		expect(references).not.toContain('older-0');
		expect(references[0]).toBe('older-1');
	});
});

describe('an identical re-run', () => {
	it.each([
		['mappings', { ...defineBelow(3), config: { isNotificationRequired: true } }],
		['a file', fromFile('https://files.example.com/barcodes.csv')],
		['a table', { ...fromTable('proj.ds.same'), config: { forceSync: true } }],
	])('of %s finds the import made before and creates nothing', async (name, parameters) => {
		const clientReference = `same-${name.replace(/\W+/g, '-')}`;
		const first = await run({ ...parameters, clientReference });
		const again = await run({
			...parameters,
			clientReference,
			options: { waitForCompletion: true, pollIntervalSeconds: 0.1 },
		});
		expect(again.status).toBe('success');
		const [out] = again.json('Seller Platform');
		expect(out).toMatchObject({
			client_reference: clientReference,
			import_reference: first.json('Seller Platform')[0].import_reference,
			alreadyExisted: true,
			import_status: expect.stringMatching(/COMPLETED|PARTIAL|FAILED/),
		});
		expect(importsWith(clientReference)).toHaveLength(1);
		expect(createsWith(clientReference)).toHaveLength(2);
	});

	it('of a split import that failed half-way completes it without duplicates', async () => {
		const items = Array.from({ length: 25_000 }, (_, i) => ({
			sku: `SKU-${i}`,
			ean: `${4_000_000_000_000 + i}`,
		}));
		const parameters: INodeParameters = {
			...IMPORT,
			source: 'items',
			itemsInput: 'fromInputItems',
			partnerSkuField: 'sku',
			barcodeField: 'ean',
			clientReference: 'half',
		};
		// Logged in beforehand; the session then ends after two imports and every new login fails.
		expect((await run({ resource: 'session', operation: 'login' })).status).toBe('success');
		f.emulator.expireSessionsAfter(2);
		f.emulator.injectFaults({ count: 20, status: 400, operation: 'Login' });
		const failed = await run(parameters, items);
		expect(failed.status).toBe('error');
		const error = failed.nodeError('Seller Platform') as unknown as ApiErrorShape;
		expect(error.context.created).toEqual([
			expect.stringContaining('(client reference half-1)'),
			expect.stringContaining('(client reference half-2)'),
		]);
		expect(f.emulator.imports().filter((i) => i.client_reference.startsWith('half'))).toHaveLength(
			2,
		);

		f.emulator.clearFaults();
		const rerun = await run(parameters, items);
		expect(rerun.status).toBe('success');
		const out = rerun.outputs('Seller Platform');
		expect(
			out.map((o) => [
				o.json.client_reference,
				o.json.alreadyExisted ?? false,
				o.json.mappings_count,
			]),
		).toEqual([
			['half-1', true, 10_000],
			['half-2', true, 10_000],
			['half-3', false, 5_000],
		]);
		expect(out.map((o) => (o.pairedItem as unknown[]).length)).toEqual([10_000, 10_000, 5_000]);
		expect(f.emulator.imports().filter((i) => i.client_reference.startsWith('half'))).toHaveLength(
			3,
		);
	});

	it('of a split import with other items finds the parts that match and refuses the one that differs', async () => {
		const items = (count: number) =>
			Array.from({ length: count }, (_, i) => ({
				sku: `SKU-${i}`,
				ean: `${4_100_000_000_000 + i}`,
			}));
		const parameters: INodeParameters = {
			...IMPORT,
			source: 'items',
			itemsInput: 'fromInputItems',
			partnerSkuField: 'sku',
			barcodeField: 'ean',
			clientReference: 'grown',
		};
		expect((await run(parameters, items(25_000))).status).toBe('success');
		const result = await run(parameters, items(26_000), { continueOnFail: true });
		const out = result.outputs('Seller Platform');
		expect(out.map((o) => o.json.alreadyExisted ?? o.json.error)).toEqual([
			true,
			true,
			expect.stringContaining('is already used by import'),
		]);
		expect((out[2].json.details as IDataObject).description).toContain(
			'5000 mappings instead of 6000',
		);
		expect((out[2].pairedItem as Array<{ item: number }>).map((p) => p.item)).toEqual(
			Array.from({ length: 6_000 }, (_, i) => 20_000 + i),
		);
		expect(f.emulator.imports().filter((i) => i.client_reference.startsWith('grown'))).toHaveLength(
			3,
		);
	});
});

describe('a found import, as a service that leaves out empty fields reports it', () => {
	// A gateway on loopback that answers like a proto3 service: empty strings, false flags and an
	// empty report are left out of the status record (so it shows no count of mappings). It creates
	// an import per new client reference; `sparse-elsewhere` was used before, not by this n8n.
	let server: Server;
	let baseUrl: string;
	const used = new Set(['sparse-elsewhere']);
	beforeAll(async () => {
		server = createServer((req, res) => {
			const send = (status: number, body: unknown, headers: Record<string, string> = {}) =>
				res
					.writeHead(status, { 'content-type': 'application/json', ...headers })
					.end(JSON.stringify(body));
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				// The path, in origin or absolute form (an http:// Base URL gets the latter).
				const path = new URL(req.url ?? '/', 'http://loopback').pathname;
				if (path === '/identity/public/v1/api/login')
					return send(200, {}, { 'set-cookie': '_npsid=loopback-session; Path=/' });
				if (path === '/catplat/v1/import/barcode') {
					const reference = String(JSON.parse(Buffer.concat(chunks).toString()).client_reference);
					if (!used.has(reference)) {
						used.add(reference);
						return send(200, { import_reference: 'IMP-SPARSE', client_reference: reference });
					}
					return send(409, {
						status_code: 'ALREADY_EXISTS',
						status_id: 6,
						message: 'client_reference must be unique',
					});
				}
				const reference = /^\/catplat\/v1\/import\/status\/(.+)$/.exec(path)?.[1];
				if (reference && used.has(reference)) {
					return send(200, {
						import_type: 'barcode',
						import_reference: 'IMP-SPARSE',
						client_reference: reference,
						import_status: 'IMPORT_STATUS_PENDING',
						sub_status: 'QUEUED',
					});
				}
				return send(404, { message: 'not found' });
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		f.env.addCredential('sparse', 'sellerPlatformApi', credentialFields(f.emulator, { baseUrl }));
	});
	afterAll(async () => await new Promise((resolve) => server.close(resolve)));

	const runSparse = async (parameters: INodeParameters, clientReference: string) => {
		const workflow = workflowWithItems([{}], { ...parameters, clientReference });
		workflow.nodes[1].credentials = { sellerPlatformApi: 'sparse' };
		return await f.env.runWorkflow(workflow);
	};

	it('resumes the mappings import this n8n made, with the count of this very request', async () => {
		expect((await runSparse(defineBelow(2), 'sparse-1')).status).toBe('success');
		const result = await runSparse(defineBelow(2), 'sparse-1');
		expect(result.status).toBe('success');
		const [out] = result.json('Seller Platform');
		expect(out).toMatchObject({
			import_reference: 'IMP-SPARSE',
			alreadyExisted: true,
			mappings_count: 2,
		});
	});

	it('refuses mappings under a reference used before without a record of what was sent, naming the import', async () => {
		const result = await runSparse(defineBelow(2), 'sparse-elsewhere');
		expect(result.status).toBe('error');
		const error = result.nodeError('Seller Platform') as unknown as ApiErrorShape;
		expect(error.message).toBe(
			'client_reference must be unique (existing import IMP-SPARSE, client reference sparse-elsewhere)',
		);
		expect(error.description).toContain(
			'which is not shown to be this request: nothing shows that its mappings are these',
		);
		expect(error.description).toContain('Use a new Client Reference to import this data');
		expect(error.context.differences).toHaveLength(1);
	});

	it('refuses a table the record does not show, naming the import', async () => {
		const result = await runSparse(fromTable('proj.ds.t'), 'sparse-elsewhere');
		const error = result.nodeError('Seller Platform') as unknown as ApiErrorShape;
		expect(error.message).toBe(
			'client_reference must be unique (existing import IMP-SPARSE, client reference sparse-elsewhere)',
		);
		expect(error.description).toContain('bq_table none instead of "proj.ds.t"');
	});
});
