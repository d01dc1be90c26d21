/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The seller's data in an AI assistant and in n8n's Data Tables, in a real n8n 2.41.1 (its own
 * n8n, started like package.e2e.ts's), against the emulator:
 *
 * - a1. examples/seller-assistant-mcp.json, published: the official MCP SDK client connects to its
 *   MCP Server Trigger with the bearer token (and is refused without it), lists the tools (names,
 *   descriptions, input schemas of each Seller Platform tool), calls Warehouse → Get Many and FBPI
 *   Order → Get Many and gets the emulator's data; a wrong date gets the corrective error and
 *   sends nothing.
 * - a2. examples/sync-stock-from-data-table.json, stock: rows of an n8n Data Table (made through
 *   n8n's REST API) reach the emulator once each; a second run sends nothing; a changed row alone
 *   goes in a third.
 * - a3. the same example, orders: the published poll trigger writes each new order into a Data
 *   Table, one row per order, and a later poll adds none.
 *
 * n8n 2.x only: the MCP Server Trigger's version 2 and the Data Table node of the examples are
 * 2.x's (`npm run test:e2e` runs this file; `npm run test:e2e:n8n1` leaves it out, and with
 * E2E_N8N=1 it skips). Alone: `npm run build && npx jest -c test/e2e/jest.config.js test/e2e/assistant.e2e.ts`.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import {
	LOGIN_OPERATION,
	SEEDED_FBPI_ORDERS,
	SEEDED_WAREHOUSES,
	startEmulator,
	type Emulator,
} from '../emulator';
import {
	N8nClient,
	type StoredCredential,
	type StoredWorkflow,
	type WorkflowJson,
} from './lib/client';
import { freePort, installPackageInto, N8N_MAJOR, startN8n, type N8nInstance } from './lib/n8n';
import {
	emulatorCredentialData,
	ensureOwner,
	loadExamples,
	upsertCredential,
	withCredential,
} from './lib/setup';
import { toolDescriptionOf } from './lib/toolTexts';
import { sleep, waitFor } from './lib/wait';

const MCP_EXAMPLE = 'seller-assistant-mcp.json';
const TABLE_EXAMPLE = 'sync-stock-from-data-table.json';
const MCP_TOKEN = `e2e-mcp-token-${process.pid}-0123456789abcdef`;
const ORDER_WAREHOUSE = `WH-DT-E2E-${process.pid}`;

const dataDir = join(tmpdir(), `seller-platform-e2e-assistant-${process.pid}`);
let emulator: Emulator;
let n8n: N8nInstance | undefined;
let client: N8nClient;
let credential: StoredCredential;
let projectId: string;

const log = (message: string) => process.stdout.write(`${message}\n`);
const example = (file: string): WorkflowJson =>
	loadExamples().find((e) => e.file === file)!.workflow;
const sentOperations = () =>
	emulator
		.requests()
		.map((request) => request.operation)
		.filter((operation) => operation !== LOGIN_OPERATION);

const describe2x = N8N_MAJOR >= 2 ? describe : describe.skip;

describe2x(`the seller's data in an AI assistant and in Data Tables, n8n ${N8N_MAJOR}.x`, () => {
	beforeAll(async () => {
		rmSync(dataDir, { recursive: true, force: true });
		emulator = await startEmulator({ host: '127.0.0.1', port: 0 });
		installPackageInto(dataDir);
		n8n = await startN8n({ dataDir, port: await freePort(), logFile: join(dataDir, 'n8n.log') });
		client = new N8nClient(n8n.baseUrl);
		await ensureOwner(client, join(dataDir, 'owner.json'));
		credential = await upsertCredential(client, emulatorCredentialData(emulator));
		projectId = (await client.request<{ id: string }>('GET', '/rest/projects/personal')).id;
	}, 900_000);

	afterAll(async () => {
		await n8n?.stop().catch((error) => console.error('stopping n8n:', error));
		await emulator?.close().catch((error) => console.error('closing the emulator:', error));
		if (!process.env.E2E_KEEP) rmSync(dataDir, { recursive: true, force: true });
	});

	it('a1. the MCP example: an MCP client lists the read tools, calls them, and gets the corrective error', async () => {
		const workflow = await importMcpExample();
		await client.activate(workflow.id);
		const url = new URL(`${n8n!.baseUrl}/mcp/seller-assistant`);

		// Publishing registers the trigger's webhook: wait until the endpoint answers.
		const mcp = await waitFor(
			'the MCP endpoint',
			async () => await connect(url, MCP_TOKEN).catch(() => undefined),
			30_000,
			1_000,
		);
		try {
			const { tools } = await mcp.listTools();
			const toolNodes = workflow.nodes.filter((node) => node.type.endsWith('.sellerPlatformTool'));
			expect(tools.map((tool) => tool.name).sort()).toEqual(
				toolNodes.map((node) => node.name.replace(/[^a-zA-Z0-9_-]+/g, '_')).sort(),
			);
			for (const node of toolNodes) {
				const tool = tools.find((t) => t.name === node.name.replace(/[^a-zA-Z0-9_-]+/g, '_'))!;
				const { resource, operation } = node.parameters as { resource: string; operation: string };
				expect({ tool: tool.name, description: tool.description }).toEqual({
					tool: tool.name,
					description: toolDescriptionOf(resource, operation),
				});
				const keys = [...JSON.stringify(node.parameters).matchAll(/\$fromAI\('([a-z_]+)'/g)].map(
					(m) => m[1],
				);
				const schema = tool.inputSchema as {
					properties?: Record<string, { type?: string; description?: string }>;
					required?: string[];
				};
				expect({
					tool: tool.name,
					inputs: Object.keys(schema.properties ?? {}).sort(),
					required: [...(schema.required ?? [])].sort(),
				}).toEqual({
					tool: tool.name,
					inputs: [...keys].sort(),
					required: [...keys].sort(),
				});
				for (const key of keys) expect(schema.properties![key].description).toMatch(/\S{3}/);
			}

			emulator.clearRequests();
			const warehouses = await mcp.callTool({
				name: 'Get_many_warehouses',
				arguments: { limit: 50 },
			});
			expect(warehouses.isError).toBeFalsy();
			const warehouseText = textOf(warehouses);
			for (const code of Object.values(SEEDED_WAREHOUSES))
				expect(warehouseText).toContain(`"${code}"`);

			const orders = await mcp.callTool({
				name: 'Get_many_FBPI_orders',
				arguments: { warehouse_code: SEEDED_WAREHOUSES.dubai, created_after: '' },
			});
			expect(orders.isError).toBeFalsy();
			expect(textOf(orders)).toContain(`"${SEEDED_FBPI_ORDERS.dubai}"`);
			expect(sentOperations()).toEqual(['ListWarehouses', 'ListFbpiOrders']);

			const wrong = await mcp.callTool({
				name: 'Get_many_FBPI_orders',
				arguments: { warehouse_code: SEEDED_WAREHOUSES.dubai, created_after: '31/01/2026' },
			});
			log(`e2e a1: the wrong date's answer: ${textOf(wrong)}`);
			expect(wrong.isError).toBe(true);
			expect(textOf(wrong)).toContain(
				'The field "Created After" (createdAfter, the argument "created_after") must be a date and time, got the text "31/01/2026". Give an ISO 8601 date and time such as 2026-01-31T08:00:00Z.',
			);
			expect(sentOperations()).toEqual(['ListWarehouses', 'ListFbpiOrders']);

			// Without the token: refused.
			await expect(connect(url, 'wrong-token')).rejects.toThrow();
		} finally {
			await mcp.close();
			await client.deactivate(workflow.id);
		}
	}, 300_000);

	it('a2. the Data Table example, stock: every row reaches the service once; a second run sends nothing; a changed row alone goes', async () => {
		const table = await createTable('seller_stock', [
			['warehouse_code', 'string'],
			['partner_sku', 'string'],
			['qty', 'number'],
			['synced_qty', 'number'],
		]);
		const rows = Array.from({ length: 30 }, (_, i) => ({
			warehouse_code: i % 2 ? SEEDED_WAREHOUSES.riyadh : SEEDED_WAREHOUSES.dubai,
			partner_sku: `SKU-DT-E2E-${i + 1}`,
			qty: i + 1,
		}));
		await client.request('POST', `/rest/projects/${projectId}/data-tables/${table}/insert`, {
			data: rows,
			returnType: 'count',
		});
		const workflow = await client.createWorkflow(
			withCredential(example(TABLE_EXAMPLE), credential),
		);

		const expected = rows.map((row) => [row.partner_sku, row.warehouse_code, row.qty]).sort();
		expect(await runAndCollectStock(workflow)).toEqual(expected);
		const stored = await tableRows(table);
		expect(stored.every((row) => row.synced_qty === row.qty)).toBe(true);

		// A second run: nothing changed, nothing sent.
		expect(await runAndCollectStock(workflow)).toEqual([]);

		// One row changed: that row alone.
		const changed = stored.find((row) => row.partner_sku === 'SKU-DT-E2E-7')!;
		await client.request('PATCH', `/rest/projects/${projectId}/data-tables/${table}/rows`, {
			filter: { type: 'and', filters: [{ columnName: 'id', condition: 'eq', value: changed.id }] },
			data: { qty: 70 },
		});
		expect(await runAndCollectStock(workflow)).toEqual([
			['SKU-DT-E2E-7', changed.warehouse_code, 70],
		]);
	}, 300_000);

	it('a3. the Data Table example, orders: each new order becomes one row; a later poll adds none', async () => {
		const table = await createTable('seller_orders', [
			['fbpi_order_nr', 'string'],
			['mp_order_nr', 'string'],
			['warehouse_code', 'string'],
			['mp_country_code', 'string'],
			['order_created_at', 'string'],
			['item_count', 'number'],
		]);
		const shipped = example(TABLE_EXAMPLE);
		const workflow = await client.createWorkflow(
			withCredential(
				{
					...shipped,
					name: `${shipped.name} (orders, e2e)`,
					nodes: shipped.nodes.map((node) =>
						node.name === 'New FBPI order'
							? {
									...node,
									parameters: {
										...node.parameters,
										warehouseCode: { __rl: true, mode: 'id', value: ORDER_WAREHOUSE },
									},
								}
							: node,
					),
				},
				credential,
			),
		);
		const listings = () =>
			emulator.requests().filter((r) => r.operation === 'ListFbpiOrders').length;
		const before = listings();
		await client.activate(workflow.id);
		await waitFor(
			'the poll at activation',
			async () => (listings() > before ? true : undefined),
			60_000,
		);
		const added = emulator
			.addFbpiOrders({
				warehouseCode: ORDER_WAREHOUSE,
				orders: Array.from({ length: 3 }, (_, i) => ({ createdAt: Date.now() + i })),
			})
			.map((order) => order.fbpi_order_nr);
		try {
			const saved = await waitFor(
				'the three orders in the table',
				async () => {
					const rows = await tableRows(table);
					return rows.length >= 3 ? rows : undefined;
				},
				150_000,
				2_000,
			);
			expect(saved.map((row) => row.fbpi_order_nr).sort()).toEqual([...added].sort());
			expect(saved.every((row) => row.warehouse_code === ORDER_WAREHOUSE)).toBe(true);
			// One more poll: no row added.
			const polled = listings();
			await waitFor(
				'one more poll',
				async () => (listings() > polled ? true : undefined),
				90_000,
				2_000,
			);
			await sleep(5_000);
			expect((await tableRows(table)).map((row) => row.fbpi_order_nr).sort()).toEqual(
				[...added].sort(),
			);
		} finally {
			await client.deactivate(workflow.id);
		}
	}, 420_000);
});

// --- helpers ---------------------------------------------------------------------------------------

/** The MCP example with the emulator credential on its tools and a bearer credential on its trigger. */
async function importMcpExample(): Promise<StoredWorkflow> {
	const bearer = await client.createCredential(
		'Seller assistant MCP token (e2e)',
		'httpBearerAuth',
		{
			token: MCP_TOKEN,
		},
	);
	const shipped = withCredential(example(MCP_EXAMPLE), credential);
	return await client.createWorkflow({
		...shipped,
		nodes: shipped.nodes.map((node) =>
			node.credentials?.httpBearerAuth
				? { ...node, credentials: { httpBearerAuth: { id: bearer.id, name: bearer.name } } }
				: node,
		),
	});
}

/** An MCP client of the official SDK on Streamable HTTP, with `Authorization: Bearer <token>`. */
async function connect(url: URL, token: string): Promise<Client> {
	const mcp = new Client({ name: 'seller-platform-e2e', version: '1.0.0' });
	const transport = new StreamableHTTPClientTransport(url, {
		requestInit: { headers: { Authorization: `Bearer ${token}` } },
	});
	await mcp.connect(transport);
	return mcp;
}

const textOf = (result: unknown) =>
	((result as { content?: Array<{ type: string; text?: string }> }).content ?? [])
		.map((part) => part.text ?? '')
		.join('\n');

/** A Data Table of the owner's project, through n8n's REST API (the editor's "Create data table"). */
async function createTable(name: string, columns: Array<[string, string]>): Promise<string> {
	const created = await client.request<{ id: string }>(
		'POST',
		`/rest/projects/${projectId}/data-tables`,
		{
			name,
			columns: columns.map(([column, type]) => ({ name: column, type })),
		},
	);
	return created.id;
}

async function tableRows(table: string): Promise<Array<Record<string, unknown>>> {
	const page = await client.request<{ count: number; data: Array<Record<string, unknown>> }>(
		'GET',
		`/rest/projects/${projectId}/data-tables/${table}/rows?take=250`,
	);
	return page.data;
}

/** Runs the stock branch of the example on an empty request log: the rows UpdateStock sent. */
async function runAndCollectStock(workflow: StoredWorkflow) {
	emulator.clearRequests();
	const execution = await client.waitForExecution(
		await client.run(workflow, 'When clicking ‘Execute workflow’'),
	);
	expect({ status: execution.status, error: execution.data.resultData.error?.message }).toEqual({
		status: 'success',
		error: undefined,
	});
	return emulator
		.requests()
		.filter((entry) => entry.operation === 'UpdateStock')
		.flatMap((entry) => (entry.body as { items: Array<Record<string, unknown>> }).items)
		.map((row) => [row.partner_sku, row.warehouse_code, row.qty])
		.sort();
}
