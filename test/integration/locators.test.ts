/**
 * The pickers of ASN Number (the eight FBN operations that take an ASN) and of API Credential →
 * Create's User Code: their list searches as the editor calls them, against the emulator, and
 * real n8n runs with the values a locator holds (`{ __rl, mode, value }`) and with the plain
 * strings workflows saved before these parameters were locators (read as they are).
 */
import type {
	IDataObject,
	INodeParameters,
	INodeProperties,
	INodeTypeDescription,
} from 'n8n-workflow';

import { SEEDED_ASN, SLOT_DAYS } from '../emulator';
import { listSearch } from '../helpers';
import { loadPackage } from '../helpers/n8n';
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
const credentials = { sellerPlatformApi: CREDENTIAL_ID };
const fromList = (value: string) => ({ __rl: true, mode: 'list', value });
const byNumber = (value: string) => ({ __rl: true, mode: 'id', value });
const sent = (operation: string) =>
	f.emulator
		.requests()
		.filter((r) => r.operation === operation)
		.map((r) => ({
			path: r.path,
			query: Object.fromEntries(new URL(r.path, 'http://emulator').searchParams),
			body: r.body as IDataObject,
		}));

async function outputs(parameters: INodeParameters, items: object[] = [{}]) {
	const result = await f.env.runWorkflow(workflowWithItems(items, parameters));
	if (result.status !== 'success') throw new Error(result.nodeError(NODE)?.message ?? 'failed');
	return result.json(NODE);
}

const searchAsns = async (filter?: string, paginationToken?: string) =>
	await listSearch(f.env, {
		method: 'searchAsns',
		credentials,
		parameters: { resource: 'fbnShipment', operation: 'get' },
		path: 'parameters.asnNr',
		filter,
		paginationToken,
	});

