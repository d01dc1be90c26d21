/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
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

import { SEEDED_ASN } from '../emulator';
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
