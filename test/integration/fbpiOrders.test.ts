/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * FBPI Order → Get, Get Many and Update through real n8n runs against the emulator: the exact
 * requests, validation before the network, the pages of Get Many (Return All, a limit, a token
 * the service repeats, the timeout, a stop), continue on fail, and the output schemas (fixture.ts).
 */
import type { INodeParameters, NodeExecutionHint } from 'n8n-workflow';

import { SEEDED_FBPI_ORDERS, SEEDED_WAREHOUSES } from '../emulator';
import { loggedInClient } from '../emulator/client';
import type { WorkflowResult } from '../helpers';
import { startFixture, workflowWithItems, type Fixture } from './fixture';

let f: Fixture;
beforeEach(async () => {
	f = await startFixture({ ratePlan: null });
});
afterEach(async () => await f.close());

const byCode = (value: string) => ({ __rl: true, mode: 'id', value });
const requestsOf = (operation: string) =>
	f.emulator.requests().filter((r) => r.operation === operation);
const run = async (items: object[], parameters: INodeParameters, continueOnFail = false) =>
	await f.env.runWorkflow(workflowWithItems(items, parameters, { continueOnFail }));
const hintsOf = (result: WorkflowResult): NodeExecutionHint[] =>
	result.run.data.resultData.runData['Seller Platform'][0].hints ?? [];
const nrs = (result: WorkflowResult) =>
	result.json('Seller Platform').map((json) => json.fbpi_order_nr);

let warehouseCounter = 0;
/** `count` orders in a warehouse of their own, a second apart from 2026-02-01T00:00:00Z on. */
function addOrders(count: number) {
	const warehouseCode = `WH-TEST-${++warehouseCounter}`;
	const orders = f.emulator.addFbpiOrders({
		warehouseCode,
		count,
		createdAt: '2026-02-01T00:00:00Z',
	});
	return { warehouseCode, orders: orders.map((o) => o.fbpi_order_nr) };
}

const GET_MANY = (warehouse: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'fbpiOrder',
	operation: 'getMany',
	warehouseCode: byCode(warehouse),
	...extra,
});

