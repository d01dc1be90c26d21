/**
 * Customer Return → Get, Global Price / Local Price → Update (Namshi), Cross-Border Product →
 * Update and Transfer Price → Get / Update (shapes/batch.ts) through real n8n runs against the
 * emulator: the exact requests (paths with their prefixes, bodies), rows packed up to each cap,
 * answers matched back by key (a customer return order's rows gathered; an order the answer does
 * not name has no return), a failed and a missing row as their items' errors, validation before
 * the network, continue on fail.
 */
import type { INodeParameters, INodeType, NodeExecutionHint } from 'n8n-workflow';

import {
	MAX_BATCH_ROWS,
	MAX_TRANSFER_PRICE_ROWS,
	SEEDED_CUSTOMER_RETURNS,
	SEEDED_RETURN_ORDERS,
	type RequestLogEntry,
} from '../emulator';
import type { WorkflowResult } from '../helpers';
import { loadPackage } from '../helpers/n8n';
import { startFixture, workflowWithItems, type Fixture } from './fixture';

const NODE = 'Seller Platform';

const RETURNS_GET: INodeParameters = {
	resource: 'customerReturn',
	operation: 'get',
	orderNr: '={{ $json.order }}',
};
const GLOBAL_UPDATE: INodeParameters = {
	resource: 'globalPrice',
	operation: 'update',
	partnerSku: '={{ $json.sku }}',
	sourceCountryCode: '={{ $json.from }}',
	destinationCountryCode: '={{ $json.to }}',
	price: '={{ $json.price }}',
	msrp: '={{ $json.msrp }}',
};
const LOCAL_UPDATE: INodeParameters = {
	resource: 'localPrice',
	operation: 'update',
	partnerSku: '={{ $json.sku }}',
	countryCode: '={{ $json.country }}',
	price: '={{ $json.price }}',
	msrp: '={{ $json.msrp }}',
};
const PRODUCT_UPDATE: INodeParameters = {
	resource: 'crossBorderProduct',
	operation: 'update',
	partnerSku: '={{ $json.sku }}',
	dimensionsCm: {
		dimensions: { length: '={{ $json.l }}', width: '={{ $json.w }}', height: '={{ $json.h }}' },
	},
	vmWeightCm: '={{ $json.vm }}',
	actualWeightKg: '={{ $json.kg }}',
	hsCode: '={{ $json.hs }}',
};
const TRANSFER_UPDATE: INodeParameters = {
	resource: 'transferPrice',
	operation: 'update',
	partnerSku: '={{ $json.sku }}',
	transferPriceUsd: '={{ $json.tp }}',
	msrpUsd: '={{ $json.msrp }}',
	isActive: '={{ $json.active }}',
};
const TRANSFER_GET: INodeParameters = {
	resource: 'transferPrice',
	operation: 'get',
	partnerSku: '={{ $json.sku }}',
};

const hintsOf = (result: WorkflowResult): NodeExecutionHint[] =>
	(result.run.data.resultData.runData[NODE]?.[0]?.hints ?? []).filter(
		(hint) => !hint.message.startsWith('The credential logged in'),
	);
const sent = (f: Fixture, operation: string): RequestLogEntry[] =>
	f.emulator.requests().filter((entry) => entry.operation === operation);
const bodyOf = (entry: RequestLogEntry) => entry.body as Record<string, unknown[]>;
const sku = (n: number) => `XB-${String(n).padStart(4, '0')}`;

