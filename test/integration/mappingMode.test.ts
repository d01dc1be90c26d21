/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The batch operations' Mapping Column Mode (shapes/mapping.ts, shapes/batch.ts) through real n8n
 * runs against the emulator: Map Automatically reads each row from the input item's fields named
 * as the API names them, under the parameters' rules (a value read as what it says, or refused
 * naming the field, before anything is sent); Map Each Field Below stays the default; reading a
 * big sheet leaves the event loop free.
 */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SellerPlatform } from '../../dist/nodes/SellerPlatform/SellerPlatform.node';
import { SEEDED_WAREHOUSES, type RequestLogEntry } from '../emulator';
import { startFixture, workflowWithItems, type Fixture } from './fixture';

const NODE = 'Seller Platform';
const DXB = SEEDED_WAREHOUSES.dubai;
const RUH = SEEDED_WAREHOUSES.riyadh;
const AUTO = 'autoMapInputData';

const STOCK_AUTO: INodeParameters = { resource: 'stock', operation: 'update', mappingMode: AUTO };
const PRICE_AUTO: INodeParameters = { resource: 'price', operation: 'update', mappingMode: AUTO };

const sent = (f: Fixture, operation: string): RequestLogEntry[] =>
	f.emulator.requests().filter((entry) => entry.operation === operation);
const rowsSent = (f: Fixture, operation: string) =>
	sent(f, operation).flatMap(
		(entry) => (entry.body as { items: Array<Record<string, unknown>> }).items,
	);
const sku = (n: number) => `SKU-${String(n).padStart(5, '0')}`;