describe('ASN Number', () => {
	it('is a locator (From List, By Number) in each of the eight FBN operations that take an ASN', async () => {
		const loader = await loadPackage();
		const { properties } = loader.nodeTypes.sellerPlatform.type.description as INodeTypeDescription;
		const asn = properties.filter((p) => p.name === 'asnNr');
		const where = (p: INodeProperties) =>
			(p.displayOptions?.show?.operation as string[]).map(
				(operation) => `${(p.displayOptions?.show?.resource as string[])[0]}/${operation}`,
			);
		expect(asn.flatMap(where).sort()).toEqual([
			'fbnShipment/get',
			'fbnShipment/getSlots',
			'fbnShipment/schedule',
			'fbnShipment/update',
			'fbnShipment/updateStatus',
			'fbnShipmentItem/delete',
			'fbnShipmentItem/getMany',
			'fbnShipmentItem/upsert',
		]);
		for (const property of asn) {
			expect(property.type).toBe('resourceLocator');
			expect(property.modes?.map((mode) => [mode.name, mode.displayName])).toEqual([
				['list', 'From List'],
				['id', 'By Number'],
			]);
			expect(property.modes?.[0].typeOptions?.searchListMethod).toBe('searchAsns');
		}
	});

	it("list search: each marketplace country's ASNs in turn, a page of 200 at a time, the token going on; the search text matches number or reference; pages without a match skipped", async () => {
		// 201 ASNs in Saudi Arabia (two pages of the list), one in Egypt; the seeded one is in the UAE.
		const saudi = await outputs(
			{
				resource: 'fbnShipment',
				operation: 'create',
				exrefNr: '={{ $json.ref }}',
				countryCode: 'sa',
			},
			Array.from({ length: 201 }, (_, i) => ({ ref: `LOC-SA-${i + 1}` })),
		);
		const [egypt] = await outputs({
			resource: 'fbnShipment',
			operation: 'create',
			exrefNr: 'LOC-EG-1',
			countryCode: 'eg',
		});
		const egyptNr = (egypt.shipment as IDataObject).asn_nr as string;
		const seeded = f.emulator.fbnShipments().find((a) => a.exref_nr === SEEDED_ASN.exref_nr)!;
		f.emulator.clearRequests();

		const uae = await searchAsns();
		expect(uae.results).toEqual([
			{
				name: `${seeded.asn_nr} (Receiving, AE)`,
				value: seeded.asn_nr,
				description: `Reference ${SEEDED_ASN.exref_nr}`,
			},
		]);
		const firstSaudi = await searchAsns(undefined, uae.paginationToken);
		expect(firstSaudi.results).toHaveLength(200);
		expect(firstSaudi.results[0]).toEqual({
			name: `${(saudi[0].shipment as IDataObject).asn_nr} (Created, SA)`,
			value: (saudi[0].shipment as IDataObject).asn_nr,
			description: 'Reference LOC-SA-1',
		});
		const lastSaudi = await searchAsns(undefined, firstSaudi.paginationToken);
		expect(lastSaudi.results.map((r) => r.description)).toEqual(['Reference LOC-SA-201']);
		const last = await searchAsns(undefined, lastSaudi.paginationToken);
		expect(last).toEqual({
			results: [
				{ name: `${egyptNr} (Created, EG)`, value: egyptNr, description: 'Reference LOC-EG-1' },
			],
			paginationToken: undefined,
		});
		expect(sent('AsnService_ListShipments').map((r) => r.query)).toEqual([
			{ country_code: 'AE', page_size: '200' },
			{ country_code: 'SA', page_size: '200' },
			{ country_code: 'SA', page_size: '200', next_token: expect.any(String) },
			{ country_code: 'EG', page_size: '200' },
		]);

		// By reference, any case: the UAE page and Saudi Arabia's first page have none (skipped).
		f.emulator.clearRequests();
		const byReference = await searchAsns('loc-sa-201');
		expect(byReference.results.map((r) => r.description)).toEqual(['Reference LOC-SA-201']);
		expect(sent('AsnService_ListShipments')).toHaveLength(3);
		// By number.
		const byNr = await searchAsns(egyptNr.toLowerCase());
		expect(byNr.results.map((r) => r.value)).toEqual([egyptNr]);
	});

	it('a service that repeats its page token: each country is left at the repeat, so the list ends (never the same token handed back)', async () => {
		// Every ListShipments answer: a page with the seeded ASN and the token "page-0".
		const seeded = f.emulator.fbnShipments().find((a) => a.exref_nr === SEEDED_ASN.exref_nr)!;
		f.emulator.injectFaults({
			count: 50,
			operation: 'AsnService_ListShipments',
			answer: { set: { shipments: [{ asn_nr: seeded.asn_nr }], next_token: 'page-0' } },
		});
		f.emulator.clearRequests();
		// Searching for what no page holds: the five pages of a call end the list.
		const none = await searchAsns('no such asn', '0:page-0');
		expect(none).toEqual({ results: [], paginationToken: undefined });
		expect(sent('AsnService_ListShipments').map((r) => r.query.country_code)).toEqual([
			'AE',
			'SA',
			'SA',
			'EG',
			'EG',
		]);
		// Scrolling the whole list: each token handed back is new, and the list ends.
		const tokens: Array<string | undefined> = [];
		let token: string | undefined;
		do {
			token = (await searchAsns(undefined, token)).paginationToken;
			tokens.push(token);
		} while (token !== undefined && tokens.length < 10);
		expect(tokens).toEqual(['0:page-0', '1:', '1:page-0', '2:', '2:page-0', undefined]);
	});

	it("a saved workflow of today's shape (plain ASN text, typed or an expression) runs unchanged; a value chosen from the list or typed By Number reads the same", async () => {
		const seeded = f.emulator.fbnShipments().find((a) => a.exref_nr === SEEDED_ASN.exref_nr)!;
		const path = `/inbound/v1/shipment/${seeded.asn_nr}`;
		const get = (asnNr: INodeParameters[string]): INodeParameters => ({
			resource: 'fbnShipment',
			operation: 'get',
			asnNr,
		});
		const plain = await outputs(get(seeded.asn_nr));
		const expression = await outputs(get('={{ $json.asn }}'), [{ asn: seeded.asn_nr }]);
		const chosen = await outputs(get(fromList(seeded.asn_nr)));
		const typed = await outputs(get(byNumber('={{ $json.asn }}')), [{ asn: ` ${seeded.asn_nr} ` }]);
		for (const output of [expression, chosen, typed]) expect(output).toEqual(plain);
		expect((plain[0].shipment as IDataObject).asn_nr).toBe(seeded.asn_nr);
		expect(sent('AsnService_GetShipment').map((r) => r.path)).toEqual([path, path, path, path]);

		// The item list of the same ASN, with the plain text a saved workflow holds.
		const items = await outputs({
			resource: 'fbnShipmentItem',
			operation: 'getMany',
			asnNr: seeded.asn_nr,
			returnAll: true,
		});
		expect(items.map((item) => item.partner_sku)).toEqual(['SKU-MUG-WHT', 'SKU-TEE-M']);
	});

	it('a blank ASN from an expression, typed By Number or plain, is refused naming the parameter, before anything is sent', async () => {
		// (An empty one n8n refuses itself before the run: the parameter is required.)
		for (const asnNr of [byNumber('={{ $json.asn }}'), '={{ $json.asn }}']) {
			const result = await f.env.runWorkflow(
				workflowWithItems([{ asn: '  ' }], { resource: 'fbnShipment', operation: 'get', asnNr }),
			);
			expect(result.nodeError(NODE)?.message).toBe(
				'The parameter "ASN Number" (asnNr) must not be empty',
			);
		}
		expect(sent('AsnService_GetShipment')).toEqual([]);
	});
});

