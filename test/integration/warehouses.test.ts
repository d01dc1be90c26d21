/**
 * Warehouses: the editor's warehouse list (`searchWarehouses`, the list search of every Warehouse
 * Code), called as n8n calls it, and Warehouse → Get Many through real n8n runs, against the
 * emulator (ListWarehouses: pages of 500 behind `next_token`, its own plan of 30 per 60 s, at
 * most 15 in any 30 s).
 *
 * ListWarehouses is paced at 1 request per 2 s per project (30 per 60 s, spread): each test
 * starts its own emulator, whose project no other test shares, and reads few pages.
 */
import type { INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';

import { credentialFields, SEEDED_WAREHOUSES } from '../emulator';
import { listSearch, type WorkflowResult } from '../helpers';
import { loadPackage } from '../helpers/n8n';
import { WAREHOUSE_LISTS } from '../../dist/nodes/shared/transport/warehouses';
import { CREDENTIAL_ID, startFixture, workflowWithItems, type Fixture } from './fixture';

const listRequests = (f: Fixture) =>
	f.emulator.requests().filter((r) => r.operation === 'ListWarehouses');

const search = async (f: Fixture, filter?: string, credential = CREDENTIAL_ID, token?: string) =>
	await listSearch(f.env, {
		method: 'searchWarehouses',
		credentials: { sellerPlatformApi: credential },
		parameters: { resource: 'fbpiOrder', operation: 'createSandbox' },
		filter,
		paginationToken: token,
	});

/** The kept lists' clock, moved by the tests. */
let now = 1_000_000;
const realClock = WAREHOUSE_LISTS.now;
beforeAll(() => (WAREHOUSE_LISTS.now = () => now));
afterAll(() => (WAREHOUSE_LISTS.now = realClock));

describe('searchWarehouses: the warehouse list of the editor', () => {
	it('is registered for every list a resource locator of the node offers', async () => {
		const { type } = (await loadPackage()).nodeTypes.sellerPlatform;
		const node = type as INodeType;
		const methods = (node.description.properties as INodeProperties[]).flatMap((property) =>
			(property.modes ?? []).flatMap((mode) => mode.typeOptions?.searchListMethod ?? []),
		);
		expect(methods).toContain('searchWarehouses');
		for (const method of new Set(methods)) {
			expect([method, typeof node.methods?.listSearch?.[method]]).toEqual([method, 'function']);
		}
	});

	let f: Fixture;
	beforeEach(async () => {
		f = await startFixture();
	});
	afterEach(async () => await f.close());

	it("lists the credential's warehouses, named and marked, logging in as n8n does", async () => {
		const result = await search(f);
		expect(result).toEqual({
			results: [
				{ name: 'Dubai Main (WH-DXB-01)', value: SEEDED_WAREHOUSES.dubai },
				{ name: 'Riyadh North (WH-RUH-02)', value: SEEDED_WAREHOUSES.riyadh },
				{ name: 'Cairo East (WH-CAI-01)', value: SEEDED_WAREHOUSES.cairo },
				{ name: 'Jeddah Port (WH-JED-01)', value: SEEDED_WAREHOUSES.noWebhooks },
				{ name: 'Dammam Old Depot (WH-DMM-09) [inactive]', value: SEEDED_WAREHOUSES.inactive },
			],
			paginationToken: undefined,
		});
		// One request, as the package sends every request, after one login through n8n's
		// credentials helper, whose session n8n stored with the credential.
		const [request] = listRequests(f);
		expect(listRequests(f)).toHaveLength(1);
		// No filter, no token: the body `{}` as JSON, as the reference defines it (n8n's client
		// sends an empty object as no body at all; a strict gateway, as the emulator, answers 415).
		expect([request.method, request.path, request.body, request.status]).toEqual([
			'POST',
			'/warehouse_platform/v1/warehouses/list',
			{},
			200,
		]);
		expect(request.headers['content-type']).toBe('application/json');
		expect(f.env.logins.map((login) => [login.reason, login.succeeded])).toEqual([['empty', true]]);
		expect(f.env.credentialData(CREDENTIAL_ID).sessionCookie).toMatch(/\S/);
	});

	it("is the poll trigger's warehouse picker too, against a gateway strict to JSON bodies", async () => {
		const result = await listSearch(f.env, {
			nodeType: 'sellerPlatformPollTrigger',
			method: 'searchWarehouses',
			credentials: { sellerPlatformApi: CREDENTIAL_ID },
			filter: 'riyadh',
		});
		expect(result.results).toEqual([
			{ name: 'Riyadh North (WH-RUH-02)', value: SEEDED_WAREHOUSES.riyadh },
		]);
		const [request] = listRequests(f);
		expect([request.status, request.body, request.headers['content-type']]).toEqual([
			200,
			{},
			'application/json',
		]);
	});

	it('filters by the search text in names and codes, any case, and pages 100 at a time', async () => {
		expect((await search(f, 'dubai')).results.map((r) => r.value)).toEqual(['WH-DXB-01']);
		expect((await search(f, ' wh-cai ')).results.map((r) => r.value)).toEqual(['WH-CAI-01']);
		expect((await search(f, 'nowhere')).results).toEqual([]);
		f.emulator.addWarehouses({ count: 245 });
		now += WAREHOUSE_LISTS.lifetimeMs;
		const first = await search(f, 'generated');
		expect(first.results).toHaveLength(100);
		expect(first.paginationToken).toBe('100');
		const third = await search(f, 'generated', CREDENTIAL_ID, '200');
		expect(third.results.map((r) => r.value)).toEqual(
			Array.from({ length: 45 }, (_, i) => `WH-GEN-${String(201 + i).padStart(5, '0')}`),
		);
		expect(third.paginationToken).toBeUndefined();
		// Searching and paging read the kept list: one read before the clock moved, one after.
		expect(listRequests(f)).toHaveLength(2);
	});

	it('shares one read among callers asking at once, keeps it for a while, then reads again', async () => {
		const answers = await Promise.all(Array.from({ length: 30 }, async () => await search(f)));
		expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
		expect(listRequests(f)).toHaveLength(1);
		expect(f.env.logins).toHaveLength(1);

		now += WAREHOUSE_LISTS.lifetimeMs - 1;
		f.emulator.addWarehouses({ count: 1 });
		expect((await search(f)).results).toHaveLength(5);
		expect(listRequests(f)).toHaveLength(1);

		now += 1;
		expect((await search(f)).results).toHaveLength(6);
		expect(listRequests(f)).toHaveLength(2);
	});

	it('keeps no failed read: every caller of it gets the error, the next call reads again', async () => {
		f.emulator.injectFaults({ operation: 'ListWarehouses', count: 1, status: 403 });
		const failed = await Promise.allSettled([search(f), search(f)]);
		expect(failed.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
		expect(String((failed[0] as PromiseRejectedResult).reason.message)).toMatch(/403|permission/i);
		expect(listRequests(f)).toHaveLength(1);

		expect((await search(f)).results).toHaveLength(5);
		expect(listRequests(f)).toHaveLength(2);
	});

	it('keeps one list per credential: another project has its own list', async () => {
		const other = await f.emulator.addCredential({ projectCode: `${f.emulator.projectCode}-B` });
		f.env.addCredential(
			'other-project',
			'sellerPlatformApi',
			credentialFields({ baseUrl: f.emulator.baseUrl, credential: other }),
		);
		f.emulator.addWarehouses({ projectCode: other.project_code, count: 2, prefix: 'WH-B' });
		const [mine, theirs] = await Promise.all([search(f), search(f, undefined, 'other-project')]);
		expect(mine.results).toHaveLength(5);
		expect(theirs.results.map((r) => r.value)).toEqual(
			expect.arrayContaining(['WH-B-00001', 'WH-B-00002']),
		);
		expect(theirs.results).toHaveLength(7);
		expect(listRequests(f)).toHaveLength(2);
	});
});

describe('warehouse/getMany through n8n runs', () => {
	let f: Fixture;
	beforeEach(async () => {
		f = await startFixture();
	});
	afterEach(async () => await f.close());

	const GET_MANY = (extra: INodeParameters = {}): INodeParameters => ({
		resource: 'warehouse',
		operation: 'getMany',
		...extra,
	});
	const codes = (result: WorkflowResult) =>
		result.json('Seller Platform').map((json) => json.warehouse_code);

	it('Return All follows next_token in the body: every warehouse once, paired with its item', async () => {
		const added = f.emulator.addWarehouses({ count: 500 });
		const result = await f.env.runWorkflow(workflowWithItems([{}], GET_MANY({ returnAll: true })));
		expect(result.status).toBe('success');
		const all = [...f.emulator.warehouses().map((w) => w.warehouse_code)];
		expect(codes(result)).toEqual(all);
		expect(all).toHaveLength(505);
		expect(all.slice(5)).toEqual(added.map((w) => w.warehouse_code));
		expect(result.json('Seller Platform')[0]).toEqual({
			warehouse_code: SEEDED_WAREHOUSES.dubai,
			display_name: 'Dubai Main',
			fulfillment_system_code: 'FBPI',
			is_active: true,
		});
		expect(
			new Set(result.outputs('Seller Platform').map((o) => JSON.stringify(o.pairedItem))),
		).toEqual(new Set(['{"item":0}']));
		const requests = listRequests(f);
		expect(requests.map((r) => [r.method, r.path, r.status])).toEqual([
			['POST', '/warehouse_platform/v1/warehouses/list', 200],
			['POST', '/warehouse_platform/v1/warehouses/list', 200],
		]);
		expect(requests[0].body).toEqual({});
		expect(requests[1].body).toEqual({ next_token: expect.stringMatching(/\S/) });
		expect(requests.map((r) => r.headers['content-type'])).toEqual(
			Array(2).fill('application/json'),
		);
	});

	it('a limit reads the pages it needs; the filter is sent as filters.fulfillment_system_code', async () => {
		const limited = await f.env.runWorkflow(
			workflowWithItems([{}], GET_MANY({ returnAll: false, limit: 2 })),
		);
		expect(codes(limited)).toEqual([SEEDED_WAREHOUSES.dubai, SEEDED_WAREHOUSES.riyadh]);
		const filtered = await f.env.runWorkflow(
			workflowWithItems(
				[{ system: 'FBN' }, { system: ' FBPI ' }],
				GET_MANY({
					returnAll: true,
					filters: { fulfillmentSystemCode: '={{ $json.system }}' },
				}),
			),
		);
		expect(codes(filtered)).toEqual([
			SEEDED_WAREHOUSES.inactive,
			SEEDED_WAREHOUSES.dubai,
			SEEDED_WAREHOUSES.riyadh,
			SEEDED_WAREHOUSES.cairo,
			SEEDED_WAREHOUSES.noWebhooks,
		]);
		expect(filtered.outputs('Seller Platform').map((o) => o.pairedItem)).toEqual([
			{ item: 0 },
			...Array(4).fill({ item: 1 }),
		]);
		expect(listRequests(f).map((r) => r.body)).toEqual([
			{},
			{ filters: { fulfillment_system_code: 'FBN' } },
			{ filters: { fulfillment_system_code: 'FBPI' } },
		]);
	});

	it('refuses a blank filter before sending; with continue on fail, one output per item', async () => {
		const parameters = GET_MANY({
			returnAll: true,
			filters: { fulfillmentSystemCode: '={{ $json.system }}' },
			options: { concurrency: 1 },
		});
		const items = [{ system: 'FBN' }, { system: '  ' }, { system: 'FBPI' }];
		const failed = await f.env.runWorkflow(workflowWithItems(items, parameters));
		expect(failed.nodeError('Seller Platform')?.message).toBe(
			'The field "Fulfillment System Code" (fulfillmentSystemCode) must not be blank when it is set',
		);
		expect(listRequests(f)).toHaveLength(0);

		// The first request the service refuses: that item alone fails, with the service's answer.
		f.emulator.injectFaults({ operation: 'ListWarehouses', count: 1, status: 403 });
		const result = await f.env.runWorkflow(
			workflowWithItems(items, parameters, { continueOnFail: true }),
		);
		const out = result.outputs('Seller Platform');
		expect(out.map((o) => o.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			...Array(4).fill({ item: 2 }),
		]);
		expect(out[0].json.details).toMatchObject({ httpCode: '403' });
		expect(out[1].json.error).toMatch(/Fulfillment System Code.*must not be blank/);
		expect(out.slice(2).map((o) => o.json.fulfillment_system_code)).toEqual(Array(4).fill('FBPI'));
		expect(listRequests(f)).toHaveLength(2);
	});
});
