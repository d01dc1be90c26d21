/**
 * FBPI Shipment → Create, Get, Cancel, Add Courier AWBs, Generate AWBs through real n8n runs
 * against the emulator: the exact requests, validation before the network, continue on fail, and
 * the shipment number as the key of a create: a re-run after a lost answer finds the shipment made
 * before (exactly one in the emulator); a number taken by another shipment, or by a cancelled one,
 * fails naming it.
 */
import type { IDataObject, INodeParameters, NodeExecutionHint } from 'n8n-workflow';

import { SEEDED_WAREHOUSES } from '../emulator';
import { chain, type TestWorkflow, type WorkflowResult } from '../helpers';
import { CREDENTIAL_ID, startFixture, workflowWithItems, type Fixture } from './fixture';

let f: Fixture;
beforeAll(async () => {
	f = await startFixture({ ratePlan: null });
});
afterAll(async () => await f.close());
beforeEach(() => {
	f.emulator.clearRequests();
	f.emulator.clearFaults();
});

const NODE = 'Seller Platform';
const WAREHOUSE = SEEDED_WAREHOUSES.dubai;
const warehouse = (value: string = WAREHOUSE) => ({ __rl: true, mode: 'id', value });
const requestsOf = (operation: string) =>
	f.emulator
		.requests()
		.filter((r) => r.operation === operation)
		.map((r) => ({ ...r, body: r.body as IDataObject }));
const hintsOf = (result: WorkflowResult, node = NODE): NodeExecutionHint[] =>
	result.run.data.resultData.runData[node][0].hints ?? [];

let orders = 0;
/** A new order of the Dubai warehouse with `count` confirmed items (`<nr>-1`, `<nr>-2`, …). */
function newOrder(count = 3): { nr: string; items: string[] } {
	const nr = `NAESHP${String(++orders).padStart(6, '0')}`;
	f.emulator.addFbpiOrders({
		orders: [{ fbpiOrderNr: nr, warehouseCode: WAREHOUSE, items: Array(count).fill({}) }],
	});
	return { nr, items: Array.from({ length: count }, (_, i) => `${nr}-${i + 1}`) };
}

let shipments = 0;
const newShipmentNr = () => `SHP-${++shipments}`;

function createParameters(
	orderNr: string,
	shipmentNr: string,
	mpItemNrs: unknown,
	awbs: IDataObject[] = [{ courier: 'noon', awbNr: `AWB-${shipmentNr}` }],
): INodeParameters {
	return {
		resource: 'fbpiShipment',
		operation: 'create',
		warehouseCode: warehouse(),
		integrationShipmentNr: shipmentNr,
		fbpiOrderNr: orderNr,
		mpItemNrs: mpItemNrs as string,
		awbs: { awb: awbs } as INodeParameters,
	};
}

async function run(parameters: INodeParameters, items: object[] = [{}], settings = {}) {
	return await f.env.runWorkflow(workflowWithItems(items, parameters, settings));
}
async function outputs(parameters: INodeParameters, items: object[] = [{}], settings = {}) {
	const result = await run(parameters, items, settings);
	if (result.status !== 'success') throw new Error(result.nodeError(NODE)?.message ?? 'failed');
	return result.json(NODE);
}

