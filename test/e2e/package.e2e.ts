/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * End-to-end tests: the built package inside a real n8n (2.41.1 on Node 24, or with E2E_N8N=1
 * 1.123.81 on Node 22: test/e2e/installs/), driven
 * through n8n's REST API on loopback as a user's automation would, against the emulator. Jest runs
 * them (test/e2e/jest.config.js), one named test per check, in order, on one n8n.
 * `npm run test:e2e` installs n8n on first use and builds first; `npm run test:e2e -- -t '<name>'`
 * runs only the checks whose names match.
 *
 * E2E_KEEP=1 keeps n8n's data folder ($TMPDIR/seller-platform-e2e-n8n-<pid>, with n8n.log) after the run.
 */
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	SEEDED_DESTINATIONS,
	SEEDED_EXPORTS,
	SEEDED_FBPI_CUSTOMERS,
	SEEDED_FBPI_ORDERS,
	SEEDED_OAUTH_TOKENS,
	SEEDED_PO,
	SEEDED_WAREHOUSES,
	SEEDED_ASN,
	LOGIN_OPERATION,
	startEmulator,
	type DestinationState,
	type Emulator,
	type EmulatorStats,
} from '../emulator';
import {
	binaryOf,
	N8nClient,
	N8nRestError,
	outputOf,
	type Execution,
	type StoredCredential,
	type StoredWorkflow,
	type WorkflowJson,
	type WorkflowNode,
} from './lib/client';
import { startFakeOpenAi, type FakeOpenAi } from './lib/fakeOpenAi';
import { healthzFigures, pollHealthz, sentWithin, type HealthzSample } from './lib/healthz';
import { sleep, waitFor } from './lib/wait';
import {
	freePort,
	installPackageInto,
	n8nInstall,
	N8N_MAJOR,
	PACKAGE_NAME,
	REPO_ROOT,
	startN8n,
	type N8nInstance,
} from './lib/n8n';
import {
	CREDENTIAL_TYPE,
	emulatorCredentialData,
	ensureOwner,
	EXAMPLES_DIR,
	importExamples,
	loadExamples,
	NODE_TYPE,
	readingFile,
	TOOL_TYPE,
	TRIGGER_TYPE,
	upsertCredential,
	withCredential,
} from './lib/setup';
import { toolDescriptionOf } from './lib/toolTexts';

const SECRET_HEADER = 'X-N8n-Seller-Platform-Secret';
/** The output schemas as the package ships them (the build copies nodes/ into dist/). */
const SCHEMA_ROOT = join(REPO_ROOT, 'dist', 'nodes', 'SellerPlatform', '__schema__', 'v1.0.0');
const MANUAL = 'Start';

// --- workflows the tests build ---------------------------------------------------------------------

let nodeCounter = 0;
function node(
	name: string,
	type: string,
	parameters: Record<string, unknown>,
	credential?: StoredCredential,
): WorkflowNode {
	nodeCounter++;
	return {
		id: `e2e-node-${nodeCounter}`,
		name,
		type,
		typeVersion: type === 'n8n-nodes-base.code' ? 2 : 1,
		position: [nodeCounter * 220, 300],
		parameters,
		...(credential
			? { credentials: { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } } }
			: {}),
	};
}

const manualTrigger = () => node(MANUAL, 'n8n-nodes-base.manualTrigger', {});
const sellerPlatform = (
	name: string,
	credential: StoredCredential,
	parameters: Record<string, unknown>,
) => node(name, NODE_TYPE, { options: {}, ...parameters }, credential);
const code = (name: string, jsCode: string) => node(name, 'n8n-nodes-base.code', { jsCode });

/** connections: [from, to] pairs on the main output. */
function workflow(
	name: string,
	nodes: WorkflowNode[],
	edges: Array<[string, string]>,
): WorkflowJson {
	const connections: Record<
		string,
		{ main: Array<Array<{ node: string; type: string; index: number }>> }
	> = {};
	for (const [from, to] of edges) {
		connections[from] ??= { main: [[]] };
		connections[from].main[0].push({ node: to, type: 'main', index: 0 });
	}
	return { name, nodes, connections, settings: { executionOrder: 'v1' } };
}

// --- helpers ------------------------------------------------------------------------------------------

