/**
 * FBN inbound (ASNs): FBN Shipment, FBN Shipment Item and FBN Catalog Item through real n8n runs
 * against the emulator: the exact requests (path, method, the X-Project header with the
 * credential's project, body, page_size and next_token), items packed per ASN into requests of at
 * most 1000, validation before the network, the service's refusals, continue on fail.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	credentialFields,
	FBN_PROJECT_HEADER,
	SEEDED_ASN,
	type RequestLogEntry,
} from '../emulator';
import { startFixture, workflowWithItems, type Fixture } from './fixture';

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
const fbnRequests = (): RequestLogEntry[] =>
	f.emulator.requests().filter((r) => r.operation?.startsWith('AsnService_'));
const sent = (operation: string) =>
	fbnRequests()
		.filter((r) => r.operation === operation)
		.map((r) => ({ method: r.method, path: r.path, body: r.body as IDataObject }));

async function run(parameters: INodeParameters, items: object[] = [{}], settings = {}) {
	return await f.env.runWorkflow(workflowWithItems(items, parameters, settings));
}
async function outputs(parameters: INodeParameters, items: object[] = [{}], settings = {}) {
	const result = await run(parameters, items, settings);
	if (result.status !== 'success') throw new Error(result.nodeError(NODE)?.message ?? 'failed');
	return result.json(NODE);
}

let refs = 0;
/** A new draft ASN in the UAE; its number. */
async function newAsn(country = 'ae'): Promise<string> {
	const [out] = await outputs({
		resource: 'fbnShipment',
		operation: 'create',
		exrefNr: `PO-${++refs}`,
		countryCode: country,
	});
	return (out.shipment as IDataObject).asn_nr as string;
}

const UPSERT: INodeParameters = {
	resource: 'fbnShipmentItem',
	operation: 'upsert',
	asnNr: '={{ $json.asn }}',
	partnerSku: '={{ $json.sku }}',
	quantity: '={{ $json.qty }}',
	storageType: '={{ $json.storage ?? "STORAGE_TYPE_UNSPECIFIED" }}',
};

