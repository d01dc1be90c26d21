/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The poll trigger in a real n8n 2.41.1 (SQLite) with its opt-in durable poll cursors on
 * (`N8N_POLLER_DURABLE_CURSORS_ENABLED` with the scheduler flags): n8n keeps no state of the poll
 * at activation, so the trigger keeps the start of its order stream in the workflow's global
 * static data. Checks: the orders created between the activation and the first scheduled poll are
 * emitted; n8n killed (SIGKILL) and started again emits nothing twice and marks nothing (the
 * trigger sees the durable cursor and keeps no unconfirmed orders). About 4 minutes: n8n polls
 * once a minute at most. `jest -c test/e2e/jest.config.js test/e2e/durableCursors.e2e.ts`
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
const WAREHOUSE = 'WH-DURABLE-E2E';
const DURABLE = {
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
};
const DATA_DIR = join(REPO_ROOT, '.tmp', `e2e-durable-${process.pid}`);

let emulator: Emulator;
let n8n: N8nInstance | undefined;
let port: number;
let client: N8nClient;
let credential: StoredCredential;

const start = async () => {
	n8n = await startN8n({
		major: 2,
		dataDir: DATA_DIR,
		port,
		env: DURABLE,
		logFile: join(DATA_DIR, 'n8n.log'),
	});
	client = new N8nClient(n8n.baseUrl);
	await ensureOwner(client, join(DATA_DIR, 'owner.json'));
};

beforeAll(async () => {
	rmSync(DATA_DIR, { recursive: true, force: true });
	emulator = await startEmulator({ host: '127.0.0.1', port: await freePort() });
	installPackageInto(DATA_DIR, 2);
	port = await freePort();
	await start();
	credential = await upsertCredential(client, emulatorCredentialData(emulator));
}, 240_000);

afterAll(async () => {
	await n8n?.stop();
	await emulator?.close();
});

const addOrders = (count: number) =>
	emulator
		.addFbpiOrders({
			warehouseCode: WAREHOUSE,
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

it('durable poll cursors: the orders of the first interval after activation are emitted; after a SIGKILL and a restart, none twice and none marked', async () => {
	const created = await client.createWorkflow({
		name: 'e2e: durable poll cursors',
		nodes: [
			{
				id: 'durable-poll-trigger',
				name: POLL_TRIGGER,
				type: 'n8n-nodes-seller-platform.sellerPlatformPollTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					event: 'newFbpiOrder',
					warehouseCode: { __rl: true, mode: 'id', value: WAREHOUSE },
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
	// Created after the activation's poll, before the first scheduled one.
	const first = addOrders(3);
	const afterFirst = await waitForOrders(created.id, 3, 'the first scheduled poll to emit');
	expect(afterFirst.map((order) => order.fbpi_order_nr)).toEqual(first);

	// n8n killed and started again: a new process (a new life of the trigger).
	process.kill(-n8n!.process.pid!, 'SIGKILL');
	await new Promise((resolve) => n8n!.process.once('exit', resolve));
	await start();
	const second = addOrders(1);
	const all = await waitForOrders(created.id, 4, 'a poll after the restart to emit');
	// One more poll: nothing repeated later either.
	const polled = listings();
	await waitFor('one more poll', async () => (listings() > polled ? true : undefined), 90_000);
	const final = await emittedOrders(created.id);
	expect(final.map((order) => order.fbpi_order_nr)).toEqual([...first, ...second]);
	expect(all.concat(final).some((order) => 'possibleDuplicate' in order)).toBe(false);
	await client.deactivate(created.id);
}, 420_000);