describe("API Credential → Create's User Code", () => {
	it('lists the credential’s own user, as Remove does', async () => {
		const [me] = await outputs({ resource: 'session', operation: 'whoAmI' });
		const list = await listSearch(f.env, {
			method: 'searchUserCodes',
			credentials,
			parameters: { resource: 'apiCredential', operation: 'create' },
			path: 'parameters.userCode',
		});
		expect(list.results).toEqual([
			{ name: `${me.username} (${me.user_code})`, value: me.user_code },
		]);
		const { properties } = (await loadPackage()).nodeTypes.sellerPlatform.type
			.description as INodeTypeDescription;
		const create = properties.find(
			(p) =>
				p.name === 'userCode' && (p.displayOptions?.show?.operation as string[]).includes('create'),
		)!;
		expect([create.type, create.required]).toEqual(['resourceLocator', false]);
		expect(create.modes?.[0].typeOptions?.searchListMethod).toBe('searchUserCodes');
	});

	it("sends the chosen user's code; a saved workflow's plain text too; left empty, the Channel Identifier", async () => {
		const [me] = await outputs({ resource: 'session', operation: 'whoAmI' });
		const create = (extra: INodeParameters): INodeParameters => ({
			resource: 'apiCredential',
			operation: 'create',
			options: { privateKeyOutput: 'none' },
			...extra,
		});
		f.emulator.clearRequests();
		await outputs(create({ userCode: fromList(String(me.user_code)) }));
		await outputs(create({ userCode: String(me.user_code) }));
		await outputs(create({ channelIdentifier: String(me.username) }));
		await outputs(create({ userCode: fromList(''), channelIdentifier: String(me.username) }));
		expect(sent('CreateCredential').map((r) => r.body)).toEqual([
			{ user_code: me.user_code },
			{ user_code: me.user_code },
			{ channel_identifier: me.username },
			{ channel_identifier: me.username },
		]);
	});
});

