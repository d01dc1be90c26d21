/**
 * Every operation end to end: the exact request the emulator received, and the output.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	SEEDED_API_USER,
	SEEDED_DESTINATIONS,
	SEEDED_EXPORTS,
	SEEDED_FBPI_CUSTOMERS,
	SEEDED_FBPI_ORDERS,
	SEEDED_OAUTH_TOKENS,
	SEEDED_PO,
	SEEDED_WAREHOUSES,
} from '../emulator';
import { CREDENTIAL_ID, GET_PO, startFixture, workflowWithItems, type Fixture } from './fixture';

let f: Fixture;
beforeAll(async () => {
	f = await startFixture({ ratePlan: null, importStepMs: 30, exportStepMs: 30 });
});
afterAll(async () => await f.close());
beforeEach(() => {
	f.emulator.clearRequests();
	f.emulator.clearFaults();
});

/** Runs the node once per item and returns its main output. */
async function run(parameters: INodeParameters, items: object[] = [{}], settings = {}) {
	const result = await f.env.runWorkflow(workflowWithItems(items, parameters, settings));
	if (result.status !== 'success')
		throw new Error(result.nodeError('Seller Platform')?.message ?? 'run failed');
	return result.outputs('Seller Platform');
}
const requestsOf = (operation: string) =>
	f.emulator.requests().filter((r) => r.operation === operation);
const only = (operation: string) => {
	const list = requestsOf(operation);
	expect(list).toHaveLength(1);
	return list[0];
};