describe('fbpiShipment/create', () => {
	it('posts the shipment, items by marketplace number (text with commas), and ships them', async () => {
		const order = newOrder(3);
		const number = newShipmentNr();
		const [out] = await outputs(
			createParameters(order.nr, number, ` ${order.items[0]} ,${order.items[2]},`, [
				{ courier: 'noon', awbNr: 'NLAE1' },
				{ courier: 'Aramex', awbNr: ' 12345 ' },
			]),
		);
		const [request] = requestsOf('CreateShipment');
		expect(requestsOf('CreateShipment')).toHaveLength(1);
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/fbpi/v1/shipment/create');
		const sent = {
			warehouse_code: WAREHOUSE,
			integration_shipment_nr: number,
			fbpi_order_nr: order.nr,
			awbs: [
				{ courier: 'noon', awb_nr: 'NLAE1' },
				{ courier: 'Aramex', awb_nr: '12345' },
			],
			items: [{ mp_item_nr: order.items[0] }, { mp_item_nr: order.items[2] }],
		};
		expect(request.body).toEqual(sent);
		expect(out).toEqual(sent);
		expect(f.emulator.shipments().filter((s) => s.integration_shipment_nr === number)).toHaveLength(
			1,
		);
		const statuses = f.emulator.fbpiOrder(order.nr)!.items.map((item) => item.integration_status);
		expect(statuses).toEqual([
			'INTEGRATION_ITEM_STATUS_SHIPPED',
			'INTEGRATION_ITEM_STATUS_UNSPECIFIED',
			'INTEGRATION_ITEM_STATUS_SHIPPED',
		]);
	});

	it('takes the item numbers as an array from an expression', async () => {
		const order = newOrder(2);
		const number = newShipmentNr();
		await outputs(createParameters(order.nr, number, '={{ $json.items }}'), [
			{ items: order.items },
		]);
		expect(requestsOf('CreateShipment')[0].body.items).toEqual(
			order.items.map((mp_item_nr) => ({ mp_item_nr })),
		);
	});

	it('refuses invalid items before the network, one error item each with continue on fail', async () => {
		const order = newOrder(2);
		const good = newShipmentNr();
		const dup = newShipmentNr();
		const cases: Array<[IDataObject, RegExp]> = [
			[
				{ number: ' ' },
				/"Integration Shipment Number" \(integrationShipmentNr\) must not be empty/,
			],
			[
				{ number: newShipmentNr(), items: '' },
				/"Marketplace Item Numbers" \(mpItemNrs\) needs at least one/,
			],
			[
				{ number: newShipmentNr(), items: [] },
				/"Marketplace Item Numbers" \(mpItemNrs\) needs at least one/,
			],
			[
				{ number: newShipmentNr(), items: ['A', ''] },
				/Entry 2 of "Marketplace Item Numbers" \(mpItemNrs\) is blank/,
			],
			[
				{ number: newShipmentNr(), items: 'A,B,A' },
				/"Marketplace Item Numbers" \(mpItemNrs\) lists "A" more than once/,
			],
			[
				{ number: newShipmentNr(), items: [{ mp_item_nr: 'A' }] },
				/Entry 1 of "Marketplace Item Numbers" \(mpItemNrs\) must be text/,
			],
			[
				{ number: newShipmentNr(), awb: ' ' },
				/The AWB Number of AWB 1 of "AWBs" \(awbs\) is empty/,
			],
			[
				{ number: newShipmentNr(), order: '' },
				/"FBPI Order Number" \(fbpiOrderNr\) must not be empty/,
			],
			[{ number: good }, /^$/],
			[{ number: dup, items: order.items[1] }, /^$/],
			[
				{ number: dup, items: order.items[1] },
				/"Integration Shipment Number" \(integrationShipmentNr\) of item 10 repeats the value/,
			],
		];
		const parameters = {
			...createParameters(
				'={{ $json.order ?? "' + order.nr + '" }}',
				'={{ $json.number }}',
				`={{ $json.items ?? "${order.items[0]}" }}`,
				[{ courier: 'noon', awbNr: '={{ $json.awb ?? "AWB-" + $json.number }}' }],
			),
		};
		const out = await outputs(
			parameters,
			cases.map(([item]) => item),
			{ continueOnFail: true },
		);
		expect(out).toHaveLength(cases.length);
		cases.forEach(([, pattern], i) => {
			if (pattern.source === '^$') expect(out[i].error).toBeUndefined();
			else expect(String(out[i].error)).toMatch(pattern);
		});
		// Only the two valid ones were sent.
		const sent = requestsOf('CreateShipment').map((r) => r.body.integration_shipment_nr);
		expect(sent.sort()).toEqual([good, dup].sort());
	});

	it('re-running after the answer of Create was lost (n8n retry) creates exactly one shipment', async () => {
		const order = newOrder(2);
		const number = newShipmentNr();
		const workflow: TestWorkflow = {
			nodes: [
				{ name: 'Order', type: 'testItems', parameters: { items: '[{}]' } },
				{
					name: 'Generate AWBs',
					type: 'sellerPlatform',
					parameters: {
						resource: 'fbpiShipment',
						operation: 'generateAwbs',
						countryCode: 'ae',
						quantity: 1,
					},
					credentials: { sellerPlatformApi: CREDENTIAL_ID },
				},
				{
					name: NODE,
					type: 'sellerPlatform',
					parameters: createParameters(order.nr, number, order.items.join(','), [
						{ courier: 'noon', awbNr: '={{ $json.awb_nrs[0] }}' },
					]),
					credentials: { sellerPlatformApi: CREDENTIAL_ID },
				},
			],
			connections: chain('Order', 'Generate AWBs', NODE),
		};
		f.emulator.injectFaults({ count: 1, operation: 'CreateShipment', lostAnswer: true });
		const first = await f.env.runWorkflow(workflow);
		expect(first.status).toBe('error');
		expect(first.nodeError(NODE)?.message).toMatch(/Could not reach the Seller Platform API/);
		expect(requestsOf('CreateShipment')).toHaveLength(1); // never repeated by the node
		const stored = () => f.emulator.shipments().filter((s) => s.integration_shipment_nr === number);
		expect(stored()).toHaveLength(1);

		// n8n's retry of the failed execution runs the failed node again on the input it had.
		const awbs = first.outputs('Generate AWBs');
		const again = await f.env.runWorkflow(workflow, { startNode: NODE, input: awbs });
		expect(again.status).toBe('success');
		const [out] = again.json(NODE);
		expect(out).toEqual({
			warehouse_code: WAREHOUSE,
			integration_shipment_nr: number,
			fbpi_order_nr: order.nr,
			awbs: [{ courier: 'noon', awb_nr: (awbs[0].json.awb_nrs as string[])[0] }],
			items: order.items.map((nr, i) => ({
				mp_item_nr: nr,
				partner_sku: `SKU-${order.nr}-${i + 1}`,
			})),
			alreadyExisted: true,
		});
		expect(requestsOf('CreateShipment').map((r) => r.status)).toEqual([null, 409]);
		expect(requestsOf('GetShipment')).toHaveLength(1);
		expect(stored()).toHaveLength(1);
		expect(hintsOf(again).map((hint) => hint.message)).toContainEqual(
			expect.stringMatching(/^For 1 item, the shipment already existed .*alreadyExisted: true/),
		);

		// Run from the start, the workflow generates another AWB: not this shipment, so it fails
		// naming the number and the difference, and creates nothing.
		const fresh = await f.env.runWorkflow(workflow);
		expect(fresh.status).toBe('error');
		const error = fresh.nodeError(NODE)!;
		expect(error.message).toContain(number);
		expect(error.description).toMatch(
			/already used by another shipment, which differs from this one: AWBs/,
		);
		expect(stored()).toHaveLength(1);
	});

	it('a number taken by this very shipment whose order cannot be read (GetFbpiOrder 404): the item fails saying the shipment matches but whether it was cancelled is not known', async () => {
		const order = newOrder(2);
		const number = newShipmentNr();
		const parameters = createParameters(order.nr, number, order.items.join(','));
		await outputs(parameters);
		f.emulator.injectFaults({
			count: 1,
			operation: 'GetFbpiOrder',
			status: 404,
			message: `FBPI order "${order.nr}" not found`,
		});
		const result = await run(parameters, [{}], { continueOnFail: true });
		const [out] = result.json(NODE);
		expect(out.alreadyExisted).toBeUndefined();
		expect(out.error).toBe(
			`FBPI order "${order.nr}" not found: the shipment with shipment number ${number} (warehouse ${WAREHOUSE}) matches this one, but whether it was cancelled could not be read (GetFbpiOrder)`,
		);
		const details = out.details as IDataObject;
		expect(String(details.description)).toMatch(
			/^The shipment number .* is already used by a shipment with this order, items and AWBs/,
		);
		expect(String(details.description)).toContain('Nothing was created.');
		expect(requestsOf('CreateShipment').map((r) => r.status)).toEqual([200, 409]);
		expect(f.emulator.shipments().filter((s) => s.integration_shipment_nr === number)).toHaveLength(
			1,
		);
	});

	it('a number taken by another shipment fails naming it and what differs (continue on fail: an error item)', async () => {
		const order = newOrder(3);
		const number = newShipmentNr();
		await outputs(createParameters(order.nr, number, order.items[0]));
		const out = await outputs(
			createParameters(order.nr, number, order.items.slice(0, 2).join(',')),
			[{}],
			{
				continueOnFail: true,
			},
		);
		expect(out[0].error).toMatch(new RegExp(`^integration_shipment_nr "${number}" already exists`));
		expect(out[0].details).toMatchObject({ httpCode: '409', status_code: 'ALREADY_EXISTS' });
		expect(String((out[0].details as IDataObject).description)).toContain(
			`items ${order.items[0]} instead of ${order.items[0]}, ${order.items[1]} (not in this request: none; only in this request: ${order.items[1]})`,
		);
		expect(f.emulator.shipments().filter((s) => s.integration_shipment_nr === number)).toHaveLength(
			1,
		);
		// The other order's shipment under the same number: the order differs.
		const other = newOrder(1);
		const result = await run(createParameters(other.nr, number, other.items[0]));
		expect(result.nodeError(NODE)?.description).toContain(
			`order ${order.nr} instead of ${other.nr}`,
		);
	});
	it('a cancelled shipment is not "already existed": creating it again fails naming the number, one error item each with continue on fail', async () => {
		const order = newOrder(3);
		const cancelled = newShipmentNr();
		const live = newShipmentNr();
		const key = (number: string) => ({
			resource: 'fbpiShipment',
			operation: 'cancel',
			warehouseCode: warehouse(),
			integrationShipmentNr: number,
		});
		await outputs(createParameters(order.nr, cancelled, order.items.slice(0, 2).join(',')));
		await outputs(createParameters(order.nr, live, order.items[2]));
		await outputs(key(cancelled));
		// GetShipment answers the cancelled shipment as before: the reference gives it no status.
		const [got] = await outputs({ ...key(cancelled), operation: 'get' });
		expect(Object.keys(got).sort()).toEqual(
			['awbs', 'fbpi_order_nr', 'integration_shipment_nr', 'items', 'warehouse_code'].sort(),
		);
		f.emulator.clearRequests();

		const parameters = createParameters(order.nr, '={{ $json.number }}', '={{ $json.items }}', [
			{ courier: 'noon', awbNr: '={{ "AWB-" + $json.number }}' },
		]);
		const result = await run(
			parameters,
			[
				{ number: cancelled, items: order.items.slice(0, 2) },
				{ number: live, items: [order.items[2]] },
			],
			{ continueOnFail: true },
		);
		expect(result.status).toBe('success');
		expect(result.outputs(NODE).map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const out = result.json(NODE);
		expect(out[0].error).toMatch(
			new RegExp(
				`^integration_shipment_nr "${cancelled}" already exists.*: the shipment with this number was cancelled$`,
			),
		);
		expect(out[0].details).toMatchObject({ httpCode: '409', status_code: 'ALREADY_EXISTS' });
		const description = String((out[0].details as IDataObject).description);
		expect(description).toContain(
			`The shipment number ${cancelled} (warehouse ${WAREHOUSE}) belongs to a shipment that was cancelled (its items ${order.items[0]}, ${order.items[1]} are cancelled in order ${order.nr}`,
		);
		expect(description).toContain('a new shipment needs a new Integration Shipment Number');
		expect(out[0].alreadyExisted).toBeUndefined();
		// The shipment not cancelled is found again as before.
		expect(out[1]).toMatchObject({ integration_shipment_nr: live, alreadyExisted: true });
		expect(out[1].error).toBeUndefined();

		expect(requestsOf('CreateShipment').map((r) => r.status)).toEqual([409, 409]);
		// Without continue on fail, the run fails on it.
		const failed = await run(parameters, [{ number: cancelled, items: order.items.slice(0, 2) }]);
		expect(failed.status).toBe('error');
		expect(failed.nodeError(NODE)?.message).toMatch(/the shipment with this number was cancelled/);
		expect(f.emulator.shipments().filter((s) => s.integration_shipment_nr === cancelled)).toEqual([
			expect.objectContaining({ status: 'CANCELLED' }),
		]);
	});
});

describe('fbpiShipment/get, cancel, addCourierAwbs', () => {
	it('reads, adds AWBs to and cancels a shipment with the exact requests', async () => {
		const order = newOrder(2);
		const number = newShipmentNr();
		await outputs(createParameters(order.nr, number, order.items.join(',')));
		const key = { warehouseCode: warehouse(), integrationShipmentNr: number };
		const body = { warehouse_code: WAREHOUSE, integration_shipment_nr: number };

		const [added] = await outputs({
			resource: 'fbpiShipment',
			operation: 'addCourierAwbs',
			...key,
			awbs: { awb: [{ courier: 'DHL', awbNr: 'D-1' }] },
		});
		expect(requestsOf('AddShipmentCourierAwbs').map((r) => [r.path, r.body])).toEqual([
			[
				'/fbpi/v1/shipment/courier-awbs/add',
				{ ...body, awbs: [{ courier: 'DHL', awb_nr: 'D-1' }] },
			],
		]);
		expect(added).toEqual({ ...body, added_awbs: [{ courier: 'DHL', awb_nr: 'D-1' }] });

		const [got] = await outputs({ resource: 'fbpiShipment', operation: 'get', ...key });
		expect(requestsOf('GetShipment').map((r) => [r.path, r.body])).toEqual([
			['/fbpi/v1/shipment/get', body],
		]);
		expect(got).toEqual({
			...body,
			fbpi_order_nr: order.nr,
			awbs: [
				{ courier: 'noon', awb_nr: `AWB-${number}` },
				{ courier: 'DHL', awb_nr: 'D-1' },
			],
			items: order.items.map((nr, i) => ({
				mp_item_nr: nr,
				partner_sku: `SKU-${order.nr}-${i + 1}`,
			})),
		});

		const [cancelled] = await outputs({ resource: 'fbpiShipment', operation: 'cancel', ...key });
		expect(requestsOf('CancelShipment').map((r) => [r.path, r.body])).toEqual([
			['/fbpi/v1/shipment/cancel', body],
		]);
		expect(cancelled).toEqual({ ...body, cancelled: true });
		expect(f.emulator.fbpiOrder(order.nr)!.items.map((item) => item.mp_status)).toEqual([
			'MP_ITEM_STATUS_CANCELLED',
			'MP_ITEM_STATUS_CANCELLED',
		]);
	});

	it('refuses blank keys and missing AWBs before the network; a missing shipment is an error item', async () => {
		const out = await outputs(
			{
				resource: 'fbpiShipment',
				operation: 'addCourierAwbs',
				warehouseCode: { __rl: true, mode: 'id', value: '={{ $json.wh }}' },
				integrationShipmentNr: '={{ $json.nr }}',
				awbs: { awb: [{ courier: '={{ $json.courier }}', awbNr: 'X-1' }] },
			},
			[
				{ wh: '', nr: 'SHP-X', courier: 'noon' },
				{ wh: WAREHOUSE, nr: '', courier: 'noon' },
				{ wh: WAREHOUSE, nr: 'SHP-X', courier: ' ' },
				{ wh: WAREHOUSE, nr: 'SHP-NONE', courier: 'noon' },
			],
			{ continueOnFail: true },
		);
		expect(out.map((o) => String(o.error))).toEqual([
			expect.stringMatching(/"Warehouse Code" \(warehouseCode\) must not be empty/),
			expect.stringMatching(
				/"Integration Shipment Number" \(integrationShipmentNr\) must not be empty/,
			),
			expect.stringMatching(/The Courier of AWB 1 of "AWBs" \(awbs\) is empty/),
			expect.stringMatching(/shipment "SHP-NONE" not found/),
		]);
		expect(requestsOf('AddShipmentCourierAwbs')).toHaveLength(1);
		const none = await outputs(
			{
				resource: 'fbpiShipment',
				operation: 'addCourierAwbs',
				warehouseCode: warehouse(),
				integrationShipmentNr: 'S',
				awbs: {},
			},
			[{}],
			{ continueOnFail: true },
		);
		expect(none[0].error).toMatch(/"AWBs" \(awbs\) needs at least one AWB/);
		expect(requestsOf('AddShipmentCourierAwbs')).toHaveLength(1);
	});
});

describe('fbpiShipment/generateAwbs', () => {
	it('posts the country and quantity and returns the numbers in one item per input item', async () => {
		const out = await outputs(
			{
				resource: 'fbpiShipment',
				operation: 'generateAwbs',
				countryCode: '={{ $json.country }}',
				quantity: '={{ $json.qty }}',
			},
			[
				{ country: 'sa', qty: 3 },
				{ country: 'EG', qty: '1' },
			],
		);
		expect(requestsOf('GetNoonLogisticsAWBs').map((r) => [r.path, r.body])).toEqual([
			['/fbpi/v1/shipment/noon-logistics-awbs/get', { country_code: 'sa', qty: 3 }],
			['/fbpi/v1/shipment/noon-logistics-awbs/get', { country_code: 'eg', qty: 1 }],
		]);
		expect(out.map((o) => o.country_code)).toEqual(['sa', 'eg']);
		expect((out[0].awb_nrs as string[]).length).toBe(3);
		expect((out[1].awb_nrs as string[]).length).toBe(1);
		const generated = f.emulator.generatedAwbs().map((awb) => awb.awb_nr);
		expect(generated).toEqual(
			expect.arrayContaining([...(out[0].awb_nrs as string[]), ...(out[1].awb_nrs as string[])]),
		);
		expect(new Set(generated).size).toBe(generated.length);
	});

	it('refuses a quantity outside 1..1000 and a country the reference does not list, before the network', async () => {
		const out = await outputs(
			{
				resource: 'fbpiShipment',
				operation: 'generateAwbs',
				countryCode: '={{ $json.country }}',
				quantity: '={{ $json.qty }}',
			},
			[
				{ country: 'ae', qty: 1001 },
				{ country: 'ae', qty: 0 },
				{ country: 'ae', qty: 2.5 },
				{ country: 'kw', qty: 1 },
				{ country: 'ae', qty: 1000 },
			],
			{ continueOnFail: true },
		);
		expect(out.map((o) => (o.error === undefined ? 'ok' : String(o.error)))).toEqual([
			expect.stringMatching(/"Quantity" \(quantity\) must be at most 1000/),
			expect.stringMatching(/"Quantity" \(quantity\) must be at least 1/),
			expect.stringMatching(/"Quantity" \(quantity\) must be a whole number/),
			expect.stringMatching(/"Country Code" \(countryCode\) must be one of ae, sa, eg, got "kw"/),
			'ok',
		]);
		expect(requestsOf('GetNoonLogisticsAWBs').map((r) => r.body)).toEqual([
			{ country_code: 'ae', qty: 1000 },
		]);
		expect((out[4].awb_nrs as string[]).length).toBe(1000);
	});
});
