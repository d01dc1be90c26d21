/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * End-to-end tests: the built package inside a real n8n (2.40.7 on Node 24, or with E2E_N8N=1
 * 1.123.81 on Node 22: test/e2e/installs/), driven
 * through n8n's REST API on loopback as a user's automation would, against the emulator. Jest runs
 * them (test/e2e/jest.config.js), one named test per check, in order, on one n8n.
 * `npm run test:e2e` installs n8n on first use and builds first; `npm run test:e2e -- -t '<name>'`
 * runs only the checks whose names match.
 *
 * E2E_KEEP=1 keeps n8n's data folder ($TMPDIR/seller-platform-e2e-n8n-<pid>, with n8n.log) after the run.
 */
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
	importExamples,
	NODE_TYPE,
	TOOL_TYPE,
	TRIGGER_TYPE,
	upsertCredential,
} from './lib/setup';

const SECRET_HEADER = 'X-N8n-Seller-Platform-Secret';
/** The output schemas as the package ships them (the build copies nodes/ into dist/). */
const SCHEMA_ROOT = join(REPO_ROOT, 'dist', 'nodes', 'SellerPlatform', '__schema__', 'v1.0.0');
const MANUAL = 'Start';

function assert(condition: unknown, message: string): asserts condition {
	if (!condition) throw new Error(message);
}

function assertEqual<T>(actual: T, expected: T, what: string): void {
	const a = JSON.stringify(actual);
	const e = JSON.stringify(expected);
	if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

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
	assert(response.ok, `${method} ${path} on the emulator: HTTP ${response.status}`);
	return (await response.json()) as T;
}

const stats = (emulator: Emulator) => control<EmulatorStats>(emulator, 'GET', '/stats');
const destination = async (emulator: Emulator, code: string) =>
	(await control<DestinationState[]>(emulator, 'GET', '/destinations')).find(
		(d) => d.destination_code === code,
	);

function assertSucceeded(execution: Execution): void {
	const error = execution.data.resultData.error;
	assert(
		execution.status === 'success',
		`execution ${execution.id} ended "${execution.status}"${error ? `: ${error.message}${error.description ? ` (${error.description})` : ''}` : ''}`,
	);
}

function single(execution: Execution, nodeName: string): Record<string, unknown> {
	const items = outputOf(execution, nodeName);
	assertEqual(items.length, 1, `number of output items of "${nodeName}"`);
	return items[0];
}

// Straight to stdout: Jest's console adds a stack line to every message.
const log = (message: string) => process.stdout.write(`${message}\n`);

// --- one n8n for every check ---------------------------------------------------------------------

// Outside the repository, as on a user's machine: the package then finds nothing but what n8n
// provides (the repository's node_modules would be found first from inside it).
const dataDir = join(tmpdir(), `seller-platform-e2e-n8n-${process.pid}`);
let emulator: Emulator | undefined;
let n8n: N8nInstance | undefined;
// Set by beforeAll; every check runs after it.
let emu: Emulator;
let n8nInstance: N8nInstance;
let client: N8nClient;
let credentialData: ReturnType<typeof emulatorCredentialData>;
let credential: StoredCredential;
let examples: Map<string, StoredWorkflow>;
let installedAt: string;

const example = (file: string): StoredWorkflow => {
	const found = examples.get(file);
	assert(found, `example ${file} was not imported`);
	return found;
};