describe('oauth/exchangeToken', () => {
	it('posts the access token and returns the workflow result', async () => {
		const [out] = await run({
			resource: 'oauth',
			operation: 'exchangeToken',
			accessToken: SEEDED_OAUTH_TOKENS.issuesCredentials,
		});
		const request = only('ExchangeToken');
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/identity/oauth/v1/token/exchange');
		expect(request.body).toEqual({ access_token: SEEDED_OAUTH_TOKENS.issuesCredentials });
		expect(out.json).toMatchObject({
			project_code: f.emulator.projectCode,
			oauth_request_id: expect.any(String),
			status: expect.objectContaining({ status_code: 'OK' }),
			result: expect.objectContaining({ client_id: expect.any(String) }),
		});
	});

	it('is not repeated after a 503: the exchange runs a workflow', async () => {
		f.emulator.injectFaults({ count: 1, status: 503, operation: 'ExchangeToken' });
		const [out] = await run(
			{
				resource: 'oauth',
				operation: 'exchangeToken',
				accessToken: SEEDED_OAUTH_TOKENS.issuesCredentials,
			},
			[{}],
			{ continueOnFail: true },
		);
		expect(requestsOf('ExchangeToken')).toHaveLength(1);
		expect(out.json.details).toMatchObject({ httpCode: '503' });
	});
	it('a 200 whose status says the workflow failed is the item’s error, with the status’s message and code and without the token', async () => {
		const token = SEEDED_OAUTH_TOKENS.issuesCredentials;
		// The service's status echoes the token, as a careless one might.
		const status = {
			status_id: 9,
			status_code: 'FAILED_PRECONDITION',
			message: `workflow issue-credentials failed for ${token}`,
			details: [{ reason: 'CLIENT_DISABLED', token }],
		};
		f.emulator.injectFaults({
			count: 1,
			operation: 'ExchangeToken',
			answer: { set: { status } },
		});
		const parameters = {
			resource: 'oauth',
			operation: 'exchangeToken',
			accessToken: token,
		};
		const result = await f.env.runWorkflow(
			workflowWithItems([{}, {}], parameters, { continueOnFail: true }),
		);
		expect(result.status).toBe('success');
		const [failed, ok] = result.outputs('Seller Platform');
		expect([failed.pairedItem, ok.pairedItem]).toEqual([{ item: 0 }, { item: 1 }]);
		expect(failed.json.error).toBe('workflow issue-credentials failed for <redacted>');
		expect(failed.json.details).toMatchObject({
			status_code: 'FAILED_PRECONDITION',
			status_id: 9,
			service_details: [{ reason: 'CLIENT_DISABLED', token: '<redacted>' }],
		});
		expect(String((failed.json.details as IDataObject).description)).toContain(
			'status_code FAILED_PRECONDITION, status_id 9, operation ExchangeToken',
		);
		expect(failed.json.project_code).toBeUndefined();
		expect(JSON.stringify(result.outputs('Seller Platform'))).not.toContain(token);
		expect(ok.json).toMatchObject({ status: { status_id: 0, status_code: 'OK' } });
		expect(requestsOf('ExchangeToken')).toHaveLength(2);

		// A long message that the token straddles where the message is cut (500 characters): no
		// piece of it is kept.
		const long = { ...status, message: `${'x'.repeat(400)} ${token}` };
		f.emulator.injectFaults({
			count: 1,
			operation: 'ExchangeToken',
			answer: { set: { status: long } },
		});
		const cut = await f.env.runWorkflow(
			workflowWithItems([{}], parameters, { continueOnFail: true }),
		);
		const [cutOut] = cut.json('Seller Platform');
		expect(cutOut.error).toBe(`${'x'.repeat(400)} <redacted>`);
		expect(JSON.stringify(cut.outputs('Seller Platform'))).not.toContain(token.slice(0, 60));

		// Without continue on fail, the run fails on it.
		f.emulator.injectFaults({ count: 1, operation: 'ExchangeToken', answer: { set: { status } } });
		const stopped = await f.env.runWorkflow(workflowWithItems([{}], parameters));
		expect(stopped.status).toBe('error');
		expect(stopped.nodeError('Seller Platform')?.message).toBe(
			'workflow issue-credentials failed for <redacted>',
		);
	});
	it('a failing status that echoes the session cookie shows none of it', async () => {
		const parameters = {
			resource: 'oauth',
			operation: 'exchangeToken',
			accessToken: SEEDED_OAUTH_TOKENS.issuesCredentials,
		};
		await run(parameters); // logs in: the credential holds the session from then on
		const cookie = String(f.env.credentialData(CREDENTIAL_ID).sessionCookie);
		const value = cookie.split('; ')[0].split('=')[1];
		const status = {
			status_id: 9,
			status_code: 'FAILED_PRECONDITION',
			message: `session ${cookie} refused`,
			details: [{ session: value }],
		};
		f.emulator.injectFaults({ count: 1, operation: 'ExchangeToken', answer: { set: { status } } });
		const [failed] = await run(parameters, [{}], { continueOnFail: true });
		expect(failed.json.error).toBe('session <redacted> refused');
		expect(value.length).toBeGreaterThan(8);
		expect(JSON.stringify(failed.json)).not.toContain(value);
	});
});

