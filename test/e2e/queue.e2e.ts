/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * `npm run test:e2e:queue`: the package in n8n's queue mode. Postgres and Redis from Debian's
 * packages (lib/services.ts), then n8n main + 2 workers + 1 webhook process from the e2e install,
 * each with the package in its own user folder, and the emulator (50 ms, a plan of 600 per 60 s).
 *
 * Jest runs it (test/e2e/jest.config.js): one named test per figure, in three scenarios
 * on one cluster:
 * 1. Four executions × 300 purchase orders started together by webhooks run on the two workers:
 *    at least 90% of the plan in aggregate, at most 1% of the requests answered 429, no item
 *    lost; sessions: at most one login per worker at the start, and after a mid-run expiry.
 * 2. One execution × 600 on one worker while the other is idle: it alone reaches 90% of the plan,
 *    with the session the others stored (no login).
 * 3. The trigger: registered by main, deliveries received by main run on workers; without the
 *    secret 401; 10 concurrent deliveries, then re-sent to the webhook process, again after its
 *    restart, and to main: each runs once.
 * The figures go to test/bench/queue-results.json (the benchmark report shows them).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { renderMarkdown, type QueueResults } from '../bench/report';
import type { ResultsFile } from '../bench/run';
import { startEmulator, type Emulator } from '../emulator';
import { N8nClient, outputOf, type StoredWorkflow, type WorkflowNode } from './lib/client';
import { freePort, installPackageInto, REPO_ROOT, startN8n, type N8nInstance } from './lib/n8n';
import { queueEnvironment, startServices, type Services } from './lib/services';
import { sleep, waitFor } from './lib/wait';
import {
	CREDENTIAL_TYPE,
	emulatorCredentialData,
	ensureOwner,
	NODE_TYPE,
	TRIGGER_TYPE,
	upsertCredential,
} from './lib/setup';

const PLAN = 600;
const WINDOW_MS = 60_000;
const PLAN_PER_SECOND = PLAN / 60;
const SECRET_HEADER = 'X-N8n-Seller-Platform-Secret';
const DATA = join(REPO_ROOT, '.tmp', 'e2e-queue');
const RESULTS = join(REPO_ROOT, 'test', 'bench', 'queue-results.json');

// Straight to stdout: Jest's console adds a stack line to every message.
const log = (message: string) => process.stdout.write(`[queue] ${message}\n`);

// --- figures: measured by a scenario, each checked by a test of its own ---------------------------

interface Figure {
	name: string;
	value: string;
	target: string;
	met: boolean;
}
const figures: Figure[] = [];

/** Records a figure measured by a scenario; its test checks it. */
function check(name: string, value: string | number, target: string, met: boolean) {
	if (!declared.has(name)) throw new Error(`figure "${name}" has no test`);
	figures.push({ name, value: String(value), target, met });
	log(`${met ? '✓' : '✗'} ${name}: ${value} (target ${target})`);
}

const declared = new Set<string>();
/** A test per figure: it fails when the figure missed its target, or was never measured. */
function figureTests(names: string[]) {
	for (const name of names) {
		declared.add(name);
		it(name, () => {
			const figure = figures.find((f) => f.name === name);
			if (!figure) throw new Error('not measured: the scenario ended before it (see its error)');
			if (!figure.met) throw new Error(`${figure.value}, target ${figure.target}`);
		});
	}
}

/** Polls every 500 ms, for a minute unless told otherwise. */
const waitLong = async <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000) =>
	await waitFor(what, probe, timeoutMs, 500);

function node(
	name: string,
	type: string,
	typeVersion: number,
	parameters: Record<string, unknown>,
	extra: Partial<WorkflowNode> = {},
): WorkflowNode {
	return { id: randomUUID(), name, type, typeVersion, position: [0, 0], parameters, ...extra };
}

