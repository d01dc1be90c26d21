/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Every operation of the spec on the emulator, with the spec's rules and the field notes' facts:
 * happy paths, every rejection, state machines over time, idempotency, events. Over real HTTP.
 */
import {
	DEFAULT_RATE_PLAN,
	DOWNLOAD_EXPORT_OPERATION,
	GRPC_CODES,
	MASKED_VALUE,
	OTHER_PROJECT_CODE,
	SEEDED_API_USER,
	SEEDED_DESTINATIONS,
	SEEDED_EXPORTS,
	SEEDED_FBPI_ORDERS,
	SEEDED_OAUTH_TOKENS,
	SEEDED_PO,
	SEEDED_WAREHOUSES,
	startEmulator,
	type Emulator,
	type GrpcCode,
	type ImportCompletedEvent,
	type SandboxOrder,
} from '..';
import { EmulatorClient, loggedInClient, type CallResult } from '../client';

// Long enough that a busy machine still sees every phase when polling every few ms.
const IMPORT_STEP_MS = 100;
const EXPORT_STEP_MS = 150;

let emulator: Emulator;
let client: EmulatorClient;

beforeAll(async () => {
	emulator = await startEmulator({ importStepMs: IMPORT_STEP_MS, exportStepMs: EXPORT_STEP_MS });
	client = await loggedInClient(emulator.baseUrl, emulator.credential);
});

afterAll(() => emulator.close());

