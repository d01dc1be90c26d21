/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The node as an AI tool, as n8n offers it to the AI Agent and the MCP Server Trigger: the tool
 * variant n8n makes of it (`sellerPlatformTool`, test/helpers/tools.ts), taken by a node with an
 * `ai_tool` input through n8n-core's `getInputConnectionData` (`createNodeAsTool`: the tool's
 * name, description and `$fromAI()` schema), and called through the tool's `invoke`, as the MCP
 * Server Trigger calls it, against the emulator.
 */
import { NodeHelpers, type IDataObject, type INode, type INodeParameters } from 'n8n-workflow';

import { LOGIN_OPERATION, SEEDED_FBPI_ORDERS, SEEDED_WAREHOUSES } from '../emulator';
import { join } from 'path';

import { workflowFromFile } from '../helpers';
import { nodeOperations } from '../helpers/nodeOperations';
import { toolVariant } from '../helpers/tools';
import { SellerPlatform } from '../../dist/nodes/SellerPlatform/SellerPlatform.node';
import { callTool as fixtureCallTool, CREDENTIAL_ID, startFixture, type Fixture } from './fixture';

let f: Fixture;
beforeAll(async () => {
	f = await startFixture({ ratePlan: null });
});
afterAll(async () => await f.close());
beforeEach(() => f.emulator.clearRequests());

const READ_NOTE = 'It only reads: it changes nothing at noon.';
const WRITE_NOTE = 'It changes data at noon';

const callTool = (name: string, parameters: INodeParameters, calls: IDataObject[] = []) =>
	fixtureCallTool(f, name, parameters, calls);

/** The eight reads a seller's assistant uses, and what each one's description must name. */
const READS: Array<[string, INodeParameters, string[]]> = [
	[
		'Warehouse → Get Many',
		{ resource: 'warehouse', operation: 'getMany' },
		['warehouse_code', 'is_active', 'Call it first', 'FBPI order and stock tools'],
	],
	[
		'FBPI Order → Get Many',
		{ resource: 'fbpiOrder', operation: 'getMany' },
		[
			'fbpi_order_nr',
			'items',
			'Warehouse → Get Many',
			'oldest first',
			'not listed there is refused',
		],
	],
	[
		'FBPI Order → Get',
		{ resource: 'fbpiOrder', operation: 'get' },
		['fbpi_order_nr', 'mp_status', 'FBPI Order → Get Many'],
	],
	[
		'Stock → Get',
		{ resource: 'stock', operation: 'get' },
		['qty', 'processing_time', 'Warehouse → Get Many', 'partner_sku'],
	],
	[
		'Price → Get',
		{ resource: 'price', operation: 'get' },
		['price', 'msrp', 'partner_sku', 'ISO 3166-1', 'AE (United Arab Emirates)'],
	],
	[
		'FBN Shipment → Get Many',
		{ resource: 'fbnShipment', operation: 'getMany' },
		['asn_nr', 'status', 'upper-case two-letter ISO 3166-1 code'],
	],
	[
		'Offer → Get',
		{ resource: 'offer', operation: 'get' },
		['partner_sku', 'live_status', 'issue_reasons'],
	],
	[
		'Purchase Order → Get',
		{ resource: 'purchaseOrder', operation: 'get' },
		['po_nr', 'po_status', 'po_lines', 'ISO 8601'],
	],
];

describe('the tool descriptions an AI model reads', () => {
	test.each(READS)(
		'%s: what it returns, what it takes, which tool gives it',
		async (label, op, named) => {
			const { offered } = await callTool('Seller Platform', op);
			const description = String(offered.description);
			for (const text of named)
				expect({ label, description }).toEqual({
					label,
					description: expect.stringContaining(text),
				});
			expect(description.endsWith(READ_NOTE)).toBe(true);
			// Not n8n's fallback, "<action> in Seller Platform".
			expect(description).not.toMatch(/ in Seller Platform$/);
		},
	);

	test('every operation says whether it changes data at noon (get… and Who Am I only read)', () => {
		const tool = toolVariant(new SellerPlatform());
		const seen: Record<string, string[]> = { reads: [], writes: [] };
		for (const { resource, operation, name } of nodeOperations()) {
			const node = {
				name: 'Tool',
				type: 'sellerPlatformTool',
				typeVersion: 1.1,
				parameters: { resource, operation },
			} as unknown as INode;
			// What n8n's Workflow gives a node: its parameters with their defaults.
			node.parameters = NodeHelpers.getNodeParameters(
				tool.description.properties,
				node.parameters,
				true,
				false,
				node,
				tool.description,
			)!;
			const description = NodeHelpers.getToolDescriptionForNode(node, tool);
			const writes = description.includes(WRITE_NOTE);
			expect({ name, reads: description.endsWith(READ_NOTE), writes }).toEqual({
				name,
				reads: !writes,
				writes: !/^get|^whoAmI$/.test(operation),
			});
			seen[writes ? 'writes' : 'reads'].push(name);
		}
		// The writes the issue names: stock, prices, shipments, acknowledgements.
		expect(seen.writes).toEqual(
			expect.arrayContaining([
				'stock/update',
				'price/update',
				'fbpiShipment/create',
				'fbnShipment/create',
				'fbpiOrder/update',
			]),
		);
		expect(seen.reads).toEqual(
			expect.arrayContaining(READS.map(([, op]) => `${op.resource}/${op.operation}`)),
		);
	});

	test('the plain node has no tool description; a description the user wrote is what the model reads', async () => {
		const plain = new SellerPlatform().description;
		const shown = NodeHelpers.getNodeParameters(
			plain.properties,
			{ resource: 'stock', operation: 'get' },
			true,
			false,
			null,
			plain,
		)!;
		expect(shown.toolDescription).toBeUndefined();
		const { offered } = await callTool('Seller Platform', {
			resource: 'stock',
			operation: 'get',
			toolDescription: 'Stock of one SKU.',
		});
		expect(offered.description).toEqual('Stock of one SKU.');
	});
});