describe('fbpiOrder/get', () => {
	it('reads the order by number, one path segment; a blank number is refused before sending', async () => {
		const parameters = {
			resource: 'fbpiOrder',
			operation: 'get',
			fbpiOrderNr: '={{ $json.nr }}',
		};
		const result = await run(
			[{ nr: SEEDED_FBPI_ORDERS.dubai }, { nr: ' ' }, { nr: 'NO/PE' }],
			parameters,
			true,
		);
		const [order, blank, missing] = result.outputs('Seller Platform');
		expect(order.json).toMatchObject({
			fbpi_order_nr: SEEDED_FBPI_ORDERS.dubai,
			warehouse_code: SEEDED_WAREHOUSES.dubai,
			items: [{ partner_sku: 'SKU-PHONE-CASE' }, { partner_sku: 'SKU-USB-C-CABLE' }],
		});
		expect(blank).toMatchObject({
			json: { error: 'The parameter "FBPI Order Number" (fbpiOrderNr) must not be empty' },
		});
		expect(missing.json.details).toMatchObject({ httpCode: '404', status_code: 'NOT_FOUND' });
		expect(result.outputs('Seller Platform').map((o) => o.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(requestsOf('GetFbpiOrder').map((r) => [r.method, r.path, r.body])).toEqual([
			['GET', `/fbpi/v1/fbpi-order/${SEEDED_FBPI_ORDERS.dubai}/get`, null],
			['GET', '/fbpi/v1/fbpi-order/NO%2FPE/get', null],
		]);
	});
});

describe('fbpiOrder/getMany', () => {
	it('Return All follows next_token: every order once, in creation order, paired with its item', async () => {
		const a = addOrders(120);
		const b = addOrders(3);
		const parameters = GET_MANY('={{ $json.warehouse }}', {
			warehouseCode: byCode('={{ $json.warehouse }}'),
			returnAll: true,
			filters: { createdAfter: '2026-02-01T04:00:00+04:00', createdBefore: '2026-03-01T00:00:00Z' },
		});
		const result = await run(
			[{ warehouse: a.warehouseCode }, { warehouse: b.warehouseCode }],
			parameters,
		);
		expect(result.status).toBe('success');
		expect(nrs(result)).toEqual([...a.orders, ...b.orders]);
		const paired = result
			.outputs('Seller Platform')
			.map((o) => (o.pairedItem as { item: number }).item);
		expect(paired).toEqual([...Array(120).fill(0), ...Array(3).fill(1)]);

		const requests = requestsOf('ListFbpiOrders');
		expect(requests).toHaveLength(4);
		for (const request of requests) {
			expect(request.method).toBe('POST');
			expect(request.body).toEqual({
				warehouse_code: expect.stringMatching(/^WH-TEST-/),
				created_after: '2026-02-01T00:00:00Z',
				created_before: '2026-03-01T00:00:00Z',
			});
		}
		const paths = requests.map((r) => r.path).sort();
		expect(paths.filter((p) => p === '/fbpi/v1/fbpi-orders/list')).toHaveLength(2);
		expect(
			paths.filter((p) => /^\/fbpi\/v1\/fbpi-orders\/list\?next_token=[\w-]+$/.test(p)),
		).toHaveLength(2);
		expect(hintsOf(result).map((h) => h.message)).toEqual(
			expect.arrayContaining([
				'For 1 item, 3 pages of orders were read (120 in the output)',
				'For 1 item, 1 page of orders were read (3 in the output)',
			]),
		);
	});

	it('with a limit reads only the pages it needs', async () => {
		const { warehouseCode, orders } = addOrders(120);
		const result = await run([{}], GET_MANY(warehouseCode, { returnAll: false, limit: 60 }));
		expect(nrs(result)).toEqual(orders.slice(0, 60));
		expect(requestsOf('ListFbpiOrders')).toHaveLength(2);
		f.emulator.clearRequests();
		// The default limit is 50: one page.
		expect(nrs(await run([{}], GET_MANY(warehouseCode)))).toEqual(orders.slice(0, 50));
		expect(requestsOf('ListFbpiOrders')).toHaveLength(1);
	});

	it('refuses bad parameters before sending, item by item with continue on fail', async () => {
		const { warehouseCode, orders } = addOrders(2);
		const cases: Array<[INodeParameters, RegExp]> = [
			[
				{ warehouseCode: byCode(' ') },
				/^The parameter "Warehouse Code" \(warehouseCode\) must not be empty/,
			],
			[
				{ filters: { createdAfter: 'yesterday' } },
				/^The field "Created After" \(createdAfter\) must be a date and time, got the text "yesterday"/,
			],
			[
				{ filters: { createdBefore: '={{ 1767225600000 }}' } },
				/^The field "Created Before" \(createdBefore\) must be a date and time, got 1767225600000/,
			],
			[
				{
					filters: { createdAfter: '2026-02-02T00:00:00Z', createdBefore: '2026-02-01T00:00:00Z' },
				},
				/^The field "Created After" \(createdAfter\), 2026-02-02T00:00:00Z, is later than "Created Before" \(createdBefore\), 2026-02-01T00:00:00Z: no order can match$/,
			],
			[{ returnAll: false, limit: 0 }, /^The parameter "Limit" \(limit\) must be at least 1/],
			[{ returnAll: 'maybe' }, /^The parameter "Return All" \(returnAll\) must be/],
		];
		for (const [extra, message] of cases) {
			const result = await run([{}, {}], GET_MANY(warehouseCode, extra), true);
			expect(String(result.json('Seller Platform')[0].error)).toMatch(message);
		}
		expect(requestsOf('ListFbpiOrders')).toHaveLength(0);
		// One refused item, one listed.
		const mixed = await run(
			[{ w: '' }, { w: warehouseCode }],
			GET_MANY(warehouseCode, { warehouseCode: byCode('={{ $json.w }}') }),
			true,
		);
		expect(mixed.json('Seller Platform')).toEqual([
			expect.objectContaining({
				error: expect.stringMatching(/\(warehouseCode\) must not be empty/),
			}),
			expect.objectContaining({ fbpi_order_nr: orders[0] }),
			expect.objectContaining({ fbpi_order_nr: orders[1] }),
		]);
	});

	it('fails the item when the service repeats a page token', async () => {
		const { warehouseCode } = addOrders(120);
		const client = await loggedInClient(f.emulator.baseUrl, f.emulator.credential);
		const first = await client.call('POST', '/fbpi/v1/fbpi-orders/list', {
			warehouse_code: warehouseCode,
		});
		// Every answer gives the first page's token again.
		f.emulator.injectFaults({
			count: 3,
			operation: 'ListFbpiOrders',
			answer: { set: { next_token: first.body.next_token } },
		});
		f.emulator.clearRequests();
		const result = await run([{}], GET_MANY(warehouseCode, { returnAll: true }), true);
		expect(result.json('Seller Platform')).toEqual([
			{
				error:
					'The service repeated a page token (next_token) after 2 pages: the list would never end',
				details: expect.any(Object),
			},
		]);
		expect(requestsOf('ListFbpiOrders')).toHaveLength(2);
	});

	it('ends at the timeout, and at once when the execution is stopped', async () => {
		// At 100 ms a page the timeout ends the list after one to three pages (the fewer, the
		// more loaded the machine): the first page is always read.
		const { warehouseCode } = addOrders(400);
		f.emulator.setLatency(100);
		const timed = await run(
			[{}],
			GET_MANY(warehouseCode, { returnAll: true, options: { timeoutSeconds: 0.25 } }),
			true,
		);
		expect(String(timed.json('Seller Platform')[0].error)).toMatch(
			/^The list did not end within the "Timeout \(Seconds\)" \(timeoutSeconds\) option, 0.25 s \((1 page|[23] pages) read\): no orders are returned$/,
		);
		const pagesBefore = requestsOf('ListFbpiOrders').length;
		expect(pagesBefore).toBeLessThanOrEqual(4);

		const started = await f.env.startExecution(
			workflowWithItems([{}], GET_MANY(warehouseCode, { returnAll: true })),
		);
		while (requestsOf('ListFbpiOrders').length < pagesBefore + 2)
			await new Promise((resolve) => setTimeout(resolve, 10));
		started.cancel();
		const stopped = await started.finished;
		expect(stopped.nodeError('Seller Platform')?.message).toBe('The execution was stopped');
		await new Promise((resolve) => setTimeout(resolve, 250));
		expect(requestsOf('ListFbpiOrders').length).toBeLessThanOrEqual(pagesBefore + 3);
	});
});

describe('fbpiOrder/update', () => {
	const UPDATE = {
		resource: 'fbpiOrder',
		operation: 'update',
		fbpiOrderNr: '={{ $json.nr }}',
		outOfStockItems: '={{ $json.items }}',
	};

	it('marks the items out of stock, from a list or comma-separated text, and says which', async () => {
		const [order] = f.emulator.addFbpiOrders({ items: [{}, {}, {}] });
		const [a, b, c] = order.items.map((item) => item.mp_item_nr);
		const result = await run(
			[
				{ nr: order.fbpi_order_nr, items: [a] },
				{ nr: order.fbpi_order_nr, items: ` ${c}, ${a} ,` },
			],
			UPDATE,
		);
		expect(result.json('Seller Platform')).toEqual([
			{ fbpi_order_nr: order.fbpi_order_nr, out_of_stock_items: [a] },
			{ fbpi_order_nr: order.fbpi_order_nr, out_of_stock_items: [c, a] },
		]);
		const bodies = requestsOf('UpdateOrder').map((r) => [r.path, r.body]);
		const item = (mp_item_nr: string) => ({
			mp_item_nr,
			status: 'UPDATE_ORDER_REQUEST_ITEM_STATUS_OUT_OF_STOCK',
		});
		expect(bodies).toEqual(
			expect.arrayContaining([
				['/fbpi/v1/fbpi-order/update', { fbpi_order_nr: order.fbpi_order_nr, items: [item(a)] }],
				[
					'/fbpi/v1/fbpi-order/update',
					{ fbpi_order_nr: order.fbpi_order_nr, items: [item(c), item(a)] },
				],
			]),
		);
		expect(
			f.emulator.fbpiOrder(order.fbpi_order_nr)?.items.map((i) => i.integration_status),
		).toEqual([
			'INTEGRATION_ITEM_STATUS_OUT_OF_STOCK',
			'INTEGRATION_ITEM_STATUS_UNSPECIFIED',
			'INTEGRATION_ITEM_STATUS_OUT_OF_STOCK',
		]);
		expect(b).toBeDefined();
	});

	it('refuses an empty list before sending; the service refuses an item not in the order', async () => {
		const [order] = f.emulator.addFbpiOrders({});
		const nr = order.fbpi_order_nr;
		const result = await run(
			[
				{ nr, items: [] },
				{ nr, items: ' , ' },
				{ nr, items: [order.items[0].mp_item_nr, order.items[0].mp_item_nr] },
				{ nr, items: { a: 1 } },
				{ nr: '', items: 'x' },
				{ nr, items: 'NOT-AN-ITEM' },
			],
			UPDATE,
			true,
		);
		expect(result.json('Seller Platform').map((json) => json.error)).toEqual([
			'The parameter "Out of Stock Items" (outOfStockItems) needs at least one marketplace item number',
			'The parameter "Out of Stock Items" (outOfStockItems) needs at least one marketplace item number',
			expect.stringMatching(/^The parameter "Out of Stock Items" \(outOfStockItems\) lists "/),
			expect.stringMatching(/^The parameter "Out of Stock Items" \(outOfStockItems\) must be text/),
			'The parameter "FBPI Order Number" (fbpiOrderNr) must not be empty',
			expect.stringMatching(/"NOT-AN-ITEM" is not an item of FBPI order/),
		]);
		expect(requestsOf('UpdateOrder')).toHaveLength(1);
		expect(f.emulator.fbpiOrder(nr)?.items[0].integration_status).toBe(
			'INTEGRATION_ITEM_STATUS_UNSPECIFIED',
		);
	});
});