afterEach(() => {
	emulator.clearFaults();
	emulator.setRatePlan(DEFAULT_RATE_PLAN);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const LATIN = /^[A-Za-z][A-Za-z .'-]*$/;

function expectError(res: CallResult, code: GrpcCode, message?: RegExp): void {
	expect({ status: res.status, body: res.body }).toEqual({
		status: GRPC_CODES[code].http,
		body: {
			status_id: GRPC_CODES[code].id,
			status_code: code,
			message: message ? expect.stringMatching(message) : expect.any(String),
			details: [],
		},
	});
}

/** Polls until `done`, returning the distinct consecutive values of `key` seen on the way. */
async function observe<T>(
	read: () => Promise<T>,
	key: (value: T) => string,
	done: (value: T) => boolean,
	timeoutMs = 5000,
) {
	const seen: string[] = [];
	const deadline = Date.now() + timeoutMs;
	let last: T;
	for (;;) {
		last = await read();
		const k = key(last);
		if (seen[seen.length - 1] !== k) seen.push(k);
		if (done(last) || Date.now() > deadline) return { seen, last };
		await sleep(5);
	}
}

const exchange = (accessToken: unknown, c = client) =>
	c.call(
		'POST',
		'/identity/oauth/v1/token/exchange',
		accessToken === undefined ? {} : { access_token: accessToken },
	);
const exportStatus = (code: unknown, c = client) =>
	c.call('POST', '/impex/v1/export/status', { export_code: code });
const customer = (orderNr: string, c = client) =>
	c.call('GET', `/fbpi/v1/fbpi-order/${encodeURIComponent(orderNr)}/customer-details/get`);
const sandboxPath = () => `${emulator.prefixes.sandboxOrder}/v1/sandbox-order/create`;
const createSandbox = (body: unknown, c = client) => c.call('POST', sandboxPath(), body);
const importPath = () => `${emulator.prefixes.imports}/v1/import/barcode`;
const createImport = (body: unknown, c = client) => c.call('POST', importPath(), body);
const importStatus = (reference: string, c = client) =>
	c.call('GET', `${emulator.prefixes.imports}/v1/import/status/${encodeURIComponent(reference)}`);
const createCredential = (body: unknown, c = client) =>
	c.call('POST', '/identity/apiuser/v1/credential/create', body);
const updateDestination = (code: string, body: unknown, c = client) =>
	c.call(
		'POST',
		`/event-notifications/v1/destination/https-destination/${encodeURIComponent(code)}/update`,
		body,
	);

let uniqueCounter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++uniqueCounter}`;

/** A logged-in client of another project (its own seeds, nothing shared with the main one). */
async function otherProjectClient(projectCode = 'PRJ777001'): Promise<EmulatorClient> {
	return loggedInClient(emulator.baseUrl, await emulator.addCredential({ projectCode }));
}

// --- ExchangeToken ------------------------------------------------------------------------------

describe('ExchangeToken', () => {
	it('runs a synchronous workflow and returns its result with a fresh request id', async () => {
		const first = await exchange(SEEDED_OAUTH_TOKENS.issuesCredentials);
		expect(first.status).toBe(200);
		expect(first.body).toEqual({
			status: { status_id: 0, status_code: 'OK', message: '', details: [] },
			project_code: emulator.projectCode,
			oauth_request_id: expect.any(String),
			result: {
				client_id: expect.any(String),
				client_secret: expect.any(String),
				scopes: expect.any(Array),
				issued_at: expect.stringMatching(ISO),
			},
		});
		const second = await exchange(SEEDED_OAUTH_TOKENS.issuesCredentials);
		expect(second.body.oauth_request_id).not.toBe(first.body.oauth_request_id);
		expect(second.body.result.client_id).not.toBe(first.body.result.client_id);
	});

	it('returns a result whose schema depends on the workflow', async () => {
		const res = await exchange(SEEDED_OAUTH_TOKENS.sellerProfile);
		expect(res.status).toBe(200);
		expect(res.body.result).toMatchObject({
			project_code: emulator.projectCode,
			store_code: expect.stringMatching(/^STR/),
		});
	});

	it('leaves result out when the workflow completes asynchronously', async () => {
		const res = await exchange(SEEDED_OAUTH_TOKENS.asynchronous);
		expect(res.status).toBe(200);
		expect(Object.keys(res.body).sort()).toEqual(['oauth_request_id', 'project_code', 'status']);
	});

	it('refuses a token bound to another project', async () => {
		expectError(
			await exchange(SEEDED_OAUTH_TOKENS.otherProject),
			'PERMISSION_DENIED',
			new RegExp(OTHER_PROJECT_CODE),
		);
	});

	it('rejects a missing, unknown or expired access_token', async () => {
		expectError(await exchange(undefined), 'INVALID_ARGUMENT', /access_token is required/);
		expectError(await exchange(''), 'INVALID_ARGUMENT', /access_token is required/);
		expectError(await exchange(42), 'INVALID_ARGUMENT', /access_token must be a string/);
		expectError(
			await exchange('eyJhbGciOiJSUzI1NiJ9.e30.bm9wZQ'),
			'INVALID_ARGUMENT',
			/access_token .*unknown/,
		);
		expectError(
			await exchange(SEEDED_OAUTH_TOKENS.expired),
			'INVALID_ARGUMENT',
			/access_token expired/,
		);
	});

	it('needs the session too', async () => {
		const anonymous = new EmulatorClient(emulator.baseUrl, emulator.credential);
		expectError(
			await exchange(SEEDED_OAUTH_TOKENS.issuesCredentials, anonymous),
			'UNAUTHENTICATED',
		);
	});
});

// --- GetExportStatus and downloads ----------------------------------------------------------------

describe('GetExportStatus', () => {
	it('returns a complete export with every field and a working download link', async () => {
		const res = await exportStatus(SEEDED_EXPORTS.complete);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			export_code: SEEDED_EXPORTS.complete,
			export_category_code: 'ORDERS_EXPORT',
			export_status: 'COMPLETE',
			params: expect.any(String),
			project_code: emulator.projectCode,
			created_by: expect.stringMatching(/^usr-/),
			download_url: expect.stringMatching(
				new RegExp(
					`^${emulator.baseUrl}/__files/exports/${SEEDED_EXPORTS.complete}\\.csv\\?token=[\\w-]+$`,
				),
			),
			created_at: expect.stringMatching(ISO),
			updated_at: expect.stringMatching(ISO),
		});
		expect(JSON.parse(res.body.params)).toMatchObject({ date_from: '2025-01-01' });
		expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(res.body.created_at));

		emulator.clearRequests();
		// A plain download: no session cookie, no User-Agent needed.
		const file = await fetch(res.body.download_url);
		expect(file.status).toBe(200);
		expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
		expect(file.headers.get('content-disposition')).toBe(
			`attachment; filename="${SEEDED_EXPORTS.complete}.csv"`,
		);
		const rows = (await file.text()).trim().split('\n');
		expect(rows.length).toBeGreaterThanOrEqual(3);
		expect(emulator.requests()).toEqual([
			expect.objectContaining({ operation: DOWNLOAD_EXPORT_OPERATION, method: 'GET', status: 200 }),
		]);
	});

	it('refuses a download without the right token', async () => {
		const { body } = await exportStatus(SEEDED_EXPORTS.complete);
		const url = new URL(body.download_url);
		const plain = `${url.origin}${url.pathname}`;
		expectError(await client.raw('GET', url.pathname), 'PERMISSION_DENIED', /download token/);
		expectError(await client.raw('GET', `${url.pathname}?token=forged`), 'PERMISSION_DENIED');
		// The token of one export does not open another file.
		expectError(
			await client.raw('GET', `/__files/exports/${SEEDED_EXPORTS.error}.csv${url.search}`),
			'PERMISSION_DENIED',
		);
		expect((await fetch(plain)).status).toBe(403);
	});

	it('streams a large generated export file of exactly the size asked for', async () => {
		const added = emulator.addExport({ states: ['COMPLETE'], fileSizeBytes: 3_000_000 });
		const res = await exportStatus(added.export_code);
		const file = await fetch(res.body.download_url as string);
		expect(file.headers.get('content-length')).toBe('3000000');
		const bytes = Buffer.from(await file.arrayBuffer());
		expect(bytes.length).toBe(3_000_000);
		expect(bytes.subarray(0, 20).toString()).toMatch(/^ORD-1,SKU-1,1,AED,/);
		expect(() => emulator.addExport({ fileSizeBytes: -1 })).toThrow(
			'fileSizeBytes must be a whole number',
		);
	});

	it('answers the download_url it was told to, once the export is complete', async () => {
		const link = 'https://files.example/exports/report.csv?sig=abc';
		const added = emulator.addExport({ states: ['COMPLETE'], downloadUrl: link });
		expect((await exportStatus(added.export_code)).body.download_url).toBe(link);
		const running = emulator.addExport({ states: ['RUNNING'], downloadUrl: link });
		expect((await exportStatus(running.export_code)).body).not.toHaveProperty('download_url');
		expect(() => emulator.addExport({ downloadUrl: 42 as unknown as string })).toThrow(
			'downloadUrl must be a string',
		);
	});

	it.each([
		[SEEDED_EXPORTS.pending, 'PENDING'],
		[SEEDED_EXPORTS.queued, 'QUEUE'],
		[SEEDED_EXPORTS.running, 'RUNNING'],
		[SEEDED_EXPORTS.error, 'ERROR'],
		[SEEDED_EXPORTS.failed, 'FAILED'],
	])('returns %s as %s without download_url', async (code, status) => {
		const res = await exportStatus(code);
		expect(res.status).toBe(200);
		expect(res.body.export_status).toBe(status);
		expect(res.body).not.toHaveProperty('download_url');
		expect(Object.keys(res.body).sort()).toEqual([
			'created_at',
			'created_by',
			'export_category_code',
			'export_code',
			'export_status',
			'params',
			'project_code',
			'updated_at',
		]);
	});

	it('progresses PENDING → RUNNING → COMPLETE from the first status call', async () => {
		const { seen, last } = await observe(
			() => exportStatus(SEEDED_EXPORTS.progressing),
			(r) => r.body.export_status,
			(r) => r.body.export_status === 'COMPLETE',
		);
		expect(seen).toEqual(['PENDING', 'RUNNING', 'COMPLETE']);
		expect(last.body.download_url).toContain(
			`/__files/exports/${SEEDED_EXPORTS.progressing}.csv?token=`,
		);
		expect((await fetch(last.body.download_url)).status).toBe(200);
	});

	it('progresses PENDING → RUNNING → ERROR', async () => {
		const { seen, last } = await observe(
			() => exportStatus(SEEDED_EXPORTS.progressingToError),
			(r) => r.body.export_status,
			(r) => r.body.export_status === 'ERROR',
		);
		expect(seen).toEqual(['PENDING', 'RUNNING', 'ERROR']);
		expect(last.body).not.toHaveProperty('download_url');
	});

	it('adds exports in-process and over the control API, visible only in their project', async () => {
		const added = emulator.addExport({ states: ['RUNNING', 'COMPLETE'] });
		expect(added.export_status).toBe('RUNNING');
		const { seen } = await observe(
			() => exportStatus(added.export_code),
			(r) => r.body.export_status,
			(r) => r.body.export_status === 'COMPLETE',
		);
		expect(seen).toEqual(['RUNNING', 'COMPLETE']);

		const viaControl = await fetch(`${emulator.controlUrl}/exports`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ states: ['FAILED'] }),
		});
		const record = (await viaControl.json()) as { export_code: string };
		expect((await exportStatus(record.export_code)).body.export_status).toBe('FAILED');

		const other = await otherProjectClient();
		expectError(await exportStatus(added.export_code, other), 'NOT_FOUND');
		expect((await exportStatus(SEEDED_EXPORTS.complete, other)).body.project_code).toBe(
			'PRJ777001',
		);
	});

	it('rejects a missing export_code and answers 404 for an unknown one', async () => {
		expectError(
			await client.call('POST', '/impex/v1/export/status', {}),
			'INVALID_ARGUMENT',
			/export_code is required/,
		);
		expectError(await exportStatus('EXP-NOPE'), 'NOT_FOUND', /export_code "EXP-NOPE" not found/);
	});
});

// --- FBPI orders -----------------------------------------------------------------------------------

describe('GetFbpiOrderCustomerData', () => {
	it('returns the four Latin fields of a seeded order', async () => {
		for (const orderNr of Object.values(SEEDED_FBPI_ORDERS)) {
			const res = await customer(orderNr);
			expect(res.status).toBe(200);
			expect(Object.keys(res.body).sort()).toEqual([
				'administrative_division',
				'city',
				'first_name',
				'last_name',
			]);
			for (const value of Object.values(res.body)) expect(value).toMatch(LATIN);
		}
		expect((await customer(SEEDED_FBPI_ORDERS.dubai)).body).toEqual({
			first_name: 'Omar',
			last_name: 'Al Hashimi',
			city: 'Dubai',
			administrative_division: 'Dubai',
		});
		expect((await customer('FBPI-BULK-77')).status).toBe(200);
	});

	it('answers 404 for an unknown order', async () => {
		expectError(await customer('NAE99999999'), 'NOT_FOUND', /FBPI order "NAE99999999" not found/);
	});
});

describe('CreateSandboxOrder', () => {
	const events: SandboxOrder[] = [];
	const listener = (order: SandboxOrder) => events.push(order);
	beforeAll(() => emulator.on('sandboxOrderCreated', listener));
	afterAll(() => emulator.off('sandboxOrderCreated', listener));
	beforeEach(() => (events.length = 0));

	const body = (overrides: Record<string, unknown> = {}) => ({
		warehouse_code: SEEDED_WAREHOUSES.dubai,
		idempotency_key: unique('k').slice(-10),
		items: [
			{ status: 'MP_ITEM_STATUS_CONFIRMED', partner_sku: 'SKU-TSHIRT-BLK-M' },
			{ status: 'MP_ITEM_STATUS_CANCELLED' },
		],
		...overrides,
	});

	it('creates an order, stores it, raises sandboxOrderCreated, and serves its customer details', async () => {
		const request = body();
		const res = await createSandbox(request);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ fbpi_order_nr: expect.any(String) });
		const orderNr = res.body.fbpi_order_nr;

		expect(events).toEqual([
			{
				fbpi_order_nr: orderNr,
				project_code: emulator.projectCode,
				warehouse_code: SEEDED_WAREHOUSES.dubai,
				country_code: 'ae',
				idempotency_key: request.idempotency_key,
				created_at: expect.stringMatching(ISO),
				items: [
					{
						item_nr: expect.any(String),
						partner_sku: 'SKU-TSHIRT-BLK-M',
						status: 'MP_ITEM_STATUS_CONFIRMED',
					},
					{
						item_nr: expect.any(String),
						partner_sku: expect.stringMatching(/^SANDBOX-DUMMY-SKU-/),
						status: 'MP_ITEM_STATUS_CANCELLED',
					},
				],
				customer: expect.any(Object),
			},
		]);
		expect(emulator.sandboxOrders().map((o) => o.fbpi_order_nr)).toContain(orderNr);

		const details = await customer(orderNr);
		expect(details.status).toBe(200);
		expect(details.body).toEqual(events[0].customer);
		for (const value of Object.values(details.body)) expect(value).toMatch(LATIN);
	});

	it('takes country_code ae, sa or eg (default ae) and gives empty partner_sku a dummy', async () => {
		const res = await createSandbox(
			body({
				country_code: 'sa',
				items: [{ status: 'MP_ITEM_STATUS_CONFIRMED', partner_sku: '' }],
			}),
		);
		expect(res.status).toBe(200);
		expect(events[0]).toMatchObject({
			country_code: 'sa',
			items: [{ partner_sku: expect.stringMatching(/^SANDBOX-DUMMY-SKU-/) }],
		});
		expect((await customer(res.body.fbpi_order_nr)).body.city).toMatch(/Riyadh|Jeddah|Dammam/);
	});

	it('replays the same key with the same body, and refuses it with another body', async () => {
		const request = body();
		const first = await createSandbox(request);
		const again = await createSandbox({ ...request, country_code: 'ae' });
		expect(again.status).toBe(200);
		expect(again.body.fbpi_order_nr).toBe(first.body.fbpi_order_nr);
		expect(events).toHaveLength(1);
		expect(
			emulator.sandboxOrders().filter((o) => o.idempotency_key === request.idempotency_key),
		).toHaveLength(1);

		expectError(
			await createSandbox({ ...request, items: [{ status: 'MP_ITEM_STATUS_CONFIRMED' }] }),
			'ALREADY_EXISTS',
			new RegExp(`idempotency_key "${request.idempotency_key}" was already used`),
		);
		// Keys are per project.
		const other = await otherProjectClient();
		const elsewhere = await createSandbox(request, other);
		expect(elsewhere.status).toBe(200);
		expect(elsewhere.body.fbpi_order_nr).not.toBe(first.body.fbpi_order_nr);
		// And orders too.
		expectError(await customer(first.body.fbpi_order_nr, other), 'NOT_FOUND');
	});

	it('rejects bad warehouses', async () => {
		expectError(
			await createSandbox(body({ warehouse_code: undefined })),
			'INVALID_ARGUMENT',
			/warehouse_code is required/,
		);
		expectError(
			await createSandbox(body({ warehouse_code: 'WH-NOPE' })),
			'NOT_FOUND',
			/warehouse_code "WH-NOPE" not found/,
		);
		expectError(
			await createSandbox(body({ warehouse_code: SEEDED_WAREHOUSES.noWebhooks })),
			'FAILED_PRECONDITION',
			new RegExp(
				`warehouse ${SEEDED_WAREHOUSES.noWebhooks} is not configured to receive order webhooks`,
			),
		);
		expect(events).toEqual([]);
	});

	it('rejects bad idempotency keys, items and country codes', async () => {
		expectError(
			await createSandbox(body({ idempotency_key: undefined })),
			'INVALID_ARGUMENT',
			/idempotency_key is required/,
		);
		expectError(
			await createSandbox(body({ idempotency_key: '' })),
			'INVALID_ARGUMENT',
			/idempotency_key is required/,
		);
		expectError(
			await createSandbox(body({ idempotency_key: '12345678901' })),
			'INVALID_ARGUMENT',
			/idempotency_key must be at most 10 characters, got 11/,
		);
		expectError(
			await createSandbox(body({ items: [] })),
			'INVALID_ARGUMENT',
			/items must list at least one item/,
		);
		expectError(
			await createSandbox(body({ items: undefined })),
			'INVALID_ARGUMENT',
			/items must list at least one item/,
		);
		expectError(
			await createSandbox(
				body({
					items: [{ status: 'MP_ITEM_STATUS_CONFIRMED' }, { status: 'MP_ITEM_STATUS_UNSPECIFIED' }],
				}),
			),
			'INVALID_ARGUMENT',
			/items\[1\]\.status must be MP_ITEM_STATUS_CONFIRMED or MP_ITEM_STATUS_CANCELLED/,
		);
		expectError(
			await createSandbox(body({ items: [{ partner_sku: 'X' }] })),
			'INVALID_ARGUMENT',
			/items\[0\]\.status/,
		);
		expectError(
			await createSandbox(body({ items: ['x'] })),
			'INVALID_ARGUMENT',
			/items\[0\] must be an object/,
		);
		expectError(
			await createSandbox(body({ country_code: 'us' })),
			'INVALID_ARGUMENT',
			/country_code must be one of ae, sa, eg/,
		);
		expectError(
			await createSandbox(body({ country_code: 'AE' })),
			'INVALID_ARGUMENT',
			/country_code/,
		);
		expect(events).toEqual([]);
	});
});

// --- Barcode imports -----------------------------------------------------------------------------

const mapping = (i: number) => ({ partner_sku: `SKU-${i}`, barcode: String(6291041500000 + i) });
const itemsBody = (data: unknown[], overrides: Record<string, unknown> = {}) => ({
	items: { data },
	client_reference: unique('ref'),
	...overrides,
});

describe('CreateBarcodeImport', () => {
	it('accepts inline items and answers import_reference and client_reference', async () => {
		const request = itemsBody([mapping(1), mapping(2)]);
		const res = await createImport(request);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			import_reference: expect.stringMatching(/^IMP-[0-9A-F]{16}$/),
			client_reference: request.client_reference,
		});
		const again = await createImport(itemsBody([mapping(1)]));
		expect(again.body.import_reference).not.toBe(res.body.import_reference);
	});

	it('needs exactly one source', async () => {
		expectError(
			await createImport({ client_reference: unique('ref') }),
			'INVALID_ARGUMENT',
			/exactly one of file_url, bq_table or items is required; none was given/,
		);
		expectError(
			await createImport(itemsBody([mapping(1)], { file_url: 'https://files.example.com/a.csv' })),
			'INVALID_ARGUMENT',
			/exactly one of file_url, bq_table or items is allowed; got file_url and items/,
		);
		expectError(
			await createImport({
				client_reference: unique('ref'),
				file_url: 'gs://b/a.csv',
				bq_table: 'p.d.t',
			}),
			'INVALID_ARGUMENT',
			/got file_url and bq_table/,
		);
	});

	it('checks client_reference: required, at most 100 characters, unique in the project', async () => {
		expectError(
			await createImport(itemsBody([mapping(1)], { client_reference: undefined })),
			'INVALID_ARGUMENT',
			/client_reference is required/,
		);
		expectError(
			await createImport(itemsBody([mapping(1)], { client_reference: 'x'.repeat(101) })),
			'INVALID_ARGUMENT',
			/client_reference must be at most 100 characters, got 101/,
		);
		const hundred = `${unique('r')}-`.padEnd(100, 'x');
		expect(
			(await createImport(itemsBody([mapping(1)], { client_reference: hundred }))).status,
		).toBe(200);
		expectError(
			await createImport(itemsBody([mapping(2)], { client_reference: hundred })),
			'ALREADY_EXISTS',
			/client_reference ".*" is already used by import IMP-/,
		);
		// Unique per project: another project may use it.
		expect(
			(
				await createImport(
					itemsBody([mapping(1)], { client_reference: hundred }),
					await otherProjectClient(),
				)
			).status,
		).toBe(200);
	});

	it('checks items.data: 1 to 10,000 entries, each with partner_sku and barcode', async () => {
		expectError(
			await createImport(itemsBody([])),
			'INVALID_ARGUMENT',
			/items\.data must list at least one/,
		);
		expectError(
			await createImport({ items: {}, client_reference: unique('ref') }),
			'INVALID_ARGUMENT',
			/items\.data must list at least one/,
		);
		expectError(
			await createImport({ items: [mapping(1)], client_reference: unique('ref') }),
			'INVALID_ARGUMENT',
			/items must be an object/,
		);
		const tooMany = Array.from({ length: 10_001 }, (_, i) => mapping(i));
		expectError(
			await createImport(itemsBody(tooMany)),
			'INVALID_ARGUMENT',
			/items\.data has 10001 entries: at most 10000/,
		);
		expectError(
			await createImport(itemsBody([mapping(1), { barcode: '6291041500001' }])),
			'INVALID_ARGUMENT',
			/items\.data\[1\]\.partner_sku is required/,
		);
		expectError(
			await createImport(itemsBody([{ partner_sku: 'SKU-1', barcode: '' }])),
			'INVALID_ARGUMENT',
			/items\.data\[0\]\.barcode is required/,
		);
		expectError(
			await createImport(itemsBody([mapping(1)], { config: { force_sync: 'yes' } })),
			'INVALID_ARGUMENT',
			/config\.force_sync must be a boolean/,
		);
	});

	it('checks file_url and bq_table', async () => {
		for (const fileUrl of [
			'https://files.example.com/barcodes.csv',
			'http://127.0.0.1:9/x.tsv',
			'gs://bucket/path/b.parquet',
			's3://bucket/b.json',
		]) {
			expect(
				(await createImport({ file_url: fileUrl, client_reference: unique('ref') })).status,
			).toBe(200);
		}
		for (const fileUrl of ['ftp://files.example.com/b.csv', 'barcodes.csv', 'gs://bucket-only']) {
			expectError(
				await createImport({ file_url: fileUrl, client_reference: unique('ref') }),
				'INVALID_ARGUMENT',
				/file_url must be an http\(s\) address or a cloud storage path/,
			);
		}
		expect(
			(
				await createImport({
					bq_table: 'my-project.catalog.barcodes',
					client_reference: unique('ref'),
				})
			).status,
		).toBe(200);
		expectError(
			await createImport({ bq_table: 'not a table', client_reference: unique('ref') }),
			'INVALID_ARGUMENT',
			/bq_table/,
		);
	});

	it('takes 10 imports of 10,000 mappings quickly', async () => {
		const data = Array.from({ length: 10_000 }, (_, i) => mapping(i));
		const started = Date.now();
		const results = await Promise.all(
			Array.from({ length: 10 }, () => createImport(itemsBody(data))),
		);
		expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
		expect(Date.now() - started).toBeLessThan(5000);
	});
});

describe('GetImportStatus', () => {
	const STATUS_FIELDS = [
		'bq_table',
		'client_reference',
		'completed_at',
		'config',
		'created_at',
		'created_by',
		'file_url',
		'import_reference',
		'import_status',
		'import_type',
		'report',
		'sub_status',
		'updated_at',
	];

	async function runToEnd(reference: string) {
		return observe(
			() => importStatus(reference),
			(r) => `${r.body.import_status}/${r.body.sub_status}`,
			(r) => r.body.completed_at !== '',
		);
	}

	it('moves PENDING → PROCESSING (VALIDATING, WRITING) → COMPLETED, with every field', async () => {
		const request = itemsBody([mapping(1), mapping(2), mapping(3)]);
		const { body: created } = await createImport(request);

		const first = await importStatus(created.import_reference);
		expect(first.status).toBe(200);
		expect(Object.keys(first.body).sort()).toEqual(STATUS_FIELDS);
		const primaryUser = emulator
			.apiUsers()
			.find((u) => u.channel_identifier === emulator.credential.channel_identifier);
		expect(first.body).toEqual({
			import_type: 'barcode',
			import_reference: created.import_reference,
			client_reference: request.client_reference,
			created_by: primaryUser?.user_code,
			config: { is_notification_required: false, force_sync: false },
			file_url: '',
			bq_table: '',
			report: {
				total_count: 3,
				success_count: 0,
				failure_count: 0,
				duration_ms: expect.any(Number),
				failures: [],
			},
			import_status: 'IMPORT_STATUS_PENDING',
			sub_status: 'QUEUED',
			created_at: expect.stringMatching(ISO),
			updated_at: expect.stringMatching(ISO),
			completed_at: '',
		});

		const { seen, last } = await runToEnd(created.import_reference);
		expect(seen).toEqual([
			...(seen[0] === 'IMPORT_STATUS_PENDING/QUEUED' ? ['IMPORT_STATUS_PENDING/QUEUED'] : []),
			'IMPORT_STATUS_PROCESSING/VALIDATING',
			'IMPORT_STATUS_PROCESSING/WRITING',
			'IMPORT_STATUS_COMPLETED/DONE',
		]);
		expect(last.body).toMatchObject({
			report: {
				total_count: 3,
				success_count: 3,
				failure_count: 0,
				duration_ms: 3 * IMPORT_STEP_MS,
				failures: [],
			},
			completed_at: expect.stringMatching(ISO),
		});
		expect(last.body.updated_at).toBe(last.body.completed_at);
		expect(Date.parse(last.body.completed_at) - Date.parse(last.body.created_at)).toBe(
			3 * IMPORT_STEP_MS,
		);

		// The client_reference finds the same import.
		expect((await importStatus(request.client_reference)).body).toEqual(last.body);
	});

	it('ends PARTIAL with a report of the invalid mappings', async () => {
		const { body } = await createImport(
			itemsBody([
				mapping(1),
				{ partner_sku: 'SKU-SHORT', barcode: '1234567' },
				{ partner_sku: 'UNKNOWN-SKU-9', barcode: '6291041500009' },
				{ partner_sku: 'SKU-LETTERS', barcode: '62910415000AB' },
				{ partner_sku: 'SKU-LONG', barcode: '123456789012345' },
				{ partner_sku: 'SKU-EIGHT', barcode: '12345678' },
			]),
		);
		const { last } = await runToEnd(body.import_reference);
		expect(last.body.import_status).toBe('IMPORT_STATUS_PARTIAL');
		expect(last.body.sub_status).toBe('DONE');
		expect(last.body.report).toEqual({
			total_count: 6,
			success_count: 2,
			failure_count: 4,
			duration_ms: 3 * IMPORT_STEP_MS,
			failures: [
				{ partner_sku: 'SKU-SHORT', barcode: '1234567', reason: 'barcode must be 8 to 14 digits' },
				{
					partner_sku: 'UNKNOWN-SKU-9',
					barcode: '6291041500009',
					reason: expect.stringMatching(/does not exist in the catalog/),
				},
				{
					partner_sku: 'SKU-LETTERS',
					barcode: '62910415000AB',
					reason: 'barcode must be 8 to 14 digits',
				},
				{
					partner_sku: 'SKU-LONG',
					barcode: '123456789012345',
					reason: 'barcode must be 8 to 14 digits',
				},
			],
		});
	});

	it('reports at most 100 failures', async () => {
		const data = [
			mapping(1),
			...Array.from({ length: 150 }, (_, i) => ({ partner_sku: `SKU-${i}`, barcode: 'bad' })),
		];
		const { body } = await createImport(itemsBody(data));
		const { last } = await runToEnd(body.import_reference);
		expect(last.body.import_status).toBe('IMPORT_STATUS_PARTIAL');
		expect(last.body.report).toMatchObject({
			total_count: 151,
			success_count: 1,
			failure_count: 150,
		});
		expect(last.body.report.failures).toHaveLength(100);
	});

	it('ends FAILED after validation when every mapping is invalid', async () => {
		const { body } = await createImport(
			itemsBody([
				{ partner_sku: 'UNKNOWN-1', barcode: '6291041500001' },
				{ partner_sku: 'S', barcode: '1' },
			]),
		);
		const { seen, last } = await runToEnd(body.import_reference);
		expect(seen).not.toContain('IMPORT_STATUS_PROCESSING/WRITING');
		expect(seen[seen.length - 1]).toBe('IMPORT_STATUS_FAILED/VALIDATION_FAILED');
		expect(last.body.report).toMatchObject({
			total_count: 2,
			success_count: 0,
			failure_count: 2,
			duration_ms: 2 * IMPORT_STEP_MS,
		});
	});

	it('reads file and table sources: fail → FAILED, partial → PARTIAL, else COMPLETED', async () => {
		const failing = await createImport({
			file_url: 'https://files.example.com/fail.csv',
			client_reference: unique('ref'),
		});
		const { last: failed } = await runToEnd(failing.body.import_reference);
		expect(failed.body).toMatchObject({
			import_status: 'IMPORT_STATUS_FAILED',
			sub_status: 'SOURCE_UNREADABLE',
			file_url: 'https://files.example.com/fail.csv',
			bq_table: '',
			report: {
				total_count: 0,
				failures: [{ reason: expect.stringMatching(/could not be read/) }],
			},
		});

		const partial = await createImport({
			bq_table: 'proj.catalog.partial_barcodes',
			client_reference: unique('ref'),
		});
		const { last: partialEnd } = await runToEnd(partial.body.import_reference);
		expect(partialEnd.body).toMatchObject({
			import_status: 'IMPORT_STATUS_PARTIAL',
			bq_table: 'proj.catalog.partial_barcodes',
			file_url: '',
		});
		expect(partialEnd.body.report.failure_count).toBe(3);

		const fine = await createImport({
			file_url: 'gs://bucket/barcodes.csv',
			client_reference: unique('ref'),
			config: { force_sync: true },
		});
		const { last: fineEnd } = await runToEnd(fine.body.import_reference);
		expect(fineEnd.body).toMatchObject({
			import_status: 'IMPORT_STATUS_COMPLETED',
			config: { is_notification_required: false, force_sync: true },
		});
		expect(fineEnd.body.report.total_count).toBeGreaterThan(0);
		expect(fineEnd.body.report.success_count).toBe(fineEnd.body.report.total_count);
	});

	it('raises importCompleted only for imports that ask for a notification', async () => {
		const events: ImportCompletedEvent[] = [];
		const listener = (event: ImportCompletedEvent) => events.push(event);
		emulator.on('importCompleted', listener);
		try {
			const silent = await createImport(itemsBody([mapping(1)]));
			const notified = await createImport(
				itemsBody([mapping(1), { partner_sku: 'X', barcode: 'bad' }], {
					config: { is_notification_required: true },
				}),
			);
			await sleep(3 * IMPORT_STEP_MS + 100);
			expect(events).toEqual([
				{
					project_code: emulator.projectCode,
					import: expect.objectContaining({
						import_reference: notified.body.import_reference,
						import_status: 'IMPORT_STATUS_PARTIAL',
						completed_at: expect.stringMatching(ISO),
						config: { is_notification_required: true, force_sync: false },
					}),
				},
			]);
			expect(events.map((e) => e.import.import_reference)).not.toContain(
				silent.body.import_reference,
			);
		} finally {
			emulator.off('importCompleted', listener);
		}
	});

	it('answers 404 for an unknown reference and for another project’s import', async () => {
		expectError(
			await importStatus('IMP-NOPE'),
			'NOT_FOUND',
			/no import with import_reference or client_reference "IMP-NOPE"/,
		);
		const { body } = await createImport(itemsBody([mapping(1)]));
		const other = await otherProjectClient();
		expectError(await importStatus(body.import_reference, other), 'NOT_FOUND');
		expectError(await importStatus(body.client_reference, other), 'NOT_FOUND');
	});

	it('is final at once with importStepMs 0', async () => {
		const instant = await startEmulator({ importStepMs: 0 });
		try {
			const c = await loggedInClient(instant.baseUrl, instant.credential);
			const { body } = await c.call(
				'POST',
				`${instant.prefixes.imports}/v1/import/barcode`,
				itemsBody([mapping(1)]),
			);
			const status = await c.call(
				'GET',
				`${instant.prefixes.imports}/v1/import/status/${body.import_reference}`,
			);
			expect(status.body).toMatchObject({
				import_status: 'IMPORT_STATUS_COMPLETED',
				sub_status: 'DONE',
			});
		} finally {
			await instant.close();
		}
	});
});

// --- CreateCredential ---------------------------------------------------------------------------

describe('CreateCredential', () => {
	const secondaryChannel = () =>
		emulator.apiUsers().find((u) => u.user_code === SEEDED_API_USER.userCode)!.channel_identifier;

	it('creates a key for a service account by user_code, and the key logs in at once', async () => {
		const res = await createCredential({ user_code: SEEDED_API_USER.userCode });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			credential: {
				key_id: expect.stringMatching(/^noon-partners-key-id-[0-9a-f]{32}$/),
				private_key: expect.stringMatching(
					/^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\n$/,
				),
				channel_identifier: secondaryChannel(),
				project_code: emulator.projectCode,
				type: 'apijwt',
				issued_at: expect.stringMatching(ISO),
			},
		});
		expect(secondaryChannel()).toMatch(
			new RegExp(`^${SEEDED_API_USER.channelName}@p\\d+\\.idp\\.noon\\.partners$`),
		);

		const newKey = new EmulatorClient(emulator.baseUrl, res.body.credential);
		expect((await newKey.login()).status).toBe(200);
		expect((await newKey.call('GET', `/fbpo/v1/po/${SEEDED_PO.released}/get`)).status).toBe(200);
	});

	it('resolves channel_identifier, and lets user_code win when both are given', async () => {
		const byChannel = await createCredential({ channel_identifier: secondaryChannel() });
		expect(byChannel.status).toBe(200);
		expect(byChannel.body.credential.channel_identifier).toBe(secondaryChannel());

		const both = await createCredential({
			user_code: SEEDED_API_USER.userCode,
			channel_identifier: 'nobody@p1.idp.noon.partners',
		});
		expect(both.status).toBe(200);
		expect(both.body.credential.channel_identifier).toBe(secondaryChannel());
	});

	it('needs user_code or channel_identifier, never as empty strings', async () => {
		expectError(
			await createCredential({}),
			'INVALID_ARGUMENT',
			/one of user_code or channel_identifier is required/,
		);
		expectError(
			await createCredential({ user_code: null, channel_identifier: null }),
			'INVALID_ARGUMENT',
			/one of user_code or channel_identifier/,
		);
		expectError(
			await createCredential({ user_code: '' }),
			'INVALID_ARGUMENT',
			/user_code must not be empty/,
		);
		expectError(
			await createCredential({ channel_identifier: '' }),
			'INVALID_ARGUMENT',
			/channel_identifier must not be empty/,
		);
		expectError(
			await createCredential({ user_code: SEEDED_API_USER.userCode, channel_identifier: '' }),
			'INVALID_ARGUMENT',
			/channel_identifier must not be empty/,
		);
		expectError(
			await createCredential({ user_code: 7 }),
			'INVALID_ARGUMENT',
			/user_code must be a string/,
		);
	});

	it('answers 404 for an unknown account or one of another project', async () => {
		expectError(
			await createCredential({ user_code: 'usr-nobody' }),
			'NOT_FOUND',
			/user_code "usr-nobody" not found/,
		);
		expectError(
			await createCredential({ channel_identifier: 'x@p1.idp.noon.partners' }),
			'NOT_FOUND',
			/channel_identifier "x@p1\.idp\.noon\.partners" not found/,
		);
		await otherProjectClient();
		const [other] = emulator.apiUsers('PRJ777001');
		expectError(await createCredential({ user_code: other.user_code }), 'NOT_FOUND');
		expectError(
			await createCredential({ channel_identifier: other.channel_identifier }),
			'NOT_FOUND',
		);
	});

	it('checks whitelisted_ips: at most 10 addresses, and they restrict the login', async () => {
		const eleven = Array.from({ length: 11 }, (_, i) => `10.0.0.${i + 1}`);
		expectError(
			await createCredential({ user_code: SEEDED_API_USER.userCode, whitelisted_ips: eleven }),
			'INVALID_ARGUMENT',
			/whitelisted_ips has 11 entries: at most 10/,
		);
		expectError(
			await createCredential({
				user_code: SEEDED_API_USER.userCode,
				whitelisted_ips: ['10.0.0.1', 'localhost'],
			}),
			'INVALID_ARGUMENT',
			/whitelisted_ips\[1\] must be an IPv4 or IPv6 address, got "localhost"/,
		);
		expectError(
			await createCredential({
				user_code: SEEDED_API_USER.userCode,
				whitelisted_ips: ['10.0.0.0/8'],
			}),
			'INVALID_ARGUMENT',
			/whitelisted_ips\[0\]/,
		);
		expectError(
			await createCredential({ user_code: SEEDED_API_USER.userCode, whitelisted_ips: '10.0.0.1' }),
			'INVALID_ARGUMENT',
			/whitelisted_ips must be a list/,
		);

		const elsewhere = await createCredential({
			user_code: SEEDED_API_USER.userCode,
			whitelisted_ips: ['10.9.8.7', '2001:db8::1'],
		});
		expect(elsewhere.status).toBe(200);
		const refused = await new EmulatorClient(emulator.baseUrl, elsewhere.body.credential).login();
		expectError(refused, 'UNAUTHENTICATED', /not whitelisted/);
	});

	it('checks expires_at: ISO 8601 with a UTC offset, in the future', async () => {
		for (const expiresAt of [
			'2030-01-31T12:00:00',
			'2030-01-31',
			'31/01/2030 12:00Z',
			'2030-02-30T12:00:00Z',
			'soon',
		]) {
			expectError(
				await createCredential({ user_code: SEEDED_API_USER.userCode, expires_at: expiresAt }),
				'INVALID_ARGUMENT',
				/expires_at must be an ISO 8601 date-time with a UTC offset/,
			);
		}
		expectError(
			await createCredential({
				user_code: SEEDED_API_USER.userCode,
				expires_at: '2020-01-01T00:00:00+04:00',
			}),
			'INVALID_ARGUMENT',
			/expires_at must be in the future/,
		);
	});

	it('allows at most 5 keys per service account, each usable with its expiry', async () => {
		const limited = await startEmulator();
		try {
			const c = await loggedInClient(limited.baseUrl, limited.credential);
			const user = limited.apiUsers().find((u) => u.user_code === SEEDED_API_USER.userCode)!;
			expect(user.key_count).toBe(0);
			const expiresAt = new Date(Date.now() + 3_600_000).toISOString().replace('Z', '+00:00');
			for (let i = 0; i < 5; i++) {
				const res = await createCredential({ user_code: user.user_code, expires_at: expiresAt }, c);
				expect(res.status).toBe(200);
				if (i === 0)
					expect(
						(await new EmulatorClient(limited.baseUrl, res.body.credential).login()).status,
					).toBe(200);
			}
			expectError(
				await createCredential({ user_code: user.user_code }, c),
				'FAILED_PRECONDITION',
				/already has 5 keys: at most 5 keys per service account/,
			);
		} finally {
			await limited.close();
		}
	});
});

// --- UpdateDestination ----------------------------------------------------------------------------

describe('UpdateDestination', () => {
	const state = (code: string) => emulator.destinations().find((d) => d.destination_code === code)!;
	let code: string;

	beforeEach(() => {
		code = emulator.addDestination({
			destinationName: 'Test destination',
			url: 'https://hooks.example.com/test',
			credentials: { 'X-Secret': 'one', 'X-Tenant': 'acme' },
			eventTypes: [
				{ event_type: 'FBPI::ORDER_SYNC', is_active: true },
				{ event_type: 'FBPO::PO_SYNC', is_active: true },
			],
		}).destination_code;
	});
	afterEach(() => emulator.deleteDestination(code));

	it('seeds an active destination with two subscriptions and a header, and an inactive one', () => {
		const fresh = emulator.destinations();
		expect(fresh.find((d) => d.destination_code === SEEDED_DESTINATIONS.active)).toMatchObject({
			is_active: true,
			url: expect.stringMatching(/^https:/),
			credentials: { 'X-Webhook-Secret': expect.any(String) },
			event_types: [
				{ event_type: 'FBPI::ORDER_SYNC', is_active: true },
				{ event_type: 'FBPO::PO_SYNC', is_active: true },
			],
		});
		expect(fresh.find((d) => d.destination_code === SEEDED_DESTINATIONS.inactive)).toMatchObject({
			is_active: false,
		});
	});

	it('answers the destination as read, header values masked', async () => {
		const res = await updateDestination(code, { destination_name: 'Renamed' });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			destination_code: code,
			destination_name: 'Renamed',
			is_active: true,
			url: 'https://hooks.example.com/test',
			credentials: { 'X-Secret': MASKED_VALUE, 'X-Tenant': MASKED_VALUE },
			event_types: [
				{ event_type: 'FBPI::ORDER_SYNC', is_active: true },
				{ event_type: 'FBPO::PO_SYNC', is_active: true },
			],
		});
	});

	it('leaves omitted destination_name, is_active and url unchanged; an empty body changes nothing', async () => {
		const before = state(code);
		expect((await updateDestination(code, {})).status).toBe(200);
		expect({ ...state(code), updated_at: before.updated_at }).toEqual(before);
		await updateDestination(code, { url: 'http://127.0.0.1:5678/webhook/abc' });
		expect(state(code)).toMatchObject({
			destination_name: 'Test destination',
			is_active: true,
			url: 'http://127.0.0.1:5678/webhook/abc',
		});
	});

	it('rule 1: credentials omitted → unchanged', async () => {
		await updateDestination(code, { destination_name: 'x', credentials: null });
		expect(state(code).credentials).toEqual({ 'X-Secret': 'one', 'X-Tenant': 'acme' });
	});

	it('rule 2: credentials with values → all replaced', async () => {
		await updateDestination(code, { credentials: { values: { 'X-N8n-Secret': 's3cr3t' } } });
		expect(state(code).credentials).toEqual({ 'X-N8n-Secret': 's3cr3t' });
	});

	it('rule 3: credentials with an empty map → all removed', async () => {
		const res = await updateDestination(code, { credentials: { values: {} } });
		expect(res.body.credentials).toEqual({});
		expect(state(code).credentials).toEqual({});
	});

	it('rule 4: each event type upserts; unlisted, omitted or empty lists leave subscriptions alone', async () => {
		await updateDestination(code, {
			event_types: [
				{ event_type: 'FBPO::PO_SYNC', is_active: false },
				{ event_type: 'CATALOG::IMPORT_DONE', is_active: true },
			],
		});
		expect(state(code).event_types).toEqual([
			{ event_type: 'FBPI::ORDER_SYNC', is_active: true },
			{ event_type: 'FBPO::PO_SYNC', is_active: false },
			{ event_type: 'CATALOG::IMPORT_DONE', is_active: true },
		]);
		await updateDestination(code, { event_types: [] });
		await updateDestination(code, { destination_name: 'no event types' });
		await updateDestination(code, {
			event_types: [{ event_type: 'FBPO::PO_SYNC', is_active: true }],
		});
		expect(state(code).event_types).toEqual([
			{ event_type: 'FBPI::ORDER_SYNC', is_active: true },
			{ event_type: 'FBPO::PO_SYNC', is_active: true },
			{ event_type: 'CATALOG::IMPORT_DONE', is_active: true },
		]);
	});

	it('rule 5: is_active false keeps the subscriptions; true reactivates', async () => {
		const before = state(code).event_types;
		await updateDestination(code, { is_active: false });
		expect(state(code)).toMatchObject({ is_active: false, event_types: before });
		await updateDestination(code, { is_active: true });
		expect(state(code)).toMatchObject({ is_active: true, event_types: before });
	});

	it('rejects bad urls, event types and credentials, changing nothing', async () => {
		const before = state(code);
		const bad: Array<[unknown, RegExp]> = [
			[{ url: 'http://example.com/hook' }, /url must be an https:\/\/ address/],
			[{ url: 'not a url' }, /url "not a url" is not a valid absolute URL/],
			[{ url: '' }, /url must not be empty/],
			[{ destination_name: '' }, /destination_name must not be empty/],
			[{ is_active: 'yes' }, /is_active must be a boolean/],
			[
				{ event_types: [{ event_type: 'fbpi::order_sync', is_active: true }] },
				/event_types\[0\]\.event_type "fbpi::order_sync" must have the form NAMESPACE::EVENT_NAME/,
			],
			[
				{ event_types: [{ event_type: 'ORDER_SYNC', is_active: true }] },
				/event_types\[0\]\.event_type/,
			],
			[
				{ event_types: [{ event_type: 'FBPI::ORDER_SYNC' }] },
				/event_types\[0\]\.is_active is required/,
			],
			[{ event_types: [{ is_active: true }] }, /event_types\[0\]\.event_type is required/],
			[
				{ event_types: { event_type: 'FBPI::ORDER_SYNC', is_active: true } },
				/event_types must be a list/,
			],
			[{ credentials: {} }, /credentials\.values is required/],
			[
				{ credentials: { values: { 'Bad Header': 'x' } } },
				/"Bad Header" is not a valid HTTP header name/,
			],
			[{ credentials: { values: { 'X-Ok': 5 } } }, /credentials\.values\.X-Ok must be a string/],
			[{ is_active: false, url: 'ftp://x' }, /url must be an https/],
		];
		for (const [body, message] of bad)
			expectError(await updateDestination(code, body), 'INVALID_ARGUMENT', message);
		expect(state(code)).toEqual(before);
	});

	it('answers 404 for an unknown destination or one of another project', async () => {
		expectError(
			await updateDestination('DST-NOPE', { is_active: true }),
			'NOT_FOUND',
			/destination_code "DST-NOPE" not found/,
		);
		expectError(
			await updateDestination(code, { is_active: true }, await otherProjectClient()),
			'NOT_FOUND',
		);
	});

	it('raises destinationUpdated and shows real values on the control API', async () => {
		const seen: string[] = [];
		const listener = (d: { destination_code: string }) => seen.push(d.destination_code);
		emulator.on('destinationUpdated', listener);
		await updateDestination(code, { credentials: { values: { 'X-Hook': 'visible-here' } } });
		emulator.off('destinationUpdated', listener);
		expect(seen).toEqual([code]);
		const listed = (await (await fetch(`${emulator.controlUrl}/destinations`)).json()) as Array<{
			destination_code: string;
			credentials: unknown;
		}>;
		expect(listed.find((d) => d.destination_code === code)?.credentials).toEqual({
			'X-Hook': 'visible-here',
		});
	});

	it('keeps at most 5 destinations per project', async () => {
		const added = [emulator.addDestination(), emulator.addDestination()].map(
			(d) => d.destination_code,
		);
		try {
			expect(() => emulator.addDestination()).toThrow(/at most 5 per project/);
			const res = await fetch(`${emulator.controlUrl}/destinations`, {
				method: 'POST',
				body: '{}',
			});
			expect(res.status).toBe(400);
		} finally {
			for (const extra of added) emulator.deleteDestination(extra);
		}
	});
});

// --- Across operations ---------------------------------------------------------------------------

describe('every operation', () => {
	const calls: Array<[string, () => Promise<CallResult>]> = [
		['ExchangeToken', () => exchange(SEEDED_OAUTH_TOKENS.issuesCredentials)],
		['GetExportStatus', () => exportStatus(SEEDED_EXPORTS.complete)],
		['GetPurchaseOrder', () => client.call('GET', `/fbpo/v1/po/${SEEDED_PO.released}/get`)],
		['GetFbpiOrderCustomerData', () => customer(SEEDED_FBPI_ORDERS.dubai)],
		[
			'CreateSandboxOrder',
			() =>
				createSandbox({
					warehouse_code: SEEDED_WAREHOUSES.dubai,
					idempotency_key: unique('r').slice(-10),
					items: [{ status: 'MP_ITEM_STATUS_CONFIRMED' }],
				}),
		],
		['CreateBarcodeImport', () => createImport(itemsBody([mapping(1)]))],
		['GetImportStatus', () => importStatus('IMP-NOPE')],
		['CreateCredential', () => createCredential({ user_code: 'usr-nobody' })],
		['UpdateDestination', () => updateDestination(SEEDED_DESTINATIONS.inactive, {})],
	];

	it('is logged under its operation name and counted in the rate plan per operation', async () => {
		emulator.setRatePlan({ limit: 1, windowMs: 60_000 });
		emulator.clearRequests();
		for (const [, call] of calls) expect((await call()).status).not.toBe(429);
		for (const [operation, call] of calls) {
			const res = await call();
			expectError(res, 'RESOURCE_EXHAUSTED', new RegExp(`rate plan exceeded for ${operation}`));
			expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		}
		const operations = calls.map(([operation]) => operation);
		expect(emulator.requests().map((e) => e.operation)).toEqual([...operations, ...operations]);
	});

	it('needs a session', async () => {
		const anonymous = new EmulatorClient(emulator.baseUrl, emulator.credential);
		for (const [path, method] of [
			['/impex/v1/export/status', 'POST'],
			[`/fbpi/v1/fbpi-order/${SEEDED_FBPI_ORDERS.dubai}/customer-details/get`, 'GET'],
			[sandboxPath(), 'POST'],
			[importPath(), 'POST'],
			[`${emulator.prefixes.imports}/v1/import/status/x`, 'GET'],
			['/identity/apiuser/v1/credential/create', 'POST'],
			[
				`/event-notifications/v1/destination/https-destination/${SEEDED_DESTINATIONS.active}/update`,
				'POST',
			],
		] as const) {
			expectError(
				await anonymous.call(method, path, method === 'POST' ? {} : undefined),
				'UNAUTHENTICATED',
			);
		}
	});

	it('serves the /v1/ operations under the configured prefixes', async () => {
		const custom = await startEmulator({ prefixes: { sandboxOrder: '/sbx', imports: '' } });
		try {
			const c = await loggedInClient(custom.baseUrl, custom.credential);
			const order = await c.call('POST', '/sbx/v1/sandbox-order/create', {
				warehouse_code: SEEDED_WAREHOUSES.cairo,
				idempotency_key: 'k1',
				country_code: 'eg',
				items: [{ status: 'MP_ITEM_STATUS_CONFIRMED' }],
			});
			expect(order.status).toBe(200);
			const created = await c.call('POST', '/v1/import/barcode', itemsBody([mapping(1)]));
			expect(created.status).toBe(200);
			expect(
				(await c.call('GET', `/v1/import/status/${created.body.import_reference}`)).status,
			).toBe(200);
			expectError(await c.call('POST', '/fbpi/v1/sandbox-order/create', {}), 'NOT_FOUND');
		} finally {
			await custom.close();
		}
	});
});