describe('Mapping Column Mode: Map Automatically and Map Each Field Below', () => {
	let f: Fixture;
	beforeEach(async () => {
		f = await startFixture({ ratePlan: null });
	});
	afterEach(async () => await f.close());

	it('Stock → Update, Map Automatically: each row from the item’s fields as the API names them, other fields ignored, outputs paired', async () => {
		const items = Array.from({ length: 150 }, (_, i) => ({
			warehouse_code: i % 2 ? RUH : DXB,
			partner_sku: sku(i),
			qty: i % 3 === 0 ? String(i) : i,
			...(i % 10 === 0 ? { processing_time: '2' } : {}),
			// A sheet's other columns: never sent.
			title: `Item ${i}`,
			warehouseCode: 'NOT-THIS-ONE',
			row_number: i + 2,
		}));
		const result = await f.env.runWorkflow(workflowWithItems(items, STOCK_AUTO));
		expect(result.status).toBe('success');

		expect(sent(f, 'UpdateStock').map((entry) => entry.path)).toEqual([
			'/stock/v1/stock-update',
			'/stock/v1/stock-update',
		]);
		expect(rowsSent(f, 'UpdateStock')).toEqual(
			items.map((item, i) => ({
				warehouse_code: item.warehouse_code,
				partner_sku: item.partner_sku,
				qty: i,
				...(item.processing_time ? { processing_time: '2' } : {}),
			})),
		);
		const out = result.outputs(NODE);
		expect(out.map((o) => o.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		expect(out[3].json).toEqual({ warehouse_code: RUH, partner_sku: sku(3), qty: 3 });
	});

	it('Price → Update, Map Automatically: country, price, MSRP and is_active read from the fields, read as they say', async () => {
		const items = [
			{ partner_sku: 'P-1', country_code: 'AE', price: 10.5, is_active: true, note: 'x' },
			{ partner_sku: 'P-2', country_code: 'sa', msrp: '20', is_active: false },
			{ partner_sku: 'P-3', country_code: 'eg', price: '7', is_active: 'false' },
			{ partner_sku: 'P-4', country_code: 'ae', is_active: 'TRUE', price: null },
		];
		const result = await f.env.runWorkflow(workflowWithItems(items, PRICE_AUTO));
		expect(result.status).toBe('success');
		expect(rowsSent(f, 'BatchUpsertPricing')).toEqual([
			{ partner_sku: 'P-1', country_code: 'ae', price: 10.5, is_active: true },
			{ partner_sku: 'P-2', country_code: 'sa', msrp: 20, is_active: false },
			{ partner_sku: 'P-3', country_code: 'eg', price: 7, is_active: false },
			{ partner_sku: 'P-4', country_code: 'ae', is_active: true },
		]);
		expect(result.outputs(NODE).map((o) => o.pairedItem)).toEqual(
			items.map((_, item) => ({ item })),
		);
	});

	it('a missing required field is refused naming it, before any request; so are values of the wrong type', async () => {
		const good = (i: number) => ({ warehouse_code: DXB, partner_sku: sku(i), qty: i });
		const cases: Array<[string, IDataObject, INodeParameters, string]> = [
			[
				'no partner_sku',
				{ warehouse_code: DXB, qty: 1 },
				STOCK_AUTO,
				'Item 120 has no field "partner_sku"',
			],
			[
				'no warehouse_code',
				{ partner_sku: 'X', qty: 1 },
				STOCK_AUTO,
				'Item 120 has no field "warehouse_code"',
			],
			[
				'qty as text that is no number',
				{ ...good(120), qty: 'twelve' },
				STOCK_AUTO,
				'The input field "qty" must be a number, got the text "twelve"',
			],
			[
				'qty as a boolean',
				{ ...good(120), qty: true },
				STOCK_AUTO,
				'The input field "qty" must be a number, got true',
			],
			[
				'qty with a fraction',
				{ ...good(120), qty: 1.5 },
				STOCK_AUTO,
				'The input field "qty" must be a whole number',
			],
			[
				'nothing to set',
				{ warehouse_code: DXB, partner_sku: 'X' },
				STOCK_AUTO,
				'Item 120 sets nothing: The input field "qty" and The input field "processing_time" are both empty',
			],
			[
				'is_active as a number',
				{ partner_sku: 'X', country_code: 'ae', is_active: 1 },
				PRICE_AUTO,
				'The input field "is_active" must be true or false, got 1',
			],
			[
				'no country_code (never its default)',
				{ partner_sku: 'X', price: 1 },
				PRICE_AUTO,
				'Item 120 has no field "country_code"',
			],
		];
		for (const [what, bad, parameters, message] of cases) {
			const before = f.emulator.requests().length;
			const priceRow = (i: number) => ({ partner_sku: sku(i), country_code: 'ae', price: i });
			const items = Array.from({ length: 150 }, (_, i) =>
				i === 120 ? bad : parameters === STOCK_AUTO ? good(i) : priceRow(i),
			);
			const result = await f.env.runWorkflow(workflowWithItems(items, parameters));
			expect([what, result.status]).toEqual([what, 'error']);
			expect([what, result.nodeError(NODE)?.message]).toEqual([what, message]);
			// Every row is checked before anything is sent.
			expect([what, f.emulator.requests().length]).toEqual([what, before]);
		}
	});

	it('property: a numeric field (qty) and a yes/no field (is_active) of any JSON value are read as they say, or refused naming the field', async () => {
		const value = fc.oneof(
			fc.jsonValue({ maxDepth: 2 }),
			fc.integer({ min: -5, max: 3_000_000_000 }),
			fc.integer({ min: 0, max: 1000 }).map(String),
			fc.constantFrom('true', 'false', ' TRUE ', 'False', 'yes', '1', '0', ' 12 ', '1e3', ''),
			fc.constantFrom(true, false, null, 0, 1, -0, 2.5, '12.0', '-1', '0x10'),
		);
		const isText = (v: unknown): v is string => typeof v === 'string';
		const unset = (v: unknown) => v === null || v === '' || v === undefined;
		let run = 0;
		await fc.assert(
			fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 40 }), async (values) => {
				run++;
				const stock = values.map((qty, i) => ({
					warehouse_code: DXB,
					partner_sku: `Q-${run}-${i}`,
					qty,
					processing_time: '1',
				}));
				const prices = values.map((is_active, i) => ({
					partner_sku: `B-${run}-${i}`,
					country_code: 'ae',
					price: 1,
					is_active,
				}));
				const settings = { continueOnFail: true };
				const stockRun = await f.env.runWorkflow(workflowWithItems(stock, STOCK_AUTO, settings));
				const priceRun = await f.env.runWorkflow(workflowWithItems(prices, PRICE_AUTO, settings));
				const stockRows = new Map(
					rowsSent(f, 'UpdateStock').map((row) => [row.partner_sku, row] as const),
				);
				const priceRows = new Map(
					rowsSent(f, 'BatchUpsertPricing').map((row) => [row.partner_sku, row] as const),
				);
				values.forEach((v, i) => {
					// qty: sent as the number it says, left out when unset, or the item's error.
					const qtyRow = stockRows.get(`Q-${run}-${i}`);
					const qtyOut = stockRun.json(NODE)[i];
					if (!qtyRow) expect(qtyOut.error).toMatch(/^The input field "qty" /);
					else if (unset(v)) expect(qtyRow).not.toHaveProperty('qty');
					else {
						expect(typeof v === 'number' || isText(v)).toBe(true);
						expect(qtyRow.qty === Number(v)).toBe(true);
						expect(Number.isInteger(qtyRow.qty) && (qtyRow.qty as number) >= 0).toBe(true);
					}
					// A whole number from 0 (or its text) is never refused.
					if (Number.isInteger(Number(v)) && Number(v) >= 0 && Number(v) < 2 ** 31)
						if (typeof v === 'number' || (isText(v) && /^\d+$/.test(v)))
							expect(qtyRow).toBeDefined();
					// is_active: true or false as it says (never flipped), left out when unset, or refused.
					const activeRow = priceRows.get(`B-${run}-${i}`);
					const activeOut = priceRun.json(NODE)[i];
					if (!activeRow) expect(activeOut.error).toMatch(/^The input field "is_active" /);
					else if (unset(v)) expect(activeRow).not.toHaveProperty('is_active');
					else {
						const said = isText(v) ? v.trim().toLowerCase() : v;
						expect([true, false, 'true', 'false']).toContain(said);
						expect(activeRow.is_active).toBe(said === true || said === 'true');
					}
					if (typeof v === 'boolean') expect(activeRow?.is_active).toBe(v);
				});
			}),
			{ numRuns: 25, seed: 36 },
		);
	});

	it('Map Each Field Below is the default: a workflow saved without the parameter reads its parameters, not the item’s fields', async () => {
		const batchOperations = new SellerPlatform().description.properties.filter(
			(property) => property.name === 'mappingMode',
		);
		expect(
			batchOperations.flatMap((property) => property.displayOptions?.show?.operation ?? []),
		).toHaveLength(13);
		const withCsvFile: string[] = [];
		for (const property of batchOperations) {
			expect(property).toMatchObject({
				displayName: 'Mapping Column Mode',
				default: 'defineBelow',
			});
			const values = property.options?.map((option) => ('value' in option ? option.value : ''));
			expect(values?.slice(0, 2)).toEqual(['autoMapInputData', 'defineBelow']);
			// Read Rows From a CSV File (csvFile.test.ts): the writes only.
			if (values?.length === 3 && values[2] === 'csvFile')
				withCsvFile.push(...(property.displayOptions?.show?.operation as string[]));
			else expect(values).toHaveLength(2);
		}
		expect(withCsvFile).toHaveLength(8);
		const items = [
			{ wh: DXB, sku: 'PARAM-1', n: 4, warehouse_code: RUH, partner_sku: 'FIELD-1', qty: 9 },
		];
		const saved: INodeParameters = {
			resource: 'stock',
			operation: 'update',
			warehouseCode: { __rl: true, mode: 'id', value: '={{ ($json.wh) }}' },
			partnerSku: '={{ ($json.sku) }}',
			quantity: '={{ $json.n }}',
		};
		const result = await f.env.runWorkflow(workflowWithItems(items, saved));
		expect(result.status).toBe('success');
		expect(rowsSent(f, 'UpdateStock')).toEqual([
			{ warehouse_code: DXB, partner_sku: 'PARAM-1', qty: 4 },
		]);
	});

	it('reading 20,000 rows mapped by expressions leaves the event loop free (a 10 ms timer keeps ticking), and every row is checked before anything is sent', async () => {
		const items = Array.from({ length: 20_000 }, (_, i) => ({
			wh: DXB,
			sku: sku(i),
			// The last row is refused: the run ends after reading every row, having sent nothing.
			qty: i === 19_999 ? -1 : i,
		}));
		const parameters: INodeParameters = {
			resource: 'stock',
			operation: 'update',
			warehouseCode: { __rl: true, mode: 'id', value: '={{ ($json.wh) }}' },
			partnerSku: '={{ ($json.sku) }}',
			quantity: '={{ ($json.qty) }}',
		};
		let last = Date.now();
		let longest = 0;
		let ticks = 0;
		const timer = setInterval(() => {
			const now = Date.now();
			longest = Math.max(longest, now - last);
			last = now;
			ticks++;
		}, 10);
		try {
			const result = await f.env.runWorkflow(workflowWithItems(items, parameters));
			expect(result.nodeError(NODE)?.message).toBe(
				'The parameter "Quantity" (quantity) must not be negative, got -1',
			);
		} finally {
			clearInterval(timer);
			longest = Math.max(longest, Date.now() - last);
		}
		expect(f.emulator.requests().filter((r) => r.operation === 'UpdateStock')).toHaveLength(0);
		// Before: the loop was held for the whole reading (seconds); now at most a turn at a time.
		expect(ticks).toBeGreaterThan(10);
		expect(longest).toBeLessThan(1000);
	}, 120_000);
});
