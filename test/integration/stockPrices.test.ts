/**
 * Stock → Get / Update and Price → Get / Update (shapes/batch.ts) through real n8n runs against
 * the emulator: rows packed into requests of at most 100, answers matched back by key, a failed or
 * missing row as its item's error (or the run's, naming it), validation before the network.
 */
import type { INodeParameters, NodeExecutionHint } from 'n8n-workflow';

import { MAX_BATCH_ROWS, SEEDED_WAREHOUSES, type RequestLogEntry } from '../emulator';
import type { WorkflowResult } from '../helpers';
import { startFixture, workflowWithItems, type Fixture } from './fixture';

const NODE = 'Seller Platform';
const DXB = SEEDED_WAREHOUSES.dubai;
const RUH = SEEDED_WAREHOUSES.riyadh;

const STOCK_UPDATE: INodeParameters = {
	resource: 'stock',
	operation: 'update',
	warehouseCode: { __rl: true, mode: 'id', value: '={{ $json.wh }}' },
	partnerSku: '={{ $json.sku }}',
	quantity: '={{ $json.qty }}',
	processingTime: '={{ $json.time }}',
};
const STOCK_GET: INodeParameters = {
	resource: 'stock',
	operation: 'get',
	warehouseCode: { __rl: true, mode: 'id', value: '={{ $json.wh }}' },
	partnerSku: '={{ $json.sku }}',
};
const PRICE_UPDATE: INodeParameters = {
	resource: 'price',
	operation: 'update',
	partnerSku: '={{ $json.sku }}',
	countryCode: '={{ $json.country }}',
	price: '={{ $json.price }}',
	msrp: '={{ $json.msrp }}',
	isActive: '={{ $json.active }}',
};
const PRICE_GET: INodeParameters = {
	resource: 'price',
	operation: 'get',
	partnerSku: '={{ $json.sku }}',
	countryCode: '={{ $json.country }}',
};

/** The run's hints, but the login's (the first run of a fixture logs in). */
const hintsOf = (result: WorkflowResult): NodeExecutionHint[] =>
	(result.run.data.resultData.runData[NODE]?.[0]?.hints ?? []).filter(
		(hint) => !hint.message.startsWith('The credential logged in'),
	);
const sent = (f: Fixture, operation: string): RequestLogEntry[] =>
	f.emulator.requests().filter((entry) => entry.operation === operation);
const rowsOf = (entry: RequestLogEntry) =>
	(entry.body as { items: Array<Record<string, unknown>> }).items;
const sku = (n: number) => `SKU-${String(n).padStart(4, '0')}`;