describe('export/getStatus', () => {
	it('posts the export code and returns the record', async () => {
		const [out] = await run({
			resource: 'export',
			operation: 'getStatus',
			exportCode: SEEDED_EXPORTS.complete,
		});
		const request = only('GetExportStatus');
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/impex/v1/export/status');
		expect(request.body).toEqual({ export_code: SEEDED_EXPORTS.complete });
		expect(out.json).toMatchObject({
			export_code: SEEDED_EXPORTS.complete,
			export_status: 'COMPLETE',
			download_url: expect.stringContaining(SEEDED_EXPORTS.complete),
		});
		expect(out.json.waitTimedOut).toBeUndefined();
	});

	it('waits until the export is complete, then downloads the file without the session cookie', async () => {
		// Pending for 20 steps of 30 ms from now: still pending when the run's first status request
		// comes on a loaded machine, so the node has to wait.
		const added = f.emulator.addExport({
			states: [...Array<'PENDING'>(20).fill('PENDING'), 'RUNNING', 'COMPLETE'],
		});
		const [out] = await run({
			resource: 'export',
			operation: 'getStatus',
			exportCode: added.export_code,
			options: {
				waitForCompletion: true,
				pollIntervalSeconds: 0.1,
				timeoutSeconds: 20,
				download: true,
			},
		});
		expect(out.json).toMatchObject({ export_status: 'COMPLETE', waitTimedOut: false });
		expect(requestsOf('GetExportStatus').length).toBeGreaterThan(1);
		const binary = out.binary?.data;
		expect(binary?.fileName).toMatch(/\.csv$/);
		expect(binary?.mimeType).toBe('text/csv');
		expect(Buffer.from(binary!.data, 'base64').toString('utf8').split('\n')[0]).toContain(',');
		const download = only('DownloadExport');
		expect(download.status).toBe(200);
		expect(download.headers.cookie).toBeUndefined();
	});

	it('stops waiting at a failed state, with nothing to download', async () => {
		const [out] = await run({
			resource: 'export',
			operation: 'getStatus',
			exportCode: SEEDED_EXPORTS.error,
			options: { waitForCompletion: true, pollIntervalSeconds: 0.1, download: true },
		});
		expect(out.json).toMatchObject({ export_status: 'ERROR', waitTimedOut: false });
		expect(out.binary).toBeUndefined();
		expect(requestsOf('DownloadExport')).toHaveLength(0);
	});

	it('returns the last record when the timeout passes', async () => {
		const [out] = await run({
			resource: 'export',
			operation: 'getStatus',
			exportCode: SEEDED_EXPORTS.pending,
			options: { waitForCompletion: true, pollIntervalSeconds: 0.2, timeoutSeconds: 1 },
		});
		expect(out.json).toMatchObject({ export_status: 'PENDING', waitTimedOut: true });
		expect(requestsOf('GetExportStatus').length).toBeGreaterThanOrEqual(3);
	});
});

describe('fbpiOrder', () => {
	it('getCustomerData reads the customer of an order', async () => {
		const [out] = await run({
			resource: 'fbpiOrder',
			operation: 'getCustomerData',
			fbpiOrderNr: SEEDED_FBPI_ORDERS.dubai,
		});
		const request = only('GetFbpiOrderCustomerData');
		expect(request.method).toBe('GET');
		expect(request.path).toBe(
			`/fbpi/v1/fbpi-order/${SEEDED_FBPI_ORDERS.dubai}/customer-details/get`,
		);
		expect(out.json).toEqual({
			fbpi_order_nr: SEEDED_FBPI_ORDERS.dubai,
			...SEEDED_FBPI_CUSTOMERS[SEEDED_FBPI_ORDERS.dubai],
		});
	});

	it('createSandbox sends exactly the spec body, generates the idempotency key and returns it', async () => {
		const [out] = await run({
			resource: 'fbpiOrder',
			operation: 'createSandbox',
			warehouseCode: SEEDED_WAREHOUSES.dubai,
			items: {
				item: [
					{ status: 'MP_ITEM_STATUS_CONFIRMED', partnerSku: 'SKU-1' },
					{ status: 'MP_ITEM_STATUS_CANCELLED', partnerSku: '' },
				],
			},
		});
		const request = only('CreateSandboxOrder');
		expect(request.path).toBe('/fbpi/v1/sandbox-order/create');
		const key = out.json.idempotency_key as string;
		expect(key).toMatch(/^[\w-]{10}$/);
		expect(request.body).toEqual({
			warehouse_code: SEEDED_WAREHOUSES.dubai,
			idempotency_key: key,
			items: [
				{ status: 'MP_ITEM_STATUS_CONFIRMED', partner_sku: 'SKU-1' },
				{ status: 'MP_ITEM_STATUS_CANCELLED' },
			],
		});
		expect(out.json.fbpi_order_nr).toEqual(expect.any(String));

		// The new order can be read like any other.
		const [customer] = await run({
			resource: 'fbpiOrder',
			operation: 'getCustomerData',
			fbpiOrderNr: out.json.fbpi_order_nr as string,
		});
		expect(customer.json.first_name).toEqual(expect.any(String));
	});

	it('createSandbox with a key and a country is idempotent and repeated after a 503', async () => {
		const parameters = {
			resource: 'fbpiOrder',
			operation: 'createSandbox',
			warehouseCode: SEEDED_WAREHOUSES.riyadh,
			idempotencyKey: 'key-42',
			countryCode: 'sa',
			items: { item: [{ status: 'MP_ITEM_STATUS_CONFIRMED', partnerSku: 'SKU-9' }] },
		};
		const [first] = await run(parameters);
		f.emulator.injectFaults({ count: 1, status: 503, operation: 'CreateSandboxOrder' });
		const [second] = await run(parameters);
		expect(second.json).toEqual(first.json);
		expect(requestsOf('CreateSandboxOrder').map((r) => r.status)).toEqual([200, 503, 200]);
		expect(requestsOf('CreateSandboxOrder')[0].body).toMatchObject({
			idempotency_key: 'key-42',
			country_code: 'sa',
		});
	});

	it('createSandbox reports the service message for a warehouse without webhooks', async () => {
		const [out] = await run(
			{
				resource: 'fbpiOrder',
				operation: 'createSandbox',
				warehouseCode: SEEDED_WAREHOUSES.noWebhooks,
				items: { item: [{ status: 'MP_ITEM_STATUS_CONFIRMED', partnerSku: '' }] },
			},
			[{}],
			{ continueOnFail: true },
		);
		expect(out.json.error).toContain(SEEDED_WAREHOUSES.noWebhooks);
		expect(out.json.details).toMatchObject({ httpCode: '400' });
	});
});

