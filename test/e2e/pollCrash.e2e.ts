/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The poll trigger in a real n8n 2.41.1 (SQLite) killed with SIGKILL and started again, in the two
 * ways n8n runs a poll trigger:
 * - as installed: the orders of the last emitting poll are not confirmed by a later poll of the
 *   same n8n process before the kill, so after the restart they come again, once, marked
 *   `possibleDuplicate: true`; an order created after the restart comes unmarked;
 * - with the opt-in durable poll cursors (`N8N_POLLER_DURABLE_CURSORS_ENABLED` with the scheduler
 *   flags): n8n keeps no state of the poll at activation, so the trigger keeps the start of its
 *   order stream in the workflow's global static data: the orders created between the activation
 *   and the first scheduled poll are emitted; after the restart nothing comes twice and nothing is
 *   marked (the trigger sees the durable cursor and keeps nothing unconfirmed).
 * About 8 minutes: n8n polls once a minute at most.
 * `jest -c test/e2e/jest.config.js test/e2e/pollCrash.e2e.ts`
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { startEmulator, type Emulator } from '../emulator';
import { N8nClient, type StoredCredential } from './lib/client';
import { freePort, installPackageInto, REPO_ROOT, startN8n, type N8nInstance } from './lib/n8n';
import {
	CREDENTIAL_TYPE,
	emulatorCredentialData,
	ensureOwner,
	upsertCredential,
} from './lib/setup';
import { waitFor } from './lib/wait';

const POLL_TRIGGER = 'Seller Platform Poll Trigger';
const DURABLE = {
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
};
const DATA_DIR = join(REPO_ROOT, '.tmp', `e2e-crash-${process.pid}`);

let emulator: Emulator;
let n8n: N8nInstance | undefined;
let port: number;
let client: N8nClient;
let credential: StoredCredential;
let warehouses = 0;
let warehouse: string;

/** n8n from its data folder (`env`: the settings of the mode under test). */
const start = async (dataDir: string, env: NodeJS.ProcessEnv) => {
	n8n = await startN8n({ major: 2, dataDir, port, env, logFile: join(dataDir, 'n8n.log') });
	client = new N8nClient(n8n.baseUrl);
	await ensureOwner(client, join(dataDir, 'owner.json'));
};

/** A new n8n (its own data folder) with the package and the emulator credential. */
const startFresh = async (env: NodeJS.ProcessEnv) => {
	const dataDir = join(DATA_DIR, `n8n-${++warehouses}`);
	warehouse = `WH-CRASH-E2E-${warehouses}`;
	installPackageInto(dataDir, 2);
	await start(dataDir, env);
	credential = await upsertCredential(client, emulatorCredentialData(emulator));
	return dataDir;
};

/** SIGKILL, then n8n started again on the same data. */
const killAndStart = async (dataDir: string, env: NodeJS.ProcessEnv) => {
	process.kill(-n8n!.process.pid!, 'SIGKILL');
	await new Promise((resolve) => n8n!.process.once('exit', resolve));
	await start(dataDir, env);
};

beforeAll(async () => {
	rmSync(DATA_DIR, { recursive: true, force: true });
	emulator = await startEmulator({ host: '127.0.0.1', port: await freePort() });
	port = await freePort();
}, 60_000);

afterEach(async () => {
	await n8n?.stop();
	n8n = undefined;
});

afterAll(async () => {
	await emulator?.close();
});

const addOrders = (count: number) =>
	emulator
		.addFbpiOrders({
			warehouseCode: warehouse,
			orders: Array.from({ length: count }, (_, i) => ({ createdAt: Date.now() + i })),
		})
		.map((order) => order.fbpi_order_nr);

const listings = () =>
	emulator.requests().filter((request) => request.operation === 'ListFbpiOrders').length;

/** Every order of every finished trigger execution of the workflow, oldest execution first. */
async function emittedOrders(workflowId: string) {
	const runs = (await client.executions(workflowId)).reverse();
	const orders = [];
	for (const { id } of runs) {
		const run = await client.waitForExecution(id);
		const items = run.data.resultData.runData[POLL_TRIGGER][0].data!.main![0]!;
		orders.push(...items.map((item) => item.json));
	}
	return orders;
}

/** Waits until the workflow's executions carry `count` orders. */
const waitForOrders = async (workflowId: string, count: number, what: string) =>
	await waitFor(
		what,
		async () => {
			const orders = await emittedOrders(workflowId);
			return orders.length >= count ? orders : undefined;
		},
		150_000,
		2_000,
	);

/** An active poll trigger workflow (every minute); resolves once its activation has polled. */
async function activeTrigger(name: string) {
	const created = await client.createWorkflow({
		name,
		nodes: [
			{
				id: 'crash-poll-trigger',
				name: POLL_TRIGGER,
				type: 'n8n-nodes-seller-platform.sellerPlatformPollTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					event: 'newFbpiOrder',
					warehouseCode: { __rl: true, mode: 'id', value: warehouse },
					pollTimes: { item: [{ mode: 'everyMinute' }] },
				},
				credentials: { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	});
	const before = listings();
	await client.activate(created.id);
	await waitFor(
		'the poll at activation',
		async () => (listings() > before ? true : undefined),
		60_000,
	);
	return created.id;
}

const marked = (order: Record<string, unknown>) => order.possibleDuplicate === true;

it("n8n as installed: after a SIGKILL and a restart, the last poll's orders come again once, marked possibleDuplicate; a later order unmarked", async () => {
	const dataDir = await startFresh({});
	const workflowId = await activeTrigger('e2e: crash, n8n as installed');
	const first = addOrders(2);
	const emitted = await waitForOrders(workflowId, 2, 'a poll to emit');
	expect(emitted.map((order) => order.fbpi_order_nr)).toEqual(first);

	await killAndStart(dataDir, {});
	const again = await waitForOrders(workflowId, 4, 'the restart to emit them again');
	expect(again.slice(2).map((order) => order.fbpi_order_nr)).toEqual(first);
	expect(again.slice(2).every(marked)).toBe(true);
	const second = addOrders(1);
	const all = await waitForOrders(workflowId, 5, 'a poll after the restart to emit');
	expect(all.slice(4).map((order) => order.fbpi_order_nr)).toEqual(second);
	expect(all.slice(4).some(marked)).toBe(false);
	await client.deactivate(workflowId);
}, 480_000);

it('durable poll cursors: the orders of the first interval after activation are emitted; after a SIGKILL and a restart, none twice and none marked', async () => {
	const dataDir = await startFresh(DURABLE);
	const workflowId = await activeTrigger('e2e: crash, durable poll cursors');
	// Created after the activation's poll, before the first scheduled one.
	const first = addOrders(3);
	const afterFirst = await waitForOrders(workflowId, 3, 'the first scheduled poll to emit');
	expect(afterFirst.map((order) => order.fbpi_order_nr)).toEqual(first);

	await killAndStart(dataDir, DURABLE);
	const second = addOrders(1);
	await waitForOrders(workflowId, 4, 'a poll after the restart to emit');
	// One more poll: nothing repeated later either.
	const polled = listings();
	await waitFor('one more poll', async () => (listings() > polled ? true : undefined), 90_000);
	const final = await emittedOrders(workflowId);
	expect(final.map((order) => order.fbpi_order_nr)).toEqual([...first, ...second]);
	expect(final.some(marked)).toBe(false);
	await client.deactivate(workflowId);
}, 480_000);