beforeAll(async () => {
	const started = Date.now();
	emulator = await startEmulator({
		host: '127.0.0.1',
		port: 0,
		importStepMs: 50,
		exportStepMs: 100,
	});
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
		env: { N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'debug' },
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

describe(`the package in a real n8n ${N8N_MAJOR}.x`, () => {
	check(
		'1. n8n loads the package: both nodes, the AI tool n8n makes of the action node and the credential type are known',
		async () => {
			// The n8n asked for (E2E_N8N): its version as n8n reports it.
			const { versionCli } = await client.request<{ versionCli: string }>('GET', '/rest/settings');
			log(`e2e: n8n ${versionCli}`);
			assertEqual(
				versionCli.split('.')[0],
				String(N8N_MAJOR),
				`major version of n8n ${versionCli}`,
			);
			const nodes = await client.nodeTypeNames();
			for (const type of [NODE_TYPE, TRIGGER_TYPE, TOOL_TYPE])
				assert(
					nodes.includes(type),
					`node type ${type} is not among n8n's ${nodes.length} node types`,
				);
			const credentials = await client.credentialTypeNames();
			assert(
				credentials.includes(CREDENTIAL_TYPE),
				`credential type ${CREDENTIAL_TYPE} is not among n8n's credential types`,
			);
			assert(
				!/Failed to load package "n8n-nodes-seller-platform"/.test(n8nInstance.output()),
				'n8n logged a failure to load the package',
			);
		},
	);

	check("2a. the credential's Test logs in against the emulator", async () => {
		const before = (await stats(emu)).logins;
		const result = await client.testCredential(credential, credentialData);
		assertEqual(result.status, 'OK', `Test result (${result.message})`);
		// n8n logs in through preAuthentication when no session is stored, then the Test's own login request.
		assert((await stats(emu)).logins - before >= 1, 'the Test made no login');
	});

	check("2b. Test with a wrong private key fails with the service's message", async () => {
		const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
		const wrongKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
		const result = await client.testCredential(credential, {
			...credentialData,
			privateKey: wrongKey,
		});
		assertEqual(result.status, 'Error', 'Test status');
		assert(
			result.message.includes('Seller Platform login failed: invalid token signature'),
			`Test message: ${JSON.stringify(result.message)}`,
		);
		assert(!result.message.includes('PRIVATE KEY'), 'the message shows the private key');
	});

	check(
		'3. 200 purchase orders in one run: one login; a second run none; after the sessions expire, one more',
		async () => {
			// A credential of its own, as just saved by a user, with a key of its own: no session yet,
			// neither stored nor shared by a login of another credential with the same values.
			const key = await control<{ key_id: string; private_key: string; project_code: string }>(
				emu,
				'POST',
				'/credentials',
				{},
			);
			const fresh = await client.createCredential('Seller Platform (e2e bulk)', CREDENTIAL_TYPE, {
				...credentialData,
				keyId: key.key_id,
				privateKey: key.private_key,
				projectCode: key.project_code,
			});
			const bulk = await client.createWorkflow(
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
				),
			);
			const check = (execution: Execution, run: string) => {
				assertSucceeded(execution);
				const items = outputOf(execution, 'Get purchase order');
				assertEqual(items.length, 200, `${run}: output items`);
				items.forEach((item, i) => {
					assertEqual(item.po_nr, `PO-BULK-${i + 1}`, `${run}: po_nr of item ${i}`);
					assertEqual(item.po_status, 'PO_STATUS_RELEASED', `${run}: po_status of item ${i}`);
					assert(
						typeof item.po_release_date_iso === 'string',
						`${run}: po_release_date_iso of item ${i}`,
					);
				});
			};
			await control(emu, 'DELETE', '/requests');
			const s0 = await stats(emu);
			check(await client.runAndWait(bulk), 'first run');
			const s1 = await stats(emu);
			const firstRunLogins = s1.logins - s0.logins;
			if (firstRunLogins !== 1) {
				// Say when the logins happened: how many GetPurchaseOrder calls were answered before each.
				const log = await control<
					Array<{ seq: number; operation: string | null; status: number | null }>
				>(emu, 'GET', '/requests');
				const when = log
					.map((entry, index) => ({
						entry,
						before: log.slice(0, index).filter((e) => e.operation === 'GetPurchaseOrder').length,
					}))
					.filter(({ entry }) => entry.operation === LOGIN_OPERATION)
					.map(
						({ entry, before }) =>
							`login (HTTP ${entry.status}) after ${before} GetPurchaseOrder calls`,
					);
				throw new Error(
					`logins during the first run: expected 1, got ${firstRunLogins}: ${when.join('; ')}`,
				);
			}
			assertEqual(
				(s1.byOperation.GetPurchaseOrder ?? 0) - (s0.byOperation.GetPurchaseOrder ?? 0),
				200,
				'GetPurchaseOrder calls of the first run',
			);

			check(await client.runAndWait(bulk), 'second run');
			const s2 = await stats(emu);
			assertEqual(s2.logins - s1.logins, 0, 'logins during the second run (n8n kept the session)');

			await control(emu, 'POST', '/sessions/expire', {});
			check(await client.runAndWait(bulk), 'run after the sessions expired');
			const s3 = await stats(emu);
			assertEqual(s3.logins - s2.logins, 1, 'logins during the run after the sessions expired');
		},
	);

	check(
		'4. every read operation and a barcode import from input items give the expected outputs',
		async () => {
			const rows = [
				{ partner_sku: 'SKU-TSHIRT-BLK-M', barcode: '6291041500213' },
				{ partner_sku: 'SKU-MUG-WHT', barcode: '6291041500237' },
				{ partner_sku: 'SKU-KETTLE-17L', barcode: 62910415002440 },
			];
			const reads = await client.createWorkflow(
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
						code('Barcode rows', `return ${JSON.stringify(rows)}.map((json) => ({ json }));`),
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
				),
			);
			const execution = await client.runAndWait(reads);
			assertSucceeded(execution);

			const exchange = single(execution, 'Exchange token');
			assertEqual(exchange.project_code, emu.credential.project_code, 'ExchangeToken project_code');
			const result = exchange.result as Record<string, unknown> | undefined;
			assert(
				result && typeof result.client_id === 'string' && typeof result.client_secret === 'string',
				`ExchangeToken result: ${JSON.stringify(exchange)}`,
			);

			const exported = single(execution, 'Export status');
			assertEqual(exported.export_code, SEEDED_EXPORTS.complete, 'export_code');
			assertEqual(exported.export_status, 'COMPLETE', 'export_status');
			assert(
				typeof exported.download_url === 'string' && exported.download_url.startsWith(emu.baseUrl),
				`download_url: ${exported.download_url}`,
			);

			const po = single(execution, 'Purchase order');
			assertEqual(po.po_nr, SEEDED_PO.released, 'po_nr');
			assertEqual(po.po_status, 'PO_STATUS_RELEASED', 'po_status');
			assertEqual(po.po_release_date_iso, '2024-03-15', 'po_release_date_iso');
			assertEqual((po.po_lines as unknown[]).length, 3, 'po_lines');

			const customer = single(execution, 'Customer data');
			const seeded = SEEDED_FBPI_CUSTOMERS[SEEDED_FBPI_ORDERS.dubai];
			assertEqual(
				[
					customer.fbpi_order_nr,
					customer.first_name,
					customer.last_name,
					customer.city,
					customer.administrative_division,
				],
				[
					SEEDED_FBPI_ORDERS.dubai,
					seeded.first_name,
					seeded.last_name,
					seeded.city,
					seeded.administrative_division,
				],
				'customer data',
			);

			const created = single(execution, 'Create barcode import');
			assertEqual(created.mappings_count, 3, 'mappings_count');
			assertEqual(
				created.import_status,
				'IMPORT_STATUS_COMPLETED',
				`import_status after waiting (${JSON.stringify(created)})`,
			);
			assertEqual(created.waitTimedOut, false, 'waitTimedOut');

			const status = single(execution, 'Import status');
			assertEqual(status.import_reference, created.import_reference, 'import_reference');
			assertEqual(status.import_status, 'IMPORT_STATUS_COMPLETED', 'import_status');
			assertEqual(
				(status.report as { success_count?: number }).success_count,
				3,
				'report.success_count',
			);
			const imported = await control<Array<{ import_reference: string; mappings?: unknown[] }>>(
				emu,
				'GET',
				'/imports',
			);
			assert(
				imported.some((i) => i.import_reference === created.import_reference),
				'the emulator does not list the import',
			);
		},
	);

	check(
		'5a. example "released purchase orders to a sheet" runs: three released orders, one CSV file',
		async () => {
			const execution = await client.runAndWait(example('purchase-orders-to-sheet.json'));
			assertSucceeded(execution);
			const rows = outputOf(execution, 'Sheet rows');
			assertEqual(
				rows.map((row) => row.po_nr),
				['PO-1001', 'PO-1002', 'PO-1003'],
				'released orders',
			);
			assertEqual(
				rows[0],
				{
					po_nr: 'PO-1001',
					release_date: '2024-03-15',
					currency: 'AED',
					merchant_code: 'STR10001',
					warehouse_code: 'WH-DXB-01',
					lines: 3,
					total_cost: 3934,
				},
				'first row',
			);
			const files = binaryOf(execution, 'To CSV file');
			assertEqual(files.length, 1, 'files');
			assertEqual(files[0].data?.fileName, 'released-purchase-orders.csv', 'file name');
		},
	);

	check('5b. example "barcode import from a CSV file" runs: five mappings imported', async () => {
		const execution = await client.runAndWait(example('barcode-import-from-csv.json'));
		assertSucceeded(execution);
		assertEqual(outputOf(execution, 'Extract rows').length, 5, 'CSV rows');
		const created = single(execution, 'Create barcode import');
		assertEqual(
			[created.mappings_count, created.import_status],
			[5, 'IMPORT_STATUS_COMPLETED'],
			'mappings_count and import_status',
		);
	});

	check(
		'5c. example "wait for an export and download it" runs: the finished export\'s rows',
		async () => {
			const execution = await client.runAndWait(example('export-download.json'));
			assertSucceeded(execution);
			const status = single(execution, 'Get export and download');
			assertEqual(
				[status.export_code, status.export_status, status.waitTimedOut],
				[SEEDED_EXPORTS.progressing, 'COMPLETE', false],
				'export',
			);
			assertEqual(
				binaryOf(execution, 'Get export and download')[0].data?.fileName,
				`${SEEDED_EXPORTS.progressing}.csv`,
				'downloaded file',
			);
			const rows = outputOf(execution, 'Rows of the export');
			assertEqual(rows.length, 3, 'rows of the export');
			assertEqual(rows[0].order_nr, 'NAE10000001', 'first order of the export');
		},
	);

	check(
		'6. trigger: activation takes over the destination; a sandbox order starts the workflow; no secret → 401; deactivation releases it',
		async () => {
			const trigger = example('new-orders-customer-data.json');
			const code = SEEDED_DESTINATIONS.active;
			await client.activate(trigger.id);

			// n8n 2.x publishes an activation through its outbox: the destination changes a moment later.
			const taken = await waitFor(`destination ${code} to point at n8n`, async () => {
				const current = await destination(emu, code);
				return current?.url.startsWith(n8nInstance.baseUrl) ? current : undefined;
			});
			assert(
				taken.url.startsWith(`${n8nInstance.baseUrl}/webhook/`),
				`destination url ${taken.url} is not this n8n's webhook`,
			);
			assertEqual(taken.is_active, true, 'destination is_active after activation');
			assertEqual(
				Object.keys(taken.credentials),
				[SECRET_HEADER],
				'destination headers after activation',
			);
			assert(
				/^[0-9a-f]{64}$/.test(taken.credentials[SECRET_HEADER]),
				'the secret is not 32 random bytes in hex',
			);
			assert(
				taken.event_types.some((e) => e.event_type === 'FBPI::ORDER_SYNC' && e.is_active),
				`FBPI::ORDER_SYNC is not subscribed: ${JSON.stringify(taken.event_types)}`,
			);

			const before = (await client.executions(trigger.id)).length;
			const sandbox = await client.runAndWait(example('create-sandbox-order.json'));
			assertSucceeded(sandbox);
			const orderNr = single(sandbox, 'Create sandbox order').fbpi_order_nr as string;
			assert(
				typeof orderNr === 'string' && orderNr.length > 0,
				'no fbpi_order_nr from the sandbox order',
			);
			const sandboxOrders = await control<
				Array<{ warehouse_code?: string; fbpi_order_nr?: string }>
			>(emu, 'GET', '/sandbox-orders');
			assert(
				sandboxOrders.some(
					(o) =>
						JSON.stringify(o).includes(orderNr) &&
						JSON.stringify(o).includes(SEEDED_WAREHOUSES.dubai),
				),
				`the emulator has no sandbox order ${orderNr} in ${SEEDED_WAREHOUSES.dubai}`,
			);

			const runId = await waitFor('the trigger workflow to run', async () => {
				const runs = await client.executions(trigger.id);
				return runs.length > before ? runs[0].id : undefined;
			});
			const run = await client.waitForExecution(runId);
			assertSucceeded(run);
			const event = single(run, 'Seller Platform Trigger');
			assertEqual(event.event_type, 'FBPI::ORDER_SYNC', 'event_type');
			assertEqual((event.payload as { order_nr?: string }).order_nr, orderNr, 'payload.order_nr');
			const customer = single(run, 'Customer');
			assertEqual(customer.order_nr, orderNr, 'order_nr after Get customer data');
			assert(
				typeof customer.city === 'string' && customer.city.length > 0,
				`customer city: ${JSON.stringify(customer)}`,
			);
			const deliveries = await control<
				Array<{
					body: { payload?: { order_nr?: string } };
					outcome: string;
					attempts: Array<{ status: number }>;
				}>
			>(emu, 'GET', `/deliveries?destinationCode=${code}`);
			const delivery = deliveries.find((d) => d.body.payload?.order_nr === orderNr);
			assert(delivery, 'the emulator recorded no delivery of the order');
			assertEqual(
				[delivery.outcome, delivery.attempts.at(-1)?.status],
				['delivered', 200],
				'delivery outcome and status',
			);

			// A delivery without the secret header, and one with a wrong secret: 401, no execution.
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
			for (const headers of [{}, { [SECRET_HEADER]: '0'.repeat(64) }] as Array<
				Record<string, string>
			>) {
				const response = await fetch(taken.url, {
					method: 'POST',
					headers: { 'content-type': 'application/json', ...headers },
					body: JSON.stringify(event401),
				});
				assertEqual(
					response.status,
					401,
					`status of a delivery ${Object.keys(headers).length ? 'with a wrong secret' : 'without the secret header'}`,
				);
			}
			await sleep(1500);
			assertEqual(
				(await client.executions(trigger.id)).length,
				runsBefore,
				'executions after the forged deliveries',
			);

			await client.deactivate(trigger.id);
			const released = await waitFor(`destination ${code} to be deactivated`, async () => {
				const current = await destination(emu, code);
				return current && !current.is_active ? current : undefined;
			});
			assertEqual(released.is_active, false, 'destination is_active after deactivation');
			assertEqual(released.credentials, {}, 'destination headers after deactivation');
			assert(
				released.event_types.some((e) => e.event_type === 'FBPI::ORDER_SYNC' && !e.is_active),
				`FBPI::ORDER_SYNC is still subscribed: ${JSON.stringify(released.event_types)}`,
			);
		},
	);

	check(
		'7. "listen for test event" while the trigger is active is refused; the destination stays on the production webhook, which still runs the workflow',
		async () => {
			const trigger = example('new-orders-customer-data.json');
			const triggerName = 'Seller Platform Trigger';
			const code = SEEDED_DESTINATIONS.active;
			await client.activate(trigger.id);
			try {
				const production = await waitFor(
					`destination ${code} to point at this n8n's production webhook`,
					async () => {
						const current = await destination(emu, code);
						return current?.is_active && current.url.startsWith(`${n8nInstance.baseUrl}/webhook/`)
							? current
							: undefined;
					},
				);
				const secret = production.credentials[SECRET_HEADER];
				assert(
					secret,
					`destination headers after activation: ${JSON.stringify(production.credentials)}`,
				);
				const updatesBefore = (await stats(emu)).byOperation.UpdateDestination ?? 0;

				// The editor's "Listen for test event": n8n registers the trigger's /webhook-test/ URL,
				// which runs the trigger's checkExists/create; create must refuse.
				let answer: unknown;
				let refusal: N8nRestError | undefined;
				try {
					answer = await client.listenForTestEvent(trigger, triggerName);
				} catch (error) {
					if (!(error instanceof N8nRestError)) throw error;
					refusal = error;
				}
				if ((answer as { waitingForWebhook?: boolean } | undefined)?.waitingForWebhook) {
					// n8n listens: stop listening, as the editor's "Stop listening" does (the trigger's delete runs).
					await client.stopListening(trigger.id);
					await sleep(1000);
				}
				const after = await destination(emu, code);
				const state = after
					? `url ${after.url}, is_active ${after.is_active}, headers ${JSON.stringify(Object.keys(after.credentials))}`
					: 'gone';
				assert(
					refusal,
					`n8n did not refuse to listen: it answered ${JSON.stringify(answer)}; the destination is now: ${state}`,
				);
				assert(
					refusal.message.includes(
						`Destination "${code}" is registered to this workflow's production webhook, so it cannot listen for test events now`,
					),
					`n8n refused with another message: ${refusal.message} (body ${JSON.stringify(refusal.body)})`,
				);
				assert(after, `destination ${code} is gone`);
				assertEqual(
					[after.url, after.is_active, after.credentials],
					[production.url, true, { [SECRET_HEADER]: secret }],
					'destination (url, is_active, headers) after the refused test listening',
				);
				assert(
					after.event_types.some((e) => e.event_type === 'FBPI::ORDER_SYNC' && e.is_active),
					`FBPI::ORDER_SYNC is no longer subscribed: ${JSON.stringify(after.event_types)}`,
				);
				assertEqual(
					(await stats(emu)).byOperation.UpdateDestination ?? 0,
					updatesBefore,
					'UpdateDestination calls made by the refused test listening',
				);

				// A new event is still delivered to the production webhook and runs the workflow.
				const before = (await client.executions(trigger.id)).length;
				const published = await control<{
					message_id: string;
					deliveries: Array<{ destination_code: string }>;
				}>(emu, 'POST', '/events', {
					event_type: 'FBPI::ORDER_SYNC',
					payload: { order_nr: SEEDED_FBPI_ORDERS.dubai },
				});
				assert(
					published.deliveries.some((d) => d.destination_code === code),
					`the event was not planned for ${code}: ${JSON.stringify(published.deliveries)}`,
				);
				const runId = await waitFor('the trigger workflow to run for the new event', async () => {
					const runs = await client.executions(trigger.id);
					return runs.length > before ? runs[0].id : undefined;
				});
				const run = await client.waitForExecution(runId);
				assertSucceeded(run);
				assertEqual(run.mode, 'webhook', 'mode of the execution (a production one)');
				assertEqual(
					(single(run, triggerName).payload as { order_nr?: string }).order_nr,
					SEEDED_FBPI_ORDERS.dubai,
					'payload.order_nr',
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
				assert(delivery, 'the emulator recorded no delivery of the event');
				assertEqual(
					[delivery.url, delivery.outcome, delivery.attempts.at(-1)?.status],
					[production.url, 'delivered', 200],
					'delivery url, outcome and status',
				);
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
			const nodeName = 'Wait for export';
			const waiter = await client.createWorkflow(
				workflow(
					'e2e: wait for an export that never finishes',
					[
						manualTrigger(),
						sellerPlatform(nodeName, credential, {
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
					[[MANUAL, nodeName]],
				),
			);
			const statusCalls = async () =>
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
			// After a stop n8n pushes nothing more about the node to the editor and saves nothing more
			// (it skips nodeExecuteAfter once cancelled): its engine's log line is where the node's end shows.
			const nodeEndLine = new RegExp(`^.*Running node "${nodeName}" finished.*$`, 'm');

			const executionId = await client.run(waiter);
			const deadline = Date.now() + 30_000;
			let calls = await statusCalls();
			while (!(calls.length >= 2 && calls.every((c) => c.status !== null))) {
				assert(
					Date.now() < deadline,
					`timed out waiting for two GetExportStatus requests (${calls.length} so far)`,
				);
				await sleep(50);
				calls = await statusCalls();
			}
			assertEqual(
				(await client.execution(executionId)).status,
				'running',
				'execution status before the stop',
			);
			assert(!nodeEndLine.test(n8nInstance.output()), `"${nodeName}" ended before the stop`);

			// The node now waits for its next poll: stop the execution (the editor's Stop button).
			const stopAt = Date.now();
			const nodeEnded = (async () => {
				while (Date.now() - stopAt < 15_000) {
					const line = nodeEndLine.exec(n8nInstance.output());
					if (line) return { afterMs: Date.now() - stopAt, line: line[0].trim() };
					await sleep(20);
				}
				return undefined;
			})();
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
			assertEqual(
				[stopped.status, ended.status],
				['canceled', 'canceled'],
				'status in the answer to the stop, and of the execution',
			);

			// No status request after the stop, through the time of the next poll and more.
			await sleep((pollSeconds + 1) * 1000);
			const later = (await statusCalls()).filter((c) => c.at > stopAt);
			assertEqual(
				later.map((c) => `#${c.seq} at +${c.at - stopAt} ms`),
				[],
				`GetExportStatus requests after the stop (${calls.length} before it)`,
			);

			// The node itself returned at once, not at its next poll.
			const end = await nodeEnded;
			assert(
				end,
				`n8n logged no end of "${nodeName}" within 15 s of the stop (N8N_LOG_LEVEL must be debug)`,
			);
			assert(
				end.afterMs <= 1_500,
				`"${nodeName}" ended ${end.afterMs} ms after the stop request (answered in ${stopMs} ms; last poll answered ${stopAt - calls[calls.length - 1].at} ms before the stop, polls every ${pollSeconds} s), not within a second: "${end.line}"`,
			);
		},
	);

	check(
		'9. installed from the npm tarball as n8n installs it: no dependency of its own, luxon and n8n-workflow from n8n',
		async () => {
			// installPackageInto: npm pack, unpacked into the nodes folder, its dev and peer
			// dependencies dropped, `npm install` there with n8n's flags (scripts off) plus
			// --omit=dev; the data folder is outside the repository.
			const manifest = JSON.parse(readFileSync(join(installedAt, 'package.json'), 'utf8')) as {
				name: string;
				dependencies?: Record<string, string>;
			};
			assertEqual(manifest.name, PACKAGE_NAME, 'installed package');
			assertEqual(manifest.dependencies ?? {}, {}, 'dependencies of the installed package');
			const own = join(installedAt, 'node_modules');
			assertEqual(
				existsSync(own) ? readdirSync(own) : [],
				[],
				'node_modules of the installed package',
			);
			assertEqual(
				readdirSync(join(dataDir, '.n8n', 'nodes', 'node_modules')).filter(
					(name) => !name.startsWith('.'),
				),
				[PACKAGE_NAME],
				"packages in n8n's nodes folder",
			);
			assert(
				!join(dataDir).startsWith(REPO_ROOT),
				`the data folder ${dataDir} must be outside the repository`,
			);
			// What the package does not find beside itself, Node looks up on NODE_PATH, which n8n
			// sets to its own module paths: n8n's own luxon and n8n-workflow come first there (not
			// the repository's development copies, further up the same list).
			const n8nRequire = createRequire(
				join(n8nInstall().dir, 'node_modules', 'n8n', 'package.json'),
			);
			for (const module of ['luxon', 'n8n-workflow']) {
				const resolved = n8nRequire.resolve(module);
				assert(
					resolved.startsWith(join(n8nInstall().dir, 'node_modules')),
					`n8n's lookup finds ${module} at ${resolved}, outside its install`,
				);
			}
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
			assertSucceeded(execution);
			assertEqual(single(execution, 'Released').po_release_date_iso, '2024-03-15', 'release date');
			assert(
				!/Cannot find module/.test(n8nInstance.output()),
				'n8n logged a module that could not be found',
			);
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
				const toolNode = {
					...sellerPlatform('Seller Platform', credential, {
						resource: 'purchaseOrder',
						operation: 'get',
						poNr: "={{ $fromAI('po_nr', 'The number of the purchase order, e.g. PO-1001', 'string') }}",
					}),
					type: TOOL_TYPE,
				};
				const agentWorkflow: WorkflowJson = {
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
				await control(emu, 'DELETE', '/requests');
				const execution = await client.runAndWait(await client.createWorkflow(agentWorkflow));
				assertSucceeded(execution);

				// What the model was offered: the operation as a tool, described as an action, with the
				// parameter the workflow left to the model.
				const first = model.requests[0];
				assert(first, 'the chat model got no request');
				const tools = first.body.tools ?? [];
				assertEqual(tools.length, 1, 'tools offered to the model');
				assertEqual(tools[0].function.name, 'Seller_Platform', 'tool name');
				assertEqual(
					tools[0].function.description,
					'Get a purchase order in Seller Platform',
					"tool description (from the operation's action)",
				);
				assertEqual(
					tools[0].function.parameters?.properties,
					{
						po_nr: {
							type: 'string',
							description: 'The number of the purchase order, e.g. PO-1001',
						},
					},
					'tool parameters',
				);
				assertEqual(model.requests.length, 2, 'chat model requests (tool call, then answer)');

				// The tool ran the operation against the emulator, and its output went back to the model.
				const calls = (
					await control<Array<{ operation: string | null; path: string; status: number | null }>>(
						emu,
						'GET',
						'/requests',
					)
				).filter((entry) => entry.operation === 'GetPurchaseOrder');
				assertEqual(
					calls.map((c) => [c.path, c.status]),
					[[`/fbpo/v1/po/${SEEDED_PO.released}/get`, 200]],
					'GetPurchaseOrder requests',
				);
				const toolMessage = model.requests[1].body.messages.find((m) => m.role === 'tool');
				assert(toolMessage, 'the second request carries no tool result');
				assert(
					String(toolMessage.content).includes('"merchant_code"'),
					`the tool result is not the order: ${String(toolMessage.content).slice(0, 200)}`,
				);

				const [answer] = outputOf(execution, 'AI Agent');
				assertEqual(
					answer.output,
					`Purchase order ${SEEDED_PO.released} of merchant STR10001 is PO_STATUS_RELEASED, released on 2024-03-15.`,
					"the agent's answer",
				);
				const everything = JSON.stringify(execution);
				assert(!everything.includes('PRIVATE KEY'), 'the execution data holds a private key');
			} finally {
				await model?.close();
			}
		},
	);

	check(
		"11. n8n's HTTP Request node with the Seller Platform credential: login on first use, the session cookie sent, a new login after the session expires, no secret in the output; pointed at another host, it sends neither token nor cookie and fails saying why",
		async () => {
			const key = await control<{ key_id: string; private_key: string; project_code: string }>(
				emu,
				'POST',
				'/credentials',
				{},
			);
			const fresh = await client.createCredential(
				'Seller Platform (e2e HTTP Request)',
				CREDENTIAL_TYPE,
				{
					...credentialData,
					keyId: key.key_id,
					privateKey: key.private_key,
					projectCode: key.project_code,
				},
			);
			const httpRequest: WorkflowNode = {
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
			};
			const wf = await client.createWorkflow(
				workflow(
					'e2e: HTTP Request with the credential',
					[manualTrigger(), httpRequest],
					[[MANUAL, 'HTTP Request']],
				),
			);
			type Logged = {
				operation: string | null;
				status: number | null;
				headers: Record<string, string | string[]>;
				body: unknown;
			};
			const requests = async () => await control<Logged[]>(emu, 'GET', '/requests');
			const runOnce = async (what: string) => {
				await control(emu, 'DELETE', '/requests');
				const execution = await client.runAndWait(wf);
				assertSucceeded(execution);
				const item = single(execution, 'HTTP Request');
				assertEqual(item.po_nr, SEEDED_PO.released, `${what}: po_nr`);
				assertEqual(item.merchant_code, 'STR10001', `${what}: merchant_code`);
				return { execution, log: await requests() };
			};
			const summary = (log: Logged[]) => log.map((entry) => `${entry.operation} ${entry.status}`);

			const first = await runOnce('first run');
			assertEqual(
				summary(first.log),
				['Login 200', 'GetPurchaseOrder 200'],
				'first run: a login on first use, then the request',
			);
			const cookie = first.log[1].headers.cookie;
			assert(
				typeof cookie === 'string' && cookie.length > 0,
				'the request carried no session cookie',
			);
			const token = (first.log[0].body as { token?: string }).token;
			assert(token, 'the login carried no token');

			const second = await runOnce('second run');
			assertEqual(
				summary(second.log),
				['GetPurchaseOrder 200'],
				'second run: the stored session, no login',
			);
			assertEqual(second.log[0].headers.cookie, cookie, 'second run: the same session cookie');

			await control(emu, 'POST', '/sessions/expire', {});
			const third = await runOnce('after the session expired');
			assertEqual(
				summary(third.log),
				['GetPurchaseOrder 401', 'Login 200', 'GetPurchaseOrder 200'],
				'after the session expired: 401, one new login, the request repeated',
			);
			const newCookie = third.log[2].headers.cookie;
			assert(
				typeof newCookie === 'string' && newCookie !== cookie,
				'the repeat did not use a new session',
			);

			for (const { execution } of [first, second, third]) {
				const output = JSON.stringify(outputOf(execution, 'HTTP Request'));
				for (const [name, secret] of [
					['the session cookie', cookie],
					['the new session cookie', newCookie],
					['the login token', token],
					['the private key', key.private_key.split('\n')[1]],
				] as const) {
					assert(!output.includes(secret), `the HTTP Request output holds ${name}`);
				}
			}

			// The same node and credential pointed at another loopback server (a user of a shared
			// credential typing their own URL): nothing reaches it, and the execution says why.
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
					assertEqual(execution.status, 'error', `${method} to another host: execution status`);
					const error = execution.data.resultData.error;
					assertEqual(
						error?.message,
						`The Seller Platform API credential sends its session and login token only to its Base URL (${gateway}): this request to ${foreign.url} was not sent`,
						`${method} to another host: the error message`,
					);
					assertEqual(
						summary(await requests()),
						[],
						`${method} to another host: requests to the gateway (no login either)`,
					);
					const everything = JSON.stringify(execution);
					for (const [name, secret] of [
						['the session cookie', newCookie],
						['the private key', key.private_key.split('\n')[1]],
					] as const) {
						assert(!everything.includes(secret), `the failed execution holds ${name}`);
					}
				}
				assertEqual(foreign.received.length, 0, 'requests that reached the other host');
			} finally {
				await foreign.close();
			}
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
			expect(served).toHaveLength(10);
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
});