describe('stock and prices: batches of rows from input items', () => {
	let f: Fixture;
	beforeEach(async () => {
		f = await startFixture({ ratePlan: null });
	});
	afterEach(async () => await f.close());

	it('Stock → Update: 250 items are 3 requests of at most 100 rows, each row once, outputs paired in input order', async () => {
		const items = Array.from({ length: 250 }, (_, i) => ({
			wh: i % 2 ? RUH : DXB,
			sku: sku(i),
			qty: i,
			// Processing time on every tenth item only: the others leave it out.
			time: i % 10 === 0 ? '2' : '',
		}));
		const result = await f.env.runWorkflow(workflowWithItems(items, STOCK_UPDATE));
		expect(result.status).toBe('success');

		const requests = sent(f, 'UpdateStock');
		expect(requests.map((r) => [r.method, r.path, rowsOf(r).length])).toEqual([
			['POST', '/stock/v1/stock-update', MAX_BATCH_ROWS],
			['POST', '/stock/v1/stock-update', MAX_BATCH_ROWS],
			['POST', '/stock/v1/stock-update', 50],
		]);
		const rows = requests.flatMap(rowsOf);
		expect(rows).toEqual(
			items.map((item) => ({
				warehouse_code: item.wh,
				partner_sku: item.sku,
				qty: item.qty,
				...(item.time ? { processing_time: item.time } : {}),
			})),
		);

		const out = result.outputs(NODE);
		expect(out.map((o) => o.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		expect(out[7].json).toMatchObject({
			warehouse_code: RUH,
			partner_sku: sku(7),
			qty: 7,
		});
		// The OK status of a row is not in its output (a row that failed is its item's error).
		expect(out.some((o) => 'status' in o.json)).toBe(false);
		expect(f.emulator.stock()).toHaveLength(250);
		expect(hintsOf(result).map((h) => h.message)).toEqual([
			'Sent 250 rows in 3 requests of at most 100 rows each',
		]);
	});

	it('Stock → Get: answers in another order are matched back by key; a repeated key is read once; a foreign answer row is counted', async () => {
		f.emulator.seedStock(
			Array.from({ length: 5 }, (_, i) => ({
				warehouse_code: DXB,
				partner_sku: sku(i),
				qty: 10 + i,
			})),
		);
		f.emulator.injectRowFaults({ operation: 'GetStock', reverse: true, extraRows: 1 });
		const items = [0, 1, 2, 3, 4, 2].map((i) => ({ wh: DXB, sku: sku(i) }));
		const result = await f.env.runWorkflow(workflowWithItems(items, STOCK_GET));
		expect(result.status).toBe('success');

		const [request] = sent(f, 'GetStock');
		expect(request.path).toBe('/stock/v1/stock-list');
		expect(rowsOf(request)).toEqual(
			[0, 1, 2, 3, 4].map((i) => ({ warehouse_code: DXB, partner_sku: sku(i) })),
		);
		const out = result.json(NODE);
		expect(out.map((o) => [o.partner_sku, o.qty])).toEqual(
			[0, 1, 2, 3, 4, 2].map((i) => [sku(i), 10 + i]),
		);
		expect(out[0].stock_updated_at).toEqual(expect.any(String));
		expect(hintsOf(result).map((h) => h.message)).toEqual([
			'Sent 5 rows in 1 request of at most 100 rows each',
			"1 row of the service's answers matched no row sent and was ignored",
		]);
	});

	it('a row answered with a failure status and a row left out: their items’ errors with continue on fail, the others succeed', async () => {
		f.emulator.injectRowFaults({
			operation: 'UpdateStock',
			fail: [{ partner_sku: sku(1) }],
			failCode: 'FAILED_PRECONDITION',
			failMessage: 'SKU is blocked for this warehouse',
			omit: [{ partner_sku: sku(3) }],
		});
		const items: Array<{ wh: string; sku: string; qty: number }> = [0, 1, 2, 3].map((i) => ({
			wh: DXB,
			sku: sku(i),
			qty: 5,
		}));
		items.push({ wh: 'WH-NOWHERE', sku: sku(4), qty: 5 });
		const result = await f.env.runWorkflow(
			workflowWithItems(items, STOCK_UPDATE, { continueOnFail: true }),
		);
		const out = result.json(NODE);
		expect(out).toHaveLength(5);
		expect(out[0]).toMatchObject({ partner_sku: sku(0), qty: 5 });
		expect(out[2]).toMatchObject({ partner_sku: sku(2), qty: 5 });
		expect(out[1].error).toBe(
			`The service refused the row of item 1 (warehouse "${DXB}", SKU "${sku(1)}"): SKU is blocked for this warehouse (FAILED_PRECONDITION)`,
		);
		expect(out[1].details).toMatchObject({ status_code: 'FAILED_PRECONDITION', status_id: 9 });
		expect(out[3].error).toBe(
			`The service's answer left out the row of item 3 (warehouse "${DXB}", SKU "${sku(3)}")`,
		);
		expect(String((out[3].details as { description: string }).description)).toContain(
			'Whether the service applied it is unknown',
		);
		expect(out[4].error).toContain('item 4 (warehouse "WH-NOWHERE"');
		expect(out[4].details).toMatchObject({ status_code: 'NOT_FOUND' });
		expect(hintsOf(result).map((h) => h.message)).toContain(
			"The service refused 2 rows (a failure status) and left 1 row out of its answers; each is its item's error",
		);
	});

	it('without continue on fail, a failed row fails the run naming the item, the row and the service’s words; so does a missing one', async () => {
		f.emulator.injectRowFaults({
			operation: 'BatchUpsertPricing',
			fail: [{ partner_sku: 'P-2' }],
			failMessage: 'price below the floor',
		});
		const items = ['P-1', 'P-2'].map((p) => ({ sku: p, country: 'sa', price: 10 }));
		const failed = await f.env.runWorkflow(workflowWithItems(items, PRICE_UPDATE));
		expect(failed.status).toBe('error');
		expect(failed.nodeError(NODE)?.message).toBe(
			'The service refused the row of item 1 (SKU "P-2", country "sa"): price below the floor (FAILED_PRECONDITION)',
		);

		f.emulator.clearRowFaults();
		f.emulator.injectRowFaults({ operation: 'BatchGetPricing', omit: [{ partner_sku: 'P-1' }] });
		const missing = await f.env.runWorkflow(workflowWithItems(items, PRICE_GET));
		expect(missing.status).toBe('error');
		expect(missing.nodeError(NODE)?.message).toBe(
			`The service's answer left out the row of item 0 (SKU "P-1", country "sa")`,
		);
	});

	it('Price → Update then Get: exact rows (country lower case, true/false read as said), values read back, an unknown SKU is its item’s NOT_FOUND', async () => {
		const items = [
			{ sku: 'P-1', country: 'AE', price: 99.5, msrp: 120, active: 'true' },
			{ sku: 'P-2', country: 'eg', price: '', msrp: '', active: false },
		];
		const update = await f.env.runWorkflow(workflowWithItems(items, PRICE_UPDATE));
		expect(update.status).toBe('success');
		const [request] = sent(f, 'BatchUpsertPricing');
		expect(request.path).toBe('/pricing/v1/pricing/upsert');
		expect(rowsOf(request)).toEqual([
			{ partner_sku: 'P-1', country_code: 'ae', price: 99.5, msrp: 120, is_active: true },
			{ partner_sku: 'P-2', country_code: 'eg', is_active: false },
		]);
		expect(update.json(NODE)[1]).toMatchObject({ partner_sku: 'P-2', is_active: false });

		const read = await f.env.runWorkflow(
			workflowWithItems([...items, { sku: 'P-404', country: 'sa' }], PRICE_GET, {
				continueOnFail: true,
			}),
		);
		const out = read.json(NODE);
		expect(sent(f, 'BatchGetPricing')[0].path).toBe('/pricing/v1/pricing/get');
		expect(out[0]).toMatchObject({
			partner_sku: 'P-1',
			country_code: 'ae',
			price: 99.5,
			msrp: 120,
			is_active: true,
		});
		expect(out[1]).toMatchObject({ partner_sku: 'P-2', country_code: 'eg', is_active: false });
		expect(out[2].details).toMatchObject({ status_code: 'NOT_FOUND', status_id: 5 });
	});

	it('refuses before the network: blank keys, an update that sets nothing, bad numbers, a country not listed, a repeated row', async () => {
		const cases: Array<[INodeParameters, Record<string, unknown>, string]> = [
			[
				STOCK_UPDATE,
				{ wh: DXB, sku: ' ', qty: 1 },
				'The parameter "Partner SKU" (partnerSku) must not be empty',
			],
			[
				STOCK_UPDATE,
				{ wh: '', sku: 'A', qty: 1 },
				'The parameter "Warehouse Code" (warehouseCode) must not be empty',
			],
			[
				STOCK_UPDATE,
				{ wh: DXB, sku: 'A', qty: '', time: '' },
				'Item 0 sets nothing: The parameter "Quantity" (quantity) and The parameter "Processing Time" (processingTime) are both empty',
			],
			[
				STOCK_UPDATE,
				{ wh: DXB, sku: 'A', qty: -1 },
				'The parameter "Quantity" (quantity) must not be negative, got -1',
			],
			[
				STOCK_UPDATE,
				{ wh: DXB, sku: 'A', qty: 1.5 },
				'The parameter "Quantity" (quantity) must be a whole number',
			],
			[
				STOCK_UPDATE,
				{ wh: DXB, sku: 'A', qty: 2 ** 31 },
				'The parameter "Quantity" (quantity) must be at most 2147483647, got 2147483648',
			],
			[
				PRICE_UPDATE,
				{ sku: 'A', country: 'fr', price: 1 },
				'The parameter "Country Code" (countryCode) must be one of ae, sa, eg, got "fr"',
			],
			[
				PRICE_UPDATE,
				{ sku: 'A', country: 'ae', price: -0.01 },
				'The parameter "Price" (price) must not be negative, got -0.01',
			],
			[
				PRICE_UPDATE,
				{ sku: 'A', country: 'ae', active: 'yes' },
				'The parameter "Is Active" (isActive) must be true or false, got the text "yes"',
			],
			[PRICE_UPDATE, { sku: 'A', country: 'ae' }, 'Item 0 sets nothing'],
		];
		for (const [parameters, item, message] of cases) {
			const result = await f.env.runWorkflow(workflowWithItems([item], parameters));
			expect(result.status).toBe('error');
			expect(result.nodeError(NODE)?.message).toContain(message);
		}
		// Two items for one row of an update: the later is refused, naming both, and with
		// continue on fail the first is still sent.
		const twice = [
			{ wh: DXB, sku: 'A', qty: 1 },
			{ wh: DXB, sku: 'A', qty: 2 },
		];
		const refused = await f.env.runWorkflow(workflowWithItems(twice, STOCK_UPDATE));
		expect(refused.nodeError(NODE)?.message).toBe(
			`Item 1 has the same "Warehouse Code" and "Partner SKU" as item 0 (warehouse "${DXB}", SKU "A"): a run updates each row once`,
		);
		expect(f.emulator.requests().filter((r) => r.operation !== 'Login')).toEqual([]);

		const kept = await f.env.runWorkflow(
			workflowWithItems(twice, STOCK_UPDATE, { continueOnFail: true }),
		);
		expect(kept.json(NODE).map((o) => o.qty ?? o.error)).toEqual([
			1,
			`Item 1 has the same "Warehouse Code" and "Partner SKU" as item 0 (warehouse "${DXB}", SKU "A"): a run updates each row once`,
		]);
		expect(sent(f, 'UpdateStock').map(rowsOf)).toEqual([
			[{ warehouse_code: DXB, partner_sku: 'A', qty: 1 }],
		]);
	});

	it('a request that fails as a whole gives each of its items the error; the other requests’ items succeed', async () => {
		f.emulator.injectFaults({
			count: 1,
			operation: 'UpdateStock',
			status: 400,
			message: 'batch rejected',
		});
		const items = Array.from({ length: 150 }, (_, i) => ({ wh: DXB, sku: sku(i), qty: 1 }));
		const result = await f.env.runWorkflow(
			workflowWithItems(
				items,
				{ ...STOCK_UPDATE, options: { concurrency: 1 } },
				{ continueOnFail: true },
			),
		);
		const out = result.json(NODE);
		expect(out).toHaveLength(150);
		expect(out.slice(0, 100).every((o) => String(o.error).includes('batch rejected'))).toBe(true);
		expect(out.slice(100).every((o) => o.error === undefined && o.qty === 1)).toBe(true);
		expect(result.outputs(NODE).map((o) => o.pairedItem)).toEqual(
			items.map((_, item) => ({ item })),
		);
	});
});
