/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The output schemas n8n's editor previews before a node has run (`__schema__/v1.0.0/<resource>/
 * <operation>.json` beside the compiled node, see test/helpers/outputSchemas.ts): one for every
 * operation, in the source and in dist/, every field described, and each operation's real output
 * against the emulator matching its schema. (Every other integration test importing fixture.ts
 * checks its Seller Platform outputs against the schemas too.)
 */
import { existsSync, readFileSync } from 'fs';
import { join, relative } from 'path';
import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
	IRun,
} from 'n8n-workflow';

import {
	SEEDED_API_USER,
	SEEDED_DESTINATIONS,
	SEEDED_EXPORTS,
	SEEDED_FBPI_ORDERS,
	SEEDED_OAUTH_TOKENS,
	SEEDED_PO,
	SEEDED_WAREHOUSES,
} from '../emulator';
import { WorkflowResult } from '../helpers';
import { loadPackage, ROOT } from '../helpers/n8n';
import {
	checkOutputSchemas,
	NODE_TYPE,
	OPERATIONS,
	outputSchemaPath,
	outputSchemaProblems,
	SIMPLIFY_OPERATIONS,
} from '../helpers/outputSchemas';
import { startFixture, workflowWithItems, type Fixture } from './fixture';

/** The node's versions (1.1: Simplify on by default), each with a schema folder of its own. */
const VERSIONS = ['1.0.0', '1.1.0'] as const;
const sourceDir = (version: string) =>
	join(ROOT, 'nodes', 'SellerPlatform', '__schema__', `v${version}`);
const distDir = (version: string) =>
	join(ROOT, 'dist', 'nodes', 'SellerPlatform', '__schema__', `v${version}`);
const EACH = VERSIONS.flatMap((version) => OPERATIONS.map((name) => [version, name] as const));

type Schema = IDataObject & {
	properties?: Record<string, Schema>;
	items?: Schema;
	additionalProperties?: boolean | Schema;
};

const readSchema = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Schema;

/** Fields (at any depth) without a type or a description. */
function undescribed(schema: Schema, path = ''): string[] {
	const found: string[] = [];
	const check = (sub: Schema, where: string) => {
		if (typeof sub.description !== 'string' || sub.description.trim() === '')
			found.push(`${where}: no description`);
		if (sub.type === undefined) found.push(`${where}: no type`);
		found.push(...undescribed(sub, where));
	};
	for (const [name, sub] of Object.entries(schema.properties ?? {})) check(sub, `${path}.${name}`);
	if (schema.items) check(schema.items, `${path}[]`);
	if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
		check(schema.additionalProperties, `${path}.*`);
	return found;
}

describe('the schema files', () => {
	it('cover every resource/operation of the node, no more', async () => {
		const loader = await loadPackage();
		const { properties } = loader.nodeTypes[NODE_TYPE].type.description as INodeTypeDescription;
		const values = (property: INodeProperties) =>
			(property.options as INodePropertyOptions[]).map((option) => String(option.value));
		const operations = values(properties.find((p) => p.name === 'resource')!).flatMap((resource) =>
			properties
				.filter(
					(p) =>
						p.name === 'operation' &&
						(p.displayOptions?.show?.resource as string[]).includes(resource),
				)
				.flatMap((p) => values(p).map((operation) => `${resource}/${operation}`)),
		);
		expect([...operations].sort()).toEqual([...OPERATIONS].sort());
	});

	it.each(EACH)(
		'v%s %s: in nodes/ and, the same, in dist/ where n8n reads it',
		async (version, name) => {
			const [resource, operation] = name.split('/');
			const source = join(sourceDir(version), resource, `${operation}.json`);
			const built = join(distDir(version), resource, `${operation}.json`);
			expect(existsSync(source)).toBe(true);
			expect(existsSync(built)).toBe(true);
			expect(readFileSync(built, 'utf8')).toBe(readFileSync(source, 'utf8'));
			// n8n's server (GET /schemas/<type>/<version>/<resource>/<operation>.json) and its resolver.
			expect(relative(ROOT, await outputSchemaPath(resource, operation, version))).toBe(
				relative(ROOT, built),
			);
			const typeVersion = Number(version.split('.').slice(0, 2).join('.'));
			expect(await outputSchemaPath(resource, operation, typeVersion)).toBe(built);
		},
	);

	it('the node versions are the schema folders; v1.1.0 is v1.0.0 but for the Simplify operations, whose schema is their simplified output with each field the Simplify parameter names', async () => {
		const loader = await loadPackage();
		const description = loader.nodeTypes[NODE_TYPE].type.description as INodeTypeDescription;
		expect(description.version).toEqual([1, 1.1]);
		// New nodes get the last version; no defaultVersion, or n8n adds no "Custom API Call".
		expect(description.defaultVersion).toBeUndefined();
		for (const name of OPERATIONS) {
			const [resource, operation] = name.split('/');
			const file = (version: string) => join(sourceDir(version), resource, `${operation}.json`);
			const [full, simplified] = [readSchema(file('1.0.0')), readSchema(file('1.1.0'))];
			if (!(SIMPLIFY_OPERATIONS as readonly string[]).includes(name)) {
				expect([name, simplified]).toEqual([name, full]);
				continue;
			}
			const fields = Object.keys(simplified.properties!);
			expect(simplified).not.toEqual(full);
			// Each Simplify parameter (one per version) names every field of the simplified output.
			const simplify = description.properties.filter(
				(p) =>
					p.name === 'simplify' &&
					(p.displayOptions?.show?.resource as string[]).includes(resource) &&
					(p.displayOptions?.show?.operation as string[]).includes(operation),
			);
			expect(simplify.map((p) => p.default)).toEqual([false, true]);
			for (const property of simplify)
				for (const field of fields)
					expect([name, property.description]).toEqual([name, expect.stringContaining(field)]);
		}
	});

	it.each(EACH)(
		'v%s %s: a draft-07 object schema with a type and a description on every field',
		(version, name) => {
			const [resource, operation] = name.split('/');
			const schema = readSchema(join(sourceDir(version), resource, `${operation}.json`));
			expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
			expect(schema.type).toBe('object');
			expect(typeof schema.description).toBe('string');
			// The editor shows a preview only for a schema with type and some properties.
			expect(Object.keys(schema.properties ?? {}).length).toBeGreaterThan(0);
			expect(undescribed(schema)).toEqual([]);
			// The service may add fields: the published schemas stay open.
			expect(schema.additionalProperties).not.toBe(false);
			for (const field of (schema.required as string[] | undefined) ?? [])
				expect(Object.keys(schema.properties!)).toContain(field);
		},
	);

	it('the check finds an undocumented field, a missing field and a wrong type', async () => {
		const order = {
			fbpi_order_nr: 'NAE1',
			idempotency_key: 'k1',
		};
		expect(await outputSchemaProblems('fbpiOrder', 'createSandbox', order)).toEqual([]);
		expect(
			await outputSchemaProblems('fbpiOrder', 'createSandbox', { ...order, surprise: 1 }),
		).toEqual([expect.stringContaining('"surprise"')]);
		expect(
			await outputSchemaProblems('fbpiOrder', 'createSandbox', { fbpi_order_nr: 'NAE1' }),
		).toEqual([expect.stringContaining("must have required property 'idempotency_key'")]);
		expect(
			await outputSchemaProblems('fbpiOrder', 'createSandbox', { ...order, fbpi_order_nr: 7 }),
		).toEqual(['/fbpi_order_nr must be string']);
		expect(await outputSchemaProblems('fbpiOrder', 'deleteEverything', order)).toEqual([
			expect.stringContaining('no output schema for fbpiOrder/deleteEverything'),
		]);
	});
});

describe('every operation against the emulator matches its schema', () => {
	let f: Fixture;
	beforeAll(async () => {
		f = await startFixture({ ratePlan: null, importStepMs: 30, exportStepMs: 30 });
	});
	afterAll(async () => await f.close());
	beforeEach(() => f.emulator.clearFaults());

	it("fixture.ts's check fails a run whose output is not as the schema says, error items and the error output left out", async () => {
		// Resource and operation left to their defaults (purchaseOrder/get), as n8n resolves them.
		const workflow = await f.env.createWorkflow(workflowWithItems([{}], { poNr: 'PO-1' }));
		// Output 1 is n8n's error output ("continue (using error output)"): input items with the error.
		const errorOutput = [{ json: { po: 'PO-2', error: 'not found', details: {} } }];
		const output = (items: INodeExecutionData[]) =>
			new WorkflowResult(
				{
					data: {
						resultData: {
							runData: { 'Seller Platform': [{ data: { main: [items, errorOutput] } }] },
						},
					},
				} as unknown as IRun,
				[],
			);
		const errorItem = { json: { error: 'not found', details: { httpCode: '404' } } };
		await expect(
			checkOutputSchemas(output([errorItem, { json: { po_nr: 'PO-1' } }]), workflow),
		).rejects.toThrow(
			/"Seller Platform" \(purchaseOrder\/get\) run 0, output 0, item 1: \(item\) must have required property 'po_currency'/,
		);
		await expect(checkOutputSchemas(output([errorItem]), workflow)).resolves.toBe(undefined);
	});

	/** Runs the node (fixture.ts checks the schema too) and checks every output item explicitly. */
	async function run(
		parameters: INodeParameters,
		items: object[] = [{}],
	): Promise<INodeExecutionData[]> {
		const result = await f.env.runWorkflow(workflowWithItems(items, parameters));
		if (result.status !== 'success')
			throw new Error(result.nodeError('Seller Platform')?.message ?? 'run failed');
		const outputs = result.outputs('Seller Platform');
		expect(outputs.length).toBeGreaterThan(0);
		for (const item of outputs) {
			expect(
				await outputSchemaProblems(
					String(parameters.resource),
					String(parameters.operation),
					item.json,
				),
			).toEqual([]);
		}
		return outputs;
	}
	const WAIT = { waitForCompletion: true, pollIntervalSeconds: 0.1, timeoutSeconds: 20 };

	it('session/login', async () => {
		const [out] = await run({ resource: 'session', operation: 'login' });
		expect(out.json).toMatchObject({ loggedIn: true, projectCode: f.emulator.projectCode });
	});

	it('oauth/exchangeToken, with a result and without (asynchronous workflow)', async () => {
		const [withResult] = await run({
			resource: 'oauth',
			operation: 'exchangeToken',
			accessToken: SEEDED_OAUTH_TOKENS.issuesCredentials,
		});
		expect(withResult.json.result).toEqual(
			expect.objectContaining({ client_id: expect.any(String) }),
		);
		const [withoutResult] = await run({
			resource: 'oauth',
			operation: 'exchangeToken',
			accessToken: SEEDED_OAUTH_TOKENS.asynchronous,
		});
		expect(withoutResult.json.result).toBeUndefined();
	});

	it('export/getStatus: read once, waited for completion, and waited past the timeout', async () => {
		const [complete] = await run({
			resource: 'export',
			operation: 'getStatus',
			exportCode: SEEDED_EXPORTS.complete,
		});
		expect(complete.json.download_url).toEqual(expect.any(String));
		const [waited] = await run({
			resource: 'export',
			operation: 'getStatus',
			exportCode: f.emulator.addExport().export_code,
			options: { ...WAIT, download: true },
		});
		expect(waited.json).toMatchObject({ export_status: 'COMPLETE', waitTimedOut: false });
		expect(waited.binary?.data).toBeDefined();
		const [timedOut] = await run({
			resource: 'export',
			operation: 'getStatus',
			exportCode: SEEDED_EXPORTS.pending,
			options: { ...WAIT, timeoutSeconds: 0.3 },
		});
		expect(timedOut.json).toMatchObject({ export_status: 'PENDING', waitTimedOut: true });
		expect(timedOut.json.download_url).toBeUndefined();
	});

	it('purchaseOrder/get, with and without a release date', async () => {
		const outputs = await run(
			{ resource: 'purchaseOrder', operation: 'get', poNr: '={{ $json.po }}' },
			[{ po: SEEDED_PO.released }, { po: SEEDED_PO.pendingNoDate }],
		);
		expect(outputs.map((o) => o.json.po_release_date_iso)).toEqual(['2024-03-15', null]);
	});

	it('fbpiOrder/getCustomerData', async () => {
		const [out] = await run({
			resource: 'fbpiOrder',
			operation: 'getCustomerData',
			fbpiOrderNr: SEEDED_FBPI_ORDERS.dubai,
		});
		expect(out.json).toMatchObject({ fbpi_order_nr: SEEDED_FBPI_ORDERS.dubai, city: 'Dubai' });
	});

	it('fbpiOrder/createSandbox, with a generated idempotency key', async () => {
		const [out] = await run({
			resource: 'fbpiOrder',
			operation: 'createSandbox',
			warehouseCode: SEEDED_WAREHOUSES.dubai,
			items: { item: [{ status: 'MP_ITEM_STATUS_CONFIRMED', partnerSku: 'SKU-1' }] },
		});
		expect(out.json).toEqual({
			fbpi_order_nr: expect.any(String),
			idempotency_key: expect.any(String),
		});
	});

	it('import/createBarcode: created, found again (alreadyExisted), waited for, and a failed wait (waitError)', async () => {
		const defineBelow = (clientReference: string): INodeParameters => ({
			resource: 'import',
			operation: 'createBarcode',
			source: 'items',
			itemsInput: 'defineBelow',
			mappings: { mapping: [{ partnerSku: 'SKU-1', barcode: '6291041500213' }] },
			clientReference,
		});
		const [created] = await run(defineBelow('schema-created'));
		expect(created.json).toEqual({
			import_reference: expect.any(String),
			client_reference: 'schema-created',
			mappings_count: 1,
		});
		const [found] = await run(defineBelow('schema-created'));
		expect(found.json).toMatchObject({ alreadyExisted: true, import_status: expect.any(String) });

		const [waited] = await run(
			{
				resource: 'import',
				operation: 'createBarcode',
				partnerSkuField: 'sku',
				barcodeField: 'ean',
				clientReference: 'schema-waited',
				config: { isNotificationRequired: false, forceSync: true },
				options: WAIT,
			},
			[
				{ sku: 'SKU-1', ean: '6291041500213' },
				{ sku: 'UNKNOWN-2', ean: '6291041500220' },
			],
		);
		expect(waited.json).toMatchObject({
			import_status: 'IMPORT_STATUS_PARTIAL',
			mappings_count: 2,
			waitTimedOut: false,
		});

		f.emulator.injectFaults({ count: 10, status: 400, operation: 'GetImportStatus' });
		const [waitFailed] = await run({
			...defineBelow('schema-wait-failed'),
			source: 'fileUrl',
			fileUrl: 'gs://bucket/barcodes.csv',
			options: WAIT,
		});
		expect(waitFailed.json).toMatchObject({
			client_reference: 'schema-wait-failed',
			waitError: expect.any(String),
		});
	});

	it('import/getStatus, read once and waited for', async () => {
		const [created] = await run({
			resource: 'import',
			operation: 'createBarcode',
			source: 'bqTable',
			bqTable: 'project.dataset.barcodes',
			clientReference: 'schema-status',
		});
		const reference = created.json.import_reference as string;
		const [once] = await run({ resource: 'import', operation: 'getStatus', reference });
		expect(once.json.waitTimedOut).toBeUndefined();
		const [waited] = await run({
			resource: 'import',
			operation: 'getStatus',
			reference: 'schema-status',
			options: WAIT,
		});
		expect(waited.json).toMatchObject({
			import_status: 'IMPORT_STATUS_COMPLETED',
			waitTimedOut: false,
		});
	});

	it('apiCredential/create, the key in the JSON and as a file', async () => {
		const [inJson] = await run({
			resource: 'apiCredential',
			operation: 'create',
			userCode: SEEDED_API_USER.userCode,
		});
		expect((inJson.json.credential as IDataObject).private_key).toEqual(expect.any(String));
		const [asFile] = await run({
			resource: 'apiCredential',
			operation: 'create',
			userCode: SEEDED_API_USER.userCode,
			options: { privateKeyOutput: 'binary' },
		});
		expect((asFile.json.credential as IDataObject).private_key).toBeUndefined();
	});

	it('destination/update', async () => {
		const [out] = await run({
			resource: 'destination',
			operation: 'update',
			destinationCode: SEEDED_DESTINATIONS.inactive,
			updateFields: {
				destinationName: 'Schema check',
				headers: { header: [{ name: 'X-Secret', value: 'abc' }] },
				eventTypes: { eventType: [{ eventType: 'FBPO::PO_SYNC', isActive: true }] },
			},
		});
		expect(out.json).toMatchObject({ destination_name: 'Schema check' });
	});

	it('warehouse/getMany, an active and an inactive warehouse', async () => {
		const outputs = await run({ resource: 'warehouse', operation: 'getMany', returnAll: true });
		expect(outputs.map((o) => o.json.is_active)).toEqual([true, true, true, true, false]);
	});
});