describe('customer returns, Namshi and cross-border prices: batches of rows from input items', () => {
	let f: Fixture;
	beforeEach(async () => {
		f = await startFixture({ ratePlan: null });
	});
	afterEach(async () => await f.close());

	it('Customer Return → Get: order numbers packed by 100, each order’s returned items gathered, a repeated order read once, answers in another order matched back', async () => {
		f.emulator.injectRowFaults({
			operation: 'BatchGetCustomerReturnOrders',
			reverse: true,
			extraRows: 1,
		});
		const orders = [
			SEEDED_RETURN_ORDERS.twoItems,
			SEEDED_RETURN_ORDERS.oneItem,
			...Array.from({ length: 148 }, (_, i) => `RET-BULK-${i + 1}`),
			SEEDED_RETURN_ORDERS.twoItems,
		];
		const result = await f.env.runWorkflow(
			workflowWithItems(
				orders.map((order) => ({ order })),
				RETURNS_GET,
			),
		);
		expect(result.status).toBe('success');

		const requests = sent(f, 'BatchGetCustomerReturnOrders');
		expect(requests.map((r) => [r.method, r.path])).toEqual([
			['POST', '/customer-returns/v1/order/returns'],
			['POST', '/customer-returns/v1/order/returns'],
		]);
		expect(requests.map(bodyOf)).toEqual([
			{ order_nrs: orders.slice(0, MAX_BATCH_ROWS) },
			{ order_nrs: orders.slice(MAX_BATCH_ROWS, 150) },
		]);

		const out = result.outputs(NODE);
		expect(out.map((o) => o.pairedItem)).toEqual(orders.map((_, item) => ({ item })));
		const seededTwo = SEEDED_CUSTOMER_RETURNS.filter(
			(r) => r.order_nr === SEEDED_RETURN_ORDERS.twoItems,
		);
		// The answer came reversed: the order's rows are all there (in the answer's order).
		expect(out[0].json).toEqual({
			order_nr: SEEDED_RETURN_ORDERS.twoItems,
			items: [...seededTwo].reverse(),
		});
		expect(out[150].json).toEqual(out[0].json);
		expect(out[1].json.items).toHaveLength(1);
		// RET-BULK-<n> has 1 returned item when n is even, 2 when odd.
		expect(out[2].json).toMatchObject({ order_nr: 'RET-BULK-1' });
		expect((out[2].json.items as unknown[]).length).toBe(2);
		expect((out[3].json.items as unknown[]).length).toBe(1);
		expect(hintsOf(result).map((h) => h.message)).toEqual([
			'Sent 150 rows in 2 requests of at most 100 rows each',
			"2 rows of the service's answers matched no row sent and were ignored",
		]);
	});

	it('Customer Return → Get: an order the answer does not name has no return yet: its item succeeds with no returned items, without Continue On Fail', async () => {
		const orders = [SEEDED_RETURN_ORDERS.oneItem, 'N-NO-RETURN-1', 'N-NO-RETURN-2'];
		const result = await f.env.runWorkflow(
			workflowWithItems(
				orders.map((order) => ({ order })),
				RETURNS_GET,
			),
		);
		expect(result.status).toBe('success');
		expect(sent(f, 'BatchGetCustomerReturnOrders').map(bodyOf)).toEqual([{ order_nrs: orders }]);
		expect(result.outputs(NODE).map((o) => o.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(result.json(NODE)).toEqual([
			{
				order_nr: SEEDED_RETURN_ORDERS.oneItem,
				items: SEEDED_CUSTOMER_RETURNS.filter((r) => r.order_nr === SEEDED_RETURN_ORDERS.oneItem),
			},
			{ order_nr: 'N-NO-RETURN-1', items: [] },
			{ order_nr: 'N-NO-RETURN-2', items: [] },
		]);
		// Nothing was refused or left out: no warning.
		expect(hintsOf(result)).toEqual([
			expect.objectContaining({
				type: 'info',
				message: 'Sent 3 rows in 1 request of at most 100 rows each',
			}),
		]);

		// A row the service leaves out of an answer is the same: that order has no return.
		f.emulator.injectRowFaults({
			operation: 'BatchGetCustomerReturnOrders',
			omit: [{ order_nr: 'RET-BULK-2' }],
		});
		const omitted = await f.env.runWorkflow(
			workflowWithItems(
				['RET-BULK-1', 'RET-BULK-2'].map((order) => ({ order })),
				RETURNS_GET,
			),
		);
		expect(omitted.status).toBe('success');
		expect(omitted.json(NODE).map((o) => [o.order_nr, (o.items as unknown[]).length])).toEqual([
			['RET-BULK-1', 2],
			['RET-BULK-2', 0],
		]);

		// None of the orders has a return, and the gateway leaves the empty list out: the same.
		f.emulator.injectFaults({
			operation: 'BatchGetCustomerReturnOrders',
			answer: { omit: ['items'] },
			count: 1,
		});
		const none = await f.env.runWorkflow(
			workflowWithItems(
				['N-NO-RETURN-1', 'N-NO-RETURN-2'].map((order) => ({ order })),
				RETURNS_GET,
			),
		);
		expect(none.status).toBe('success');
		expect(none.json(NODE)).toEqual([
			{ order_nr: 'N-NO-RETURN-1', items: [] },
			{ order_nr: 'N-NO-RETURN-2', items: [] },
		]);
	});

	it('Global and Local Price → Update: exact rows (countries as written), stored per key; a refused row and a missing row are their items’ errors', async () => {
		const globals = [
			{ sku: 'G-1', from: 'CN', to: 'AE', price: 99.5, msrp: 120 },
			{ sku: 'G-1', from: 'CN', to: 'SA', price: '', msrp: '150' },
			{ sku: 'G-2', from: 'us', to: 'ae', price: 10, msrp: '' },
		];
		const update = await f.env.runWorkflow(workflowWithItems(globals, GLOBAL_UPDATE));
		expect(update.status).toBe('success');
		const [request] = sent(f, 'BatchUpsertGlobalPricing');
		expect(request.path).toBe('/pricing/v1/global/upsert');
		const globalRows = [
			{
				partner_sku: 'G-1',
				source_country_code: 'CN',
				destination_country_code: 'AE',
				price: 99.5,
				msrp: 120,
			},
			{ partner_sku: 'G-1', source_country_code: 'CN', destination_country_code: 'SA', msrp: 150 },
			{ partner_sku: 'G-2', source_country_code: 'us', destination_country_code: 'ae', price: 10 },
		];
		expect(bodyOf(request)).toEqual({ items: globalRows });
		expect(update.json(NODE)).toEqual(globalRows);
		expect(f.emulator.crossBorder('global')).toEqual(globalRows);

		f.emulator.injectRowFaults({
			operation: 'BatchUpsertLocalPricing',
			fail: [{ partner_sku: 'L-2' }],
			failCode: 'FAILED_PRECONDITION',
			failMessage: 'SKU not listed in the country',
			omit: [{ partner_sku: 'L-3' }],
		});
		const locals = ['L-1', 'L-2', 'L-3'].map((s) => ({ sku: s, country: 'KW', price: 5 }));
		const local = await f.env.runWorkflow(
			workflowWithItems(locals, LOCAL_UPDATE, { continueOnFail: true }),
		);
		expect(sent(f, 'BatchUpsertLocalPricing').map((r) => [r.path, bodyOf(r)])).toEqual([
			[
				'/pricing/v1/local/upsert',
				{ items: locals.map((l) => ({ partner_sku: l.sku, country_code: 'KW', price: 5 })) },
			],
		]);
		const out = local.json(NODE);
		expect(out[0]).toEqual({ partner_sku: 'L-1', country_code: 'KW', price: 5 });
		expect(out[1].error).toBe(
			'The service refused the row of item 1 (SKU "L-2", country "KW"): SKU not listed in the country (FAILED_PRECONDITION)',
		);
		expect(out[1].details).toMatchObject({ status_code: 'FAILED_PRECONDITION' });
		expect(out[2].error).toBe(
			`The service's answer left out the row of item 2 (SKU "L-3", country "KW")`,
		);
		// The refused row was not applied; the left-out one was (the service only left it out).
		expect(f.emulator.crossBorder('local').map((r) => r.partner_sku)).toEqual(['L-1', 'L-3']);
	});

	it("Global and Local Price → Update keep the currency's decimals: the Price and MSRP fields impose no two-decimal rounding, and three-decimal KWD, BHD, OMR amounts typed into them are sent and stored as typed", async () => {
		// What the editor rounds a typed amount to: the fields' numberPrecision, as n8n loads them.
		const { type } = (await loadPackage()).nodeTypes.sellerPlatform;
		const amounts = (type as INodeType).description.properties.filter(
			(p) =>
				['price', 'msrp'].includes(p.name) &&
				['globalPrice', 'localPrice'].some((r) => p.displayOptions?.show?.resource?.includes(r)),
		);
		expect(amounts).toHaveLength(4);
		for (const field of amounts) expect(field.typeOptions?.numberPrecision).toBeUndefined();

		const typed = (country: string, price: number, msrp: number): INodeParameters => ({
			...LOCAL_UPDATE,
			partnerSku: `L-${country}`,
			countryCode: country,
			price,
			msrp,
		});
		for (const [country, price, msrp] of [
			['KW', 12.345, 15.125],
			['BH', 4.005, 5.5],
			['OM', 0.125, 1.001],
		] as const) {
			const run = await f.env.runWorkflow(workflowWithItems([{}], typed(country, price, msrp)));
			expect(run.status).toBe('success');
		}
		const global = await f.env.runWorkflow(
			workflowWithItems([{}], {
				...GLOBAL_UPDATE,
				partnerSku: 'G-KW',
				sourceCountryCode: 'AE',
				destinationCountryCode: 'KW',
				price: 7.777,
				msrp: 9.999,
			}),
		);
		expect(global.status).toBe('success');
		expect(f.emulator.crossBorder('local')).toEqual([
			{ partner_sku: 'L-KW', country_code: 'KW', price: 12.345, msrp: 15.125 },
			{ partner_sku: 'L-BH', country_code: 'BH', price: 4.005, msrp: 5.5 },
			{ partner_sku: 'L-OM', country_code: 'OM', price: 0.125, msrp: 1.001 },
		]);
		expect(f.emulator.crossBorder('global')).toEqual([
			{
				partner_sku: 'G-KW',
				source_country_code: 'AE',
				destination_country_code: 'KW',
				price: 7.777,
				msrp: 9.999,
			},
		]);
	});

	it('Cross-Border Product → Update: dimensions, weights and HS code sent as set, the SKU alone is a row; stored', async () => {
		const items = [
			{ sku: 'P-1', l: 30, w: '20', h: 10.5, vm: 1.26, kg: '0.8', hs: ' 6109.10 ' },
			{ sku: 'P-2', vm: '', kg: 2, hs: '' },
			{ sku: 'P-3' },
		];
		// Dimensions not added for the second and third items: only what is set is sent.
		const first = await f.env.runWorkflow(workflowWithItems(items.slice(0, 1), PRODUCT_UPDATE));
		expect(first.status).toBe('success');
		const rest = await f.env.runWorkflow(
			workflowWithItems(items.slice(1), { ...PRODUCT_UPDATE, dimensionsCm: {} }),
		);
		expect(rest.status).toBe('success');
		const rows = sent(f, 'BatchUpsertProduct').map((r) => [r.path, bodyOf(r)]);
		expect(rows).toEqual([
			[
				'/xborder-pricing/v1/product/upsert',
				{
					items: [
						{
							partner_sku: 'P-1',
							dimensions_cm: { length: 30, width: 20, height: 10.5 },
							vm_weight_cm: 1.26,
							actual_weight_kg: 0.8,
							hs_code: '6109.10',
						},
					],
				},
			],
			[
				'/xborder-pricing/v1/product/upsert',
				{ items: [{ partner_sku: 'P-2', actual_weight_kg: 2 }, { partner_sku: 'P-3' }] },
			],
		]);
		expect(first.json(NODE)[0]).toMatchObject({ dimensions_cm: { length: 30 } });
		expect(f.emulator.crossBorder('products').map((p) => p.partner_sku)).toEqual([
			'P-1',
			'P-2',
			'P-3',
		]);
	});

	it('Transfer Price → Update then Get: 1001 rows are 2 requests (the documented cap of 1000), values read back, an unknown SKU is its item’s NOT_FOUND', async () => {
		const items = Array.from({ length: MAX_TRANSFER_PRICE_ROWS + 1 }, (_, i) => ({
			sku: sku(i),
			tp: i + 0.5,
			msrp: i === 0 ? 20 : '',
			active: i % 2 === 0 ? 'true' : false,
		}));
		const update = await f.env.runWorkflow(workflowWithItems(items, TRANSFER_UPDATE));
		expect(update.status).toBe('success');
		const requests = sent(f, 'BatchUpsertTransferPrice');
		expect(requests.map((r) => [r.path, bodyOf(r).items.length])).toEqual([
			['/xborder-pricing/v1/transfer-price/upsert', MAX_TRANSFER_PRICE_ROWS],
			['/xborder-pricing/v1/transfer-price/upsert', 1],
		]);
		expect(bodyOf(requests[0]).items.slice(0, 2)).toEqual([
			{ partner_sku: sku(0), transfer_price_usd: 0.5, msrp_usd: 20, is_active: true },
			{ partner_sku: sku(1), transfer_price_usd: 1.5, is_active: false },
		]);

		const asked = [sku(0), sku(1), 'XB-NONE', sku(0)].map((s) => ({ sku: s }));
		const read = await f.env.runWorkflow(
			workflowWithItems(asked, TRANSFER_GET, { continueOnFail: true }),
		);
		const [get] = sent(f, 'BatchGetTransferPrice');
		expect([get.path, bodyOf(get)]).toEqual([
			'/xborder-pricing/v1/transfer-price/get',
			{ items: [{ partner_sku: sku(0) }, { partner_sku: sku(1) }, { partner_sku: 'XB-NONE' }] },
		]);
		const out = read.json(NODE);
		expect(out[0]).toEqual({
			partner_sku: sku(0),
			transfer_price_usd: 0.5,
			msrp_usd: 20,
			is_active: true,
		});
		expect(out[1]).toEqual({ partner_sku: sku(1), transfer_price_usd: 1.5, is_active: false });
		expect(out[2].details).toMatchObject({ status_code: 'NOT_FOUND' });
		expect(out[3]).toEqual(out[0]);
	});

	it('refuses before the network: blank keys, a country that is not two letters, negative or missing amounts, partial dimensions, a repeated row', async () => {
		const cases: Array<[INodeParameters, Record<string, unknown>, string]> = [
			[RETURNS_GET, { order: ' ' }, 'The parameter "Order Number" (orderNr) must not be empty'],
			[
				GLOBAL_UPDATE,
				{ sku: 'A', from: 'China', to: 'AE', price: 1 },
				'The parameter "Source Country Code" (sourceCountryCode) must be a two-letter country code, got "China"',
			],
			[
				GLOBAL_UPDATE,
				{ sku: 'A', from: 'CN', to: 'AE' },
				'Item 0 sets nothing: The parameter "Price" (price) and The parameter "MSRP" (msrp) are both empty',
			],
			[
				LOCAL_UPDATE,
				{ sku: 'A', country: 'ae', price: -1 },
				'The parameter "Price" (price) must not be negative, got -1',
			],
			[
				LOCAL_UPDATE,
				{ sku: 'A', country: '', price: 1 },
				'The parameter "Country Code" (countryCode) must not be empty',
			],
			[
				PRODUCT_UPDATE,
				{ sku: 'A', l: 10, w: 10, h: '' },
				'The field "Height" of The parameter "Dimensions" (dimensionsCm) must be set',
			],
			[
				PRODUCT_UPDATE,
				{ sku: 'A', l: 10, w: 0, h: 1 },
				'The field "Width" of The parameter "Dimensions" (dimensionsCm) must be above 0, got 0',
			],
			[
				{ ...PRODUCT_UPDATE, dimensionsCm: {} },
				{ sku: 'A', kg: -0.5 },
				'The parameter "Actual Weight (Kg)" (actualWeightKg) must not be negative, got -0.5',
			],
			[
				{ ...PRODUCT_UPDATE, dimensionsCm: {} },
				{ sku: 'A', hs: '  ' },
				'The parameter "HS Code" (hsCode) must not be blank when it is set',
			],
			[TRANSFER_UPDATE, { sku: 'A', active: '' }, 'Item 0 sets nothing'],
			[
				TRANSFER_UPDATE,
				{ sku: 'A', active: 'maybe' },
				'The parameter "Is Active" (isActive) must be true or false, got the text "maybe"',
			],
			[TRANSFER_GET, { sku: '' }, 'The parameter "Partner SKU" (partnerSku) must not be empty'],
		];
		for (const [parameters, item, message] of cases) {
			const result = await f.env.runWorkflow(workflowWithItems([item], parameters));
			expect(result.status).toBe('error');
			expect(result.nodeError(NODE)?.message).toContain(message);
		}
		// One row twice (the countries in another case): the later item is refused, naming both.
		const twice = [
			{ sku: 'A', from: 'CN', to: 'AE', price: 1 },
			{ sku: 'A', from: 'cn', to: 'ae', price: 2 },
		];
		const refused = await f.env.runWorkflow(workflowWithItems(twice, GLOBAL_UPDATE));
		expect(refused.nodeError(NODE)?.message).toBe(
			'Item 1 has the same "Partner SKU" and "Source Country Code" and "Destination Country Code" as item 0 (SKU "A", from "CN", to "AE"): a run updates each row once',
		);
		expect(f.emulator.requests().filter((r) => r.operation !== 'Login')).toEqual([]);
	});
});
