/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * A client_reference is an idempotency key (CreateBarcodeImport): it replays only the import it
 * was first used for. An identical re-run finds that import; a reuse for other mappings, another
 * file or table, or other settings is refused with the service's message and the import that
 * holds the reference, and nothing of the new data is reported as imported.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

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
	// empty report are left out of the status record.
	let server: Server;
	let baseUrl: string;
	beforeAll(async () => {
		server = createServer((req, res) => {
			const send = (status: number, body: unknown, headers: Record<string, string> = {}) =>
				res
					.writeHead(status, { 'content-type': 'application/json', ...headers })
					.end(JSON.stringify(body));
			req.resume();
			req.on('end', () => {
				if (req.url === '/identity/public/v1/api/login')
					return send(200, {}, { 'set-cookie': '_npsid=loopback-session; Path=/' });
				if (req.url === '/catplat/v1/import/barcode') {
					return send(409, {
						status_code: 'ALREADY_EXISTS',
						status_id: 6,
						message: 'client_reference must be unique',
					});
				}
				if (req.url === '/catplat/v1/import/status/sparse-1') {
					return send(200, {
						import_type: 'barcode',
						import_reference: 'IMP-SPARSE',
						client_reference: 'sparse-1',
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

	const runSparse = async (parameters: INodeParameters) => {
		const workflow = workflowWithItems([{}], { ...parameters, clientReference: 'sparse-1' });
		workflow.nodes[1].credentials = { sellerPlatformApi: 'sparse' };
		return await f.env.runWorkflow(workflow);
	};

	it('resumes the mappings import it matches, with no mappings count the record does not give', async () => {
		const result = await runSparse(defineBelow(2));
		expect(result.status).toBe('success');
		const [out] = result.json('Seller Platform');
		expect(out).toMatchObject({ import_reference: 'IMP-SPARSE', alreadyExisted: true });
		expect(out).not.toHaveProperty('mappings_count');
	});

	it('refuses a table the record does not show, naming the import', async () => {
		const result = await runSparse(fromTable('proj.ds.t'));
		const error = result.nodeError('Seller Platform') as unknown as ApiErrorShape;
		expect(error.message).toBe(
			'client_reference must be unique (existing import IMP-SPARSE, client reference sparse-1)',
		);
		expect(error.description).toContain('bq_table none instead of "proj.ds.t"');
	});
});