describe('calling the read tools with $fromAI() values', () => {
	test('Warehouse → Get Many and FBPI Order → Get Many answer with the service data', async () => {
		const warehouses = await callTool(
			'Get many warehouses',
			{
				resource: 'warehouse',
				operation: 'getMany',
				returnAll: "={{ $fromAI('return_all', 'Whether to list every warehouse', 'boolean') }}",
			},
			[{ return_all: true }],
		);
		expect(warehouses.offered.name).toEqual('Get_many_warehouses');
		expect(warehouses.offered.parameters).toEqual({
			return_all: { type: 'ZodBoolean', description: 'Whether to list every warehouse' },
		});
		const listed = JSON.parse(String(warehouses.answers[0].result)) as IDataObject[];
		expect(listed.map((w) => w.warehouse_code)).toEqual(
			expect.arrayContaining(Object.values(SEEDED_WAREHOUSES)),
		);

		const orders = await callTool(
			'Get many FBPI orders',
			{
				resource: 'fbpiOrder',
				operation: 'getMany',
				warehouseCode: {
					__rl: true,
					mode: 'id',
					value:
						"={{ $fromAI('warehouse_code', 'A warehouse_code from Get many warehouses', 'string') }}",
				},
			},
			[{ warehouse_code: SEEDED_WAREHOUSES.dubai }],
		);
		const found = JSON.parse(String(orders.answers[0].result)) as IDataObject[];
		expect(found.map((order) => order.fbpi_order_nr)).toContain(SEEDED_FBPI_ORDERS.dubai);
		// The login, then one request per call (beforeEach cleared the log).
		const sent = f.emulator.requests().map((r) => r.operation);
		expect(sent.filter((op) => op !== LOGIN_OPERATION)).toEqual([
			'ListWarehouses',
			'ListFbpiOrders',
		]);
	});
});

/** A read tool whose one `$fromAI()` value the model gets wrong: what comes back to it. */
const WRONG: Array<[string, INodeParameters, IDataObject, string]> = [
	[
		'a date in another format (FBPI Order → Get Many)',
		{
			resource: 'fbpiOrder',
			operation: 'getMany',
			warehouseCode: { __rl: true, mode: 'id', value: SEEDED_WAREHOUSES.dubai },
			filters: { createdAfter: "={{ $fromAI('created_after', 'ISO 8601 date-time', 'string') }}" },
		},
		{ created_after: '31/01/2026' },
		'The field "Created After" (createdAfter, the argument "created_after") must be a date and time, got the text "31/01/2026". Give an ISO 8601 date and time such as 2026-01-31T08:00:00Z.',
	],
	[
		'a country the marketplace does not have (Price → Get)',
		{
			resource: 'price',
			operation: 'get',
			partnerSku: 'SKU-1',
			countryCode: "={{ $fromAI('country_code', 'AE, SA or EG', 'string') }}",
		},
		{ country_code: 'UAE' },
		'The parameter "Country Code" (countryCode, the argument "country_code") must be one of ae, sa, eg, got "UAE". Use the two-letter ISO 3166-1 code of a marketplace country, in either case: AE (United Arab Emirates), SA (Saudi Arabia), EG (Egypt).',
	],
	[
		'a country that is no code (FBN Shipment → Get Many)',
		{
			resource: 'fbnShipment',
			operation: 'getMany',
			countryCode: "={{ $fromAI('country_code', 'AE or SA', 'string') }}",
		},
		{ country_code: 'U.A.E.' },
		'The parameter "Country Code" (countryCode, the argument "country_code") must be a two-letter country code, got "U.A.E.". Use the upper-case two-letter ISO 3166-1 code of the country, such as AE, SA or KW.',
	],
	[
		'a number in words (Warehouse → Get Many)',
		{
			resource: 'warehouse',
			operation: 'getMany',
			limit: "={{ $fromAI('limit', 'How many', 'string') }}",
		},
		{ limit: 'ten' },
		'The parameter "Limit" (limit) must be a number, got the text "ten". Give a whole number of at least 1 in digits, such as 10.',
	],
	[
		'a yes/no in words (Warehouse → Get Many)',
		{
			resource: 'warehouse',
			operation: 'getMany',
			returnAll: "={{ $fromAI('return_all', 'Every warehouse?', 'string') }}",
		},
		{ return_all: 'all of them' },
		'The parameter "Return All" (returnAll, the argument "return_all") must be true or false, got the text "all of them". Give true or false.',
	],
];