describe('fbnShipment', () => {
	it('create: the exact request with X-Project; the same external reference answers the same ASN, never a second', async () => {
		const first = await outputs(
			{ resource: 'fbnShipment', operation: 'create', exrefNr: ' PO-CREATE-1 ', countryCode: 'sa' },
			[{}],
		);
		const again = await outputs({
			resource: 'fbnShipment',
			operation: 'create',
			exrefNr: 'PO-CREATE-1',
			countryCode: 'sa',
		});
		const [request] = fbnRequests();
		expect([request.method, request.path, request.body]).toEqual([
			'POST',
			'/inbound/v1/shipment/create',
			{ shipment_type: 'SHIPMENT_TYPE_FBN_GLOBAL', exref_nr: 'PO-CREATE-1', country_code: 'SA' },
		]);
		expect(request.headers[FBN_PROJECT_HEADER.toLowerCase()]).toBe(f.emulator.projectCode);
		expect(first[0].shipment).toMatchObject({
			exref_nr: 'PO-CREATE-1',
			status: 'ASN_STATUS_CREATED',
			country_code: 'SA',
			total_sku_count: 0,
			schedule_slot: null,
		});
		expect((again[0].shipment as IDataObject).asn_nr).toBe(
			(first[0].shipment as IDataObject).asn_nr,
		);
		// An untouched draft cannot be told from a new one: no flag either time.
		expect([first[0].alreadyExisted, again[0].alreadyExisted]).toEqual([undefined, undefined]);
		expect(f.emulator.fbnShipments().filter((a) => a.exref_nr === 'PO-CREATE-1')).toHaveLength(1);
	});

	it('create: a reference already used for another country fails naming the ASN and its country; an ASN with items comes back alreadyExisted (continue on fail: one error item each)', async () => {
		const create = {
			resource: 'fbnShipment',
			operation: 'create',
			exrefNr: '={{ $json.ref }}',
			countryCode: '={{ $json.country }}',
		};
		const [ae] = await outputs(create, [{ ref: 'PO-COUNTRY-1', country: 'ae' }]);
		const asnNr = (ae.shipment as IDataObject).asn_nr as string;
		const filled = await newAsn('sa');
		await outputs(UPSERT, [{ asn: filled, sku: 'SKU-MUG-WHT', qty: 2 }]);
		const filledRef = f.emulator.fbnShipments().find((a) => a.asn_nr === filled)!.exref_nr;
		f.emulator.clearRequests();

		const result = await run(
			create,
			[
				{ ref: 'PO-COUNTRY-1', country: 'sa' },
				{ ref: 'PO-COUNTRY-1', country: 'ae' },
				{ ref: filledRef, country: 'sa' },
			],
			{ continueOnFail: true },
		);
		expect(result.status).toBe('success');
		const out = result.outputs(NODE);
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(out[0].json.error).toBe(
			`The external reference PO-COUNTRY-1 is already used by ASN ${asnNr} for country AE (SHIPMENT_TYPE_FBN_GLOBAL): this request is for country SA (SHIPMENT_TYPE_FBN_GLOBAL)`,
		);
		expect(String((out[0].json.details as IDataObject).description)).toContain(
			'differs from this request: country AE instead of SA. Nothing was created.',
		);
		expect(out[0].json.shipment).toBeUndefined();
		// The same ASN (same country and type) stays a success; the filled one was made before.
		expect(out[1].json).toMatchObject({ shipment: { asn_nr: asnNr } });
		expect(out[1].json.alreadyExisted).toBeUndefined();
		expect(out[2].json).toMatchObject({
			shipment: { asn_nr: filled, total_sku_count: 1 },
			alreadyExisted: true,
		});
		expect(sent('AsnService_CreateShipment')).toHaveLength(3);
		expect(f.emulator.fbnShipments().filter((a) => a.exref_nr === 'PO-COUNTRY-1')).toHaveLength(1);
		const hints = result.run.data.resultData.runData[NODE][0].hints ?? [];
		expect(hints.map((hint) => hint.message)).toContainEqual(
			expect.stringMatching(/^For 1 item, the ASN already existed under this external reference/),
		);
	});

	it('create: the repeat after a lost answer that meets an ASN someone else made under the reference for another country fails, creating nothing', async () => {
		// Someone else's ASN under the reference, for Saudi Arabia.
		await outputs({
			resource: 'fbnShipment',
			operation: 'create',
			exrefNr: 'PO-OTHER-1',
			countryCode: 'sa',
		});
		const [theirs] = f.emulator.fbnShipments().filter((a) => a.exref_nr === 'PO-OTHER-1');
		f.emulator.clearRequests();
		f.emulator.injectFaults({ count: 1, operation: 'AsnService_CreateShipment', lostAnswer: true });
		const result = await run({
			resource: 'fbnShipment',
			operation: 'create',
			exrefNr: 'PO-OTHER-1',
			countryCode: 'ae',
		});
		expect(result.status).toBe('error');
		expect(result.nodeError(NODE)?.message).toBe(
			`The external reference PO-OTHER-1 is already used by ASN ${theirs.asn_nr} for country SA (SHIPMENT_TYPE_FBN_GLOBAL): this request is for country AE (SHIPMENT_TYPE_FBN_GLOBAL)`,
		);
		expect(sent('AsnService_CreateShipment').map((r) => r.body.country_code)).toEqual(['AE', 'AE']);
		expect(f.emulator.fbnShipments().filter((a) => a.exref_nr === 'PO-OTHER-1')).toEqual([
			expect.objectContaining({ asn_nr: theirs.asn_nr, country_code: 'SA' }),
		]);
	});

	it('create: a reference whose ASN was cancelled fails (nothing will be inbounded under it), never alreadyExisted', async () => {
		const create = {
			resource: 'fbnShipment',
			operation: 'create',
			exrefNr: 'PO-CANCELLED-1',
			countryCode: 'ae',
		};
		const [made] = await outputs(create);
		const asnNr = (made.shipment as IDataObject).asn_nr as string;
		await outputs({
			resource: 'fbnShipment',
			operation: 'updateStatus',
			asnNr,
			statusAction: 'STATUS_ACTION_CANCEL',
		});
		f.emulator.clearRequests();

		const result = await run(create, [{}], { continueOnFail: true });
		const [out] = result.outputs(NODE);
		expect(out.json.alreadyExisted).toBeUndefined();
		expect(out.json.shipment).toBeUndefined();
		expect(out.json.error).toBe(
			`The external reference PO-CANCELLED-1 is already used by ASN ${asnNr}, which is ASN_STATUS_CANCELED: nothing will be inbounded under it`,
		);
		expect(String((out.json.details as IDataObject).description)).toContain(
			'Use a new External Reference Number',
		);
		expect(sent('AsnService_CreateShipment')).toHaveLength(1);
		expect(f.emulator.fbnShipments().filter((a) => a.exref_nr === 'PO-CANCELLED-1')).toEqual([
			expect.objectContaining({ asn_nr: asnNr, status: 'ASN_STATUS_CANCELED' }),
		]);
	});

	it('create: an answer lost after the ASN was made is asked again, and that ASN comes back, never a second', async () => {
		f.emulator.injectFaults({ count: 1, operation: 'AsnService_CreateShipment', lostAnswer: true });
		const [out] = await outputs({
			resource: 'fbnShipment',
			operation: 'create',
			exrefNr: 'PO-LOST-1',
			countryCode: 'ae',
		});
		const made = f.emulator.fbnShipments().filter((a) => a.exref_nr === 'PO-LOST-1');
		expect(made).toHaveLength(1);
		expect((out.shipment as IDataObject).asn_nr).toBe(made[0].asn_nr);
		// The first answer was lost (no status), the repeat got the ASN the first one made.
		expect(
			fbnRequests()
				.filter((r) => r.operation === 'AsnService_CreateShipment')
				.map((r) => r.status),
		).toEqual([null, 200]);
	});

	it('seal, slots, schedule, get: the ASN’s life through PUT status, the earliest slot, and its booking', async () => {
		const asn = await newAsn();
		f.emulator.clearRequests();
		await outputs(UPSERT, [{ asn, sku: 'SKU-MUG-WHT', qty: 12 }]);
		const [sealed] = await outputs({
			resource: 'fbnShipment',
			operation: 'updateStatus',
			asnNr: asn,
			statusAction: 'STATUS_ACTION_SEAL',
		});
		expect(sealed.shipment).toMatchObject({ status: 'ASN_STATUS_SEALED', expected_qty: 12 });
		const [slots] = await outputs({ resource: 'fbnShipment', operation: 'getSlots', asnNr: asn });
		const earliest = slots.earliest_slot as IDataObject;
		expect(earliest).toEqual({
			dst_warehouse_code: 'FBN-AUH-01',
			schedule_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
			schedule_slot: { start: '08:00', end: '12:00' },
		});
		expect((slots.warehouses as IDataObject[]).length).toBe(2);
		const [scheduled] = await outputs({
			resource: 'fbnShipment',
			operation: 'schedule',
			asnNr: asn,
			dstWarehouseCode: earliest.dst_warehouse_code as string,
			scheduleDate: earliest.schedule_date as string,
			slotStart: '08:00',
			slotEnd: '12:00',
		});
		const [got] = await outputs({ resource: 'fbnShipment', operation: 'get', asnNr: asn });
		expect(got).toEqual(scheduled);
		expect(got.shipment).toMatchObject({
			status: 'ASN_STATUS_SCHEDULED',
			dst_warehouse_code: 'FBN-AUH-01',
			schedule_date: earliest.schedule_date,
			schedule_slot: { start: '08:00', end: '12:00' },
		});
		expect(
			fbnRequests().map((r) => [r.method, r.path, r.headers[FBN_PROJECT_HEADER.toLowerCase()]]),
		).toEqual(
			[
				['PUT', `/inbound/v1/shipment/${asn}/items`],
				['PUT', `/inbound/v1/shipment/${asn}/status`],
				['GET', `/inbound/v1/shipment/${asn}/schedule/slot_availability`],
				['POST', `/inbound/v1/shipment/${asn}/schedule`],
				['GET', `/inbound/v1/shipment/${asn}`],
			].map((entry) => [...entry, f.emulator.projectCode]),
		);
		expect(sent('AsnService_UpdateShipmentStatus')[0].body).toEqual({
			action: 'STATUS_ACTION_SEAL',
		});
		expect(sent('AsnService_ScheduleShipment')[0].body).toEqual({
			dst_warehouse_code: 'FBN-AUH-01',
			schedule_date: earliest.schedule_date,
			schedule_slot: { start: '08:00', end: '12:00' },
		});
	});

	it('update (PUT metadata) and the service’s refusal of an ASN being received, as the item’s error with continue on fail', async () => {
		const asn = await newAsn();
		const seeded = f.emulator.fbnShipments().find((a) => a.exref_nr === SEEDED_ASN.exref_nr)!;
		const out = await outputs(
			{
				resource: 'fbnShipment',
				operation: 'update',
				asnNr: '={{ $json.asn }}',
				misc: '={{ $json.misc }}',
			},
			[
				{ asn, misc: { carrier: '3PL-1', pallets: 2 } },
				{ asn: seeded.asn_nr, misc: '{"carrier":"x"}' },
			],
			{ continueOnFail: true },
		);
		expect(sent('AsnService_UpdateShipment').map((r) => [r.method, r.path, r.body])).toEqual([
			['PUT', `/inbound/v1/shipment/${asn}`, { misc: { carrier: '3PL-1', pallets: 2 } }],
			['PUT', `/inbound/v1/shipment/${seeded.asn_nr}`, { misc: { carrier: 'x' } }],
		]);
		expect(out[0].shipment).toMatchObject({ asn_nr: asn, status: 'ASN_STATUS_CREATED' });
		expect(out[1].error).toContain(`ASN ${seeded.asn_nr} is ASN_STATUS_RECEIVING`);
		expect(out[1].details).toMatchObject({ httpCode: '400', status_code: 'FAILED_PRECONDITION' });
		expect(f.emulator.fbnShipments().find((a) => a.asn_nr === asn)?.misc).toEqual({
			carrier: '3PL-1',
			pallets: 2,
		});
	});

	it('getMany: the country and status as query parameters, page_size from the limit', async () => {
		for (let i = 0; i < 3; i++) await newAsn('eg');
		f.emulator.clearRequests();
		const all = await outputs({
			resource: 'fbnShipment',
			operation: 'getMany',
			countryCode: 'eg',
			returnAll: true,
			filters: { status: 'ASN_STATUS_CREATED' },
		});
		expect(all.map((a) => a.country_code)).toEqual(['EG', 'EG', 'EG']);
		const limited = await outputs({
			resource: 'fbnShipment',
			operation: 'getMany',
			countryCode: 'eg',
			limit: 2,
		});
		expect(limited).toEqual(all.slice(0, 2));
		expect(fbnRequests().map((r) => r.path)).toEqual([
			'/inbound/v1/shipment/list?country_code=EG&filter.status=ASN_STATUS_CREATED&page_size=200',
			'/inbound/v1/shipment/list?country_code=EG&page_size=2',
		]);
	});
});