/** Webhook (POST /webhook/<path>, answered at once) → Split Out body.pos → purchaseOrder/get. */
function bulkWorkflow(path: string, credential: { id: string; name: string }) {
	return {
		name: 'Queue mode: bulk purchase orders',
		nodes: [
			node(
				'Webhook',
				'n8n-nodes-base.webhook',
				2,
				{ httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
				{ webhookId: randomUUID() },
			),
			node('Split Out', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: 'body.pos', options: {} }),
			node(
				'Seller Platform',
				NODE_TYPE,
				1,
				{ resource: 'purchaseOrder', operation: 'get', poNr: '={{ $json.po }}', options: {} },
				{ credentials: { [CREDENTIAL_TYPE]: credential } },
			),
		],
		connections: {
			Webhook: { main: [[{ node: 'Split Out', type: 'main', index: 0 }]] },
			'Split Out': { main: [[{ node: 'Seller Platform', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

const poList = (count: number, start: number) =>
	Array.from({ length: count }, (_, i) => ({ po: `PO-BULK-${start + i}` }));

/** Starts executions through the webhook and waits until all have finished. */
async function runBulk(
	client: N8nClient,
	main: N8nInstance,
	workflow: StoredWorkflow,
	path: string,
	batches: Array<{ po: string }[]>,
	during?: () => Promise<void>,
) {
	const before = new Set((await client.executions(workflow.id)).map((e) => e.id));
	const started = Date.now();
	const answers = await Promise.all(
		batches.map(
			async (pos) =>
				await fetch(`${main.baseUrl}/webhook/${path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ pos }),
				}),
		),
	);
	for (const answer of answers) {
		if (answer.status !== 200) throw new Error(`the bulk webhook answered ${answer.status}`);
	}
	const duringDone = during?.();
	const ids = await waitLong(
		`${batches.length} executions to finish`,
		async () => {
			const runs = (await client.executions(workflow.id)).filter((e) => !before.has(e.id));
			const done = runs.filter((e) => !['new', 'running', 'waiting'].includes(e.status));
			return done.length >= batches.length ? done.map((e) => e.id) : undefined;
		},
		15 * 60_000,
	);
	await duringDone;
	const executions = await Promise.all(ids.map(async (id) => await client.waitForExecution(id)));
	return { executions, wallMs: Date.now() - started };
}

function planShare(emulator: Emulator, since: number) {
	const arrivals = emulator
		.requests()
		.filter((r) => r.operation === 'GetPurchaseOrder' && r.at >= since);
	const ok = arrivals
		.filter((r) => r.status === 200)
		.map((r) => r.at)
		.sort((a, b) => a - b);
	const rejected = arrivals.filter((r) => r.status === 429).length;
	const span = (Math.max(...ok) - Math.min(...ok)) / 1000;
	const perSecond = (ok.length - 1) / span;
	// The plan is a sliding window, which starts empty: a cluster faster than the plan gets a
	// window's worth early, so the rate over a short run flatters it. The steady rate does not:
	// the accepted requests after the first window (from the first arrival + 60 s to the last),
	// per second, as a share of the plan.
	const steadyFrom = Math.min(...ok) + WINDOW_MS;
	const steady = ok.filter((at) => at >= steadyFrom);
	const steadySpan = steady.length > 1 ? (steady[steady.length - 1] - steadyFrom) / 1000 : 0;
	const fill = steadySpan > 0 ? steady.length / steadySpan / PLAN_PER_SECOND : null;
	return {
		requests: arrivals.length,
		accepted: ok.length,
		rejected,
		rejectedPercent: Number(((rejected / arrivals.length) * 100).toFixed(2)),
		spanSeconds: Number(span.toFixed(1)),
		percentOfPlan: Number(((perSecond / PLAN_PER_SECOND) * 100).toFixed(1)),
		steadyPercent: fill === null ? null : Number((fill * 100).toFixed(1)),
		steadySeconds: Number(steadySpan.toFixed(1)),
		lastAt: Math.max(...arrivals.map((r) => r.at)),
	};
}

const workerRuns = (worker: N8nInstance) =>
	(worker.output().match(/Worker started execution/g) ?? []).length;

/** The figures to test/bench/queue-results.json, and the benchmark report. */
function writeResults() {
	writeFileSync(
		RESULTS,
		`${JSON.stringify(
			{
				date: new Date().toISOString(),
				n8n: '2.40.7 (main + 2 workers + 1 webhook process, Postgres, Redis)',
				emulator: { latencyMs: 50, ratePlan: { limit: PLAN, windowMs: WINDOW_MS } },
				credentialRequestsPerMinute: PLAN,
				scenario1: {
					...share1,
					runsPerWorker,
					wallMs: one.wallMs,
					loginsAtStart: loginsAtExpiry - logins0,
					loginsAfterExpiry: loginsEnd1 - loginsAtExpiry,
				},
				scenario2: share2 && two ? { ...share2, wallMs: two.wallMs } : null,
				figures,
			},
			null,
			'\t',
		)}\n`,
	);
	log(`figures written to ${RESULTS}`);
	// The benchmark report shows them too.
	const benchResults = join(REPO_ROOT, 'test', 'bench', 'results.json');
	if (existsSync(benchResults)) {
		const file = JSON.parse(readFileSync(benchResults, 'utf8')) as ResultsFile;
		writeFileSync(
			join(REPO_ROOT, 'test', 'bench', 'RESULTS.md'),
			renderMarkdown(file, JSON.parse(readFileSync(RESULTS, 'utf8')) as QueueResults),
		);
	}
}

// --- the cluster, shared by the scenarios -------------------------------------------------------------

let services: Services | undefined;
let emulator: Emulator;
const processes: N8nInstance[] = [];
let mainProcess: N8nInstance;
let worker1: N8nInstance;
let worker2: N8nInstance;
let webhookProcess: N8nInstance;
let client: N8nClient;
let reference: { id: string; name: string };
let start: (name: string, command: 'start' | 'worker' | 'webhook') => Promise<N8nInstance>;
// What scenario 1 leaves to the others and to the results file.
let path: string;
let bulk: StoredWorkflow;
let share1: ReturnType<typeof planShare>;
let one: Awaited<ReturnType<typeof runBulk>>;
let runsPerWorker: number[];
let logins0 = 0;
let loginsAtExpiry = 0;
let loginsEnd1 = 0;
let share2: ReturnType<typeof planShare> | undefined;
let two: Awaited<ReturnType<typeof runBulk>> | undefined;
const started = Date.now();

beforeAll(async () => {
	// A fresh cluster every time: user folders, database and queue of an earlier run are dropped.
	rmSync(DATA, { recursive: true, force: true });
	mkdirSync(DATA, { recursive: true });
	services = await startServices(join(DATA, 'services'), log);
	emulator = await startEmulator({
		host: '127.0.0.1',
		port: await freePort(),
		latencyMs: 50,
		ratePlan: { limit: PLAN, windowMs: WINDOW_MS },
		requestLogLimit: 50_000,
	});
	log(`emulator ${emulator.baseUrl}: 50 ms, ${PLAN} requests per ${WINDOW_MS / 1000} s`);
	const shared = queueEnvironment(services, randomBytes(24).toString('hex'));
	start = async (name: string, command: 'start' | 'worker' | 'webhook') => {
		const dataDir = join(DATA, name);
		// Queue mode runs on n8n 2.x, whatever E2E_N8N says.
		installPackageInto(dataDir, 2);
		const instance = await startN8n({
			major: 2,
			command,
			dataDir,
			port: await freePort(),
			env: { ...shared, QUEUE_HEALTH_CHECK_ACTIVE: 'false' },
			logFile: join(dataDir, 'n8n.log'),
		});
		processes.push(instance);
		log(`n8n ${command} (${name}) on port ${instance.port}, log ${join(dataDir, 'n8n.log')}`);
		return instance;
	};
	// main first: it creates the database schema.
	mainProcess = await start('main', 'start');
	[worker1, worker2] = await Promise.all([
		start('worker-1', 'worker'),
		start('worker-2', 'worker'),
	]);
	webhookProcess = await start('webhook', 'webhook');

	client = new N8nClient(mainProcess.baseUrl);
	await ensureOwner(client, join(DATA, 'owner.json'));
	const credential = await upsertCredential(client, {
		...emulatorCredentialData(emulator),
		requestsPerMinute: PLAN,
	} as unknown as Record<string, string>);
	reference = { id: credential.id, name: credential.name };
}, 10 * 60_000);

afterAll(async () => {
	if (figures.length) writeResults();
	if (figures.some((f) => !f.met)) {
		for (const instance of processes) {
			console.error(
				`--- last output of n8n on port ${instance.port} ---\n${instance.output().slice(-3000)}`,
			);
		}
	}
	for (const instance of processes.reverse()) await instance.stop().catch(() => undefined);
	await emulator?.close().catch(() => undefined);
	services?.stop();
	log(`${Math.round((Date.now() - started) / 1000)} s in all`);
}, 5 * 60_000);

describe('1. four executions × 300 purchase orders on two workers', () => {
	beforeAll(async () => {
		path = `bulk-${randomUUID()}`;
		bulk = await client.createWorkflow(bulkWorkflow(path, reference));
		await client.activate(bulk.id);
		// Activation is asynchronous; a GET is refused with a hint at POST once the webhook exists.
		await waitLong('the bulk webhook to be registered', async () => {
			const answer = await fetch(`${mainProcess.baseUrl}/webhook/${path}`);
			return /POST/.test(await answer.text()) ? true : undefined;
		});
		log('1. 4 executions × 300 purchase orders, started together by webhook');
		const since1 = Date.now();
		logins0 = emulator.stats().logins;
		loginsAtExpiry = 0;
		one = await runBulk(
			client,
			mainProcess,
			bulk,
			path,
			[0, 1, 2, 3].map((i) => poList(300, 1 + i * 300)),
			async () => {
				// Mid-run, every session ends: each busy worker logs in again, once.
				await waitLong(
					'600 requests',
					async () =>
						emulator!.requests().filter((r) => r.operation === 'GetPurchaseOrder' && r.at >= since1)
							.length >= 600
							? true
							: undefined,
					10 * 60_000,
				);
				loginsAtExpiry = emulator!.stats().logins;
				emulator!.expireSessions();
			},
		);
		loginsEnd1 = emulator.stats().logins;
		share1 = planShare(emulator, since1);
		const lost = one.executions.filter(
			(e) => e.status !== 'success' || outputOf(e, 'Seller Platform').length !== 300,
		).length;
		runsPerWorker = [workerRuns(worker1), workerRuns(worker2)];
		log(`   ${JSON.stringify({ ...share1, runsPerWorker, wallMs: one.wallMs })}`);
		check(
			'1. executions on each worker',
			runsPerWorker.join(' + '),
			'both workers busy',
			runsPerWorker.every((n) => n >= 1),
		);
		check(
			'1. aggregate share of the plan (steady rate, after the first window), 2 workers × 4 executions',
			`${share1.steadyPercent} % (rate over the whole run: ${share1.percentOfPlan} %)`,
			'>= 90 %',
			(share1.steadyPercent ?? 0) >= 90,
		);
		check(
			'1. requests answered 429',
			`${share1.rejected} of ${share1.requests} (${share1.rejectedPercent} %)`,
			'<= 1 %',
			share1.rejectedPercent <= 1,
		);
		check('1. executions that failed or lost items', lost, '0', lost === 0);
		check(
			'1. logins at the start (one session lifetime)',
			loginsAtExpiry - logins0,
			'<= 1 per worker (2)',
			loginsAtExpiry - logins0 <= 2,
		);
		check(
			'1. logins after the sessions expired mid-run',
			loginsEnd1 - loginsAtExpiry,
			'<= 1 per worker (2)',
			loginsEnd1 - loginsAtExpiry <= 2 && loginsEnd1 - loginsAtExpiry >= 1,
		);
	}, 15 * 60_000);
	figureTests([
		'1. executions on each worker',
		'1. aggregate share of the plan (steady rate, after the first window), 2 workers × 4 executions',
		'1. requests answered 429',
		'1. executions that failed or lost items',
		'1. logins at the start (one session lifetime)',
		'1. logins after the sessions expired mid-run',
	]);
});

describe('2. one execution × 600 on one worker, the other idle', () => {
	beforeAll(async () => {
		// The emulator's window and the workers' own record of it empty out first.
		const quiet = share1.lastAt + WINDOW_MS * 1.02 - Date.now();
		if (quiet > 0) {
			log(`2. waiting ${Math.round(quiet / 1000)} s for the plan's window to empty`);
			await sleep(quiet);
		}
		log('2. 1 execution × 600 purchase orders: one worker busy, the other idle');
		const since2 = Date.now();
		const logins2 = emulator.stats().logins;
		const runsBefore = [workerRuns(worker1), workerRuns(worker2)];
		two = await runBulk(client, mainProcess, bulk, path, [poList(600, 2001)]);
		share2 = planShare(emulator, since2);
		const lost2 = two.executions.filter(
			(e) => e.status !== 'success' || outputOf(e, 'Seller Platform').length !== 600,
		).length;
		log(`   ${JSON.stringify({ ...share2, wallMs: two!.wallMs })}`);
		const busy = [workerRuns(worker1) - runsBefore[0], workerRuns(worker2) - runsBefore[1]];
		check('2. workers busy', busy.join(' + '), 'one', busy.filter((n) => n > 0).length === 1);
		check(
			'2. share of the plan, one worker alone',
			`${share2!.percentOfPlan} %`,
			'>= 90 %',
			share2!.percentOfPlan >= 90,
		);
		check('2. requests answered 429', share2!.rejected, '0', share2!.rejected === 0);
		check('2. executions that failed or lost items', lost2, '0', lost2 === 0);
		check(
			'2. logins (the session stored by the others is used)',
			emulator.stats().logins - logins2,
			'0',
			emulator.stats().logins === logins2,
		);
	}, 10 * 60_000);
	figureTests([
		'2. workers busy',
		'2. share of the plan, one worker alone',
		'2. requests answered 429',
		'2. executions that failed or lost items',
		'2. logins (the session stored by the others is used)',
	]);
});

describe('3. the trigger in queue mode', () => {
	beforeAll(async () => {
		log('3. trigger: registered by main, executions on workers, re-sent deliveries dropped');
		const destinationCode = emulator.destinations()[0].destination_code;
		const trigger = await client.createWorkflow({
			name: 'Queue mode: trigger',
			nodes: [
				node(
					'Seller Platform Trigger',
					TRIGGER_TYPE,
					1,
					{ destinationCode, events: ['FBPI::ORDER_SYNC'], options: {} },
					{ webhookId: randomUUID(), credentials: { [CREDENTIAL_TYPE]: reference } },
				),
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		});
		await client.activate(trigger.id);
		const registered = await waitLong('the destination to point at main', async () => {
			const current = emulator!.destinations().find((d) => d.destination_code === destinationCode);
			return current?.url.startsWith(mainProcess.baseUrl) && current.credentials[SECRET_HEADER]
				? current
				: undefined;
		});
		const secret = registered.credentials[SECRET_HEADER];
		const hookPath = new URL(registered.url).pathname;
		const events = Array.from({ length: 10 }, (_, i) => ({
			event_schema_version: '1.0',
			event_type: 'FBPI::ORDER_SYNC',
			metadata: {
				published_at: new Date().toISOString(),
				project_code: emulator!.credential.project_code,
				message_id: `queue-${randomUUID()}-${i}`,
			},
			payload: { order_nr: `NAE9000000${i}` },
		}));
		const deliver = async (
			origin: string,
			headers: Record<string, string> = { [SECRET_HEADER]: secret },
		) =>
			await Promise.all(
				events.map(async (event) => {
					const answer = await fetch(`${origin}${hookPath}`, {
						method: 'POST',
						headers: { 'content-type': 'application/json', ...headers },
						body: JSON.stringify(event),
					});
					return { status: answer.status, body: (await answer.text()).slice(0, 200) };
				}),
			);
		const triggerRuns = async () =>
			(await client.executions(trigger.id)).filter(
				(e) => !['new', 'running', 'waiting'].includes(e.status),
			);
		const unauthenticated = await deliver(mainProcess.baseUrl, {});
		check(
			'3. deliveries without the secret',
			unauthenticated.map((a) => a.status).filter((s) => s === 401).length,
			'10 × 401',
			unauthenticated.every((a) => a.status === 401),
		);
		const workerRunsBefore = workerRuns(worker1) + workerRuns(worker2);
		const first = await deliver(mainProcess.baseUrl);
		check(
			'3. 10 concurrent deliveries to main',
			first.filter((a) => a.status === 200).length,
			'10 × 200',
			first.every((a) => a.status === 200),
		);
		const ran = await waitLong('10 trigger executions', async () => {
			const runs = await triggerRuns();
			return runs.length >= 10 ? runs : undefined;
		});
		await sleep(3000);
		check(
			'3. executions of the 10 deliveries, on workers',
			`${ran.length} (${workerRuns(worker1) + workerRuns(worker2) - workerRunsBefore} on workers)`,
			'10 (10)',
			ran.length === 10 && workerRuns(worker1) + workerRuns(worker2) - workerRunsBefore === 10,
		);
		const dropped = (answers: Array<{ body: string }>) =>
			answers.filter((a) => a.body.includes('duplicate delivery')).length;
		const toWebhook = await deliver(webhookProcess.baseUrl);
		check(
			'3. the same 10 re-sent to the webhook process: dropped',
			dropped(toWebhook),
			'10',
			dropped(toWebhook) === 10,
		);
		await webhookProcess.stop();
		processes.splice(processes.indexOf(webhookProcess), 1);
		webhookProcess = await start('webhook', 'webhook');
		const afterRestart = await deliver(webhookProcess.baseUrl);
		check(
			'3. re-sent after a restart of the webhook process: dropped',
			dropped(afterRestart),
			'10',
			dropped(afterRestart) === 10,
		);
		const toMain = await deliver(mainProcess.baseUrl);
		check('3. re-sent to main: dropped', dropped(toMain), '10', dropped(toMain) === 10);
		await sleep(3000);
		const finalRuns = (await triggerRuns()).length;
		check('3. executions in all (each delivery ran once)', finalRuns, '10', finalRuns === 10);
	}, 5 * 60_000);
	figureTests([
		'3. deliveries without the secret',
		'3. 10 concurrent deliveries to main',
		'3. executions of the 10 deliveries, on workers',
		'3. the same 10 re-sent to the webhook process: dropped',
		'3. re-sent after a restart of the webhook process: dropped',
		'3. re-sent to main: dropped',
		'3. executions in all (each delivery ran once)',
	]);
});
