/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * What the package's own tests (test/integration, test/e2e) do not reach of the operations'
 * behaviour on the emulator: rules across fields and over time (import phases, idempotency
 * conflicts, per-project isolation, key limits), per-operation rate plans, the configurable
 * prefixes. Happy paths and field rules are covered by the package's tests and schema.test.ts.
 * Over real HTTP.
 */
import {
	DEFAULT_RATE_PLAN,
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
	type SandboxOrder,
} from '..';
import { EmulatorClient, loggedInClient, type CallResult } from '../client';

// Long enough that a busy machine still sees every phase when polling every few ms.
// Steps long enough that a poll every few ms sees each state even on a loaded machine (CI runs
// the n8n installs beside the tests).
const IMPORT_STEP_MS = 400;
const EXPORT_STEP_MS = 400;

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

const getOrder = (orderNr: string, c = client) =>
	c.call('GET', `/fbpi/v1/fbpi-order/${encodeURIComponent(orderNr)}/get`);
const listOrders = (filters: unknown, nextToken?: string, c = client) =>
	c.call(
		'POST',
		`/fbpi/v1/fbpi-orders/list${nextToken === undefined ? '' : `?next_token=${encodeURIComponent(nextToken)}`}`,
		filters,
	);
const updateOrder = (body: unknown, c = client) =>
	c.call('POST', '/fbpi/v1/fbpi-order/update', body);
const OUT_OF_STOCK = 'UPDATE_ORDER_REQUEST_ITEM_STATUS_OUT_OF_STOCK';