describe('import/createBarcode and import/getStatus', () => {
	const mapping = (partnerSku: string, barcode: string, forceSync = false) => ({
		partnerSku,
		barcode,
		forceSync,
	});

	it('sends defined mappings with the import settings and waits for the report', async () => {
		const [out] = await run({
			resource: 'import',
			operation: 'createBarcode',
			source: 'items',
			itemsInput: 'defineBelow',
			mappings: {
				mapping: [mapping('SKU-1', '6291041500213', true), mapping('SKU-2', '12345678')],
			},
			clientReference: 'defined-1',
			config: { isNotificationRequired: true },
			options: { waitForCompletion: true, pollIntervalSeconds: 0.1 },
		});
		const request = only('CreateBarcodeImport');
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/catplat/v1/import/barcode');
		expect(request.body).toEqual({
			items: {
				data: [
					{ partner_sku: 'SKU-1', barcode: '6291041500213', force_sync: true },
					{ partner_sku: 'SKU-2', barcode: '12345678' },
				],
			},
			client_reference: 'defined-1',
			config: { is_notification_required: true },
		});
		expect(out.json).toMatchObject({
			import_reference: expect.any(String),
			client_reference: 'defined-1',
			mappings_count: 2,
			import_status: 'IMPORT_STATUS_COMPLETED',
			waitTimedOut: false,
			report: expect.objectContaining({ success_count: 2, failure_count: 0 }),
		});
		expect(requestsOf('GetImportStatus').length).toBeGreaterThanOrEqual(1);
	});

	it('sends a file URL or a table as the one source, and reads the status by client reference', async () => {
		await run({
			resource: 'import',
			operation: 'createBarcode',
			source: 'fileUrl',
			fileUrl: 'gs://bucket/barcodes.csv',
			clientReference: 'file-1',
		});
		await run({
			resource: 'import',
			operation: 'createBarcode',
			source: 'bqTable',
			bqTable: 'proj.ds.barcodes',
			clientReference: 'table-1',
		});
		expect(requestsOf('CreateBarcodeImport').map((r) => r.body)).toEqual([
			{ file_url: 'gs://bucket/barcodes.csv', client_reference: 'file-1' },
			{ bq_table: 'proj.ds.barcodes', client_reference: 'table-1' },
		]);

		const [status] = await run({
			resource: 'import',
			operation: 'getStatus',
			reference: 'file-1',
			options: { waitForCompletion: true, pollIntervalSeconds: 0.1 },
		});
		expect(requestsOf('GetImportStatus')[0].path).toBe('/catplat/v1/import/status/file-1');
		expect(status.json).toMatchObject({
			client_reference: 'file-1',
			file_url: 'gs://bucket/barcodes.csv',
			waitTimedOut: false,
		});
		expect(['IMPORT_STATUS_COMPLETED', 'IMPORT_STATUS_PARTIAL', 'IMPORT_STATUS_FAILED']).toContain(
			status.json.import_status,
		);
	});

	it('finds the import of a reused client reference instead of failing, and never repeats the create', async () => {
		const parameters = {
			resource: 'import',
			operation: 'createBarcode',
			source: 'bqTable',
			bqTable: 'p.d.t',
			clientReference: 'dup-1',
		};
		const [first] = await run(parameters);
		const [out] = await run(parameters);
		expect(out.json).toMatchObject({
			client_reference: 'dup-1',
			import_reference: first.json.import_reference,
			alreadyExisted: true,
		});
		expect(first.json.alreadyExisted).toBeUndefined();
		expect(f.emulator.imports().filter((i) => i.client_reference === 'dup-1')).toHaveLength(1);
		expect(requestsOf('GetImportStatus').map((r) => r.path)).toContain(
			'/catplat/v1/import/status/dup-1',
		);

		f.emulator.injectFaults({ count: 1, reset: true, operation: 'CreateBarcodeImport' });
		const [reset] = await run({ ...parameters, clientReference: 'reset-1' }, [{}], {
			continueOnFail: true,
		});
		expect(reset.json.error).toEqual(expect.any(String));
		expect(
			requestsOf('CreateBarcodeImport').filter(
				(r) => (r.body as IDataObject).client_reference === 'reset-1',
			),
		).toHaveLength(1);
	});

	it('turns all input items into imports of at most 10,000 mappings, paired with their items', async () => {
		const items = Array.from({ length: 25_001 }, (_, i) => ({
			product: { sku: `SKU-${i}` },
			ean: 4_000_000_000_000 + i,
		}));
		const out = await run(
			{
				resource: 'import',
				operation: 'createBarcode',
				source: 'items',
				itemsInput: 'fromInputItems',
				partnerSkuField: 'product.sku',
				barcodeField: 'ean',
				clientReference: 'bulk-1',
			},
			items,
		);
		expect(out).toHaveLength(3);
		expect(out.map((o) => o.json.client_reference)).toEqual(['bulk-1-1', 'bulk-1-2', 'bulk-1-3']);
		expect(out.map((o) => o.json.mappings_count)).toEqual([10_000, 10_000, 5_001]);
		const paired = out.map((o) => o.pairedItem as Array<{ item: number }>);
		expect(paired.map((p) => p.length)).toEqual([10_000, 10_000, 5_001]);
		expect(paired[1][0]).toEqual({ item: 10_000 });
		expect(paired[2][5_000]).toEqual({ item: 25_000 });

		const bodies = requestsOf('CreateBarcodeImport').map(
			(r) => r.body as { items: { data: IDataObject[] } },
		);
		expect(bodies.map((b) => b.items.data.length)).toEqual([10_000, 10_000, 5_001]);
		expect(bodies[0].items.data[0]).toEqual({ partner_sku: 'SKU-0', barcode: '4000000000000' });
	});

	it('keeps one import of at most 10,000 without a suffix, and reports unusable items with continue on fail', async () => {
		const items = [
			{ sku: 'A', ean: '11111111' },
			{ sku: 'B' },
			{ sku: 'C', ean: '33333333' },
			{ ean: '44444444' },
		];
		const out = await run(
			{
				resource: 'import',
				operation: 'createBarcode',
				source: 'items',
				itemsInput: 'fromInputItems',
				partnerSkuField: 'sku',
				barcodeField: 'ean',
				clientReference: 'small-1',
			},
			items,
			{ continueOnFail: true },
		);
		expect(out).toHaveLength(3);
		expect(out[0].json).toMatchObject({ client_reference: 'small-1', mappings_count: 2 });
		expect(out[0].pairedItem).toEqual([{ item: 0 }, { item: 2 }]);
		expect(out[1]).toMatchObject({
			pairedItem: { item: 1 },
			json: { error: expect.stringContaining('"ean" (Barcode Field)') },
		});
		expect(out[2]).toMatchObject({
			pairedItem: { item: 3 },
			json: { error: expect.stringContaining('"sku" (Partner SKU Field)') },
		});
		expect(requestsOf('CreateBarcodeImport')).toHaveLength(1);
	});
});