describe("FBN Shipment → Schedule's warehouse, date and slot", () => {
	const PICKERS = {
		dstWarehouseCode: 'searchScheduleWarehouses',
		scheduleDate: 'searchScheduleDates',
		slotStart: 'searchSlotStarts',
		slotEnd: 'searchSlotEnds',
	} as const;
	type Picker = keyof typeof PICKERS;
	let refs = 0;

	/** A sealed ASN of `country` holding one item of `sku`. */
	async function sealedAsn(country = 'ae', sku = 'SKU-MUG-WHT'): Promise<string> {
		const [created] = await outputs({
			resource: 'fbnShipment',
			operation: 'create',
			exrefNr: `SLOT-PICK-${++refs}`,
			countryCode: `={{ "${country}" }}`,
		});
		const asn = (created.shipment as IDataObject).asn_nr as string;
		await outputs({
			resource: 'fbnShipmentItem',
			operation: 'upsert',
			asnNr: asn,
			partnerSku: sku,
			quantity: 3,
		});
		await outputs({
			resource: 'fbnShipment',
			operation: 'updateStatus',
			asnNr: asn,
			statusAction: 'STATUS_ACTION_SEAL',
		});
		return asn;
	}

	/** A picker's list as the editor asks for it, with the node's current parameters. */
	const pick = async (picker: Picker, parameters: INodeParameters) =>
		await listSearch(f.env, {
			method: PICKERS[picker],
			credentials,
			parameters: { resource: 'fbnShipment', operation: 'schedule', ...parameters },
			path: `parameters.${picker}`,
		});
	const values = async (picker: Picker, parameters: INodeParameters) =>
		(await pick(picker, parameters)).results.map((r) => r.value);

	it('are locators (From List, typed) whose lists depend on the ASN and the pickers above them', async () => {
		const { properties } = (await loadPackage()).nodeTypes.sellerPlatform.type
			.description as INodeTypeDescription;
		const schedule = (name: string) =>
			properties.find(
				(p) =>
					p.name === name && (p.displayOptions?.show?.operation as string[]).includes('schedule'),
			)!;
		const above: string[] = ['asnNr.value'];
		for (const [name, method] of Object.entries(PICKERS)) {
			const property = schedule(name);
			expect([property.type, property.required]).toEqual(['resourceLocator', true]);
			expect(property.modes?.map((mode) => mode.name)).toEqual(['list', 'id']);
			expect(property.modes?.[0].typeOptions?.searchListMethod).toBe(method);
			expect(property.typeOptions?.loadOptionsDependsOn).toEqual(above);
			above.push(`${name}.value`);
		}
	});

	it('list what Get Slots answers for the chosen ASN, each narrowed by the values chosen above; a slot taken leaves the list', async () => {
		const asn = await sealedAsn();
		const [slots] = await outputs({ resource: 'fbnShipment', operation: 'getSlots', asnNr: asn });
		const earliest = slots.earliest_slot as IDataObject;
		const firstDay = earliest.schedule_date as string;
		f.emulator.clearRequests();

		const warehouses = await pick('dstWarehouseCode', { asnNr: fromList(asn) });
		expect(warehouses.results).toEqual([
			{
				name: 'noon FBN Abu Dhabi (FBN-AUH-01)',
				value: 'FBN-AUH-01',
				description: `Earliest free slot ${firstDay} 08:00–12:00`,
			},
			{
				name: 'noon FBN Dubai South (FBN-DXB-01)',
				value: 'FBN-DXB-01',
				description: `Earliest free slot ${firstDay} 08:00–12:00`,
			},
		]);
		// The plain ASN text a saved workflow holds lists the same.
		expect(await pick('dstWarehouseCode', { asnNr: asn })).toEqual(warehouses);
		const chosen: INodeParameters = {
			asnNr: fromList(asn),
			dstWarehouseCode: fromList('FBN-DXB-01'),
		};
		const dates = await pick('scheduleDate', chosen);
		expect(dates.results).toHaveLength(SLOT_DAYS);
		expect(dates.results[0]).toEqual({
			name: firstDay,
			value: firstDay,
			description: '2 free slots',
		});
		expect(dates.results.map((r) => r.value)).toEqual(
			[...dates.results.map((r) => r.value as string)].sort(),
		);
		chosen.scheduleDate = fromList(firstDay);
		expect((await pick('slotStart', chosen)).results).toEqual([
			{ name: '08:00', value: '08:00', description: 'To 12:00' },
			{ name: '13:00', value: '13:00', description: 'To 17:00' },
		]);
		expect(await values('slotEnd', { ...chosen, slotStart: fromList('13:00') })).toEqual(['17:00']);
		expect(sent('AsnService_GetSlotAvailability').map((r) => r.path)).toEqual(
			Array(5).fill(`/inbound/v1/shipment/${asn}/schedule/slot_availability`),
		);

		// Another ASN books Dubai's 08:00 on the first day: this ASN's list no longer offers it.
		const other = await sealedAsn();
		await outputs({
			resource: 'fbnShipment',
			operation: 'schedule',
			asnNr: other,
			dstWarehouseCode: 'FBN-DXB-01',
			scheduleDate: firstDay,
			slotStart: '08:00',
			slotEnd: '12:00',
		});
		expect(await values('slotStart', chosen)).toEqual(['13:00']);
		expect((await pick('scheduleDate', chosen)).results[0].description).toBe('1 free slot');
	});

	it('an ASN without any free slot (a country with no FBN warehouse) lists nothing, for each picker', async () => {
		const [kuwaitItem] = f.emulator.addFbnCatalogItems({
			count: 1,
			countries: ['KW'],
			prefix: 'SKU-KW-',
		});
		const asn = await sealedAsn('kw', kuwaitItem.partner_sku);
		const [slots] = await outputs({ resource: 'fbnShipment', operation: 'getSlots', asnNr: asn });
		expect([slots.warehouses, slots.earliest_slot]).toEqual([[], null]);
		for (const picker of Object.keys(PICKERS) as Picker[])
			expect(await pick(picker, { asnNr: fromList(asn) })).toEqual({ results: [] });
	});

	it('no ASN chosen yet (unset, empty, or an expression known only in a run): an empty list, nothing asked', async () => {
		f.emulator.clearRequests();
		for (const asnNr of [
			undefined,
			fromList(''),
			'',
			byNumber('={{ $json.asn }}'),
			'={{ $json.asn }}',
		])
			for (const picker of Object.keys(PICKERS) as Picker[])
				expect(await pick(picker, asnNr === undefined ? {} : { asnNr })).toEqual({ results: [] });
		expect(sent('AsnService_GetSlotAvailability')).toEqual([]);
	});

	it("a saved workflow of today's shape (plain text in each field) schedules unchanged; values chosen from the lists or typed send the same", async () => {
		const [saved, chosen, typed] = [await sealedAsn(), await sealedAsn(), await sealedAsn()];
		const [slots] = await outputs({ resource: 'fbnShipment', operation: 'getSlots', asnNr: saved });
		const day = (slots.warehouses as IDataObject[])
			.map((w) => w.days as IDataObject[])
			.flat()
			.map((d) => d.date as string)
			.sort()
			.at(-1)!;
		f.emulator.clearRequests();
		const schedule = (asnNr: unknown, wrap: (value: string) => unknown, start: string) =>
			outputs({
				resource: 'fbnShipment',
				operation: 'schedule',
				asnNr,
				dstWarehouseCode: wrap('FBN-AUH-01'),
				scheduleDate: wrap(day),
				slotStart: wrap(start),
				slotEnd: wrap(start === '08:00' ? '12:00' : '17:00'),
			} as INodeParameters);
		const [plain] = await schedule(saved, (v) => v, '08:00');
		await schedule(fromList(chosen), fromList, '13:00');
		// Typed, with spaces around (trimmed as plain text is).
		const result = await f.env.runWorkflow(
			workflowWithItems([{}], {
				resource: 'fbnShipment',
				operation: 'schedule',
				asnNr: byNumber(typed),
				dstWarehouseCode: byNumber(' FBN-DXB-01 '),
				scheduleDate: byNumber(day),
				slotStart: byNumber('08:00'),
				slotEnd: byNumber('12:00'),
			}),
		);
		expect(result.status).toBe('success');
		expect((plain.shipment as IDataObject).status).toBe('ASN_STATUS_SCHEDULED');
		const slot = (start: string, end: string) => ({ start, end });
		expect(sent('AsnService_ScheduleShipment').map((r) => [r.path, r.body])).toEqual([
			[
				`/inbound/v1/shipment/${saved}/schedule`,
				{
					dst_warehouse_code: 'FBN-AUH-01',
					schedule_date: day,
					schedule_slot: slot('08:00', '12:00'),
				},
			],
			[
				`/inbound/v1/shipment/${chosen}/schedule`,
				{
					dst_warehouse_code: 'FBN-AUH-01',
					schedule_date: day,
					schedule_slot: slot('13:00', '17:00'),
				},
			],
			[
				`/inbound/v1/shipment/${typed}/schedule`,
				{
					dst_warehouse_code: 'FBN-DXB-01',
					schedule_date: day,
					schedule_slot: slot('08:00', '12:00'),
				},
			],
		]);
	});
});