describe('fbnShipmentItem', () => {
	it('upsert: 2,503 rows of two ASNs are requests of at most 1000 per ASN (asn in the path, not the body), each item its own output', async () => {
		f.emulator.addFbnCatalogItems({ count: 2500, prefix: 'SKU-BIG-' });
		const [big, small] = [await newAsn(), await newAsn()];
		f.emulator.clearRequests();
		const rows = Array.from({ length: 2500 }, (_, i) => ({
			asn: big,
			sku: `SKU-BIG-${String(i + 7).padStart(5, '0')}`,
			qty: i + 1,
		}));
		// The small ASN's rows come between the big one's: each ASN gets its own requests.
		rows.splice(1, 0, { asn: small, sku: 'SKU-SOFA-3', qty: 2 });
		rows.splice(3, 0, {
			asn: small,
			sku: 'SKU-MUG-BLK',
			qty: 5,
			storage: 'STORAGE_TYPE_BULKY',
		} as never);
		rows.push({ asn: small, sku: 'SKU-TEE-M', qty: 1 });
		const out = await outputs(UPSERT, rows);
		const requests = sent('AsnService_UpdateShipmentItems');
		expect(requests.map((r) => [r.method, r.path, (r.body.items as unknown[]).length])).toEqual([
			['PUT', `/inbound/v1/shipment/${big}/items`, 1000],
			['PUT', `/inbound/v1/shipment/${big}/items`, 1000],
			['PUT', `/inbound/v1/shipment/${big}/items`, 500],
			['PUT', `/inbound/v1/shipment/${small}/items`, 3],
		]);
		expect(requests[3].body).toEqual({
			items: [
				{ partner_sku: 'SKU-SOFA-3', qty: 2, storage_type: 'STORAGE_TYPE_UNSPECIFIED' },
				{ partner_sku: 'SKU-MUG-BLK', qty: 5, storage_type: 'STORAGE_TYPE_BULKY' },
				{ partner_sku: 'SKU-TEE-M', qty: 1, storage_type: 'STORAGE_TYPE_UNSPECIFIED' },
			],
		});
		expect(out).toHaveLength(2503);
		expect(out[1]).toMatchObject({ asn_nr: small, partner_sku: 'SKU-SOFA-3', qty: 2 });
		expect(out[1].shipment).toMatchObject({ asn_nr: small, total_sku_count: 3 });
		expect(out[0].shipment).toMatchObject({ asn_nr: big, total_sku_count: 1000 });
		expect(out[2501].shipment).toMatchObject({ asn_nr: big, total_sku_count: 2500 });
		const stored = f.emulator.fbnShipments().find((a) => a.asn_nr === small)!;
		// "From the catalog": the service fills in noon's storage type.
		expect(stored.items.map((i) => [i.partner_sku, i.storage_type])).toEqual([
			['SKU-SOFA-3', 'STORAGE_TYPE_BULKY'],
			['SKU-MUG-BLK', 'STORAGE_TYPE_BULKY'],
			['SKU-TEE-M', 'STORAGE_TYPE_STANDARD'],
		]);

		// Get Many follows the pages of 1000; a limit asks for no more than it wants.
		f.emulator.clearRequests();
		const listed = await outputs({
			resource: 'fbnShipmentItem',
			operation: 'getMany',
			asnNr: big,
			returnAll: true,
		});
		expect(listed).toHaveLength(2500);
		expect(listed[0]).toEqual({
			partner_sku: 'SKU-BIG-00007',
			sku: 'NSKUBIG00007',
			title: 'Generated item 1',
			qty: 1,
			storage_type: 'STORAGE_TYPE_STANDARD',
			image_url: expect.stringContaining('sku-big-00007'),
		});
		const few = await outputs({
			resource: 'fbnShipmentItem',
			operation: 'getMany',
			asnNr: big,
			limit: 3,
		});
		expect(few).toEqual(listed.slice(0, 3));
		expect(fbnRequests().map((r) => r.path)).toEqual([
			`/inbound/v1/shipment/${big}/items?page_size=1000`,
			`/inbound/v1/shipment/${big}/items?page_size=1000&next_token=page-1000`,
			`/inbound/v1/shipment/${big}/items?page_size=1000&next_token=page-2000`,
			`/inbound/v1/shipment/${big}/items?page_size=3`,
		]);
	});

	it('refuses bad rows before the network, naming the parameter; the valid rows still go (continue on fail)', async () => {
		const asn = await newAsn();
		f.emulator.clearRequests();
		const out = await outputs(
			UPSERT,
			[
				{ asn, sku: 'SKU-MUG-WHT', qty: 3 },
				{ asn, sku: 'SKU-MUG-BLK', qty: 0 },
				{ asn, sku: 'SKU-MUG-BLK', qty: 1.5 },
				{ asn: '..', sku: 'SKU-MUG-BLK', qty: 1 },
				{ asn, sku: ' ', qty: 1 },
				{ asn, sku: 'SKU-TEE-M', qty: 1, storage: 'STORAGE_TYPE_FROZEN' },
				{ asn, sku: 'SKU-MUG-WHT', qty: 4 },
			],
			{ continueOnFail: true },
		);
		expect(out.map((o) => (o.error ? String(o.error) : 'ok'))).toEqual([
			'ok',
			'The parameter "Quantity" (quantity) must be at least 1, got 0',
			'The parameter "Quantity" (quantity) must be a whole number',
			'The parameter "ASN Number" (asnNr) cannot be ".."',
			'The parameter "Partner SKU" (partnerSku) must not be empty',
			expect.stringContaining('"Storage Type"'),
			expect.stringContaining('Item 6 has the same "ASN Number" and "Partner SKU" as item 0'),
		]);
		expect(sent('AsnService_UpdateShipmentItems').map((r) => r.body)).toEqual([
			{ items: [{ partner_sku: 'SKU-MUG-WHT', qty: 3, storage_type: 'STORAGE_TYPE_UNSPECIFIED' }] },
		]);
	});

	it('delete: SKUs per ASN in partner_skus, a repeated one sent once; a sealed ASN’s refusal is each of its items’ error', async () => {
		const asn = await newAsn();
		await outputs(
			UPSERT,
			['SKU-MUG-WHT', 'SKU-MUG-BLK', 'SKU-TEE-M'].map((sku) => ({ asn, sku, qty: 2 })),
		);
		const sealed = await newAsn();
		await outputs(UPSERT, [{ asn: sealed, sku: 'SKU-TEE-M', qty: 1 }]);
		await outputs({ resource: 'fbnShipment', operation: 'updateStatus', asnNr: sealed });
		f.emulator.clearRequests();
		const DELETE = {
			resource: 'fbnShipmentItem',
			operation: 'delete',
			asnNr: '={{ $json.asn }}',
			partnerSku: '={{ $json.sku }}',
		};
		const out = await outputs(
			DELETE,
			[
				{ asn, sku: 'SKU-MUG-WHT' },
				{ asn: sealed, sku: 'SKU-TEE-M' },
				{ asn, sku: 'SKU-TEE-M' },
				{ asn, sku: 'SKU-MUG-WHT' },
			],
			{ continueOnFail: true },
		);
		expect(sent('AsnService_DeleteShipmentItems')).toEqual([
			{
				method: 'POST',
				path: `/inbound/v1/shipment/${asn}/items/delete`,
				body: { partner_skus: ['SKU-MUG-WHT', 'SKU-TEE-M'] },
			},
			{
				method: 'POST',
				path: `/inbound/v1/shipment/${sealed}/items/delete`,
				body: { partner_skus: ['SKU-TEE-M'] },
			},
		]);
		expect(out[0]).toMatchObject({ asn_nr: asn, partner_sku: 'SKU-MUG-WHT', deleted: true });
		expect(out[3]).toMatchObject({ asn_nr: asn, partner_sku: 'SKU-MUG-WHT', deleted: true });
		expect(out[0].shipment).toMatchObject({ total_sku_count: 1, expected_qty: 2 });
		expect(out[1].error).toContain(`ASN ${sealed} is ASN_STATUS_SEALED`);
		expect(out[1].details).toMatchObject({ status_code: 'FAILED_PRECONDITION' });
	});
});