describe('import/createBarcode from input items: the Force Sync field', () => {
	const parameters = (forceSyncField: string, clientReference: string) => ({
		resource: 'import',
		operation: 'createBarcode',
		source: 'items',
		itemsInput: 'fromInputItems',
		partnerSkuField: 'sku',
		barcodeField: 'ean',
		forceSyncField,
		clientReference,
	});

	it('reads force_sync per item (true, false, "TRUE", " false ", a blank or missing cell: not forced), sends it only when true, and refuses any other value naming the item and the field; an empty field name sends none', async () => {
		const items = [
			{ sku: 'A', ean: '11111111', row: { sync: true } },
			{ sku: 'B', ean: '22222222', row: { sync: false } },
			{ sku: 'C', ean: '33333333', row: { sync: 'TRUE' } },
			{ sku: 'D', ean: '44444444', row: { sync: ' false ' } },
			{ sku: 'E', ean: '55555555', row: { sync: 'yes' } },
			{ sku: 'F', ean: '66666666', row: { sync: 1 } },
			{ sku: 'G', ean: '77777777' },
			{ sku: 'H', ean: '88888888', row: { sync: '  ' } },
		];
		const out = await run(parameters('row.sync', 'force-sync-1'), items, {
			continueOnFail: true,
		});
		const [request] = requestsOf('CreateBarcodeImport');
		expect((request.body as { items: { data: IDataObject[] } }).items.data).toEqual([
			{ partner_sku: 'A', barcode: '11111111', force_sync: true },
			{ partner_sku: 'B', barcode: '22222222' },
			{ partner_sku: 'C', barcode: '33333333', force_sync: true },
			{ partner_sku: 'D', barcode: '44444444' },
			{ partner_sku: 'G', barcode: '77777777' },
			{ partner_sku: 'H', barcode: '88888888' },
		]);
		expect(out[0].json).toMatchObject({ client_reference: 'force-sync-1', mappings_count: 6 });
		expect(out.slice(1).map((o) => [o.pairedItem, o.json.error])).toEqual([
			[
				{ item: 4 },
				'Input item 4: the field "row.sync" (Force Sync Field) must be true or false, got the text "yes"',
			],
			[
				{ item: 5 },
				'Input item 5: the field "row.sync" (Force Sync Field) must be true or false, got 1',
			],
		]);

		// An empty Force Sync Field (today's parameters) sends no force_sync, whatever the items hold.
		await run(parameters('', 'force-sync-2'), [{ sku: 'A', ean: '11111111', force_sync: true }]);
		const [plain] = requestsOf('CreateBarcodeImport').slice(-1);
		expect((plain.body as { items: { data: IDataObject[] } }).items.data).toEqual([
			{ partner_sku: 'A', barcode: '11111111' },
		]);
	});
});

