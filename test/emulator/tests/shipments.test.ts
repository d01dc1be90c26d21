/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * What the package's tests do not reach of the shipment endpoints: the rules across the order,
 * its items and the shipment number, cancelling twice, AWBs on a cancelled shipment, projects
 * kept apart, and the lostAnswer fault. Over real HTTP.
 */
import { GRPC_CODES, SEEDED_WAREHOUSES, startEmulator, type Emulator, type GrpcCode } from '..';
import { loggedInClient, type CallResult, type EmulatorClient } from '../client';

let emulator: Emulator;
let client: EmulatorClient;

beforeAll(async () => {
	emulator = await startEmulator();
	client = await loggedInClient(emulator.baseUrl, emulator.credential);
});
afterAll(() => emulator.close());

const WH = SEEDED_WAREHOUSES.dubai;
const expectError = (res: CallResult, code: GrpcCode, message: RegExp) =>
	expect({ status: res.status, code: res.body.status_code, message: res.body.message }).toEqual({
		status: GRPC_CODES[code].http,
		code,
		message: expect.stringMatching(message),
	});

let orders = 0;
/** An order of the Dubai warehouse: a confirmed item, an out-of-stock one, a cancelled one. */
function newOrder(): string {
	const nr = `NAETEST${++orders}`;
	emulator.addFbpiOrders({
		orders: [
			{
				fbpiOrderNr: nr,
				warehouseCode: WH,
				items: [
					{},
					{ integrationStatus: 'INTEGRATION_ITEM_STATUS_OUT_OF_STOCK' },
					{ mpStatus: 'MP_ITEM_STATUS_CANCELLED' },
				],
			},
		],
	});
	return nr;
}

const create = (nr: string, order: string, items: string[], warehouse: string = WH) =>
	client.call('POST', '/fbpi/v1/shipment/create', {
		warehouse_code: warehouse,
		integration_shipment_nr: nr,
		fbpi_order_nr: order,
		awbs: [{ courier: 'noon', awb_nr: `AWB-${nr}` }],
		items: items.map((mp_item_nr) => ({ mp_item_nr })),
	});
const key = (nr: string) => ({ warehouse_code: WH, integration_shipment_nr: nr });

describe('CreateShipment', () => {
	it('ships only confirmed items of an order of that warehouse, each once', async () => {
		const order = newOrder();
		expectError(
			await create('S-1', order, [`${order}-1`], SEEDED_WAREHOUSES.riyadh),
			'NOT_FOUND',
			/not found in warehouse WH-RUH-02/,
		);
		expectError(
			await create('S-1', order, ['OTHER-1']),
			'INVALID_ARGUMENT',
			/items\[0\]\.mp_item_nr "OTHER-1" is not an item of order/,
		);
		expectError(
			await create('S-1', order, [`${order}-1`, `${order}-1`]),
			'INVALID_ARGUMENT',
			/items\[1\]\.mp_item_nr repeats/,
		);
		expectError(
			await create('S-1', order, [`${order}-2`]),
			'FAILED_PRECONDITION',
			/marked out of stock/,
		);
		expectError(
			await create('S-1', order, [`${order}-3`]),
			'FAILED_PRECONDITION',
			/it is cancelled/,
		);
		expect(emulator.shipments()).toEqual([]);
		expect((await create('S-1', order, [`${order}-1`])).status).toBe(200);
		// The number is checked first: the same create again is ALREADY_EXISTS, not "already shipped".
		expectError(
			await create('S-1', order, [`${order}-1`]),
			'ALREADY_EXISTS',
			/integration_shipment_nr "S-1" already exists in warehouse WH-DXB-01/,
		);
		expectError(
			await create('S-2', order, [`${order}-1`]),
			'FAILED_PRECONDITION',
			/already shipped/,
		);
	});

	it('keeps numbers per project and warehouse', async () => {
		const other = await emulator.addCredential({ projectCode: 'PRJ-SHIP-OTHER' });
		const otherClient = await loggedInClient(emulator.baseUrl, other);
		const res = await otherClient.call('POST', '/fbpi/v1/shipment/get', key('S-1'));
		expectError(res, 'NOT_FOUND', /shipment "S-1" not found/);
		// S-1 is taken in Dubai (above), free in Riyadh.
		const [riyadh] = emulator.addFbpiOrders({ warehouseCode: SEEDED_WAREHOUSES.riyadh });
		const item = riyadh.items[0].mp_item_nr;
		const created = await create('S-1', riyadh.fbpi_order_nr, [item], SEEDED_WAREHOUSES.riyadh);
		expect(created.status).toBe(200);
	});

	it('with a lostAnswer fault, stores the shipment and resets the connection', async () => {
		const order = newOrder();
		emulator.injectFaults({ count: 1, operation: 'CreateShipment', lostAnswer: true });
		await expect(create('S-LOST', order, [`${order}-1`])).rejects.toThrow();
		expect(emulator.shipments().map((s) => s.integration_shipment_nr)).toContain('S-LOST');
		expect(() => emulator.injectFaults({ count: 1, lostAnswer: true, status: 500 })).toThrow(
			/takes only delayMs/,
		);
	});
});

describe('CancelShipment, AddShipmentCourierAwbs', () => {
	it('cancels once (again changes nothing); a cancelled shipment takes no AWB', async () => {
		const order = newOrder();
		await create('S-C', order, [`${order}-1`]);
		const add = (awb_nr: string) =>
			client.call('POST', '/fbpi/v1/shipment/courier-awbs/add', {
				...key('S-C'),
				awbs: [{ courier: 'noon', awb_nr }],
			});
		expect((await add('AWB-S-C')).status).toBe(200); // already on it: not added twice
		expect((await add('AWB-2')).status).toBe(200);
		const got = await client.call('POST', '/fbpi/v1/shipment/get', key('S-C'));
		expect(got.body.awbs.map((a: { awb_nr: string }) => a.awb_nr)).toEqual(['AWB-S-C', 'AWB-2']);
		for (let i = 0; i < 2; i++) {
			const res = await client.call('POST', '/fbpi/v1/shipment/cancel', key('S-C'));
			expect(res).toMatchObject({ status: 200, body: {} });
		}
		expect(emulator.fbpiOrder(order)!.items[0]).toMatchObject({
			mp_status: 'MP_ITEM_STATUS_CANCELLED',
			integration_status: 'INTEGRATION_ITEM_STATUS_SHIPPED',
		});
		expectError(await add('AWB-3'), 'FAILED_PRECONDITION', /is cancelled/);
	});
});

describe('GetNoonLogisticsAWBs', () => {
	it('hands out numbers never handed out before, and keeps them', async () => {
		const one = await client.call('POST', '/fbpi/v1/shipment/noon-logistics-awbs/get', {
			country_code: 'sa',
			qty: 1000,
		});
		const two = await client.call('POST', '/fbpi/v1/shipment/noon-logistics-awbs/get', {
			country_code: 'sa',
			qty: 5,
		});
		const all = [...one.body.awb_nrs, ...two.body.awb_nrs];
		expect(all).toHaveLength(1005);
		expect(new Set(all).size).toBe(1005);
		expect(emulator.generatedAwbs(emulator.projectCode).map((a) => a.awb_nr)).toEqual(all);
	});
});
