/**
 * The one page loop of the shared layer (nodes/shared/transport/pages.ts): the three lists that
 * follow `next_token` read their pages through it, so a service stuck on one page (the emulator's
 * `repeatToken` answer: a page asked for with a token gives that token again) fails each of them
 * the same way, after the same two requests: FBPI Order → Get Many (the token in the query), the
 * editor's warehouse list (in the body) and the poll trigger's order listing (from its first poll).
 */
import { listSearch } from '../helpers';
import { CREDENTIAL_ID, startFixture, workflowWithItems, type Fixture } from './fixture';

const REPEATED =
	'The service repeated a page token (next_token) after 2 pages: the list would never end';

let f: Fixture;
beforeEach(async () => {
	f = await startFixture({ ratePlan: null });
});
afterEach(async () => await f.close());

const requestsOf = (operation: string) =>
	f.emulator.requests().filter((r) => r.operation === operation);

/** Every page after the first of the next two `operation` answers repeats the token it was asked with. */
const stuckOnOnePage = (operation: string) =>
	f.emulator.injectFaults({ count: 2, operation, answer: { repeatToken: true } });

/** 60 orders (two pages of ListFbpiOrders) created a minute ago, in a warehouse of their own. */
function addOrders(warehouseCode: string) {
	const createdAt = new Date(Date.now() - 60_000).toISOString();
	f.emulator.addFbpiOrders({ warehouseCode, count: 60, createdAt, intervalMs: 10 });
}

describe('a list whose service repeats its page token', () => {
	it('fails Get Many, the warehouse list and the poll trigger alike, after two requests each', async () => {
		addOrders('WH-PAGES-1');
		stuckOnOnePage('ListFbpiOrders');
		const getMany = await f.env.runWorkflow(
			workflowWithItems(
				[{}],
				{
					resource: 'fbpiOrder',
					operation: 'getMany',
					warehouseCode: { __rl: true, mode: 'id', value: 'WH-PAGES-1' },
					returnAll: true,
				},
				{ continueOnFail: true },
			),
		);
		expect(getMany.json('Seller Platform')).toEqual([
			{ error: REPEATED, details: expect.any(Object) },
		]);
		expect(requestsOf('ListFbpiOrders')).toHaveLength(2);

		// 600 warehouses: two pages of 500.
		f.emulator.addWarehouses({ count: 600 });
		stuckOnOnePage('ListWarehouses');
		const search = listSearch(f.env, {
			method: 'searchWarehouses',
			credentials: { sellerPlatformApi: CREDENTIAL_ID },
			parameters: { resource: 'fbpiOrder', operation: 'createSandbox' },
		});
		await expect(search).rejects.toThrow(REPEATED);
		const warehouses = requestsOf('ListWarehouses');
		expect(warehouses).toHaveLength(2);
		expect(warehouses[1].body).toEqual({ next_token: expect.stringMatching(/\S/) });

		// The poll trigger's first poll lists the orders of the last 15 minutes: two pages.
		addOrders('WH-PAGES-2');
		stuckOnOnePage('ListFbpiOrders');
		f.emulator.clearRequests();
		const activation = f.env.activatePolling({
			id: 'pages',
			nodes: [
				{
					name: 'Seller Platform Poll Trigger',
					type: 'sellerPlatformPollTrigger',
					parameters: {
						event: 'newFbpiOrder',
						warehouseCode: { __rl: true, mode: 'id', value: 'WH-PAGES-2' },
					},
					credentials: { sellerPlatformApi: CREDENTIAL_ID },
				},
			],
			connections: {},
		});
		await expect(activation).rejects.toThrow(REPEATED);
		expect(requestsOf('ListFbpiOrders')).toHaveLength(2);
	});

	it('stops at a page token too long to be one (kept nowhere), failing the list with its length', async () => {
		addOrders('WH-PAGES-3');
		const huge = 'T'.repeat(5_000_000);
		f.emulator.injectFaults({
			count: 1,
			operation: 'ListFbpiOrders',
			answer: { set: { next_token: huge } },
		});
		const getMany = await f.env.runWorkflow(
			workflowWithItems(
				[{}],
				{
					resource: 'fbpiOrder',
					operation: 'getMany',
					warehouseCode: { __rl: true, mode: 'id', value: 'WH-PAGES-3' },
					returnAll: true,
				},
				{ continueOnFail: true },
			),
		);
		const [out] = getMany.json('Seller Platform');
		expect(out.error).toBe(
			'The service gave a page token (next_token) of 5000000 characters, more than the 4096 followed: the list stops here',
		);
		expect(requestsOf('ListFbpiOrders')).toHaveLength(1);
	});
});