describe('apiCredential/create', () => {
	const user = () => f.emulator.apiUsers().find((u) => u.user_code === SEEDED_API_USER.userCode)!;

	it('creates a key that logs in at once; user_code wins over channel_identifier', async () => {
		const [out] = await run({
			resource: 'apiCredential',
			operation: 'create',
			userCode: SEEDED_API_USER.userCode,
			channelIdentifier: 'someone-else@p1.idp.noon.partners',
			whitelistedIps: '127.0.0.1,\n::1',
			expiresAt: '2031-05-01T12:00:00+04:00',
		});
		const request = only('CreateCredential');
		expect(request.path).toBe('/identity/apiuser/v1/credential/create');
		expect(request.body).toEqual({
			user_code: SEEDED_API_USER.userCode,
			whitelisted_ips: ['127.0.0.1', '::1'],
			expires_at: '2031-05-01T08:00:00+00:00',
		});
		const credential = out.json.credential as IDataObject;
		expect(credential).toMatchObject({
			type: 'apijwt',
			project_code: f.emulator.projectCode,
			channel_identifier: user().channel_identifier,
		});
		expect(credential.private_key).toMatch(/^-----BEGIN PRIVATE KEY-----/);

		// The new key works straight away.
		const other = await startFixture({ ratePlan: null }, {});
		try {
			other.env.addCredential('new', 'sellerPlatformApi', {
				baseUrl: f.emulator.baseUrl,
				keyId: credential.key_id as string,
				privateKey: credential.private_key as string,
				projectCode: credential.project_code as string,
				sessionCookie: '',
			});
			const wf = workflowWithItems([{ po: SEEDED_PO.released }], GET_PO);
			wf.nodes[1].credentials = { sellerPlatformApi: 'new' };
			const result = await other.env.runWorkflow(wf);
			expect(result.json('Seller Platform')[0].po_nr).toBe(SEEDED_PO.released);
		} finally {
			await other.close();
		}
	});

	it('sends channel_identifier alone when no user code is set', async () => {
		await run({
			resource: 'apiCredential',
			operation: 'create',
			channelIdentifier: user().channel_identifier,
		});
		expect(only('CreateCredential').body).toEqual({
			channel_identifier: user().channel_identifier,
		});
	});

	it('puts the private key into a PEM file, or nowhere, when asked', async () => {
		const [binary] = await run({
			resource: 'apiCredential',
			operation: 'create',
			userCode: SEEDED_API_USER.userCode,
			options: { privateKeyOutput: 'binary' },
		});
		expect(JSON.stringify(binary.json)).not.toContain('PRIVATE KEY');
		const file = binary.binary?.privateKey;
		expect(file?.fileName).toBe(`${(binary.json.credential as IDataObject).key_id}.pem`);
		expect(Buffer.from(file!.data, 'base64').toString()).toMatch(/^-----BEGIN PRIVATE KEY-----/);

		const [none] = await run({
			resource: 'apiCredential',
			operation: 'create',
			channelIdentifier: user().channel_identifier,
			options: { privateKeyOutput: 'none' },
		});
		expect(JSON.stringify(none)).not.toContain('PRIVATE KEY');
		expect((none.json.credential as IDataObject).key_id).toEqual(expect.any(String));
	});

	it('is never repeated after a 503, since a repeat could create a second key', async () => {
		f.emulator.injectFaults({ count: 1, status: 503, operation: 'CreateCredential' });
		const [out] = await run(
			{ resource: 'apiCredential', operation: 'create', userCode: SEEDED_API_USER.userCode },
			[{}],
			{ continueOnFail: true },
		);
		expect(requestsOf('CreateCredential')).toHaveLength(1);
		expect(out.json.details).toMatchObject({ httpCode: '503' });
	});
});