/** A loopback server that is not the gateway: records what reaches it, answers 200 `{}`. */
async function startForeignServer() {
	const received: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders }> = [];
	const server = createServer((req, res) => {
		received.push({ method: req.method, url: req.url, headers: req.headers });
		req.resume();
		req.on('end', () => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end('{}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		received,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/**
 * Every host on the internet, as n8n reaches it: n8n runs with HTTPS_PROXY naming this loopback
 * listener (NO_PROXY: loopback), so each https connection to a host that is not on loopback
 * arrives here as a CONNECT. It records the host and port asked for and closes the connection:
 * no TLS handshake with any foreign host can happen without a CONNECT recorded first.
 */
async function startForeignHosts() {
	const connects: string[] = [];
	const server = createServer((_req, res) => res.writeHead(502).end());
	server.on('connect', (req, socket) => {
		connects.push(String(req.url));
		socket.destroy();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		connects,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

async function control<T>(
	emulator: Emulator,
	method: string,
	path: string,
	body?: unknown,
): Promise<T> {
	const response = await fetch(`${emulator.controlUrl}${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	// A 2xx answer (the failure shows the request and its status).
	expect({ request: `${method} ${path}`, status: response.status, ok: response.ok }).toMatchObject({
		ok: true,
	});
	return (await response.json()) as T;
}

const stats = (emulator: Emulator) => control<EmulatorStats>(emulator, 'GET', '/stats');
const destination = async (emulator: Emulator, code: string) =>
	(await control<DestinationState[]>(emulator, 'GET', '/destinations')).find(
		(d) => d.destination_code === code,
	);

/** The execution succeeded (the failure shows its id, and its error's message and description). */
function expectSucceeded(execution: Execution): void {
	const error = execution.data.resultData.error;
	expect({
		execution: execution.id,
		status: execution.status,
		error: error && `${error.message}${error.description ? ` (${error.description})` : ''}`,
	}).toMatchObject({ status: 'success' });
}

/** The one output item of `nodeName`. */
function single(execution: Execution, nodeName: string): Record<string, unknown> {
	const items = outputOf(execution, nodeName);
	expect({ node: nodeName, items: items.length }).toEqual({ node: nodeName, items: 1 });
	return items[0];
}

/** The lines of n8n's output that match `pattern`. */
const outputLines = (pattern: RegExp) =>
	n8nInstance
		.output()
		.split('\n')
		.filter((line) => pattern.test(line));

// Straight to stdout: Jest's console adds a stack line to every message.
const log = (message: string) => process.stdout.write(`${message}\n`);

// --- one n8n for every check ---------------------------------------------------------------------

// Outside the repository, as on a user's machine: the package then finds nothing but what n8n
// provides (the repository's node_modules would be found first from inside it).
const dataDir = join(tmpdir(), `seller-platform-e2e-n8n-${process.pid}`);
let emulator: Emulator | undefined;
let n8n: N8nInstance | undefined;
let foreignHosts: Awaited<ReturnType<typeof startForeignHosts>> | undefined;
// Set by beforeAll; every check runs after it.
let emu: Emulator;
let n8nInstance: N8nInstance;
let client: N8nClient;
let credentialData: ReturnType<typeof emulatorCredentialData>;
let credential: StoredCredential;
let examples: Map<string, StoredWorkflow>;
let installedAt: string;

const example = (file: string): StoredWorkflow => {
	// Imported by beforeAll.
	expect([...examples.keys()]).toContain(file);
	return examples.get(file)!;
};

beforeAll(async () => {
	const started = Date.now();
	emulator = await startEmulator({
		host: '127.0.0.1',
		port: 0,
		importStepMs: 50,
		exportStepMs: 100,
	});
	foreignHosts = await startForeignHosts();
	rmSync(dataDir, { recursive: true, force: true });
	installedAt = installPackageInto(dataDir);
	const port = await freePort();
	log(
		`e2e: emulator ${emulator.baseUrl}; starting n8n on http://127.0.0.1:${port} (data ${dataDir}) ...`,
	);
	// Debug: n8n's engine logs when each node ends (check 8 reads it).
	n8n = await startN8n({
		dataDir,
		port,
		logFile: join(dataDir, 'n8n.log'),
		env: {
			N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'debug',
			// Check 16: https to any host off loopback goes through the listener that records it.
			HTTPS_PROXY: foreignHosts.url,
			NO_PROXY: '127.0.0.1,localhost,::1',
		},
	});
	log(`e2e: n8n ready after ${((Date.now() - started) / 1000).toFixed(1)} s`);

	client = new N8nClient(n8n.baseUrl);
	await ensureOwner(client, join(dataDir, 'owner.json'));
	credentialData = emulatorCredentialData(emulator);
	credential = await upsertCredential(client, credentialData);
	examples = await importExamples(client, credential);
	emu = emulator;
	n8nInstance = n8n;
}, 900_000);

afterAll(async () => {
	await n8n?.stop().catch((error) => console.error('stopping n8n:', error));
	await emulator?.close().catch((error) => console.error('closing the emulator:', error));
	await foreignHosts?.close().catch((error) => console.error('closing the listener:', error));
	if (!process.env.E2E_KEEP) rmSync(dataDir, { recursive: true, force: true });
});

/** One named check, a jest test; a failure's message ends with n8n's last lines (no debug ones). */
function check(name: string, body: () => Promise<void>, timeoutMs = 300_000): void {
	it(
		name,
		async () => {
			try {
				await body();
			} catch (error) {
				if (error instanceof Error && n8n) {
					const lines = n8n
						.output()
						.split('\n')
						.filter((line) => !/^\S+\s+debug\s/.test(line));
					error.message += `\n\nLast lines of n8n's output (debug lines left out; all in ${join(dataDir, 'n8n.log')} with E2E_KEEP=1):\n${lines.slice(-40).join('\n')}`;
				}
				throw error;
			}
		},
		timeoutMs,
	);
}

// --- check 5f: the example "sync changed stock from a sheet" -----------------------------------------

/** The sheet of check 5f: SKU, warehouse, quantity. */
const STOCK_SHEET: Array<[string, string, number]> = [
	['SKU-MUG-WHT', SEEDED_WAREHOUSES.dubai, 24],
	['SKU-MUG-BLK', SEEDED_WAREHOUSES.dubai, 12],
	['SKU-MUG-WHT', SEEDED_WAREHOUSES.riyadh, 8],
];

const stockCsv = (rows: Array<[string, string, number]>) =>
	['partner_sku,warehouse_code,qty', ...rows.map((row) => row.join(','))].join('\n') + '\n';

/**
 * A copy of an example that reads a CSV file of its own (in `examples/`, where n8n may read;
 * removed by the check): the shipped file stays as it is, and the copy has a history of its own
 * (sync-changed-stock's Remove Duplicates starts empty).
 */
async function exampleReading(file: string, csvPath: string): Promise<StoredWorkflow> {
	const shipped = loadExamples().find((e) => e.file === file);
	expect(shipped).toBeDefined();
	const { workflow: wf } = shipped!;
	return await client.createWorkflow(
		withCredential(readingFile(wf, csvPath, `${wf.name} (e2e ${process.pid})`), credential),
	);
}

/** The rows Stock → Update sent since the request log was cleared, as [SKU, warehouse, qty]. */
const stockRowsSent = async () =>
	(await requestLog())
		.filter((entry) => entry.operation === 'UpdateStock')
		.flatMap((entry) => (entry.body as { items: Array<Record<string, unknown>> }).items)
		.map((row) => [row.partner_sku, row.warehouse_code, row.qty])
		.sort();

// --- check 5g: the example "sync a catalog's stock from a CSV file" ---------------------------------

const CSV_EXAMPLE = 'sync-stock-from-csv-file.json';
const CSV_UPDATE_NODE = 'Update stock from the file';
const CATALOG_ROWS = 5_000;
const CATALOG_WAREHOUSES = [
	SEEDED_WAREHOUSES.dubai,
	SEEDED_WAREHOUSES.riyadh,
	SEEDED_WAREHOUSES.cairo,
];
/** Line i of the check's catalog as [SKU, warehouse, qty]: a SKU of its own, a seeded warehouse. */
const catalogLine = (i: number): [string, string, number] => [
	`SKU-CSV-${String(i + 1).padStart(5, '0')}`,
	CATALOG_WAREHOUSES[i % CATALOG_WAREHOUSES.length],
	i % 97,
];
/** The catalog's columns in the order an export may give them (not the API's). */
const catalogCsv = (rows: Array<[string, string, number]>) =>
	[
		'warehouse_code,partner_sku,qty',
		...rows.map(([sku, warehouse, qty]) => `${warehouse},${sku},${qty}`),
	].join('\n') + '\n';

/**
 * The rows sent against the rows expected, by [SKU, warehouse, qty]: how many, the first few
 * expected and never sent, the first few sent more than once (a sent row that was not expected
 * makes the count differ).
 */
function eachRowOnce(sent: unknown[][], expected: unknown[][]) {
	const times = new Map<string, number>();
	for (const row of sent) times.set(JSON.stringify(row), (times.get(JSON.stringify(row)) ?? 0) + 1);
	return {
		rows: sent.length,
		neverSent: expected.filter((row) => !times.has(JSON.stringify(row))).slice(0, 5),
		sentTwice: [...times]
			.filter(([, n]) => n > 1)
			.map(([row]) => row)
			.slice(0, 5),
	};
}

/** UpdateStock requests since the log was cleared, by the HTTP status answered. */
const updateStockStatuses = async () => {
	const counts: Record<string, number> = {};
	for (const entry of await requestLog())
		if (entry.operation === 'UpdateStock')
			counts[String(entry.status)] = (counts[String(entry.status)] ?? 0) + 1;
	return counts;
};

// --- checks 17 and 18: the ASN picker in the editor, a saved FBN workflow of today's shape ------

type ListedAsn = { asn_nr: string; exref_nr: string; status: string; country_code: string };

/** The ASN the emulator seeds (Receiving, in the UAE); its number is made at the emulator's start. */
async function seededAsn(): Promise<ListedAsn> {
	const asns = await control<ListedAsn[]>(emu, 'GET', '/fbn-shipments');
	const seeded = asns.find((asn) => asn.exref_nr === SEEDED_ASN.exref_nr);
	expect(seeded).toBeDefined();
	return seeded!;
}

/**
 * The editor's request for a resource locator's list (n8n 1.x and 2.x): POST
 * /rest/dynamic-node-parameters/resource-locator-results with the node's current parameters.
 */
async function locatorList(
	methodName: string,
	path: string,
	parameters: Record<string, unknown>,
	filter?: string,
) {
	return await client.request<{
		results: Array<{ name: string; value: string; description?: string }>;
		paginationToken?: string;
	}>('POST', '/rest/dynamic-node-parameters/resource-locator-results', {
		path,
		nodeTypeAndVersion: { name: NODE_TYPE, version: 1 },
		currentNodeParameters: parameters,
		methodName,
		credentials: { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } },
		...(filter === undefined ? {} : { filter }),
	});
}

// --- check 3: 200 purchase orders -------------------------------------------------------------------

/**
 * A credential of its own, as just saved by a user, with a key of its own: no session yet,
 * neither stored nor shared by a login of another credential with the same values.
 */
async function freshCredential(name: string) {
	const key = await control<{ key_id: string; private_key: string; project_code: string }>(
		emu,
		'POST',
		'/credentials',
		{},
	);
	const stored = await client.createCredential(name, CREDENTIAL_TYPE, {
		...credentialData,
		keyId: key.key_id,
		privateKey: key.private_key,
		projectCode: key.project_code,
	});
	return { key, credential: stored };
}

/** Manual trigger → 200 PO numbers (PO-BULK-1…200) → Get purchase order. */
const bulkWorkflow = ({ credential: fresh }: { credential: StoredCredential }) =>
	workflow(
		'e2e: 200 purchase orders',
		[
			manualTrigger(),
			code(
				'200 PO numbers',
				'return Array.from({ length: 200 }, (_, i) => ({ json: { po: `PO-BULK-${i + 1}` } }));',
			),
			sellerPlatform('Get purchase order', fresh, {
				resource: 'purchaseOrder',
				operation: 'get',
				poNr: '={{ $json.po }}',
			}),
		],
		[
			[MANUAL, '200 PO numbers'],
			['200 PO numbers', 'Get purchase order'],
		],
	);

/** The bulk run succeeded with the 200 orders, in order, released, each with its release date. */
function expectEveryOrderRead(execution: Execution, run: string): void {
	expectSucceeded(execution);
	const items = outputOf(execution, 'Get purchase order');
	expect({ run, items: items.length }).toEqual({ run, items: 200 });
	expect({ run, orders: items.map((item) => [item.po_nr, item.po_status]) }).toEqual({
		run,
		orders: items.map((_, i) => [`PO-BULK-${i + 1}`, 'PO_STATUS_RELEASED']),
	});
	expect({ run, releaseDates: items.map((item) => typeof item.po_release_date_iso) }).toEqual({
		run,
		releaseDates: items.map(() => 'string'),
	});
}

/** When each login in the emulator's request log happened: after how many GetPurchaseOrder calls. */
async function loginTimes(): Promise<string[]> {
	const requests = await control<
		Array<{ seq: number; operation: string | null; status: number | null }>
	>(emu, 'GET', '/requests');
	return requests
		.map((entry, index) => ({
			entry,
			before: requests.slice(0, index).filter((e) => e.operation === 'GetPurchaseOrder').length,
		}))
		.filter(({ entry }) => entry.operation === LOGIN_OPERATION)
		.map(
			({ entry, before }) => `login (HTTP ${entry.status}) after ${before} GetPurchaseOrder calls`,
		);
}

// --- check 4: every read operation ------------------------------------------------------------------

const BARCODE_ROWS = [
	{ partner_sku: 'SKU-TSHIRT-BLK-M', barcode: '6291041500213' },
	{ partner_sku: 'SKU-MUG-WHT', barcode: '6291041500237' },
	{ partner_sku: 'SKU-KETTLE-17L', barcode: 62910415002440 },
];

/** Manual trigger → each read operation, and the barcode rows → Create barcode import → Import status. */
const readsWorkflow = () =>
	workflow(
		'e2e: every read operation',
		[
			manualTrigger(),
			sellerPlatform('Exchange token', credential, {
				resource: 'oauth',
				operation: 'exchangeToken',
				accessToken: SEEDED_OAUTH_TOKENS.issuesCredentials,
			}),
			sellerPlatform('Export status', credential, {
				resource: 'export',
				operation: 'getStatus',
				exportCode: SEEDED_EXPORTS.complete,
			}),
			sellerPlatform('Purchase order', credential, {
				resource: 'purchaseOrder',
				operation: 'get',
				poNr: SEEDED_PO.released,
			}),
			sellerPlatform('Customer data', credential, {
				resource: 'fbpiOrder',
				operation: 'getCustomerData',
				fbpiOrderNr: SEEDED_FBPI_ORDERS.dubai,
			}),
			code('Barcode rows', `return ${JSON.stringify(BARCODE_ROWS)}.map((json) => ({ json }));`),
			sellerPlatform('Create barcode import', credential, {
				resource: 'import',
				operation: 'createBarcode',
				source: 'items',
				itemsInput: 'fromInputItems',
				partnerSkuField: 'partner_sku',
				barcodeField: 'barcode',
				clientReference: `e2e-barcodes-${Date.now()}`,
				options: { waitForCompletion: true, pollIntervalSeconds: 0.2, timeoutSeconds: 60 },
			}),
			sellerPlatform('Import status', credential, {
				resource: 'import',
				operation: 'getStatus',
				reference: '={{ $json.import_reference }}',
			}),
		],
		[
			[MANUAL, 'Exchange token'],
			[MANUAL, 'Export status'],
			[MANUAL, 'Purchase order'],
			[MANUAL, 'Customer data'],
			[MANUAL, 'Barcode rows'],
			['Barcode rows', 'Create barcode import'],
			['Create barcode import', 'Import status'],
		],
	);

function expectExchangeToken(exchange: Record<string, unknown>): void {
	expect(exchange.project_code).toEqual(emu.credential.project_code);
	// The credential it issues (the failure shows the whole item).
	expect(exchange).toMatchObject({
		result: { client_id: expect.any(String), client_secret: expect.any(String) },
	});
}

function expectExportStatus(exported: Record<string, unknown>): void {
	expect(exported.export_code).toEqual(SEEDED_EXPORTS.complete);
	expect(exported.export_status).toEqual('COMPLETE');
	// The download address is the gateway's.
	expect(exported.download_url).toEqual(expect.any(String));
	expect((exported.download_url as string).slice(0, emu.baseUrl.length)).toBe(emu.baseUrl);
}

function expectPurchaseOrder(po: Record<string, unknown>): void {
	expect(po.po_nr).toEqual(SEEDED_PO.released);
	expect(po.po_status).toEqual('PO_STATUS_RELEASED');
	expect(po.po_release_date_iso).toEqual('2024-03-15');
	expect((po.po_lines as unknown[]).length).toEqual(3);
}

function expectCustomerData(customer: Record<string, unknown>): void {
	const seeded = SEEDED_FBPI_CUSTOMERS[SEEDED_FBPI_ORDERS.dubai];
	expect([
		customer.fbpi_order_nr,
		customer.first_name,
		customer.last_name,
		customer.city,
		customer.administrative_division,
	]).toEqual([
		SEEDED_FBPI_ORDERS.dubai,
		seeded.first_name,
		seeded.last_name,
		seeded.city,
		seeded.administrative_division,
	]);
}

/** The import waited for completion, its status reads the same, and the emulator lists it. */
async function expectBarcodeImport(
	created: Record<string, unknown>,
	status: Record<string, unknown>,
): Promise<void> {
	expect(created.mappings_count).toEqual(3);
	// import_status after waiting (the failure shows the whole item).
	expect(created).toMatchObject({ import_status: 'IMPORT_STATUS_COMPLETED' });
	expect(created.waitTimedOut).toEqual(false);

	expect(status.import_reference).toEqual(created.import_reference);
	expect(status.import_status).toEqual('IMPORT_STATUS_COMPLETED');
	expect((status.report as { success_count?: number }).success_count).toEqual(3);
	const imported = await control<Array<{ import_reference: string; mappings?: unknown[] }>>(
		emu,
		'GET',
		'/imports',
	);
	expect(imported.map((i) => i.import_reference)).toContain(created.import_reference);
}

// --- check 6: the trigger ---------------------------------------------------------------------------

/** The destination points at this n8n's webhook, with a fresh secret, subscribed to FBPI::ORDER_SYNC. */
async function expectDestinationTaken(code: string): Promise<DestinationState> {
	// n8n 2.x publishes an activation through its outbox: the destination changes a moment later.
	const taken = await waitFor(`destination ${code} to point at n8n`, async () => {
		const current = await destination(emu, code);
		return current?.url.startsWith(n8nInstance.baseUrl) ? current : undefined;
	});
	// This n8n's (production) webhook.
	expect(taken.url.slice(0, `${n8nInstance.baseUrl}/webhook/`.length)).toBe(
		`${n8nInstance.baseUrl}/webhook/`,
	);
	expect(taken.is_active).toEqual(true);
	expect(Object.keys(taken.credentials)).toEqual([SECRET_HEADER]);
	// The secret: 32 random bytes in hex.
	expect(taken.credentials[SECRET_HEADER]).toMatch(/^[0-9a-f]{64}$/);
	expect(taken.event_types).toContainEqual(
		expect.objectContaining({ event_type: 'FBPI::ORDER_SYNC', is_active: true }),
	);
	return taken;
}

/** The example "create a sandbox order" runs; its order's event runs the trigger workflow. */
async function expectSandboxOrderRunsTrigger(trigger: StoredWorkflow, code: string): Promise<void> {
	const before = (await client.executions(trigger.id)).length;
	const sandbox = await client.runAndWait(example('create-sandbox-order.json'));
	expectSucceeded(sandbox);
	const orderNr = single(sandbox, 'Create sandbox order').fbpi_order_nr as string;
	// An fbpi_order_nr from the sandbox order.
	expect(orderNr).toEqual(expect.any(String));
	expect(orderNr.length).toBeGreaterThan(0);
	const sandboxOrders = await control<Array<{ warehouse_code?: string; fbpi_order_nr?: string }>>(
		emu,
		'GET',
		'/sandbox-orders',
	);
	// The emulator has the sandbox order, in the Dubai warehouse.
	expect(
		sandboxOrders.filter(
			(o) =>
				JSON.stringify(o).includes(orderNr) && JSON.stringify(o).includes(SEEDED_WAREHOUSES.dubai),
		),
	).not.toHaveLength(0);

	const runId = await waitFor('the trigger workflow to run', async () => {
		const runs = await client.executions(trigger.id);
		return runs.length > before ? runs[0].id : undefined;
	});
	const run = await client.waitForExecution(runId);
	expectSucceeded(run);
	const event = single(run, 'Seller Platform Trigger');
	expect(event.event_type).toEqual('FBPI::ORDER_SYNC');
	expect((event.payload as { order_nr?: string }).order_nr).toEqual(orderNr);
	const customer = single(run, 'Customer');
	// order_nr after Get customer data, and a city (the failure shows the whole item).
	expect(customer).toMatchObject({ order_nr: orderNr, city: expect.stringMatching(/[\s\S]/) });

	const deliveries = await control<
		Array<{
			body: { payload?: { order_nr?: string } };
			outcome: string;
			attempts: Array<{ status: number }>;
		}>
	>(emu, 'GET', `/deliveries?destinationCode=${code}`);
	const delivery = deliveries.find((d) => d.body.payload?.order_nr === orderNr);
	// The emulator recorded the delivery of the order: delivered, answered 200.
	expect(delivery).toBeDefined();
	expect([delivery!.outcome, delivery!.attempts.at(-1)?.status]).toEqual(['delivered', 200]);
}

/**
 * An authentic delivery sent by hand: n8n answers it 200 `{ "received": true }` (the node lets
 * n8n answer), and in n8n 2.x only once its execution exists: n8n set the execution running
 * (`startedAt`) before the answer arrived. n8n 1.x answers while it creates the execution
 * (docs/triggers.md), so there only the answer is checked.
 */
async function expectDeliveryAnsweredOnceItsExecutionExists(
	trigger: StoredWorkflow,
	taken: DestinationState,
): Promise<void> {
	const before = (await client.executions(trigger.id)).length;
	const delivery = {
		event_schema_version: '1.0',
		event_type: 'FBPI::ORDER_SYNC',
		metadata: {
			published_at: new Date().toISOString(),
			project_code: emu.credential.project_code,
			message_id: `answered-${Date.now()}`,
		},
		payload: { order_nr: SEEDED_FBPI_ORDERS.dubai },
	};
	const response = await fetch(taken.url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			[SECRET_HEADER]: taken.credentials[SECRET_HEADER],
		},
		body: JSON.stringify(delivery),
	});
	const answeredAt = Date.now();
	expect({ status: response.status, body: await response.json() }).toEqual({
		status: 200,
		body: { received: true },
	});
	const runId = await waitFor(
		'the trigger workflow to run for the hand-sent delivery',
		async () => {
			const runs = await client.executions(trigger.id);
			return runs.length > before ? runs[0].id : undefined;
		},
	);
	const run = await client.waitForExecution(runId);
	expectSucceeded(run);
	expect(single(run, 'Seller Platform Trigger').metadata).toEqual(delivery.metadata);
	if (N8N_MAJOR >= 2) {
		const started = Date.parse(run.startedAt);
		expect({ startedAt: run.startedAt, beforeTheAnswer: started <= answeredAt }).toEqual({
			startedAt: run.startedAt,
			beforeTheAnswer: true,
		});
	}
}

/** A delivery without the secret header, and one with a wrong secret: 401, no execution. */
async function expectForgedDeliveriesRefused(trigger: StoredWorkflow, url: string): Promise<void> {
	const runsBefore = (await client.executions(trigger.id)).length;
	const event401 = {
		event_schema_version: '1.0',
		event_type: 'FBPI::ORDER_SYNC',
		metadata: {
			published_at: new Date().toISOString(),
			project_code: emu.credential.project_code,
			message_id: `forged-${Date.now()}`,
		},
		payload: { order_nr: SEEDED_FBPI_ORDERS.dubai },
	};
	for (const [delivery, headers] of [
		['without the secret header', {}],
		['with a wrong secret', { [SECRET_HEADER]: '0'.repeat(64) }],
	] as Array<[string, Record<string, string>]>) {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: JSON.stringify(event401),
		});
		expect({ delivery, status: response.status }).toEqual({ delivery, status: 401 });
	}
	await sleep(1500);
	// No execution after the forged deliveries.
	expect((await client.executions(trigger.id)).length).toEqual(runsBefore);
}

/** After deactivation: the destination inactive, without headers, FBPI::ORDER_SYNC unsubscribed. */
async function expectDestinationReleased(code: string): Promise<void> {
	const released = await waitFor(`destination ${code} to be deactivated`, async () => {
		const current = await destination(emu, code);
		return current && !current.is_active ? current : undefined;
	});
	expect(released.is_active).toEqual(false);
	expect(released.credentials).toEqual({});
	expect(released.event_types).toContainEqual(
		expect.objectContaining({ event_type: 'FBPI::ORDER_SYNC', is_active: false }),
	);
}

// --- check 7: listening for a test event while active ----------------------------------------------

const TRIGGER_NAME = 'Seller Platform Trigger';
const POLL_TRIGGER_NAME = 'Seller Platform Poll Trigger';

/** The destination once it points at this n8n's production webhook, with the secret header only. */
async function productionDestination(code: string): Promise<DestinationState> {
	const production = await waitFor(
		`destination ${code} to point at this n8n's production webhook`,
		async () => {
			const current = await destination(emu, code);
			return current?.is_active && current.url.startsWith(`${n8nInstance.baseUrl}/webhook/`)
				? current
				: undefined;
		},
	);
	// The destination's headers after activation: the secret.
	expect(production.credentials).toMatchObject({
		[SECRET_HEADER]: expect.stringMatching(/[\s\S]/),
	});
	return production;
}

/**
 * The editor's "Listen for test event": n8n registers the trigger's /webhook-test/ URL, which runs
 * the trigger's checkExists/create; create must refuse, naming the production webhook.
 */
async function expectTestListeningRefused(trigger: StoredWorkflow, code: string): Promise<void> {
	let answer: unknown;
	let refusal: N8nRestError | undefined;
	try {
		answer = await client.listenForTestEvent(trigger, TRIGGER_NAME);
	} catch (error) {
		if (!(error instanceof N8nRestError)) throw error;
		refusal = error;
	}
	if ((answer as { waitingForWebhook?: boolean } | undefined)?.waitingForWebhook) {
		// n8n listens: stop listening, as the editor's "Stop listening" does (the trigger's delete runs).
		await client.stopListening(trigger.id);
		await sleep(1000);
	}
	// The failure shows what n8n answered instead, the refusal's body and the destination now.
	expect({
		answer,
		refusal: refusal?.message,
		body: refusal?.body,
		destination: await destination(emu, code),
	}).toMatchObject({
		refusal: expect.stringContaining(
			`Destination "${code}" is registered to this workflow's production webhook, so it cannot listen for test events now`,
		),
	});
}

/** A new event is still delivered to the production webhook and runs the workflow. */
async function expectEventRunsProductionWorkflow(
	trigger: StoredWorkflow,
	code: string,
	productionUrl: string,
): Promise<void> {
	const before = (await client.executions(trigger.id)).length;
	const published = await control<{
		message_id: string;
		deliveries: Array<{ destination_code: string }>;
	}>(emu, 'POST', '/events', {
		event_type: 'FBPI::ORDER_SYNC',
		payload: { order_nr: SEEDED_FBPI_ORDERS.dubai },
	});
	// The event is planned for the destination.
	expect(published.deliveries.map((d) => d.destination_code)).toContain(code);
	const runId = await waitFor('the trigger workflow to run for the new event', async () => {
		const runs = await client.executions(trigger.id);
		return runs.length > before ? runs[0].id : undefined;
	});
	const run = await client.waitForExecution(runId);
	expectSucceeded(run);
	// A production execution.
	expect(run.mode).toEqual('webhook');
	expect((single(run, TRIGGER_NAME).payload as { order_nr?: string }).order_nr).toEqual(
		SEEDED_FBPI_ORDERS.dubai,
	);
	const deliveries = await control<
		Array<{
			message_id: string;
			url?: string;
			outcome: string;
			attempts: Array<{ status: number }>;
		}>
	>(emu, 'GET', `/deliveries?destinationCode=${code}`);
	const delivery = deliveries.find((d) => d.message_id === published.message_id);
	// The emulator recorded the delivery of the event: to the production webhook, answered 200.
	expect(delivery).toBeDefined();
	expect([delivery!.url, delivery!.outcome, delivery!.attempts.at(-1)?.status]).toEqual([
		productionUrl,
		'delivered',
		200,
	]);
}

// --- check 8: stopping an execution -----------------------------------------------------------------

const WAITER = 'Wait for export';

/**
 * After a stop n8n pushes nothing more about the node to the editor and saves nothing more (it
 * skips nodeExecuteAfter once cancelled): its engine's log line is where the node's end shows.
 */
const WAITER_END_LINE = new RegExp(`^.*Running node "${WAITER}" finished.*$`, 'm');

/** Manual trigger → Get export status, waiting for completion with a poll every `pollSeconds`. */
const exportWaiterWorkflow = (exportCode: string, pollSeconds: number) =>
	workflow(
		'e2e: wait for an export that never finishes',
		[
			manualTrigger(),
			sellerPlatform(WAITER, credential, {
				resource: 'export',
				operation: 'getStatus',
				exportCode,
				options: {
					waitForCompletion: true,
					pollIntervalSeconds: pollSeconds,
					timeoutSeconds: 300,
				},
			}),
		],
		[[MANUAL, WAITER]],
	);

/** The GetExportStatus requests for `exportCode` in the emulator's request log. */
const exportStatusCalls = async (exportCode: string) =>
	(
		await control<
			Array<{
				seq: number;
				at: number;
				operation: string | null;
				body: unknown;
				status: number | null;
			}>
		>(emu, 'GET', '/requests')
	).filter(
		(entry) =>
			entry.operation === 'GetExportStatus' &&
			(entry.body as { export_code?: string } | null)?.export_code === exportCode,
	);

/** When n8n logs the waiting node's end, within 15 s of `stopAt`: how long after, and the line. */
async function waiterEnd(stopAt: number) {
	while (Date.now() - stopAt < 15_000) {
		const line = WAITER_END_LINE.exec(n8nInstance.output());
		if (line) return { afterMs: Date.now() - stopAt, line: line[0].trim() };
		await sleep(20);
	}
	return undefined;
}

// --- check 9: the installed package ----------------------------------------------------------------

/**
 * installPackageInto: npm pack, unpacked into the nodes folder, its dev and peer dependencies
 * dropped, `npm install` there with n8n's flags (scripts off) plus --omit=dev; the data folder is
 * outside the repository. The package alone, with no dependency of its own.
 */
function expectInstalledAsN8nInstallsIt(): void {
	const manifest = JSON.parse(readFileSync(join(installedAt, 'package.json'), 'utf8')) as {
		name: string;
		dependencies?: Record<string, string>;
	};
	expect(manifest.name).toEqual(PACKAGE_NAME);
	expect(manifest.dependencies ?? {}).toEqual({});
	const own = join(installedAt, 'node_modules');
	// No node_modules of its own.
	expect(existsSync(own) ? readdirSync(own) : []).toEqual([]);
	// The only package in n8n's nodes folder.
	expect(
		readdirSync(join(dataDir, '.n8n', 'nodes', 'node_modules')).filter(
			(name) => !name.startsWith('.'),
		),
	).toEqual([PACKAGE_NAME]);
	// The data folder is outside the repository.
	expect(join(dataDir).startsWith(REPO_ROOT)).toBe(false);
}

/**
 * What the package does not find beside itself, Node looks up on NODE_PATH, which n8n sets to its
 * own module paths: n8n's own luxon and n8n-workflow come first there (not the repository's
 * development copies, further up the same list).
 */
function expectN8nLookupFindsItsOwn(modules: string[]): void {
	const n8nRequire = createRequire(join(n8nInstall().dir, 'node_modules', 'n8n', 'package.json'));
	const n8nModules = join(n8nInstall().dir, 'node_modules');
	for (const module of modules) {
		const resolved = n8nRequire.resolve(module);
		// Inside n8n's install (the failure shows where it was found).
		expect({ module, resolved, inside: resolved.startsWith(n8nModules) }).toMatchObject({
			inside: true,
		});
	}
}

// --- check 10: the AI Agent -------------------------------------------------------------------------

/** Manual trigger → AI Agent, with the fake OpenAI chat model and the Seller Platform tool. */
function agentWorkflow(openAi: StoredCredential): WorkflowJson {
	const toolNode = {
		...sellerPlatform('Seller Platform', credential, {
			resource: 'purchaseOrder',
			operation: 'get',
			poNr: "={{ $fromAI('po_nr', 'The number of the purchase order, e.g. PO-1001', 'string') }}",
		}),
		type: TOOL_TYPE,
	};
	return {
		name: 'e2e: AI agent with the Seller Platform tool',
		nodes: [
			manualTrigger(),
			{
				id: 'e2e-agent',
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				// The newest AI Agent of each: 3.1 in n8n 2.x, 3 in 1.x.
				typeVersion: N8N_MAJOR >= 2 ? 3.1 : 3,
				position: [440, 300],
				parameters: {
					promptType: 'define',
					text: `What is the status of purchase order ${SEEDED_PO.released}?`,
					options: {},
				},
			},
			{
				id: 'e2e-model',
				name: 'OpenAI Chat Model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: 1.3,
				position: [440, 500],
				// Chat Completions (1.3 defaults to the Responses API).
				parameters: {
					model: { __rl: true, mode: 'id', value: 'fake-model' },
					responsesApiEnabled: false,
					options: {},
				},
				credentials: { openAiApi: { id: openAi.id, name: openAi.name } },
			},
			toolNode,
		],
		connections: {
			[MANUAL]: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': {
				ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
			},
			'Seller Platform': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/**
 * What the model was offered: the operation as a tool, described as an action, with the parameter
 * the workflow left to the model; then a second request (tool call, then answer).
 */
function expectToolOffered(model: FakeOpenAi): void {
	const first = model.requests[0];
	// The chat model got a request.
	expect(first).toBeDefined();
	const tools = first.body.tools ?? [];
	expect(tools.length).toEqual(1);
	expect(tools[0].function.name).toEqual('Seller_Platform');
	// The description is the tool's Description the node fills in for the operation.
	expect(tools[0].function.description).toEqual(toolDescriptionOf('purchaseOrder', 'get'));
	expect(tools[0].function.parameters?.properties).toEqual({
		po_nr: {
			type: 'string',
			description: 'The number of the purchase order, e.g. PO-1001',
		},
	});
	expect(model.requests.length).toEqual(2);
}

/** The tool ran the operation against the emulator, and its output went back to the model. */
async function expectToolRanTheOperation(model: FakeOpenAi): Promise<void> {
	const calls = (
		await control<Array<{ operation: string | null; path: string; status: number | null }>>(
			emu,
			'GET',
			'/requests',
		)
	).filter((entry) => entry.operation === 'GetPurchaseOrder');
	expect(calls.map((c) => [c.path, c.status])).toEqual([
		[`/fbpo/v1/po/${SEEDED_PO.released}/get`, 200],
	]);
	const toolMessage = model.requests[1].body.messages.find((m) => m.role === 'tool');
	// The second request carries the tool result: the order.
	expect(toolMessage).toBeDefined();
	expect(String(toolMessage!.content)).toContain('"merchant_code"');
}

// --- check 11: n8n's HTTP Request node with the credential -----------------------------------------

/** An entry of the emulator's request log. */
type Logged = {
	operation: string | null;
	status: number | null;
	headers: Record<string, string | string[]>;
	body: unknown;
};

const requestLog = async () => await control<Logged[]>(emu, 'GET', '/requests');

/** The operations and statuses of a request log, in order. */
const summary = (log: Logged[]) => log.map((entry) => `${entry.operation} ${entry.status}`);

/** n8n's HTTP Request node: GET the released purchase order with the Seller Platform credential. */
const httpRequestNode = (fresh: StoredCredential): WorkflowNode => ({
	id: 'e2e-http-request',
	name: 'HTTP Request',
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	position: [440, 300],
	parameters: {
		method: 'GET',
		url: `${emu.baseUrl}/fbpo/v1/po/${SEEDED_PO.released}/get`,
		authentication: 'predefinedCredentialType',
		nodeCredentialType: CREDENTIAL_TYPE,
		options: {},
	},
	credentials: { [CREDENTIAL_TYPE]: { id: fresh.id, name: fresh.name } },
});

/** Runs the workflow on an empty request log: it succeeds with the order. Its execution and log. */
async function runHttpRequest(wf: StoredWorkflow, run: string) {
	await control(emu, 'DELETE', '/requests');
	const execution = await client.runAndWait(wf);
	expectSucceeded(execution);
	const item = single(execution, 'HTTP Request');
	expect({ run, po_nr: item.po_nr, merchant_code: item.merchant_code }).toEqual({
		run,
		po_nr: SEEDED_PO.released,
		merchant_code: 'STR10001',
	});
	return { execution, log: await requestLog() };
}

/** `text` holds none of the secrets (the failure names those it holds, not their values). */
function expectNoSecrets(text: string, secrets: Record<string, string>): void {
	const held = Object.entries(secrets)
		.filter(([, secret]) => text.includes(secret))
		.map(([name]) => name);
	expect(held).toEqual([]);
}

/**
 * The same node and credential pointed at another loopback server (a user of a shared credential
 * typing their own URL): nothing reaches it, nor the gateway, and the execution says why.
 */
async function expectNothingSentToAnotherHost(
	httpRequest: WorkflowNode,
	secrets: Record<string, string>,
): Promise<void> {
	const foreign = await startForeignServer();
	try {
		const gateway = new URL(emu.baseUrl).origin;
		for (const [method, path] of [
			['GET', `/fbpo/v1/po/${SEEDED_PO.released}/get`],
			['POST', '/identity/public/v1/api/login'],
		] as const) {
			const elsewhere = await client.createWorkflow(
				workflow(
					`e2e: HTTP Request with the credential to another host (${method})`,
					[
						manualTrigger(),
						{
							...httpRequest,
							id: `e2e-http-request-elsewhere-${method}`,
							parameters: { ...httpRequest.parameters, method, url: `${foreign.url}${path}` },
						},
					],
					[[MANUAL, 'HTTP Request']],
				),
			);
			await control(emu, 'DELETE', '/requests');
			const execution = await client.runAndWait(elsewhere);
			const error = execution.data.resultData.error;
			expect({ method, status: execution.status, error: error?.message }).toEqual({
				method,
				status: 'error',
				error: `The Seller Platform API credential sends its session and login token only to its Base URL (${gateway}): this request to ${foreign.url} was not sent`,
			});
			// No request to the gateway either (no login).
			expect(summary(await requestLog())).toEqual([]);
			// No secret in the failed execution.
			expectNoSecrets(JSON.stringify(execution), secrets);
		}
		// Nothing reached the other host.
		expect(foreign.received.length).toEqual(0);
	} finally {
		await foreign.close();
	}
}

/**
 * The HTTP Request node posting to the gateway's login endpoint with "Full Response" on: refused
 * before anything is sent, so no login token and no `Set-Cookie` session reach its output.
 */
async function expectNoLoginThroughTheNode(httpRequest: WorkflowNode): Promise<void> {
	const wf = await client.createWorkflow(
		workflow(
			'e2e: HTTP Request with the credential to the login endpoint',
			[
				manualTrigger(),
				{
					...httpRequest,
					id: 'e2e-http-request-login',
					parameters: {
						...httpRequest.parameters,
						method: 'POST',
						url: `${emu.baseUrl}/identity/public/v1/api/login`,
						options: { response: { response: { fullResponse: true } } },
					},
				},
			],
			[[MANUAL, 'HTTP Request']],
		),
	);
	await control(emu, 'DELETE', '/requests');
	const execution = await client.runAndWait(wf);
	expect({ status: execution.status, error: execution.data.resultData.error?.message }).toEqual({
		status: 'error',
		error:
			'The Seller Platform API credential adds its session or login token only to requests that go straight to its Base URL: this request to the login endpoint was not sent',
	});
	expect(summary(await requestLog())).toEqual([]);
	expect(JSON.stringify(execution)).not.toMatch(/set-cookie/i);
}

// --- check 11b: what n8n keeps on the error of a failed request ---------------------------------

/** A purchase order the gateway does not know: 404. */
const MISSING_PO = 'PO-E2E-NO-SUCH-ORDER';

/**
 * Manual → `failing` (On Error: Continue; n8n's HTTP Request node gets MISSING_PO's URL) → "Read"
 * (Edit Fields), whose `cookie` is what an expression finds at
 * `$json.error.cause.options.headers.Cookie` (where n8n's legacy request helper keeps it), or ''.
 */
function continuedFailure(failing: WorkflowNode): WorkflowJson {
	const url = `${emu.baseUrl}/fbpo/v1/po/${MISSING_PO}/get`;
	const read = {
		...node('Read', 'n8n-nodes-base.set', {
			assignments: {
				assignments: [
					{
						id: 'e2e-read-cookie',
						name: 'cookie',
						type: 'string',
						value: "={{ $json.error?.cause?.options?.headers?.Cookie ?? '' }}",
					},
				],
			},
			options: {},
		}),
		typeVersion: 3.4,
	};
	const parameters =
		failing.type === NODE_TYPE ? failing.parameters : { ...failing.parameters, url };
	return workflow(
		`e2e: a failed request of ${failing.type}, On Error: Continue`,
		[manualTrigger(), { ...failing, parameters, onError: 'continueRegularOutput' }, read],
		[
			[MANUAL, failing.name],
			[failing.name, 'Read'],
		],
	);
}

// --- check 19: n8n answers while a 20,000-row batch runs --------------------------------------------

const BIG_STOCK_ROWS = 20_000;
const BIG_STOCK_NODE = 'Update stock';
/**
 * A big sync in n8n: /healthz every 100 ms, none kept waiting over 1 s and half of them answered
 * within 100 ms; a trigger delivery answered within 1 s. The single-request limit leaves room for
 * a loaded CI machine (CI runs 2.x and 1.x side by side on 2 cores: one request waited 598 ms
 * there); a node that held n8n's event loop for its batch would keep requests waiting seconds.
 */
const HEALTHZ_EVERY_MS = 100;
const HEALTHZ_LIMIT_MS = 1_000;
const HEALTHZ_MEDIAN_LIMIT_MS = 100;
const DELIVERY_LIMIT_MS = 1_000;
/**
 * The run's pace: the credential's Requests per Minute (600: at most 100 requests in any 10 s)
 * and the emulator's latency make the 200 requests of 100 rows last about 20 s.
 */
const BIG_STOCK_PER_MINUTE = 600;
const BIG_STOCK_LATENCY = { ms: 50, jitterMs: 25 };

/**
 * Manual trigger → 20,000 rows with the columns named as the API names them → Stock → Update
 * with Map Automatically (each item's own fields are its row).
 */
const bigStockWorkflow = (paced: StoredCredential) =>
	workflow(
		`e2e: ${BIG_STOCK_ROWS} stock rows`,
		[
			manualTrigger(),
			code(
				'Stock rows',
				`return Array.from({ length: ${BIG_STOCK_ROWS} }, (_, i) => ({ json: { warehouse_code: '${SEEDED_WAREHOUSES.dubai}', partner_sku: 'SKU-HZ-' + String(i + 1).padStart(5, '0'), qty: i % 97 } }));`,
			),
			sellerPlatform(BIG_STOCK_NODE, paced, {
				resource: 'stock',
				operation: 'update',
				mappingMode: 'autoMapInputData',
			}),
		],
		[
			[MANUAL, 'Stock rows'],
			['Stock rows', BIG_STOCK_NODE],
		],
	);

/** UpdateStock requests the emulator has received so far. */
const updateStockRequests = async () => (await stats(emu)).byOperation.UpdateStock ?? 0;

/** A delivery of the emulator to a destination, as `GET /__control/deliveries` lists it. */
type Delivery = {
	message_id: string;
	outcome: string;
	attempts: Array<{ at: string; status?: number; error?: string; duration_ms: number }>;
};

/**
 * Publishes an FBPI::ORDER_SYNC event (the emulator delivers it to the destination, as noon
 * does) and waits for its first delivery attempt to end; with the UpdateStock requests received
 * by then.
 */
async function deliverOrderSync(code: string) {
	const published = await control<{
		message_id: string;
		deliveries: Array<{ destination_code: string }>;
	}>(emu, 'POST', '/events', {
		event_type: 'FBPI::ORDER_SYNC',
		payload: { order_nr: SEEDED_FBPI_ORDERS.dubai },
	});
	expect(published.deliveries.map((d) => d.destination_code)).toContain(code);
	const delivery = await waitFor(
		'the delivery to be answered',
		async () => {
			const all = await control<Delivery[]>(emu, 'GET', `/deliveries?destinationCode=${code}`);
			const found = all.find((d) => d.message_id === published.message_id);
			return found?.attempts.length ? found : undefined;
		},
		10_000,
		20,
	);
	return { delivery, updatesByThen: await updateStockRequests() };
}

/** The trigger workflow's execution for the delivery: a production run that succeeded. */
async function expectDeliveryRan(trigger: StoredWorkflow, before: number): Promise<void> {
	const runId = await waitFor('the trigger workflow to run for the delivery', async () => {
		const runs = await client.executions(trigger.id);
		return runs.length > before ? runs[0].id : undefined;
	});
	const run = await client.waitForExecution(runId);
	expectSucceeded(run);
	expect(run.mode).toEqual('webhook');
}

/** Waits for an execution to end, reading its status only (not its 20,000 items' data). */
const executionEnded = async (workflowId: string, id: string) =>
	await waitFor(
		`execution ${id} to end`,
		async () => {
			const listed = (await client.executions(workflowId)).find((e) => e.id === id);
			return listed && !['new', 'running', 'waiting'].includes(listed.status) ? listed : undefined;
		},
		300_000,
		250,
	);

describe(`the package in a real n8n ${N8N_MAJOR}.x`, () => {
	check(
		'1. n8n loads the package: both nodes, the AI tool n8n makes of the action node and the credential type are known',
		async () => {
			// The n8n asked for (E2E_N8N): its version as n8n reports it.
			const { versionCli } = await client.request<{ versionCli: string }>('GET', '/rest/settings');
			log(`e2e: n8n ${versionCli}`);
			expect({ versionCli, major: versionCli.split('.')[0] }).toEqual({
				versionCli,
				major: String(N8N_MAJOR),
			});
			const nodes = await client.nodeTypeNames();
			expect(nodes).toEqual(expect.arrayContaining([NODE_TYPE, TRIGGER_TYPE, TOOL_TYPE]));
			const credentials = await client.credentialTypeNames();
			expect(credentials).toContain(CREDENTIAL_TYPE);
			// n8n logged no failure to load the package.
			expect(outputLines(/Failed to load package "n8n-nodes-seller-platform"/)).toEqual([]);
		},
	);

	check("2a. the credential's Test checks a session against the emulator", async () => {
		await control(emu, 'DELETE', '/requests');
		const result = await client.testCredential(credential, credentialData);
		// The whole result in the failure: its message says why.
		expect(result).toMatchObject({ status: 'OK' });
		// n8n logs in through preAuthentication when it has no session to use (or the service
		// refuses it), then the Test asks whose session it is.
		expect(summary(await requestLog())).toContain('Whoami 200');
	});

	check("2b. Test with a wrong private key fails with the service's message", async () => {
		const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
		const wrongKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
		const result = await client.testCredential(credential, {
			...credentialData,
			privateKey: wrongKey,
		});
		expect(result.status).toEqual('Error');
		expect(result.message).toContain('Seller Platform login failed: invalid token signature');
		// The message does not show the private key.
		expect(result.message).not.toContain('PRIVATE KEY');
	});

	check(
		'3. 200 purchase orders in one run: one login; a second run none; after the sessions expire, one more',
		async () => {
			const bulk = await client.createWorkflow(
				bulkWorkflow(await freshCredential('Seller Platform (e2e bulk)')),
			);
			await control(emu, 'DELETE', '/requests');
			const s0 = await stats(emu);
			expectEveryOrderRead(await client.runAndWait(bulk), 'first run');
			const s1 = await stats(emu);
			// One login; the failure says when each login happened.
			expect({ logins: s1.logins - s0.logins, when: await loginTimes() }).toMatchObject({
				logins: 1,
			});
			// GetPurchaseOrder calls of the first run.
			expect(
				(s1.byOperation.GetPurchaseOrder ?? 0) - (s0.byOperation.GetPurchaseOrder ?? 0),
			).toEqual(200);

			expectEveryOrderRead(await client.runAndWait(bulk), 'second run');
			const s2 = await stats(emu);
			// No login during the second run (n8n kept the session).
			expect(s2.logins - s1.logins).toEqual(0);

			await control(emu, 'POST', '/sessions/expire', {});
			expectEveryOrderRead(await client.runAndWait(bulk), 'run after the sessions expired');
			const s3 = await stats(emu);
			// One login during the run after the sessions expired.
			expect(s3.logins - s2.logins).toEqual(1);
		},
	);

	check(
		'4. every read operation and a barcode import from input items give the expected outputs',
		async () => {
			const execution = await client.runAndWait(await client.createWorkflow(readsWorkflow()));
			expectSucceeded(execution);
			expectExchangeToken(single(execution, 'Exchange token'));
			expectExportStatus(single(execution, 'Export status'));
			expectPurchaseOrder(single(execution, 'Purchase order'));
			expectCustomerData(single(execution, 'Customer data'));
			await expectBarcodeImport(
				single(execution, 'Create barcode import'),
				single(execution, 'Import status'),
			);
		},
	);

	check(
		'5a. example "released purchase orders to a sheet" runs: three released orders, one CSV file',
		async () => {
			const execution = await client.runAndWait(example('purchase-orders-to-sheet.json'));
			expectSucceeded(execution);
			const rows = outputOf(execution, 'Sheet rows');
			// The released orders.
			expect(rows.map((row) => row.po_nr)).toEqual(['PO-1001', 'PO-1002', 'PO-1003']);
			expect(rows[0]).toEqual({
				po_nr: 'PO-1001',
				release_date: '2024-03-15',
				currency: 'AED',
				merchant_code: 'STR10001',
				warehouse_code: 'WH-DXB-01',
				lines: 3,
				total_cost: 3934,
			});
			const files = binaryOf(execution, 'To CSV file');
			expect(files.length).toEqual(1);
			expect(files[0].data?.fileName).toEqual('released-purchase-orders.csv');
		},
	);

	check('5b. example "barcode import from a CSV file" runs: five mappings imported', async () => {
		const execution = await client.runAndWait(example('barcode-import-from-csv.json'));
		expectSucceeded(execution);
		// The rows of the CSV file.
		expect(outputOf(execution, 'Extract rows').length).toEqual(5);
		const created = single(execution, 'Create barcode import');
		expect([created.mappings_count, created.import_status]).toEqual([5, 'IMPORT_STATUS_COMPLETED']);
	});

	check(
		'5c. example "wait for an export and download it" runs: the finished export\'s rows',
		async () => {
			const execution = await client.runAndWait(example('export-download.json'));
			expectSucceeded(execution);
			const status = single(execution, 'Get export and download');
			expect([status.export_code, status.export_status, status.waitTimedOut]).toEqual([
				SEEDED_EXPORTS.progressing,
				'COMPLETE',
				false,
			]);
			expect(binaryOf(execution, 'Get export and download')[0].data?.fileName).toEqual(
				`${SEEDED_EXPORTS.progressing}.csv`,
			);
			const rows = outputOf(execution, 'Rows of the export');
			expect(rows.length).toEqual(3);
			expect(rows[0].order_nr).toEqual('NAE10000001');
		},
	);

	check(
		'5d. example "fulfil an FBPI order" runs: one item marked unavailable, the other shipped with a noon AWB; run again for the same order, or after a lost Create answer, it ships nothing twice',
		async () => {
			const fulfilExample = example('fulfil-fbpi-order.json');
			// As the editor's "Execute workflow": from the poll trigger, which hands over the newest order.
			const runFulfil = async () =>
				await client.waitForExecution(await client.run(fulfilExample, 'New FBPI order'));
			const newOrder = async () => {
				const sandbox = await client.runAndWait(example('create-sandbox-order.json'));
				expectSucceeded(sandbox);
				return single(sandbox, 'Create sandbox order').fbpi_order_nr as string;
			};
			const shipmentsOf = async (orderNr: string) =>
				(await control<Array<{ fbpi_order_nr: string }>>(emu, 'GET', '/shipments')).filter(
					(shipment) => shipment.fbpi_order_nr === orderNr,
				);

			// A new order: the poll trigger (run from the editor) hands over the newest one.
			const first = await newOrder();
			const run = await runFulfil();
			expectSucceeded(run);
			expect(single(run, 'Get the order').fbpi_order_nr).toEqual(first);
			const plan = single(run, 'Plan the shipment');
			expect([(plan.unavailable as string[]).length, (plan.to_ship as string[]).length]).toEqual([
				1, 1,
			]);
			expect(single(run, 'Mark unavailable items').out_of_stock_items).toEqual(plan.unavailable);
			const awb = (single(run, 'Generate an AWB').awb_nrs as string[])[0];
			const shipment = single(run, 'Create the shipment');
			expect(shipment).toMatchObject({
				fbpi_order_nr: first,
				integration_shipment_nr: `SHP-${first}`,
			});
			expect(await shipmentsOf(first)).toEqual([
				expect.objectContaining({ awbs: [{ courier: 'noon', awb_nr: awb }] }),
			]);

			// The same order run again: its items are shipped, nothing is created a second time.
			const again = await runFulfil();
			expectSucceeded(again);
			expect(single(again, 'Get the order').fbpi_order_nr).toEqual(first);
			expect(single(again, 'Plan the shipment').to_ship).toEqual([]);
			expect(again.data.resultData.runData['Create the shipment']).toBeUndefined();
			expect(await shipmentsOf(first)).toHaveLength(1);

			// The answer of Create is lost after the shipment was stored: the run fails, the re-run
			// finds the items shipped and creates nothing more.
			const second = await newOrder();
			await control(emu, 'POST', '/faults', {
				operation: 'CreateShipment',
				lostAnswer: true,
				count: 1,
			});
			const failed = await runFulfil();
			expect(failed.status).toEqual('error');
			expect(await shipmentsOf(second)).toHaveLength(1);
			const rerun = await runFulfil();
			expectSucceeded(rerun);
			expect(single(rerun, 'Plan the shipment').to_ship).toEqual([]);
			expect(rerun.data.resultData.runData['Create the shipment']).toBeUndefined();
			expect(await shipmentsOf(second)).toHaveLength(1);
		},
	);

	check(
		'5e. example "send stock to a noon warehouse" runs: an ASN with three items, sealed, booked into the earliest free slot, every request with X-Project',
		async () => {
			type Asn = {
				asn_nr: string;
				status: string;
				items: Array<{ partner_sku: string; qty: number }>;
				dst_warehouse_code: string | null;
				schedule_date: string | null;
				schedule_slot: { start: string; end: string } | null;
			};
			await control(emu, 'DELETE', '/requests');
			const execution = await client.runAndWait(example('send-stock-to-noon-warehouse.json'));
			expectSucceeded(execution);
			const created = single(execution, 'Create the ASN').shipment as Record<string, unknown>;
			expect(created).toMatchObject({ status: 'ASN_STATUS_CREATED', country_code: 'AE' });
			const asnNr = created.asn_nr as string;
			const added = outputOf(execution, 'Add the items');
			expect(added.map((item) => [item.asn_nr, item.partner_sku, item.qty])).toEqual([
				[asnNr, 'SKU-MUG-WHT', 24],
				[asnNr, 'SKU-MUG-BLK', 12],
				[asnNr, 'SKU-TEE-M', 40],
			]);
			expect(single(execution, 'Seal the ASN').shipment).toMatchObject({
				status: 'ASN_STATUS_SEALED',
				expected_qty: 76,
				total_sku_count: 3,
			});
			const earliest = single(execution, 'Get the slots').earliest_slot as Record<string, unknown>;
			expect(earliest).toMatchObject({ dst_warehouse_code: expect.stringMatching(/^FBN-/) });
			const booked = single(execution, 'Book the earliest slot').shipment;
			expect(booked).toMatchObject({
				asn_nr: asnNr,
				status: 'ASN_STATUS_SCHEDULED',
				dst_warehouse_code: earliest.dst_warehouse_code,
				schedule_date: earliest.schedule_date,
				schedule_slot: earliest.schedule_slot,
			});
			// As the emulator keeps it: the items added in one request, the slot booked.
			const stored = (await control<Asn[]>(emu, 'GET', '/fbn-shipments')).find(
				(asn) => asn.asn_nr === asnNr,
			);
			expect(stored).toMatchObject({
				status: 'ASN_STATUS_SCHEDULED',
				items: [
					expect.objectContaining({ partner_sku: 'SKU-MUG-WHT', qty: 24 }),
					expect.objectContaining({ partner_sku: 'SKU-MUG-BLK', qty: 12 }),
					expect.objectContaining({ partner_sku: 'SKU-TEE-M', qty: 40 }),
				],
			});
			const fbn = (
				await control<Array<{ operation: string | null; headers: Record<string, string> }>>(
					emu,
					'GET',
					'/requests',
				)
			).filter((entry) => entry.operation?.startsWith('AsnService_'));
			expect(fbn.map((entry) => [entry.operation, entry.headers['x-project']])).toEqual(
				[
					'AsnService_CreateShipment',
					'AsnService_UpdateShipmentItems',
					'AsnService_UpdateShipmentStatus',
					'AsnService_GetSlotAvailability',
					'AsnService_ScheduleShipment',
				].map((operation) => [operation, emu.projectCode]),
			);
		},
	);

	check(
		'5f. example "sync changed stock from a sheet": the first run sends every row, a second with the same sheet none, a third only the row whose quantity changed',
		async () => {
			const csvPath = join(EXAMPLES_DIR, `e2e-stock-${process.pid}.csv`);
			try {
				writeFileSync(csvPath, stockCsv(STOCK_SHEET));
				const sync = await exampleReading('sync-changed-stock.json', csvPath);
				const expected = STOCK_SHEET.map((row) => [...row]).sort();

				await control(emu, 'DELETE', '/requests');
				const first = await client.runAndWait(sync);
				expectSucceeded(first);
				expect(outputOf(first, 'Update stock').length).toEqual(STOCK_SHEET.length);
				expect(await stockRowsSent()).toEqual(expected);

				// The same sheet again: Remove Duplicates lets nothing through, nothing is sent.
				await control(emu, 'DELETE', '/requests');
				const second = await client.runAndWait(sync);
				expectSucceeded(second);
				expect(outputOf(second, 'Keep changed rows')).toEqual([]);
				expect(second.data.resultData.runData['Update stock']).toBeUndefined();
				expect(await stockRowsSent()).toEqual([]);

				// One quantity changed: that row alone is sent.
				const changed = STOCK_SHEET.map((row, i): [string, string, number] =>
					i === 1 ? [row[0], row[1], row[2] + 5] : row,
				);
				writeFileSync(csvPath, stockCsv(changed));
				await control(emu, 'DELETE', '/requests');
				const third = await client.runAndWait(sync);
				expectSucceeded(third);
				expect(await stockRowsSent()).toEqual([['SKU-MUG-BLK', SEEDED_WAREHOUSES.dubai, 17]]);
			} finally {
				rmSync(csvPath, { force: true });
			}
		},
	);

	check(
		`5g. example "sync a catalog's stock from a CSV file": ${CATALOG_ROWS.toLocaleString('en-US')} rows, each sent once, the summary counts them; rows the service refuses are counted, listed in failedRows and fail the run`,
		async () => {
			const csvPath = join(EXAMPLES_DIR, `e2e-catalog-${process.pid}.csv`);
			try {
				const catalog = Array.from({ length: CATALOG_ROWS }, (_, i) => catalogLine(i));
				writeFileSync(csvPath, catalogCsv(catalog));
				const sync = await exampleReading(CSV_EXAMPLE, csvPath);

				await control(emu, 'DELETE', '/requests');
				const run = await client.runAndWait(sync);
				expectSucceeded(run);
				// One item through the workflow: the summary; every row went once, 100 a request.
				expect(single(run, CSV_UPDATE_NODE)).toMatchObject({
					rowsRead: CATALOG_ROWS,
					rowsSent: CATALOG_ROWS,
					requests: CATALOG_ROWS / 100,
					rowsApplied: CATALOG_ROWS,
					rowsFailed: 0,
				});
				expect(binaryOf(run, CSV_UPDATE_NODE)).toEqual([{}]);
				expect(single(run, 'Summary')).toEqual({
					file: `e2e-catalog-${process.pid}.csv`,
					rows_read: CATALOG_ROWS,
					rows_applied: CATALOG_ROWS,
					requests: CATALOG_ROWS / 100,
				});
				expect(run.data.resultData.runData['Fail the run']).toBeUndefined();
				const sent = await stockRowsSent();
				expect(eachRowOnce(sent, catalog)).toEqual({
					rows: CATALOG_ROWS,
					neverSent: [],
					sentTwice: [],
				});
				expect(await updateStockStatuses()).toEqual({ '200': CATALOG_ROWS / 100 });

				// Two rows in a warehouse the service does not know: the others are applied, the two
				// counted and listed in the failedRows file, and the run fails saying so.
				const unknown = 'WH-NOWHERE-9';
				const mixed: Array<[string, string, number]> = [
					catalogLine(0),
					['SKU-CSV-BAD-1', unknown, 1],
					['SKU-CSV-BAD-2', unknown, 2],
				];
				writeFileSync(csvPath, catalogCsv(mixed));
				await control(emu, 'DELETE', '/requests');
				const failing = await client.runAndWait(sync);
				expect(failing.status).toEqual('error');
				// The run's error says how many rows failed, and names the first.
				const failure = failing.data.resultData.error?.message ?? '';
				expect(failure).toContain('2 rows of the CSV file in "data" failed');
				expect(failure).toContain('SKU-CSV-BAD-1');
				expect(single(failing, CSV_UPDATE_NODE)).toMatchObject({
					rowsRead: 3,
					rowsSent: 3,
					requests: 1,
					rowsApplied: 1,
					rowsFailed: 2,
				});
				const failedRows = binaryOf(failing, CSV_UPDATE_NODE)[0].failedRows;
				expect(failedRows).toMatchObject({ fileName: 'failedRows.csv' });
				const listed = (await client.binaryText(failedRows)).trim().split('\n');
				expect(listed.map((line) => line.split(',').slice(0, 3))).toEqual([
					['line', 'warehouse_code', 'partner_sku'],
					['3', unknown, 'SKU-CSV-BAD-1'],
					['4', unknown, 'SKU-CSV-BAD-2'],
				]);
				expect(eachRowOnce(await stockRowsSent(), mixed)).toEqual({
					rows: 3,
					neverSent: [],
					sentTwice: [],
				});
			} finally {
				rmSync(csvPath, { force: true });
			}
		},
	);

	check(
		'6. trigger: activation takes over the destination; a sandbox order starts the workflow; n8n answers a delivery 200 {received:true} (2.x: once its execution runs); no secret → 401; deactivation releases it',
		async () => {
			const trigger = example('new-orders-customer-data.json');
			const code = SEEDED_DESTINATIONS.active;
			await client.activate(trigger.id);
			const taken = await expectDestinationTaken(code);
			await expectSandboxOrderRunsTrigger(trigger, code);
			await expectDeliveryAnsweredOnceItsExecutionExists(trigger, taken);
			await expectForgedDeliveriesRefused(trigger, taken.url);
			await client.deactivate(trigger.id);
			await expectDestinationReleased(code);
		},
	);

	check(
		'7. "listen for test event" while the trigger is active is refused; the destination stays on the production webhook, which still runs the workflow',
		async () => {
			const trigger = example('new-orders-customer-data.json');
			const code = SEEDED_DESTINATIONS.active;
			await client.activate(trigger.id);
			try {
				const production = await productionDestination(code);
				const updatesBefore = (await stats(emu)).byOperation.UpdateDestination ?? 0;
				await expectTestListeningRefused(trigger, code);
				// The destination as it was: the production webhook, active, its secret, subscribed.
				const after = await destination(emu, code);
				expect(after).toBeDefined();
				expect([after!.url, after!.is_active, after!.credentials]).toEqual([
					production.url,
					true,
					{ [SECRET_HEADER]: production.credentials[SECRET_HEADER] },
				]);
				expect(after!.event_types).toContainEqual(
					expect.objectContaining({ event_type: 'FBPI::ORDER_SYNC', is_active: true }),
				);
				// No UpdateDestination call made by the refused test listening.
				expect((await stats(emu)).byOperation.UpdateDestination ?? 0).toEqual(updatesBefore);
				await expectEventRunsProductionWorkflow(trigger, code, production.url);
			} finally {
				// Leave a clean state: deactivated, the destination released.
				await client.deactivate(trigger.id);
				await waitFor(`destination ${code} to be deactivated`, async () => {
					const current = await destination(emu, code);
					return current && !current.is_active ? current : undefined;
				});
			}
		},
	);

	check(
		'7b. poll trigger: active, it starts one execution for a new sandbox order (none for the orders before its activation), while an order whose details cannot be read is listed beside it',
		async () => {
			const poller = await client.createWorkflow(
				workflow(
					'e2e: poll trigger',
					[
						node(
							POLL_TRIGGER_NAME,
							'n8n-nodes-seller-platform.sellerPlatformPollTrigger',
							{
								event: 'newFbpiOrder',
								warehouseCode: { __rl: true, mode: 'id', value: SEEDED_WAREHOUSES.dubai },
								pollTimes: { item: [{ mode: 'everyMinute' }] },
							},
							credential,
						),
					],
					[],
				),
			);
			// Orders already there (earlier checks' sandbox orders) are history for the activation:
			// its first poll reads them. n8n 2.x starts the trigger a moment after the activation is
			// answered, so the new order is created once that first poll has listed the warehouse.
			const listings = async () =>
				(await requestLog()).filter(
					(entry) => entry.operation === 'ListFbpiOrders' && entry.status !== null,
				).length;
			const listedBefore = await listings();
			await client.activate(poller.id);
			try {
				await waitFor(
					"the trigger's first poll",
					async () => ((await listings()) > listedBefore ? true : undefined),
					30_000,
				);
				// Listed beside it, an order whose details cannot be read yet (the list ahead of the order
				// service): it waits for a later poll and stops nothing.
				const [unreadable] = await control<Array<{ fbpi_order_nr: string }>>(
					emu,
					'POST',
					'/fbpi-orders',
					{ warehouseCode: SEEDED_WAREHOUSES.dubai },
				);
				await control(emu, 'POST', '/fbpi-orders/quirks', {
					listWithoutItems: true,
					unreadable: [unreadable.fbpi_order_nr],
				});
				const sandbox = await client.runAndWait(example('create-sandbox-order.json'));
				expectSucceeded(sandbox);
				const orderNr = single(sandbox, 'Create sandbox order').fbpi_order_nr as string;
				// The next poll (every minute) lists it: one execution, the order as GetFbpiOrder has it.
				const runId = await waitFor(
					'the poll trigger to start an execution',
					async () => (await client.executions(poller.id))[0]?.id,
					150_000,
				);
				const run = await client.waitForExecution(runId);
				expectSucceeded(run);
				expect(run.mode).toEqual('trigger');
				const items = run.data.resultData.runData[POLL_TRIGGER_NAME][0].data!.main![0]!;
				expect(items.map((item) => item.json.fbpi_order_nr)).toEqual([orderNr]);
				expect(items[0].json).toMatchObject({
					warehouse_code: SEEDED_WAREHOUSES.dubai,
					items: expect.any(Array),
				});
				expect(await client.executions(poller.id)).toHaveLength(1);
			} finally {
				await client.deactivate(poller.id);
				await control(emu, 'POST', '/fbpi-orders/quirks', null);
			}
		},
	);

	check(
		'8. stopping an execution stops the node: a wait for an export that never finishes ends within a second of the stop, no status request after it',
		async () => {
			// PENDING, then RUNNING for ever. Polled every 3 s: the stop lands in a poll's wait, and a wait
			// that ignored the stop would end the node only at its next poll, seconds later (with 1 s polls
			// that would still look like "within a second").
			const pollSeconds = 3;
			const { export_code: exportCode } = await control<{ export_code: string }>(
				emu,
				'POST',
				'/exports',
				{ states: ['PENDING', 'RUNNING'] },
			);
			const waiter = await client.createWorkflow(exportWaiterWorkflow(exportCode, pollSeconds));
			const executionId = await client.run(waiter);
			const calls = await waitFor(
				'two answered GetExportStatus requests',
				async () => {
					const answered = await exportStatusCalls(exportCode);
					return answered.length >= 2 && answered.every((c) => c.status !== null)
						? answered
						: undefined;
				},
				30_000,
				50,
			);
			// Before the stop: the execution runs, the node has not ended.
			expect((await client.execution(executionId)).status).toEqual('running');
			expect(outputLines(WAITER_END_LINE)).toEqual([]);

			// The node now waits for its next poll: stop the execution (the editor's Stop button).
			const stopAt = Date.now();
			const nodeEnded = waiterEnd(stopAt);
			const stopped = await client.stopExecution(executionId);
			const stopMs = Date.now() - stopAt;
			const ended = await waitFor(
				'the execution to end after the stop',
				async () => {
					const execution = await client.execution(executionId);
					return execution.status !== 'running' && execution.stoppedAt ? execution : undefined;
				},
				2_000,
			);
			// The status in the answer to the stop, and of the execution.
			expect([stopped.status, ended.status]).toEqual(['canceled', 'canceled']);

			// No status request after the stop, through the time of the next poll and more.
			await sleep((pollSeconds + 1) * 1000);
			const later = (await exportStatusCalls(exportCode)).filter((c) => c.at > stopAt);
			expect(later.map((c) => `#${c.seq} at +${c.at - stopAt} ms`)).toEqual([]);

			// The node itself returned at once, not at its next poll. n8n logs its end within 15 s
			// (N8N_LOG_LEVEL must be debug).
			const end = await nodeEnded;
			expect(end).toBeDefined();
			log(
				`e2e: "${WAITER}" ended ${end!.afterMs} ms after the stop request (answered in ${stopMs} ms; last poll answered ${stopAt - calls[calls.length - 1].at} ms before the stop, polls every ${pollSeconds} s): "${end!.line}"`,
			);
			expect(end!.afterMs).toBeLessThanOrEqual(1_500);
		},
	);

	check(
		'9. installed from the npm tarball as n8n installs it: no dependency of its own, luxon and n8n-workflow from n8n',
		async () => {
			expectInstalledAsN8nInstallsIt();
			expectN8nLookupFindsItsOwn(['luxon', 'n8n-workflow']);
			// The code that needs luxon (a purchase order's release date) and n8n-workflow (the
			// errors) works from what n8n provides.
			const wf = await client.createWorkflow(
				workflow(
					'e2e: luxon and n8n-workflow from n8n',
					[
						manualTrigger(),
						sellerPlatform('Released', credential, {
							resource: 'purchaseOrder',
							operation: 'get',
							poNr: 'PO-1001',
						}),
					],
					[[MANUAL, 'Released']],
				),
			);
			const execution = await client.runAndWait(wf);
			expectSucceeded(execution);
			expect(single(execution, 'Released').po_release_date_iso).toEqual('2024-03-15');
			// n8n logged no module that could not be found.
			expect(outputLines(/Cannot find module/)).toEqual([]);
		},
	);

	check(
		"10. n8n's AI Agent calls the Seller Platform tool: the model gets the operation as a tool, the order comes from the emulator, its data reaches the answer",
		async () => {
			let model: FakeOpenAi | undefined;
			try {
				model = await startFakeOpenAi({
					toolArguments: { po_nr: SEEDED_PO.released },
					answer: (toolResult) => {
						const [order] = JSON.parse(toolResult) as Array<Record<string, unknown>>;
						return `Purchase order ${String(order.po_nr)} of merchant ${String(order.merchant_code)} is ${String(order.po_status)}, released on ${String(order.po_release_date_iso)}.`;
					},
				});
				const openAi = await client.createCredential('Fake OpenAI (e2e)', 'openAiApi', {
					apiKey: 'sk-e2e-fake',
					url: model.url,
				});
				await control(emu, 'DELETE', '/requests');
				const execution = await client.runAndWait(
					await client.createWorkflow(agentWorkflow(openAi)),
				);
				expectSucceeded(execution);
				expectToolOffered(model);
				await expectToolRanTheOperation(model);

				const [answer] = outputOf(execution, 'AI Agent');
				expect(answer.output).toEqual(
					`Purchase order ${SEEDED_PO.released} of merchant STR10001 is PO_STATUS_RELEASED, released on 2024-03-15.`,
				);
				// The execution data holds no private key.
				expect(JSON.stringify(execution)).not.toContain('PRIVATE KEY');
			} finally {
				await model?.close();
			}
		},
	);

	check(
		"11. n8n's HTTP Request node with the Seller Platform credential: login on first use, the session cookie sent, a new login after the session expires, no secret in the output; pointed at another host, it sends neither token nor cookie and fails saying why; to the login endpoint (Full Response) it sends nothing",
		async () => {
			const { key, credential: fresh } = await freshCredential(
				'Seller Platform (e2e HTTP Request)',
			);
			const httpRequest = httpRequestNode(fresh);
			const wf = await client.createWorkflow(
				workflow(
					'e2e: HTTP Request with the credential',
					[manualTrigger(), httpRequest],
					[[MANUAL, 'HTTP Request']],
				),
			);

			const first = await runHttpRequest(wf, 'first run');
			// A login on first use, then the request.
			expect(summary(first.log)).toEqual(['Login 200', 'GetPurchaseOrder 200']);
			// The request carried a session cookie, the login a token.
			expect(first.log[1].headers.cookie).toEqual(expect.stringMatching(/[\s\S]/));
			const cookie = first.log[1].headers.cookie as string;
			const token = (first.log[0].body as { token?: string }).token;
			expect(token).toBeTruthy();

			const second = await runHttpRequest(wf, 'second run');
			// The stored session, no login: the same session cookie.
			expect(summary(second.log)).toEqual(['GetPurchaseOrder 200']);
			expect(second.log[0].headers.cookie).toEqual(cookie);

			await control(emu, 'POST', '/sessions/expire', {});
			const third = await runHttpRequest(wf, 'after the session expired');
			// 401, one new login, the request repeated with a new session.
			expect(summary(third.log)).toEqual([
				'GetPurchaseOrder 401',
				'Login 200',
				'GetPurchaseOrder 200',
			]);
			const newCookie = third.log[2].headers.cookie;
			expect(newCookie).toEqual(expect.any(String));
			expect(newCookie).not.toEqual(cookie);

			// No secret in the HTTP Request output.
			const privateKeyLine = key.private_key.split('\n')[1];
			for (const { execution } of [first, second, third]) {
				expectNoSecrets(JSON.stringify(outputOf(execution, 'HTTP Request')), {
					'the session cookie': cookie,
					'the new session cookie': newCookie as string,
					'the login token': token!,
					'the private key': privateKeyLine,
				});
			}
			await expectNothingSentToAnotherHost(httpRequest, {
				'the session cookie': newCookie as string,
				'the private key': privateKeyLine,
			});
			await expectNoLoginThroughTheNode(httpRequest);
		},
	);

	check(
		"11b. a failed request of n8n's HTTP Request node with the credential, On Error: Continue: in n8n 2.x the error it passes on keeps the session cookie, which an expression in the next node reads (n8n saves none of it); in n8n 1.x it keeps none; the Seller Platform node's error holds none",
		async () => {
			const { credential: fresh } = await freshCredential('Seller Platform (e2e error cause)');
			await control(emu, 'DELETE', '/requests');
			const execution = await client.runAndWait(
				await client.createWorkflow(continuedFailure(httpRequestNode(fresh))),
			);
			expectSucceeded(execution);
			const { cookie: read } = single(execution, 'Read');
			const sent = (await requestLog()).filter((entry) => entry.operation === 'GetPurchaseOrder');
			const session = sent[sent.length - 1].headers.cookie as string;
			expect(session).toMatch(/_npsid=/);
			// What n8n saves of the HTTP Request node's error, and its log (debug level): no cookie.
			expectNoSecrets(JSON.stringify(execution.data.resultData.runData['HTTP Request']), {
				'the session cookie': session,
			});
			expectNoSecrets(n8nInstance.output(), { 'the session cookie': session });
			if (N8N_MAJOR >= 2) {
				// The expression read the session the gateway got, a working one (outside n8n too).
				expect(read).toEqual(session);
				const outside = await fetch(`${emu.baseUrl}/fbpo/v1/po/${SEEDED_PO.released}/get`, {
					headers: { cookie: session, 'user-agent': 'curl/8' },
				});
				expect(outside.status).toEqual(200);
			} else {
				// n8n-workflow 1.x keeps no cause on the error.
				expect(read).toEqual('');
				expectNoSecrets(JSON.stringify(execution), { 'the session cookie': session });
			}

			// The same failure in the Seller Platform node: its error item is words only.
			await control(emu, 'DELETE', '/requests');
			const own = await client.runAndWait(
				await client.createWorkflow(
					continuedFailure(
						sellerPlatform('Get purchase order', fresh, {
							resource: 'purchaseOrder',
							operation: 'get',
							poNr: MISSING_PO,
						}),
					),
				),
			);
			expectSucceeded(own);
			expect(single(own, 'Read').cookie).toEqual('');
			// The service's own message, in both lines (n8n 1.x keeps the answer only in its
			// error's context: the package reads it there).
			expect(single(own, 'Get purchase order')).toMatchObject({
				error: expect.stringContaining(`purchase order "${MISSING_PO}" not found`),
				details: { httpCode: '404' },
			});
			const ownSent = (await requestLog()).filter((e) => e.operation === 'GetPurchaseOrder');
			expectNoSecrets(JSON.stringify(own), {
				'the session cookie': ownSent[ownSent.length - 1].headers.cookie as string,
			});
		},
	);

	check(
		"12. n8n serves the package's output schema of every operation (the editor's preview before a run)",
		async () => {
			const resources = readdirSync(SCHEMA_ROOT);
			const served: string[] = [];
			for (const resource of resources) {
				for (const file of readdirSync(join(SCHEMA_ROOT, resource))) {
					const path = `/schemas/${NODE_TYPE}/1.0.0/${resource}/${file}`;
					const answer = await client.request<Record<string, unknown>>('GET', path);
					expect(answer).toEqual(
						JSON.parse(readFileSync(join(SCHEMA_ROOT, resource, file), 'utf8')),
					);
					served.push(`${resource}/${file}`);
				}
			}
			// One schema per operation of the node, none missing.
			const router = require(
				join(REPO_ROOT, 'dist', 'nodes', 'SellerPlatform', 'actions', 'router.js'),
			) as { resources: Record<string, { operations: Record<string, unknown> }> };
			const operations = Object.entries(router.resources).flatMap(([resource, { operations }]) =>
				Object.keys(operations).map((operation) => `${resource}/${operation}.json`),
			);
			expect(served.sort()).toEqual(operations.sort());
		},
	);

	check(
		'13. execution hints are saved with the execution: a throttled run says so; a plain run has none',
		async () => {
			const hinted = await client.createWorkflow(
				workflow(
					'e2e: hints',
					[
						manualTrigger(),
						code(
							'3 PO numbers',
							'return [1, 2, 3].map((i) => ({ json: { po: `PO-BULK-${7000 + i}` } }));',
						),
						sellerPlatform('Get purchase order', credential, {
							resource: 'purchaseOrder',
							operation: 'get',
							poNr: '={{ $json.po }}',
						}),
					],
					[
						[MANUAL, '3 PO numbers'],
						['3 PO numbers', 'Get purchase order'],
					],
				),
			);
			const hintsOf = (execution: Execution) =>
				execution.data.resultData.runData['Get purchase order'][0].hints ?? [];
			// Twice: the first may log in (another check expired every session), the second must not.
			await client.runAndWait(hinted);
			const plain = await client.runAndWait(hinted);
			expect(plain.status).toBe('success');
			expect(hintsOf(plain)).toEqual([]);

			await control(emu, 'POST', '/faults', {
				count: 2,
				status: 429,
				retryAfter: 0,
				operation: 'GetPurchaseOrder',
			});
			const throttled = await client.runAndWait(hinted);
			expect(throttled.status).toBe('success');
			expect(hintsOf(throttled)).toContainEqual(
				expect.objectContaining({
					type: 'info',
					message: expect.stringMatching(
						/^The Seller Platform API answered 2 429s \(too many requests\); the run waited [\d.]+ s in all/,
					),
				}),
			);
		},
	);
	// --- The HTTP Request node and Custom API Call ---
	check(
		'14. "Custom API Call", which n8n adds to the lists, points to the HTTP Request node with the credential',
		async () => {
			// n8n adds the entry itself to the node's Resource and Operation lists (its credential has
			// `authenticate`).
			const types = await client.request<
				Array<{
					name: string;
					properties: Array<{ name: string; options?: Array<{ value: unknown }> }>;
				}>
			>('GET', '/types/nodes.json');
			const node = types.find((type) => type.name === NODE_TYPE);
			const values = (name: string) =>
				(node?.properties ?? [])
					.filter((property) => property.name === name)
					.flatMap((property) => (property.options ?? []).map((option) => option.value));
			expect(values('resource')).toContain('__CUSTOM_API_CALL__');
			expect(values('operation')).toContain('__CUSTOM_API_CALL__');

			const custom = await client.createWorkflow(
				workflow(
					'e2e: custom API call',
					[
						manualTrigger(),
						sellerPlatform('Custom call', credential, {
							resource: '__CUSTOM_API_CALL__',
							operation: '__CUSTOM_API_CALL__',
						}),
					],
					[[MANUAL, 'Custom call']],
				),
			);
			await control(emu, 'DELETE', '/requests');
			const execution = await client.runAndWait(custom);
			expect(execution.status).toBe('error');
			const error = execution.data.resultData.runData['Custom call'][0].error;
			expect(error?.message).toBe(
				'"Custom API Call" runs in the HTTP Request node, not in the Seller Platform node',
			);
			expect(error?.description).toMatch(
				/HTTP Request node, set Authentication to "Predefined Credential Type", pick "Seller Platform API"/,
			);
			expect(error?.description).toMatch(/pacing of this package .* does not apply/);
			// Nothing was sent.
			expect(await requestLog()).toEqual([]);
		},
	);
	check(
		"15. the credential's Gateway: a custom address (the emulator's) passes Test, as a saved credential without the field does",
		async () => {
			expect(credentialData).not.toHaveProperty('gateway');
			for (const data of [{ ...credentialData, gateway: 'custom' }, credentialData]) {
				await control(emu, 'DELETE', '/requests');
				expect(await client.testCredential(credential, data)).toMatchObject({ status: 'OK' });
				expect(summary(await requestLog())).toContain('Whoami 200');
			}
		},
	);
	check(
		"16. a Base URL on a foreign https host is refused before any connection, the credential's Test included",
		async () => {
			const listener = foreignHosts!;
			const foreign = {
				...credentialData,
				gateway: 'custom',
				baseUrl: 'https://gateway.attacker.example',
			};
			const why =
				'The "Base URL" field of the credential names gateway.attacker.example, which is not a Seller Platform gateway, so nothing was sent.';
			await control(emu, 'DELETE', '/requests');
			const tested = await client.testCredential(credential, foreign);
			expect(tested.status).toEqual('Error');
			expect(tested.message).toContain(why);

			const saved = await client.createCredential(
				'Seller Platform (e2e foreign host)',
				CREDENTIAL_TYPE,
				foreign,
			);
			const wf = await client.createWorkflow(
				workflow(
					'e2e: a credential whose Base URL is a foreign host',
					[
						manualTrigger(),
						sellerPlatform('Get PO', saved, {
							resource: 'purchaseOrder',
							operation: 'get',
							poNr: SEEDED_PO.released,
						}),
					],
					[[MANUAL, 'Get PO']],
				),
			);
			const execution = await client.runAndWait(wf);
			expect(execution.status).toEqual('error');
			expect(execution.data.resultData.error?.message).toContain(why);
			// No connection to the foreign host (no CONNECT, so no TLS handshake), none to the gateway.
			expect(
				listener.connects.filter((target) => target.startsWith('gateway.attacker.example')),
			).toEqual([]);
			expect(await requestLog()).toEqual([]);

			// The listener is on the way: an allowed host under noon.partners is reached through it.
			const allowed = { ...foreign, baseUrl: 'https://e2e-check.noon.partners' };
			expect((await client.testCredential(credential, allowed)).status).toEqual('Error');
			expect(listener.connects).toContain('e2e-check.noon.partners:443');
		},
	);
	check(
		"17. the editor's list request for ASN Number (a resource locator) answers the emulator's ASNs",
		async () => {
			const asn = await seededAsn();
			const listed = await locatorList(
				'searchAsns',
				'parameters.asnNr',
				{
					resource: 'fbnShipment',
					operation: 'get',
					asnNr: { __rl: true, mode: 'list', value: '' },
				},
				SEEDED_ASN.exref_nr,
			);
			expect(listed.results).toContainEqual({
				name: `${asn.asn_nr} (Receiving, AE)`,
				value: asn.asn_nr,
				description: `Reference ${SEEDED_ASN.exref_nr}`,
			});
		},
	);

	check(
		"18. a saved workflow of today's shape (node version 1, plain ASN text, no Simplify parameter) runs unchanged: FBN Shipment → Get returns the whole answer",
		async () => {
			const asn = await seededAsn();
			const saved = workflow(
				'e2e: FBN Shipment → Get as saved before the pickers',
				[
					manualTrigger(),
					node(
						'Get the ASN',
						NODE_TYPE,
						{ resource: 'fbnShipment', operation: 'get', asnNr: asn.asn_nr },
						credential,
					),
				],
				[[MANUAL, 'Get the ASN']],
			);
			expect(saved.nodes[1].typeVersion).toEqual(1);
			const execution = await client.runAndWait(await client.createWorkflow(saved));
			expectSucceeded(execution);
			const got = single(execution, 'Get the ASN');
			// The whole answer (the ASN under `shipment`), not the simplified flat fields.
			expect(got.shipment).toMatchObject({
				asn_nr: asn.asn_nr,
				exref_nr: SEEDED_ASN.exref_nr,
				status: SEEDED_ASN.status,
				country_code: 'AE',
			});
			expect(got).not.toHaveProperty('asn_nr');
		},
	);

	check(
		'19. while a 20,000-row Stock → Update (Map Automatically) runs in a manual execution, n8n answers GET /healthz every 100 ms, none slower than 1 s, the median within 100 ms, and a Seller Platform Trigger delivery within 1 s',
		async () => {
			const trigger = example('new-orders-customer-data.json');
			const code = SEEDED_DESTINATIONS.active;
			const paced = await client.createCredential(
				`Seller Platform (e2e: ${BIG_STOCK_PER_MINUTE} a minute)`,
				CREDENTIAL_TYPE,
				{ ...credentialData, requestsPerMinute: BIG_STOCK_PER_MINUTE },
			);
			const wf = await client.createWorkflow(bigStockWorkflow(paced));
			await client.activate(trigger.id);
			await control(emu, 'POST', '/latency', BIG_STOCK_LATENCY);
			try {
				await productionDestination(code);
				const triggerRunsBefore = (await client.executions(trigger.id)).length;
				const updatesBefore = await updateStockRequests();
				const healthz = pollHealthz(n8nInstance.baseUrl, HEALTHZ_EVERY_MS);
				let samples: HealthzSample[] = [];
				let sent: Awaited<ReturnType<typeof deliverOrderSync>>;
				let executionId: string;
				try {
					executionId = await client.run(wf);
					// Mid-run: a third of the 200 requests sent, the node busy for several seconds more.
					await waitFor(
						'a third of the UpdateStock requests',
						async () => ((await updateStockRequests()) - updatesBefore >= 70 ? true : undefined),
						120_000,
						50,
					);
					sent = await deliverOrderSync(code);
					await executionEnded(wf.id, executionId);
				} finally {
					samples = await healthz.stop();
				}
				const execution = await client.waitForExecution(executionId);
				expectSucceeded(execution);
				expect(outputOf(execution, BIG_STOCK_NODE)).toHaveLength(BIG_STOCK_ROWS);
				expect((await updateStockRequests()) - updatesBefore).toEqual(BIG_STOCK_ROWS / 100);

				const stock = execution.data.resultData.runData[BIG_STOCK_NODE][0];
				const stockEnd = stock.startTime + stock.executionTime;
				const attempt = sent.delivery.attempts[0];
				const attemptAt = Date.parse(attempt.at);
				const duringRun = sentWithin(samples, stock.startTime, stockEnd);
				const run = healthzFigures(duringRun);
				const all = healthzFigures(samples);
				const afterRun = healthzFigures(samples.filter((s) => s.sentAt + s.ms > stockEnd));
				const seconds = (ms: number) => (ms / 1000).toFixed(1);
				const executionMs = Date.parse(execution.stoppedAt!) - Date.parse(execution.startedAt);
				log(
					`e2e: ${BIG_STOCK_ROWS} rows in ${BIG_STOCK_ROWS / 100} requests; Stock → Update ran ${seconds(stockEnd - stock.startTime)} s (the execution ${seconds(executionMs)} s). /healthz while it ran: ${run.count} requests, ${run.ok} answered 200, slowest ${run.slowestMs} ms (sent ${seconds(run.slowestSentAt - stock.startTime)} s after the node started), median ${run.medianMs} ms, 99th percentile ${run.p99Ms} ms, largest gap between sends ${run.largestSendGapMs} ms. The trigger delivery: HTTP ${attempt.status} in ${attempt.duration_ms} ms, sent ${seconds(attemptAt - stock.startTime)} s after the node started and ${seconds(stockEnd - attemptAt)} s before it ended (${sent.updatesByThen - updatesBefore} of ${BIG_STOCK_ROWS / 100} UpdateStock requests received by then). The whole poll, from before the run until n8n listed the execution as ended: ${all.count} requests, slowest ${all.slowestMs} ms (sent ${seconds(all.slowestSentAt - stock.startTime)} s after the node started); answered after the node's end: ${afterRun.count}, slowest ${afterRun.slowestMs} ms (n8n's own work once the node has returned: saving the execution's data)`,
				);

				// The delivery: one attempt, answered 2xx within 1 s, while the node was running.
				expect(sent.delivery.attempts).toHaveLength(1);
				expect(attempt.status).toBeGreaterThanOrEqual(200);
				expect(attempt.status).toBeLessThan(300);
				expect(attempt.duration_ms).toBeLessThanOrEqual(DELIVERY_LIMIT_MS);
				expect(attemptAt).toBeGreaterThan(stock.startTime);
				expect(attemptAt + attempt.duration_ms).toBeLessThan(stockEnd);
				expect(sent.updatesByThen - updatesBefore).toBeLessThan(BIG_STOCK_ROWS / 100);
				await expectDeliveryRan(trigger, triggerRunsBefore);

				// /healthz: polled from before the node's start until after its end, every request
				// answered 200; while the node ran, one sent about every 100 ms, none kept waiting long.
				expect(samples[0].sentAt).toBeLessThanOrEqual(stock.startTime);
				expect(samples[samples.length - 1].sentAt).toBeGreaterThanOrEqual(stockEnd);
				expect(samples.filter((s) => s.status !== 200)).toEqual([]);
				expect(run.count).toBeGreaterThanOrEqual(
					Math.floor((0.9 * (stockEnd - stock.startTime)) / HEALTHZ_EVERY_MS),
				);
				expect(
					duringRun
						.filter((s) => s.ms > HEALTHZ_LIMIT_MS)
						.map(
							(s) =>
								`waited ${Math.round(s.ms)} ms, sent ${s.sentAt - stock.startTime} ms after the node started`,
						),
				).toEqual([]);
				expect(run.medianMs).toBeLessThanOrEqual(HEALTHZ_MEDIAN_LIMIT_MS);
			} finally {
				await control(emu, 'POST', '/latency', { ms: 0, jitterMs: 0 });
				await client.deactivate(trigger.id);
				await waitFor(`destination ${code} to be deactivated`, async () => {
					const current = await destination(emu, code);
					return current && !current.is_active ? current : undefined;
				});
			}
		},
		600_000,
	);
});