let uniqueCounter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++uniqueCounter}`;

/** A logged-in client of another project (its own seeds, nothing shared with the main one). */
async function otherProjectClient(projectCode = 'PRJ777001'): Promise<EmulatorClient> {
	return loggedInClient(emulator.baseUrl, await emulator.addCredential({ projectCode }));
}

describe('ExchangeToken', () => {
	it('refuses an unknown or expired token, and one bound to another project', async () => {
		expectError(await exchange('eyJhbGciOiJSUzI1NiJ9.e30.bm9wZQ'), 'INVALID_ARGUMENT', /unknown/);
		expectError(await exchange(SEEDED_OAUTH_TOKENS.expired), 'INVALID_ARGUMENT', /expired/);
		expectError(
			await exchange(SEEDED_OAUTH_TOKENS.otherProject),
			'PERMISSION_DENIED',
			new RegExp(OTHER_PROJECT_CODE),
		);
	});
});

describe('GetExportStatus', () => {
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

	it('answers 404 for an unknown export, and for one of another project', async () => {
		expectError(await exportStatus('EXP-NOPE'), 'NOT_FOUND', /export_code "EXP-NOPE" not found/);
		const added = emulator.addExport({ states: ['COMPLETE'] });
		const other = await otherProjectClient();
		expectError(await exportStatus(added.export_code, other), 'NOT_FOUND');
		expect((await exportStatus(SEEDED_EXPORTS.complete, other)).body.project_code).toBe(
			'PRJ777001',
		);
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
});

describe('FBPI orders (GetFbpiOrder, ListFbpiOrders, UpdateOrder)', () => {
	it('makes a sandbox order an FBPI order, listed in its warehouse and of its project only', async () => {
		const res = await createSandbox({
			warehouse_code: SEEDED_WAREHOUSES.cairo,
			idempotency_key: unique('o').slice(-10),
			country_code: 'eg',
			items: [
				{ status: 'MP_ITEM_STATUS_CONFIRMED', partner_sku: 'SKU-A' },
				{ status: 'MP_ITEM_STATUS_CANCELLED', partner_sku: 'SKU-B' },
			],
		});
		const nr = res.body.fbpi_order_nr;
		const order = (await getOrder(nr)).body;
		expect(order).toEqual({
			fbpi_order_nr: nr,
			mp_code: 'noon',
			mp_order_nr: expect.any(String),
			mp_country_code: 'eg',
			customer_country_code: 'eg',
			merchant_code: expect.stringMatching(/^STR/),
			currency_code: 'EGP',
			warehouse_code: SEEDED_WAREHOUSES.cairo,
			order_created_at: expect.stringMatching(ISO),
			items: [
				expect.objectContaining({
					mp_item_nr: `${nr}-1`,
					partner_sku: 'SKU-A',
					mp_status: 'MP_ITEM_STATUS_CONFIRMED',
					integration_status: 'INTEGRATION_ITEM_STATUS_UNSPECIFIED',
					cancellation_reason_code: null,
				}),
				expect.objectContaining({
					mp_item_nr: `${nr}-2`,
					partner_sku: 'SKU-B',
					mp_status: 'MP_ITEM_STATUS_CANCELLED',
					cancellation_reason_code: expect.any(String),
				}),
			],
		});
		const listed = await listOrders({ warehouse_code: SEEDED_WAREHOUSES.cairo });
		expect(listed.body.next_token).toBe('');
		expect(listed.body.orders.map((o: { fbpi_order_nr: string }) => o.fbpi_order_nr)).toEqual([
			SEEDED_FBPI_ORDERS.cairo,
			nr,
		]);
		const other = await otherProjectClient('PRJ777002');
		expectError(await getOrder(nr, other), 'NOT_FOUND', new RegExp(`FBPI order "${nr}" not found`));
		expect((await getOrder(SEEDED_FBPI_ORDERS.cairo, other)).status).toBe(200);
	});

	it('pages 50 at a time in creation order, bounds inclusive, tokens bound to their filters', async () => {
		const warehouse = unique('WH');
		const start = Date.UTC(2026, 0, 1);
		// Added out of order, two at the same time: creation order, then the order of adding.
		emulator.addFbpiOrders({ warehouseCode: warehouse, count: 60, createdAt: start + 60_000 });
		const early = emulator.addFbpiOrders({
			warehouseCode: warehouse,
			count: 2,
			createdAt: start,
			intervalMs: 0,
		});
		const seen: string[] = [];
		let token: string | undefined;
		const filters = {
			warehouse_code: warehouse,
			created_after: '2026-01-01T00:00:00Z',
			created_before: '2026-01-01T01:00:00Z',
		};
		do {
			const page = await listOrders(filters, token);
			expect(page.status).toBe(200);
			expect(page.body.orders.length).toBeLessThanOrEqual(50);
			seen.push(...page.body.orders.map((o: { fbpi_order_nr: string }) => o.fbpi_order_nr));
			token = page.body.next_token || undefined;
			if (token) {
				expectError(
					await listOrders({ ...filters, created_before: '2026-01-01T02:00:00Z' }, token),
					'INVALID_ARGUMENT',
					/next_token was issued for other filters/,
				);
			}
		} while (token);
		expect(seen).toHaveLength(62);
		expect(seen.slice(0, 2)).toEqual(early.map((o) => o.fbpi_order_nr));
		expect(new Set(seen).size).toBe(62);
		// Inclusive at both ends, to the second.
		const exact = await listOrders({
			warehouse_code: warehouse,
			created_after: '2026-01-01T00:01:00Z',
			created_before: '2026-01-01T00:01:01Z',
		});
		expect(exact.body.orders).toHaveLength(2);
		expectError(await listOrders(filters, 'garbage'), 'INVALID_ARGUMENT', /next_token/);
		expectError(
			await listOrders({ warehouse_code: warehouse, created_after: '2026-01-01' }),
			'INVALID_ARGUMENT',
			/created_after must be a UTC timestamp/,
		);
		expectError(
			await listOrders({ created_after: '2026-01-01T00:00:00Z' }),
			'INVALID_ARGUMENT',
			/warehouse_code is required/,
		);
	});

	it('marks the listed items out of stock, all or none, the others unchanged', async () => {
		const [order] = emulator.addFbpiOrders({ items: [{}, {}, {}] });
		const nr = order.fbpi_order_nr;
		const [a, b, c] = order.items.map((item) => item.mp_item_nr);
		expectError(
			await updateOrder({
				fbpi_order_nr: nr,
				items: [
					{ mp_item_nr: a, status: OUT_OF_STOCK },
					{ mp_item_nr: 'NOPE', status: OUT_OF_STOCK },
				],
			}),
			'INVALID_ARGUMENT',
			/items\[1\]\.mp_item_nr "NOPE" is not an item of FBPI order/,
		);
		expectError(
			await updateOrder({
				fbpi_order_nr: nr,
				items: [{ mp_item_nr: a, status: 'UPDATE_ORDER_REQUEST_ITEM_STATUS_UNSPECIFIED' }],
			}),
			'INVALID_ARGUMENT',
			/items\[0\]\.status/,
		);
		expect(emulator.fbpiOrder(nr)?.items.map((i) => i.integration_status)).toEqual(
			Array(3).fill('INTEGRATION_ITEM_STATUS_UNSPECIFIED'),
		);
		const res = await updateOrder({
			fbpi_order_nr: nr,
			items: [
				{ mp_item_nr: a, status: OUT_OF_STOCK },
				{ mp_item_nr: c, status: OUT_OF_STOCK },
			],
		});
		expect(res).toMatchObject({ status: 200, body: {} });
		expect(
			(await getOrder(nr)).body.items.map(
				(i: { mp_item_nr: string; integration_status: string }) => [
					i.mp_item_nr,
					i.integration_status,
				],
			),
		).toEqual([
			[a, 'INTEGRATION_ITEM_STATUS_OUT_OF_STOCK'],
			[b, 'INTEGRATION_ITEM_STATUS_UNSPECIFIED'],
			[c, 'INTEGRATION_ITEM_STATUS_OUT_OF_STOCK'],
		]);
		expectError(
			await updateOrder({
				fbpi_order_nr: 'NAE-NOPE',
				items: [{ mp_item_nr: a, status: OUT_OF_STOCK }],
			}),
			'NOT_FOUND',
		);
	});

	it('quirks per project: filters shifted or ignored, zoneless times, entries without items, unreadable orders; checked; reset', async () => {
		const warehouse = unique('WH');
		const start = Date.UTC(2026, 1, 1);
		const [early, late] = emulator
			.addFbpiOrders({ warehouseCode: warehouse, count: 2, createdAt: start, intervalMs: 3600_000 })
			.map((order) => order.fbpi_order_nr);
		const filters = { warehouse_code: warehouse, created_after: '2026-02-01T00:30:00Z' };
		const numbers = async (body: unknown = filters) =>
			(await listOrders(body)).body.orders.map((o: { fbpi_order_nr: string }) => o.fbpi_order_nr);
		expect(await numbers()).toEqual([late]);
		const control = (body: unknown) =>
			fetch(`${emulator.controlUrl}/fbpi-orders/quirks`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
		const hour = { ...filters, created_before: '2026-02-01T01:00:00Z' };
		expect(await numbers(hour)).toEqual([late]);
		expect((await control({ filterShiftMs: 3600_000 })).status).toBe(200);
		// Read as 23:30 the day before to 00:00: the order an hour older than asked.
		expect(await numbers(hour)).toEqual([early]);
		emulator.setFbpiOrderQuirks({
			ignoreFilters: true,
			zonelessTimes: true,
			listWithoutItems: true,
			unreadable: [late],
		});
		const page = (await listOrders(filters)).body;
		expect(page.orders.map((o: { fbpi_order_nr: string }) => o.fbpi_order_nr)).toEqual([
			early,
			late,
		]);
		expect(page.orders[0].order_created_at).toBe('2026-02-01T00:00:00');
		expect(page.orders[0]).not.toHaveProperty('items');
		expect((await getOrder(early)).body).toMatchObject({
			order_created_at: '2026-02-01T00:00:00',
			items: [expect.any(Object)],
		});
		expectError(await getOrder(late), 'NOT_FOUND', new RegExp(`FBPI order "${late}" not found`));
		// Another project keeps behaving.
		const other = await otherProjectClient('PRJ777003');
		expect((await getOrder(SEEDED_FBPI_ORDERS.cairo, other)).body.order_created_at).toMatch(/Z$/);
		for (const wrong of [
			{ ignoreFilters: 'yes' },
			{ filterShiftMs: '1h' },
			{ unreadable: 'x' },
			{ unreadable: [1] },
			{ sometimes: true },
			[1],
		]) {
			const res = await control(wrong);
			expect(res.status).toBe(400);
			expect(await res.json()).toMatchObject({ status_code: 'INVALID_ARGUMENT' });
		}
		expect(() => emulator.setFbpiOrderQuirks({ zonelessTimes: 1 as never })).toThrow(
			/zonelessTimes must be a boolean/,
		);
		expect((await control(null)).status).toBe(200);
		expect((await getOrder(late)).body.order_created_at).toBe(
			new Date(start + 3600_000).toISOString(),
		);
		expect(await numbers()).toEqual([late]);
	});
});

const mapping = (i: number) => ({ partner_sku: `SKU-${i}`, barcode: String(6291041500000 + i) });
const itemsBody = (data: unknown[], overrides: Record<string, unknown> = {}) => ({
	items: { data },
	client_reference: unique('ref'),
	...overrides,
});

describe('CreateBarcodeImport', () => {
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
});

describe('GetImportStatus', () => {
	async function runToEnd(reference: string) {
		return observe(
			() => importStatus(reference),
			(r) => `${r.body.import_status}/${r.body.sub_status}`,
			(r) => r.body.completed_at !== '',
		);
	}

	it('moves PENDING → PROCESSING (VALIDATING, WRITING) → COMPLETED', async () => {
		const request = itemsBody([mapping(1), mapping(2), mapping(3)]);
		const { body: created } = await createImport(request);

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

	it('reads file and table sources: unreadable → FAILED, partial → PARTIAL, else COMPLETED', async () => {
		for (const [source, status] of [
			[
				{ file_url: 'https://files.example.com/fail.csv' },
				'IMPORT_STATUS_FAILED/SOURCE_UNREADABLE',
			],
			[{ bq_table: 'proj.catalog.partial_barcodes' }, 'IMPORT_STATUS_PARTIAL/DONE'],
			[{ file_url: 'gs://bucket/barcodes.csv' }, 'IMPORT_STATUS_COMPLETED/DONE'],
		] as const) {
			const { body } = await createImport({ ...source, client_reference: unique('ref') });
			const { last } = await runToEnd(body.import_reference);
			expect(`${last.body.import_status}/${last.body.sub_status}`).toBe(status);
			expect(last.body).toMatchObject({ file_url: '', bq_table: '', ...(source as object) });
		}
	});

	it('is final at once with importStepMs 0', async () => {
		const instant = await startEmulator({ importStepMs: 0 });
		try {
			const c = await loggedInClient(instant.baseUrl, instant.credential);
			const path = `${instant.prefixes.imports}/v1/import`;
			const { body } = await c.call('POST', `${path}/barcode`, itemsBody([mapping(1)]));
			const status = await c.call('GET', `${path}/status/${body.import_reference}`);
			expect(status.body).toMatchObject({ import_status: 'IMPORT_STATUS_COMPLETED' });
		} finally {
			await instant.close();
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
});

describe('CreateCredential', () => {
	it('needs user_code or channel_identifier (a rule across fields)', async () => {
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

	it('whitelisted_ips restrict the login of the new key', async () => {
		const elsewhere = await createCredential({
			user_code: SEEDED_API_USER.userCode,
			whitelisted_ips: ['10.9.8.7', '2001:db8::1'],
		});
		expect(elsewhere.status).toBe(200);
		const refused = await new EmulatorClient(emulator.baseUrl, elsewhere.body.credential).login();
		expectError(refused, 'UNAUTHENTICATED', /not whitelisted/);
	});

	it('checks expires_at: ISO 8601 with a UTC offset, in the future', async () => {
		for (const expiresAt of ['2030-01-31T12:00:00', '2030-02-30T12:00:00Z']) {
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

describe('UpdateDestination', () => {
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

describe('ListWarehouses', () => {
	const list = (body: unknown, c = client) =>
		c.call('POST', '/warehouse_platform/v1/warehouses/list', body);

	it('pages 500 at a time behind a next_token bound to its project and filter', async () => {
		const projectCode = 'PRJ777101';
		const added = emulator.addWarehouses({ projectCode, count: 1100, inactiveEvery: 100 });
		expect(added[99]).toMatchObject({ warehouse_code: 'WH-GEN-00100', is_active: false });
		const c = await otherProjectClient(projectCode);
		const first = await list({}, c);
		expect(first.body.warehouses).toHaveLength(500);
		const second = await list({ next_token: first.body.next_token }, c);
		const third = await list({ next_token: second.body.next_token, filters: null }, c);
		// 5 seeded + 1100 added: 500, 500, 105, and an empty token on the last page.
		expect([second.body.warehouses.length, third.body.warehouses.length]).toEqual([500, 105]);
		expect(third.body.next_token).toBe('');
		const codes = [first, second, third].flatMap((r) =>
			r.body.warehouses.map((w: any) => w.warehouse_code),
		);
		expect(new Set(codes).size).toBe(1105);
		// The filter must stay the same along a cursor; a token is its project's only.
		expectError(
			await list(
				{ next_token: first.body.next_token, filters: { fulfillment_system_code: 'FBN' } },
				c,
			),
			'INVALID_ARGUMENT',
			/filters must be the same/,
		);
		expectError(
			await list({ next_token: first.body.next_token }),
			'INVALID_ARGUMENT',
			/next_token/,
		);
		expectError(await list({ next_token: 'bm9wZQ' }, c), 'INVALID_ARGUMENT', /next_token/);
		const fbn = await list({ filters: { fulfillment_system_code: 'FBN' } }, c);
		expect(fbn.body).toEqual({
			next_token: '',
			warehouses: [
				{
					warehouse_code: SEEDED_WAREHOUSES.inactive,
					display_name: expect.any(String),
					fulfillment_system_code: 'FBN',
					is_active: false,
				},
			],
		});
	});

	it('is paced by its own plan: 15 in any 30 s (burst) of 30 in any 60 s, per project', async () => {
		const c = await otherProjectClient('PRJ777102');
		const firstSent = Date.now();
		let firstAnswered = 0;
		for (let i = 0; i < 15; i++) {
			expect((await list({}, c)).status).toBe(200);
			firstAnswered ||= Date.now();
		}
		const refusedSent = Date.now();
		const refused = await list({}, c);
		const refusedAnswered = Date.now();
		expectError(refused, 'RESOURCE_EXHAUSTED', /ListWarehouses: at most 15 requests per 30000 ms/);
		// Until the first request leaves the 30 s window (not the 60 s one), however long the 16
		// requests took: between the bounds the times taken around them give.
		const retryAfter = Number(refused.headers.get('retry-after'));
		expect(retryAfter).toBeGreaterThanOrEqual(
			Math.ceil((firstSent + 30_000 - refusedAnswered) / 1000),
		);
		expect(retryAfter).toBeLessThanOrEqual(
			Math.ceil((firstAnswered + 30_000 - refusedSent) / 1000),
		);
		// Another project's quota, and another operation of this one, are untouched.
		expect((await list({})).status).toBe(200);
		expect((await c.call('GET', `/fbpo/v1/po/${SEEDED_PO.released}/get`)).status).toBe(200);
	});
});

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
		['GetFbpiOrder', () => getOrder(SEEDED_FBPI_ORDERS.riyadh)],
		['ListFbpiOrders', () => listOrders({ warehouse_code: SEEDED_WAREHOUSES.riyadh })],
		[
			'UpdateOrder',
			() =>
				updateOrder({
					fbpi_order_nr: 'NOPE',
					items: [{ mp_item_nr: 'x', status: 'UPDATE_ORDER_REQUEST_ITEM_STATUS_OUT_OF_STOCK' }],
				}),
		],
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
		// Login is never limited.
		for (let i = 0; i < 3; i++)
			expect((await new EmulatorClient(emulator.baseUrl, emulator.credential).login()).status).toBe(
				200,
			);
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