describe('destination/update', () => {
	const state = (code: string) =>
		f.emulator.destinations().find((d) => d.destination_code === code)!;

	it('sends only the fields set, replaces headers and upserts event types', async () => {
		const [out] = await run({
			resource: 'destination',
			operation: 'update',
			destinationCode: SEEDED_DESTINATIONS.active,
			updateFields: {
				url: 'https://hooks.example.com/new',
				headers: { header: [{ name: 'X-New-Secret', value: 'v1' }] },
				eventTypes: {
					eventType: [
						{ eventType: 'FBPO::PO_SYNC', isActive: false },
						{ eventType: 'FBPI::ORDER_CREATED', isActive: true },
					],
				},
			},
		});
		const request = only('UpdateDestination');
		expect(request.path).toBe(
			`/event-notifications/v1/destination/https-destination/${SEEDED_DESTINATIONS.active}/update`,
		);
		expect(request.body).toEqual({
			url: 'https://hooks.example.com/new',
			credentials: { values: { 'X-New-Secret': 'v1' } },
			event_types: [
				{ event_type: 'FBPO::PO_SYNC', is_active: false },
				{ event_type: 'FBPI::ORDER_CREATED', is_active: true },
			],
		});
		const after = state(SEEDED_DESTINATIONS.active);
		expect(after.credentials).toEqual({ 'X-New-Secret': 'v1' });
		expect(after.is_active).toBe(true);
		expect(after.event_types).toEqual(
			expect.arrayContaining([
				{ event_type: 'FBPI::ORDER_SYNC', is_active: true },
				{ event_type: 'FBPO::PO_SYNC', is_active: false },
				{ event_type: 'FBPI::ORDER_CREATED', is_active: true },
			]),
		);
		// The answer masks header values.
		expect(JSON.stringify(out.json)).not.toContain('v1"');
	});

	it('removes all headers, and deactivating keeps the subscriptions', async () => {
		await run({
			resource: 'destination',
			operation: 'update',
			destinationCode: SEEDED_DESTINATIONS.active,
			updateFields: { removeAllHeaders: true, isActive: false },
		});
		expect(only('UpdateDestination').body).toEqual({
			is_active: false,
			credentials: { values: {} },
		});
		const after = state(SEEDED_DESTINATIONS.active);
		expect(after.credentials).toEqual({});
		expect(after.is_active).toBe(false);
		expect(after.event_types.filter((e) => e.is_active).length).toBeGreaterThan(0);
	});

	it("follows every row of the spec's destination and subscription table", async () => {
		const code = f.emulator.addDestination({ isActive: false, eventTypes: [] }).destination_code;
		const update = async (updateFields: INodeParameters) =>
			await run({
				resource: 'destination',
				operation: 'update',
				destinationCode: code,
				updateFields,
			});
		const subscription = (type: string) =>
			state(code).event_types.find((e) => e.event_type === type);

		// inactive → active
		await update({ isActive: true });
		expect(state(code).is_active).toBe(true);
		// not subscribed (absent) → subscribed: the subscription is created
		await update({ eventTypes: { eventType: [{ eventType: 'FBPO::PO_SYNC', isActive: true }] } });
		expect(subscription('FBPO::PO_SYNC')).toEqual({ event_type: 'FBPO::PO_SYNC', is_active: true });
		// subscribed → unsubscribed; a type not listed stays unchanged
		await update({
			eventTypes: {
				eventType: [
					{ eventType: 'FBPI::ORDER_SYNC', isActive: true },
					{ eventType: 'FBPO::PO_SYNC', isActive: false },
				],
			},
		});
		await update({
			eventTypes: { eventType: [{ eventType: 'FBPI::ORDER_SYNC', isActive: false }] },
		});
		expect(subscription('FBPI::ORDER_SYNC')?.is_active).toBe(false);
		expect(subscription('FBPO::PO_SYNC')?.is_active).toBe(false);
		await update({
			eventTypes: { eventType: [{ eventType: 'FBPI::ORDER_SYNC', isActive: true }] },
		});
		// event types omitted: every subscription unchanged
		const before = state(code).event_types;
		await update({ destinationName: 'Renamed again' });
		expect(state(code).event_types).toEqual(before);
		expect(requestsOf('UpdateDestination').at(-1)?.body).toEqual({
			destination_name: 'Renamed again',
		});
		// active → inactive: subscriptions kept
		await update({ isActive: false });
		expect(state(code).is_active).toBe(false);
		expect(state(code).event_types).toEqual(before);
	});

	it('is repeated after a 503 (the update is idempotent)', async () => {
		f.emulator.injectFaults({ count: 1, status: 503, operation: 'UpdateDestination' });
		await run({
			resource: 'destination',
			operation: 'update',
			destinationCode: SEEDED_DESTINATIONS.inactive,
			updateFields: { destinationName: 'Renamed' },
		});
		expect(requestsOf('UpdateDestination').map((r) => r.status)).toEqual([503, 200]);
		expect(state(SEEDED_DESTINATIONS.inactive).destination_name).toBe('Renamed');
	});
});