describe('a value the model got wrong: the error tells it how to call again', () => {
	test.each(WRONG)('%s', async (_label, parameters, args, message) => {
		const { answers } = await callTool('Seller Platform', parameters, [args]);
		expect(answers).toEqual([{ tool: 'Seller_Platform', error: message }]);
		// Refused before anything is sent.
		expect(f.emulator.requests().filter((r) => r.operation !== LOGIN_OPERATION)).toEqual([]);
	});

	test('the plain node keeps the advice below the message, as the editor shows it', async () => {
		const [, parameters] = WRONG[1];
		const result = await f.env.runWorkflow({
			nodes: [
				{ name: 'Items', type: 'testItems', parameters: { items: '[{}]' } },
				{
					name: 'Seller Platform',
					type: 'sellerPlatform',
					typeVersion: 1.1,
					parameters: { ...parameters, countryCode: 'UAE' },
					credentials: { sellerPlatformApi: CREDENTIAL_ID },
				},
			],
			connections: { Items: { main: [[{ node: 'Seller Platform', type: 'main', index: 0 }]] } },
		});
		const error = result.nodeError('Seller Platform') as { message: string; description?: string };
		expect({ message: error.message, description: error.description }).toEqual({
			message: 'The parameter "Country Code" (countryCode) must be one of ae, sa, eg, got "UAE"',
			description:
				'Use the two-letter ISO 3166-1 code of a marketplace country, in either case: AE (United Arab Emirates), SA (Saudi Arabia), EG (Egypt).',
		});
	});
});

describe('examples/seller-assistant-mcp.json: the tools of the MCP server', () => {
	const example = workflowFromFile(
		join(__dirname, '..', '..', 'examples', 'seller-assistant-mcp.json'),
	);
	const tools = example.nodes.filter((node) => node.type.endsWith('.sellerPlatformTool'));

	test('the eight reads, each connected to the MCP Server Trigger, none that writes', () => {
		const operations = tools.map(
			(node) => `${String(node.parameters!.resource)}/${String(node.parameters!.operation)}`,
		);
		expect(operations.sort()).toEqual(
			READS.map(([, op]) => `${op.resource}/${op.operation}`).sort(),
		);
		for (const node of example.nodes.filter((n) => n.type.includes('seller-platform'))) {
			expect({
				node: node.name,
				to: example.connections[node.name]?.ai_tool?.[0]?.[0]?.node,
			}).toEqual({ node: node.name, to: 'MCP Server Trigger' });
		}
	});

	test.each(tools.map((node) => [node.name, node] as const))(
		'%s: only reads, and leaves values to the model',
		async (_name, node) => {
			const { offered } = await callTool(node.name, node.parameters!);
			expect(String(offered.description).endsWith(READ_NOTE)).toBe(true);
			const parameters = offered.parameters as Record<string, { description?: string }>;
			expect(Object.keys(parameters).length).toBeGreaterThan(0);
			for (const [key, { description }] of Object.entries(parameters))
				expect({ key, description }).toEqual({ key, description: expect.stringMatching(/\S{3}/) });
		},
	);

	test("called with the values a model gives, the warehouses and then that warehouse's orders", async () => {
		const byName = (name: string) => tools.find((node) => node.name === name)!;
		const warehouses = await callTool(
			'Get many warehouses',
			byName('Get many warehouses').parameters!,
			[{ limit: 50 }],
		);
		const codes = (JSON.parse(String(warehouses.answers[0].result)) as IDataObject[]).map(
			(w) => w.warehouse_code,
		);
		expect(codes).toContain(SEEDED_WAREHOUSES.dubai);
		const orders = await callTool(
			'Get many FBPI orders',
			byName('Get many FBPI orders').parameters!,
			[
				{ warehouse_code: SEEDED_WAREHOUSES.dubai, created_after: '' },
				{ warehouse_code: SEEDED_WAREHOUSES.dubai, created_after: 'last week' },
			],
		);
		const [found, refused] = orders.answers;
		expect(
			(JSON.parse(String(found.result)) as IDataObject[]).map((o) => o.fbpi_order_nr),
		).toContain(SEEDED_FBPI_ORDERS.dubai);
		expect(refused.error).toMatch(
			/must be a date and time, got the text "last week"\. Give an ISO 8601 date and time such as 2026-01-31T08:00:00Z/,
		);
	});
});