describe('fbnCatalogItem', () => {
	it('getMany: the country upper case, the SKU filter as search.partner_sku, the items eligible there', async () => {
		const out = await outputs({
			resource: 'fbnCatalogItem',
			operation: 'getMany',
			countryCode: 'sa',
			returnAll: true,
			filters: { partnerSku: 'mug' },
		});
		expect(out.map((o) => o.partner_sku)).toEqual(['SKU-MUG-WHT', 'SKU-MUG-BLK']);
		expect(out[0]).toEqual({
			partner_sku: 'SKU-MUG-WHT',
			sku: 'NSKUMUGWHT',
			title: 'White ceramic mug, 350 ml',
			storage_type: 'STORAGE_TYPE_STANDARD',
			image_url: expect.any(String),
		});
		expect(fbnRequests().map((r) => r.path)).toEqual([
			'/inbound/v1/catalog/items?country_code=SA&search.partner_sku=mug&page_size=1000',
		]);
	});
});

describe('FBN inbound and the credential', () => {
	it('a credential without a Project Code: refused before anything is sent, naming the header', async () => {
		f.env.addCredential('no-project', 'sellerPlatformApi', {
			...credentialFields(f.emulator),
			projectCode: '  ',
		});
		const workflow = workflowWithItems([{}], {
			resource: 'fbnShipment',
			operation: 'get',
			asnNr: 'ASN1',
		});
		workflow.nodes[1].credentials = { sellerPlatformApi: 'no-project' };
		const result = await f.env.runWorkflow(workflow);
		expect(result.status).toBe('error');
		expect(result.nodeError(NODE)?.message).toBe(
			'The credential has no Project Code: AsnService_GetShipment needs it in its X-Project header',
		);
		expect(fbnRequests()).toEqual([]);
	});
});
