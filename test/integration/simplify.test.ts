/**
 * Simplify (FBPI Order → Get / Get Many, Offer → Get, FBN Shipment → Get / Get Many) through real
 * n8n runs against the emulator: a node of version 1.1 (what n8n gives a new node) without the
 * parameter outputs the short form, one of version 1 (every workflow saved before) without it the
 * whole answer, as it did; either way the parameter set explicitly wins. fixture.ts checks each
 * output against its schema (the short form: `__schema__/v1.1.0`, the whole answer: `v1.0.0`).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SEEDED_ASN, SEEDED_FBPI_ORDERS, SEEDED_PRODUCT_TABLE } from '../emulator';
import { startFixture, workflowWithItems, type Fixture } from './fixture';

let f: Fixture;
beforeAll(async () => {
	f = await startFixture({ ratePlan: null });
});
afterAll(async () => await f.close());

const NODE = 'Seller Platform';
const byCode = (value: string) => ({ __rl: true, mode: 'id', value });

async function outputs(parameters: INodeParameters, typeVersion: number) {
	const result = await f.env.runWorkflow(workflowWithItems([{}], parameters, { typeVersion }));
	if (result.status !== 'success') throw new Error(result.nodeError(NODE)?.message ?? 'failed');
	return result.json(NODE);
}

const pick = (entry: unknown, keys: string[]) =>
	Object.fromEntries(keys.map((key) => [key, (entry as IDataObject)[key]]));

const ORDER = [
	'fbpi_order_nr',
	'mp_code',
	'mp_order_nr',
	'mp_country_code',
	'warehouse_code',
	'order_created_at',
];
const ORDER_ITEM = ['mp_item_nr', 'partner_sku', 'mp_status', 'integration_status'];
const simpleOrder = (order: IDataObject) => ({
	...pick(order, ORDER),
	items: (order.items as IDataObject[]).map((item) => pick(item, ORDER_ITEM)),
});
const ASN = [
	'asn_nr',
	'exref_nr',
	'status',
	'country_code',
	'dst_warehouse_code',
	'schedule_date',
	'schedule_slot',
	'expected_qty',
	'qty_received',
	'total_sku_count',
	'created_at',
];

const ORDER_GET = {
	resource: 'fbpiOrder',
	operation: 'get',
	fbpiOrderNr: SEEDED_FBPI_ORDERS.dubai,
};
const ASN_LIST = {
	resource: 'fbnShipment',
	operation: 'getMany',
	countryCode: 'ae',
	returnAll: true,
};

describe('Simplify', () => {
	it('FBPI Order → Get and Get Many: version 1 without the parameter keeps the whole answer; version 1.1 gives the short form; set, the parameter wins', async () => {
		const whole = await outputs(ORDER_GET, 1);
		expect(Object.keys(whole[0])).toEqual(
			expect.arrayContaining(['merchant_code', 'currency_code']),
		);
		expect((whole[0].items as IDataObject[])[0]).toHaveProperty('delivered_invoice_price');
		expect(await outputs(ORDER_GET, 1.1)).toEqual([simpleOrder(whole[0])]);
		expect(await outputs({ ...ORDER_GET, simplify: false }, 1.1)).toEqual(whole);
		expect(await outputs({ ...ORDER_GET, simplify: true }, 1)).toEqual([simpleOrder(whole[0])]);

		const list = {
			resource: 'fbpiOrder',
			operation: 'getMany',
			warehouseCode: byCode(String(whole[0].warehouse_code)),
			returnAll: true,
		};
		const wholeList = await outputs(list, 1);
		expect(wholeList.map((order) => order.fbpi_order_nr)).toContain(SEEDED_FBPI_ORDERS.dubai);
		expect(wholeList[0]).toHaveProperty('merchant_code');
		expect(await outputs(list, 1.1)).toEqual(wholeList.map(simpleOrder));
		expect(await outputs({ ...list, simplify: false }, 1.1)).toEqual(wholeList);
	});

	it('FBN Shipment → Get Many, Simplify with Include Total: the short form keeps the total, which its schema describes', async () => {
		const [short] = await outputs(
			{ ...ASN_LIST, returnAll: false, limit: 1, options: { includeTotal: true } },
			1.1,
		);
		// The fixture checks the item against __schema__/v1.1.0/fbnShipment/getMany.json.
		expect(short).toMatchObject({ exref_nr: SEEDED_ASN.exref_nr, total_count: 1 });
	});

	it('FBN Shipment → Get and Get Many: the same flat short form from either (Get’s ASN no longer under `shipment`)', async () => {
		const [whole] = await outputs(
			{ resource: 'fbnShipment', operation: 'getMany', countryCode: 'ae', returnAll: true },
			1,
		);
		expect(whole).toMatchObject({ exref_nr: SEEDED_ASN.exref_nr, qty_putaway: expect.any(Number) });
		const short = pick(whole, ASN);
		expect(await outputs(ASN_LIST, 1.1)).toEqual([short]);

		const get = { resource: 'fbnShipment', operation: 'get', asnNr: String(whole.asn_nr) };
		expect(await outputs(get, 1)).toEqual([{ shipment: whole }]);
		expect(await outputs(get, 1.1)).toEqual([short]);
		expect(await outputs({ ...get, simplify: false }, 1.1)).toEqual([{ shipment: whole }]);
	});

	it('Offer → Get: the product and per offer its state, the price flat (null without one) and the reasons it is not live', async () => {
		const sku = SEEDED_PRODUCT_TABLE[0].partner_sku;
		const get = { resource: 'offer', operation: 'get', partnerSku: sku };
		const [whole] = await outputs(get, 1);
		expect(whole).toHaveProperty('brand');
		const offers = whole.offers as IDataObject[];
		expect(offers.length).toBeGreaterThan(0);
		const [short] = await outputs(get, 1.1);
		expect(short).toEqual({
			...pick(whole, ['partner_sku', 'sku', 'title']),
			offers: offers.map((offer) => {
				const price = offer.price as IDataObject | null | undefined;
				return {
					...pick(offer, [
						'offer_code',
						'country_code',
						'business_model',
						'is_active',
						'live_status',
						'active_net_stock',
					]),
					price: price?.amount ?? null,
					currency: price?.currency ?? null,
					issue_reasons: ((offer.offer_issues as IDataObject[] | undefined) ?? []).map(
						(issue) => issue.reason,
					),
				};
			}),
		});
		expect(
			(short.offers as IDataObject[]).map((o) => [o.price, o.currency, o.issue_reasons]),
		).toEqual([
			[49, 'AED', []],
			[null, null, ['PRICE', 'STOCK']],
		]);
		expect(await outputs({ ...get, simplify: false }, 1.1)).toEqual([whole]);
	});

	it('a Simplify that is no yes/no (from an expression) is refused naming the parameter, before anything is sent', async () => {
		f.emulator.clearRequests();
		const result = await f.env.runWorkflow(
			workflowWithItems(
				[{ s: 'perhaps' }],
				{ ...ORDER_GET, simplify: '={{ $json.s }}' },
				{
					typeVersion: 1.1,
				},
			),
		);
		expect(result.nodeError(NODE)?.message).toMatch(/^The parameter "Simplify" \(simplify\)/);
		expect(f.emulator.requests().filter((r) => r.operation === 'GetFbpiOrder')).toEqual([]);
	});
});
