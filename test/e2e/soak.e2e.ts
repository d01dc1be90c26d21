/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The crash soak (`npm run test:e2e:soak`): a real n8n 2.41.1 (SQLite) with two active workflows,
 * killed with SIGKILL (its whole process group) again and again while orders keep arriving, and
 * started again at once. At the end, for each trigger, every order created after activation must
 * be in an n8n execution, and no order in two unless every copy but one is marked
 * `possibleDuplicate: true`.
 *
 * - **Poll**: Seller Platform Poll Trigger on the Dubai warehouse (Poll Times: every minute, n8n's
 *   minimum) → HTTP Request posting each order number (and `possibleDuplicate`) to a sink here.
 * - **Webhook**: Seller Platform Trigger on destination DST-1001, FBPI::ORDER_SYNC → the same.
 * - The emulator runs in this process (so it outlives every kill). An order is created every 2-4
 *   s, and published as an FBPI::ORDER_SYNC event; the emulator delivers it and retries any answer
 *   but 2xx (after 1, 2, 4, 8 s, then every 10 s; 40 retries, about 6 minutes) as the service does.
 * - A proxy here (lib/watchProxy.ts) stands between n8n and the emulator both ways (n8n's
 *   credential and its webhook address point at it), so the soak sees each request and answer.
 * - Kills, by kind, in shuffled rounds of six (`saved`: as soon as n8n stored the poll trigger's
 *   new state after such a listing, read from SQLite again and again): `random` (a random moment after the
 *   start, start-up included); `listing`
 *   (when a ListFbpiOrders request arrives); `answer` (0-3 ms after a ListFbpiOrders answer);
 *   `emit` (4-150 ms, log-uniform, after a ListFbpiOrders answer that lists an order not emitted yet: n8n is
 *   saving the trigger's state and creating the execution); `delivery` (2-15 ms after n8n answered
 *   a delivery 2xx). A kind whose moment does not come in its cycle's time ends in a random kill,
 *   counted as `random (<kind> did not come)`.
 * - **Enough polls without faking n8n**: n8n 2.41 polls at most once a minute, but every start
 *   activates the workflow and runs one poll then (n8n-core `active-workflow-triggers.js`
 *   `activatePollTrigger` → `poll-trigger-executor.js`, `testingTrigger`), whose result n8n emits
 *   like any other poll's. In 2.41 the activation comes from its workflow publication reconciler
 *   (on by default) a few seconds after the start (its outbox is read every 15 s; a kill during an
 *   activation holds the outbox's lease for 2 minutes). Each restart is one more poll, so the
 *   short version polls about as often as it kills. With SOAK_MINUTES of 10 or more, one poll-kind
 *   kill in three is armed once n8n is ready, so it lands on a scheduled (every-minute) poll. With
 *   SOAK_DURABLE=1, n8n's scheduler keeps the poll job across restarts and runs the activation
 *   poll only when it creates the job (the first activation): every later poll is a scheduled
 *   one, and poll-kind kills wait for it.
 *
 * Which orders an execution carried: the database, read with `sqlite3` after each kill and before
 * n8n starts again (n8n's crash recovery then replaces a crashed execution's trigger output with
 * `{"isArtificialRecoveredEventItem":true}`), and once more after the final, graceful stop (every
 * execution that ended). The sink is a cross-check: each order it received must be in the
 * execution the database says (a failing check means this reading is wrong, not the triggers).
 *
 * Environment: SOAK_MINUTES (the phase with orders and kills; default 2), SOAK_KILLS (at least
 * this many kills; default 8), SOAK_DURABLE=1 (n8n's durable poll cursors: the scheduler, the poll
 * triggers on it, the workflow publication service), SOAK_SEED (the random choices; default the
 * time), E2E_KEEP=1 (keep n8n's data folder). Figures: printed, and written to
 * `.tmp/soak-results.json` (`.tmp/soak-durable-results.json` with SOAK_DURABLE=1).
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SEEDED_DESTINATIONS, SEEDED_WAREHOUSES, startEmulator, type Emulator } from '../emulator';
import { N8nClient, type StoredCredential, type WorkflowNode } from './lib/client';
import { freePort, installPackageInto, REPO_ROOT, startN8n, type N8nInstance } from './lib/n8n';
import { emulatorCredentialData, ensureOwner, TRIGGER_TYPE, upsertCredential } from './lib/setup';
import {
	figuresOf,
	figuresTable,
	type Copy,
	type NotTheTriggers,
	type TriggerFigures,
} from './lib/soakFigures';
import { isSettled, readStoredExecutions } from './lib/storedExecutions';
import { sleep, waitFor } from './lib/wait';
import { startWatchProxy, type Exchange, type WatchProxy } from './lib/watchProxy';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 2);
const MIN_KILLS = Number(process.env.SOAK_KILLS ?? 8);
/** Kills at a chosen moment (not random) a run must have at least. */
const CHOSEN_KILLS = Math.ceil(MIN_KILLS / 3);
const DURABLE = process.env.SOAK_DURABLE === '1';
const SEED = Number(process.env.SOAK_SEED ?? Date.now() % 1_000_000);
if (!(MINUTES > 0) || !(MIN_KILLS >= 1)) throw new Error('SOAK_MINUTES > 0 and SOAK_KILLS >= 1');

const POLL = 'Seller Platform Poll Trigger';
const WEBHOOK = 'Seller Platform Trigger';
const WAREHOUSE = SEEDED_WAREHOUSES.dubai;
const DESTINATION = SEEDED_DESTINATIONS.active;
const KINDS = ['listing', 'answer', 'emit', 'saved', 'delivery', 'random'] as const;
type Kind = (typeof KINDS)[number];
/**
 * After the last kill: how long the soak waits at most for every order to be emitted. n8n 2.41
 * activates the poll trigger from its publication outbox, and a killed n8n may hold the outbox
 * record's lease for 120 s (`N8N_WORKFLOW_PUBLICATION_OUTBOX_LEASE_SECONDS`): the last start's
 * activation poll may come 120 s + the outbox's 15 s reading interval after the kill, and a
 * scheduled poll a minute after it (with durable cursors, the scheduler's poll lease is 120 s too).
 * Seen in CI: not caught up 132 s after the last order, every order emitted afterwards.
 */
const CATCH_UP_MS = (MINUTES >= 10 || DURABLE ? 5 : 4) * 60_000;
/** With SOAK_MINUTES >= 10: after the last start, a scheduled poll too (every minute). */
const QUIET_MS = MINUTES >= 10 ? 75_000 : 3_000;
/** Starts of n8n in a row that may fail by themselves before the soak gives up. */
const MAX_START_ATTEMPTS = 3;
const RESULTS = join(
	REPO_ROOT,
	'.tmp',
	DURABLE ? 'soak-durable-results.json' : 'soak-results.json',
);

const log = (message: string) => process.stdout.write(`soak: ${message}\n`);

/** mulberry32: the soak's random choices, from SOAK_SEED. */
function randomFrom(seed: number) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
const random = randomFrom(SEED);
const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));

// --- the sink ---------------------------------------------------------------------------------------

interface SinkPost {
	trigger: 'poll' | 'webhook';
	order: string;
	possibleDuplicate: boolean;
	execution: string;
}

async function startSink() {
	const posts: SinkPost[] = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			try {
				const body = JSON.parse(Buffer.concat(chunks).toString()) as Omit<SinkPost, 'trigger'>;
				posts.push({
					trigger: req.url === '/webhook' ? 'webhook' : 'poll',
					order: String(body.order),
					possibleDuplicate: body.possibleDuplicate === true,
					execution: String(body.execution),
				});
			} catch {
				// recorded nothing: the execution's own data still counts
			}
			res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		posts,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

// --- the workflows ----------------------------------------------------------------------------------

/** HTTP Request: one POST per item to the sink, with the order, its mark and the execution id. */
function sinkNode(url: string, order: string): WorkflowNode {
	return {
		id: randomUUID(),
		name: 'Sink',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [260, 0],
		parameters: {
			method: 'POST',
			url,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: `={{ JSON.stringify({ order: ${order}, possibleDuplicate: $json.possibleDuplicate === true, execution: $execution.id }) }}`,
			options: {},
		},
	};
}

function soakWorkflow(name: string, trigger: WorkflowNode, sink: WorkflowNode) {
	return {
		name,
		nodes: [trigger, sink],
		connections: { [trigger.name]: { main: [[{ node: sink.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

function pollWorkflow(credential: StoredCredential, sinkUrl: string) {
	const trigger: WorkflowNode = {
		id: randomUUID(),
		name: POLL,
		type: 'n8n-nodes-seller-platform.sellerPlatformPollTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {
			event: 'newFbpiOrder',
			warehouseCode: { __rl: true, mode: 'id', value: WAREHOUSE },
			pollTimes: { item: [{ mode: 'everyMinute' }] },
		},
		credentials: { sellerPlatformApi: { id: credential.id, name: credential.name } },
	};
	return soakWorkflow(
		'soak: poll trigger',
		trigger,
		sinkNode(`${sinkUrl}/poll`, '$json.fbpi_order_nr'),
	);
}

function webhookWorkflow(credential: StoredCredential, sinkUrl: string) {
	const trigger: WorkflowNode = {
		id: randomUUID(),
		name: WEBHOOK,
		type: TRIGGER_TYPE,
		typeVersion: 1,
		webhookId: randomUUID(),
		position: [0, 0],
		parameters: { destinationCode: DESTINATION, events: ['FBPI::ORDER_SYNC'], options: {} },
		credentials: { sellerPlatformApi: { id: credential.id, name: credential.name } },
	};
	return soakWorkflow(
		'soak: webhook trigger',
		trigger,
		sinkNode(`${sinkUrl}/webhook`, '$json.payload.order_nr'),
	);
}

// --- orders ------------------------------------------------------------------------------------------

/** Creates an order every 2-4 s and publishes its FBPI::ORDER_SYNC event, until stopped. */
function startOrders(emulator: Emulator) {
	const created: string[] = [];
	let running = true;
	const done = (async () => {
		while (running) {
			const [order] = emulator.addFbpiOrders({ warehouseCode: WAREHOUSE, count: 1 });
			created.push(order.fbpi_order_nr);
			emulator.publishEvent({
				event_type: 'FBPI::ORDER_SYNC',
				payload: { order_nr: order.fbpi_order_nr },
			});
			await sleep(between(2000, 4000));
		}
	})();
	return {
		created,
		stop: async () => {
			running = false;
			await done;
		},
	};
}

// --- the soak ----------------------------------------------------------------------------------------

interface Soak {
	emulator: Emulator;
	proxy: WatchProxy;
	sink: Awaited<ReturnType<typeof startSink>>;
	dataDir: string;
	port: number;
	env: NodeJS.ProcessEnv;
	client?: N8nClient;
	n8n?: N8nInstance;
	child?: ChildProcess;
	/** Per workflow id, its trigger's name. */
	triggers: Record<string, string>;
	pollWorkflowId: string;
	/** Per trigger and order, its copies in executions (union of every read). */
	copies: { poll: Map<string, Copy[]>; webhook: Map<string, Copy[]> };
	/** Executions read in a final state, and those whose output n8n replaced. */
	settled: Set<string>;
	/** Executions whose trigger output n8n replaced after a crash: their workflow, by id. */
	recovered: Map<string, string>;
	kills: Record<string, number>;
	/** The poll trigger's stored state when a `saved` kill was armed. */
	stateBefore?: string;
	/** n8n processes the soak killed. */
	killed: WeakSet<ChildProcess>;
	/** Starts that failed by themselves (n8n's first error line). */
	startFailures: string[];
	/** How long n8n's last start took until ready. */
	readyMs: number;
	/** Per order, the answers its deliveries got (the status, or `start-up` for n8n's start-up text). */
	answers: Map<string, string[]>;
	/** What the proxy kills at, while a cycle is armed. */
	armed?: { kind: Kind; fire(delayMs: number): void };
	logFile: string;
}

const DURABLE_ENV = {
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
};

/** Starts n8n; notes how long it took to be ready (the soak's cycles wait that long at least). */
async function startN8nFor(soak: Soak): Promise<N8nInstance> {
	for (let attempt = 1; ; attempt++) {
		let spawnedAt = Date.now();
		let mine: ChildProcess | undefined;
		try {
			const n8n = await startN8n({
				dataDir: soak.dataDir,
				port: soak.port,
				logFile: soak.logFile,
				env: soak.env,
				onSpawn: (child) => {
					mine = child;
					soak.child = child;
					spawnedAt = Date.now();
				},
			});
			soak.readyMs = Date.now() - spawnedAt;
			return n8n;
		} catch (error) {
			// Killed by the soak: that cycle's kill. Else n8n failed to start by itself (seen on a
			// machine at a load of 15: its crash recovery timing out on SQLite's lock): noted, retried.
			if (!mine || soak.killed.has(mine) || attempt >= MAX_START_ATTEMPTS) throw error;
			await killN8n(soak, mine);
			const message = (error as Error).message.split('\n')[0];
			soak.startFailures.push(message);
			log(`n8n failed to start by itself (${message}); starting it again`);
		}
	}
}

/** Kills n8n's whole process group with SIGKILL and waits until n8n's process is gone. */
async function killN8n(soak: Soak, child = soak.child): Promise<void> {
	if (!child?.pid) return;
	soak.killed.add(child);
	if (child.exitCode !== null || child.signalCode !== null) {
		// n8n is gone; what it started in its group (the task runner) may not be.
		try {
			process.kill(-child.pid, 'SIGKILL');
		} catch {
			// the group is empty
		}
		return;
	}
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	try {
		process.kill(-child.pid, 'SIGKILL');
	} catch {
		// already gone
	}
	await exited;
}

/**
 * How long after a listing's last page an `emit` kill comes: 4 to 150 ms, log-uniform (as many
 * kills from 4 to 25 ms as from 25 to 150): n8n saves the trigger's state and creates the execution
 * within milliseconds on an idle machine, within tens of them on a loaded one.
 */
const emitDelayMs = () => Math.round(4 * (150 / 4) ** random());

/** The poll workflow's static data as stored (the trigger's state). */
function storedState(soak: Soak): Promise<string> {
	return new Promise((resolve) =>
		execFile(
			'sqlite3',
			[
				'-cmd',
				'.timeout 5000',
				join(soak.dataDir, '.n8n', 'database.sqlite'),
				`SELECT staticData FROM workflow_entity WHERE id = '${soak.pollWorkflowId}'`,
			],
			(error, stdout) => resolve(error ? '' : stdout),
		),
	);
}

/**
 * Whether n8n saved the poll trigger's state within 3 s: read again and again (a read of SQLite's
 * WAL takes no lock n8n waits for) until it differs from the state stored before this start.
 */
async function stateSaved(soak: Soak): Promise<boolean> {
	const deadline = Date.now() + 3000;
	while (Date.now() < deadline) {
		const state = await storedState(soak);
		if (state && state !== soak.stateBefore) return true;
	}
	return false;
}

/** Orders of a listing answer (none when it is not one). */
function listedOrders(exchange: Exchange): { orders: string[]; last: boolean } {
	try {
		const body = JSON.parse(exchange.answerBody ?? '') as {
			orders?: Array<{ fbpi_order_nr?: string }>;
			next_token?: string;
		};
		return {
			orders: (body.orders ?? []).map((o) => String(o.fbpi_order_nr)),
			last: !body.next_token,
		};
	} catch {
		return { orders: [], last: false };
	}
}

/** Wires the proxy's moments to the armed kill. */
function watchMoments(soak: Soak, created: () => readonly string[]) {
	return {
		onRequest(exchange: Exchange) {
			if (soak.armed?.kind === 'listing' && exchange.operation === 'ListFbpiOrders')
				soak.armed.fire(0);
		},
		onAnswered(exchange: Exchange) {
			const armed = soak.armed;
			if (!armed) return;
			if (exchange.operation === 'ListFbpiOrders' && exchange.status === 200) {
				if (armed.kind === 'answer') armed.fire(between(0, 3));
				if (armed.kind === 'emit' || armed.kind === 'saved') {
					const createdSet = new Set(created());
					const emitted = new Set(
						soak.sink.posts.filter((p) => p.trigger === 'poll').map((p) => p.order),
					);
					const { orders, last } = listedOrders(exchange);
					if (last && orders.some((o) => createdSet.has(o) && !emitted.has(o))) {
						if (armed.kind === 'emit') armed.fire(emitDelayMs());
						else void stateSaved(soak).then((saved) => saved && armed.fire(0));
					}
				}
			}
			if (
				armed.kind === 'delivery' &&
				exchange.kind === 'webhook' &&
				exchange.status !== undefined &&
				exchange.status >= 200 &&
				exchange.status < 300
			)
				armed.fire(between(2, 15));
		},
	};
}

/** Notes the answer a delivery got, by its order. */
function noteAnswer(soak: Soak, exchange: Exchange): void {
	let order: string;
	try {
		const body = JSON.parse(exchange.requestBody) as { payload?: { order_nr?: unknown } };
		order = String(body.payload?.order_nr);
	} catch {
		return;
	}
	const startUp = /n8n is starting up/.test(exchange.answerBody ?? '');
	const answers = soak.answers.get(order) ?? [];
	answers.push(startUp ? 'start-up' : String(exchange.status));
	soak.answers.set(order, answers);
}

/** The orders none of whose deliveries n8n answered 2xx (but with its start-up text). */
function notTheTriggers(
	created: readonly string[],
	answers: ReadonlyMap<string, string[]>,
): Map<string, NotTheTriggers> {
	const excused = new Map<string, NotTheTriggers>();
	for (const order of created) {
		const got = answers.get(order) ?? [];
		if (got.some((answer) => /^2\d\d$/.test(answer))) continue;
		excused.set(order, got.includes('start-up') ? "n8n's start-up answer" : 'never answered 2xx');
	}
	return excused;
}

/** Reads the stored executions and adds their orders to the copies. */
function readExecutions(soak: Soak): void {
	const executions = readStoredExecutions(
		join(soak.dataDir, '.n8n', 'database.sqlite'),
		soak.triggers,
		soak.settled,
	);
	for (const execution of executions) {
		const isPoll = execution.workflowId === soak.pollWorkflowId;
		const copies = isPoll ? soak.copies.poll : soak.copies.webhook;
		if (execution.triggerItems.some((item) => item.json.isArtificialRecoveredEventItem === true)) {
			soak.recovered.set(execution.id, execution.workflowId);
		}
		const orders = new Map<string, boolean>();
		for (const { json } of execution.triggerItems) {
			const order = isPoll
				? json.fbpi_order_nr
				: (json.payload as { order_nr?: unknown } | undefined)?.order_nr;
			if (order === undefined) continue;
			orders.set(String(order), json.possibleDuplicate === true);
		}
		const crashed = execution.status === 'crashed';
		for (const [order, marked] of orders) {
			const list = copies.get(order) ?? [];
			const known = list.find((copy) => copy.execution === execution.id);
			if (known) known.crashed = known.crashed || crashed;
			else list.push({ execution: execution.id, marked, crashed });
			copies.set(order, list);
		}
		if (isSettled(execution) || execution.status === 'crashed') soak.settled.add(execution.id);
	}
}

/**
 * One cycle: n8n started (unless running), a kill of `kind` armed, and n8n killed at that moment
 * or, when it does not come within `limitMs` of the cycle's start, at a random one. Then the
 * stored executions are read.
 */
async function cycle(
	soak: Soak,
	kind: Kind,
	budgetMs: number,
	afterReady: boolean,
): Promise<string> {
	// n8n's start (its activation poll, its webhooks) comes first: every moment waits for it.
	const startMs = soak.n8n ? 0 : soak.readyMs;
	const limitMs =
		kind === 'random'
			? Math.max(budgetMs, startMs + 10_000)
			: Math.max(budgetMs, 2 * startMs + (afterReady || pollOnSchedule(kind) ? 75_000 : 45_000));
	let firedKind: string | undefined;
	let fire!: (delayMs: number) => void;
	const killed = new Promise<void>((resolve) => {
		fire = (delayMs) => {
			if (firedKind) return;
			firedKind = kind;
			soak.armed = undefined;
			setTimeout(() => void killN8n(soak).then(resolve), delayMs);
		};
	});
	if (kind === 'saved') soak.stateBefore = await storedState(soak);
	const arm = () => {
		if (kind === 'random') setTimeout(() => fire(0), between(1000, limitMs - 500));
		else soak.armed = { kind, fire };
	};
	const started = Date.now();
	let startError: unknown;
	// Settled once this cycle's start of n8n is over (ready, or ended by the kill).
	let starting: Promise<void> = Promise.resolve();
	if (!soak.n8n) {
		if (!afterReady) arm();
		starting = startN8nFor(soak)
			.then((n8n) => {
				if (firedKind) void n8n.stop();
				else soak.n8n = n8n;
				if (afterReady) arm();
			})
			.catch((error) => {
				if (!firedKind) startError = error;
			});
	} else arm();
	const timedOut = sleep(limitMs).then(() => 'timeout' as const);
	while (!firedKind && !startError) {
		if (
			(await Promise.race([killed.then(() => 'killed' as const), timedOut, sleep(200)])) ===
			'timeout'
		)
			break;
	}
	if (startError) throw startError;
	if (!firedKind) {
		firedKind = `random (${kind} did not come)`;
		soak.armed = undefined;
		await killN8n(soak);
	} else await killed;
	// The start's own end (it notices the exit within half a second) before the next start.
	await starting;
	await soak.n8n?.stop();
	soak.n8n = undefined;
	soak.client = undefined;
	readExecutions(soak);
	soak.kills[firedKind] = (soak.kills[firedKind] ?? 0) + 1;
	log(
		`kill ${Object.values(soak.kills).reduce((a, b) => a + b, 0)}: ${firedKind}${afterReady ? ' (armed once ready)' : ''}, ${((Date.now() - started) / 1000).toFixed(1)} s after the cycle began`,
	);
	return firedKind;
}

/** With durable cursors, polls come only from n8n's scheduler, once a minute. */
const pollOnSchedule = (kind: Kind) =>
	DURABLE && (kind === 'listing' || kind === 'answer' || kind === 'emit' || kind === 'saved');

/**
 * The kinds in shuffled rounds of six, forever, each once.
 */
function kindSequence() {
	let round: Kind[] = [];
	return () => {
		if (!round.length) {
			round = [...KINDS];
			for (let i = round.length - 1; i > 0; i--) {
				const j = between(0, i);
				[round[i], round[j]] = [round[j], round[i]];
			}
		}
		return round.pop()!;
	};
}

async function signIn(soak: Soak): Promise<N8nClient> {
	const client = new N8nClient(soak.n8n!.baseUrl);
	await ensureOwner(client, join(soak.dataDir, 'owner.json'));
	return client;
}

interface Results {
	seed: number;
	durable: boolean;
	minutes: number;
	startedAt: string;
	seconds: number;
	triggers: { poll: TriggerFigures; webhook: TriggerFigures };
	kills: Record<string, number>;
	/** Deliveries n8n answered with its start-up text (n8n's own answer, before it can run a workflow). */
	startupAnswers: number;
	/** The answers the deliveries of each order lost by the webhook trigger got. */
	lostDeliveries: Record<string, string[]>;
	/** Starts of n8n that failed by themselves (retried). */
	startFailures: string[];
	/** Events whose deliveries all failed (the service gave up). */
	undelivered: number;
	/** Sink posts whose order the database reading did not find in that execution. */
	sinkOnly: SinkPost[];
}

let results: Results | undefined;
let failure: unknown;

async function runSoak(): Promise<Results> {
	const startedAt = Date.now();
	log(
		`seed ${SEED}, ${MINUTES} minutes, at least ${MIN_KILLS} kills, durable poll cursors ${DURABLE ? 'on' : 'off'}`,
	);
	const emulator = await startEmulator({
		host: '127.0.0.1',
		port: 0,
		deliveryRetries: 40,
		deliveryBackoffMs: 1000,
		deliveryBackoffMaxMs: 10_000,
	});
	const sink = await startSink();
	const port = await freePort();
	const soak: Soak = {
		emulator,
		sink,
		proxy: undefined as unknown as WatchProxy,
		dataDir: join(tmpdir(), `seller-platform-soak-n8n-${process.pid}`),
		port,
		env: {},
		triggers: {},
		pollWorkflowId: '',
		copies: { poll: new Map(), webhook: new Map() },
		settled: new Set(),
		recovered: new Map(),
		kills: {},
		readyMs: 0,
		killed: new WeakSet(),
		startFailures: [],
		answers: new Map(),
		logFile: '',
	};
	let orders: ReturnType<typeof startOrders> | undefined;
	try {
		let created: readonly string[] = [];
		const moments = watchMoments(soak, () => created);
		soak.proxy = await startWatchProxy({
			emulatorUrl: emulator.baseUrl,
			n8nUrl: `http://127.0.0.1:${port}`,
			onRequest: moments.onRequest,
			onAnswered: (exchange) => {
				if (exchange.kind === 'webhook') noteAnswer(soak, exchange);
				moments.onAnswered(exchange);
			},
		});
		soak.env = {
			N8N_WEBHOOK_URL: `${soak.proxy.url}/`,
			...(DURABLE ? DURABLE_ENV : {}),
		};
		rmSync(soak.dataDir, { recursive: true, force: true });
		mkdirSync(soak.dataDir, { recursive: true });
		soak.logFile = join(soak.dataDir, 'n8n.log');
		installPackageInto(soak.dataDir);
		soak.n8n = await startN8nFor(soak);
		log(`n8n ready after ${((Date.now() - startedAt) / 1000).toFixed(1)} s (data ${soak.dataDir})`);
		const client = await signIn(soak);
		const credential = await upsertCredential(client, {
			...emulatorCredentialData(emulator),
			baseUrl: soak.proxy.url,
		});
		const poll = await client.createWorkflow(pollWorkflow(credential, sink.url));
		const webhook = await client.createWorkflow(webhookWorkflow(credential, sink.url));
		soak.triggers = { [poll.id]: POLL, [webhook.id]: WEBHOOK };
		soak.pollWorkflowId = poll.id;
		const listingsBefore = emulator
			.requests()
			.filter((r) => r.operation === 'ListFbpiOrders' && r.status !== null).length;
		await client.activate(poll.id);
		await client.activate(webhook.id);
		// Orders already there are history for the poll trigger's first poll: orders start after it,
		// and once the destination points at this n8n.
		await waitFor(
			"the poll trigger's first listing",
			async () =>
				emulator.requests().filter((r) => r.operation === 'ListFbpiOrders' && r.status !== null)
					.length > listingsBefore
					? true
					: undefined,
			60_000,
		);
		await waitFor(
			'the destination to point at n8n',
			async () =>
				emulator
					.destinations()
					.find((d) => d.destination_code === DESTINATION)
					?.url.startsWith(`${soak.proxy.url}/webhook/`) || undefined,
		);
		orders = startOrders(emulator);
		created = orders.created;
		const activatedAt = Date.now();
		log(
			`both workflows active ${((activatedAt - startedAt) / 1000).toFixed(1)} s after the start; orders arrive every 2-4 s`,
		);

		// The kills.
		const phaseEnd = activatedAt + MINUTES * 60_000;
		const nextKind = kindSequence();
		let pollKinds = 0;
		for (let kills = 0; kills < MIN_KILLS || Date.now() < phaseEnd; kills++) {
			const left = Math.max(MIN_KILLS - kills, 1);
			const budgetMs = Math.max(5_000, Math.floor((phaseEnd - Date.now()) / left));
			// The first cycle's n8n is already running (its activation poll is over): a delivery.
			const kind = kills === 0 ? 'delivery' : nextKind();
			const pollKind = ['listing', 'answer', 'emit', 'saved'].includes(kind);
			const afterReady = pollKind && MINUTES >= 10 && pollKinds++ % 3 === 2;
			await cycle(soak, kind, budgetMs, afterReady);
		}

		// The end: no more orders; n8n started once more (its activation poll lists them all) and
		// left running until every order is in an execution and no delivery is pending.
		await orders.stop();
		const lastOrderAt = Date.now();
		log(`${orders.created.length} orders; last kill done, starting n8n for the catch-up`);
		soak.n8n = await startN8nFor(soak);
		const finalStart = Date.now();
		// An order none of whose deliveries n8n took (its start-up text answered them all) cannot
		// reach the webhook trigger's sink: the figures count it apart (`notTheTriggers`). Nor can
		// one that an execution stored before a kill carried (read while n8n was down): n8n does not
		// run a crashed execution again, and the figures judge it from the stored executions.
		const missing = (trigger: SinkPost['trigger']) => {
			const seen = new Set(sink.posts.filter((p) => p.trigger === trigger).map((p) => p.order));
			const excused =
				trigger === 'webhook' ? notTheTriggers(orders!.created, soak.answers) : new Map();
			const stored = soak.copies[trigger];
			return orders!.created.filter(
				(order) => !seen.has(order) && !excused.has(order) && !stored.has(order),
			);
		};
		const allIn = (trigger: SinkPost['trigger']) => missing(trigger).length === 0;
		const caughtUp = await waitFor(
			'every order in the sink and no delivery pending',
			async () =>
				allIn('poll') && allIn('webhook') && !emulator.deliveries({ outcome: 'pending' }).length
					? true
					: undefined,
			CATCH_UP_MS,
			500,
		).catch(() => false);
		const wait = QUIET_MS - (Date.now() - finalStart);
		if (wait > 0) await sleep(wait);
		log(
			`${caughtUp ? 'caught up' : 'not caught up'} ${((Date.now() - lastOrderAt) / 1000).toFixed(1)} s after the last order; stopping n8n`,
		);
		if (!caughtUp) {
			const pending = emulator.deliveries({ outcome: 'pending' }).map((d) => d.message_id);
			log(
				`not in the sink: poll ${JSON.stringify(missing('poll'))}, webhook ${JSON.stringify(missing('webhook'))}; deliveries pending: ${JSON.stringify(pending)}`,
			);
		}
		await soak.n8n.stop();
		soak.n8n = undefined;
		readExecutions(soak);

		const sinkOnly = sink.posts.filter(
			(post) =>
				!soak.copies[post.trigger]
					.get(post.order)
					?.some((copy) => copy.execution === post.execution),
		);
		const undelivered = new Set(
			emulator.deliveries({ outcome: 'failed' }).map((delivery) => delivery.message_id),
		).size;
		const recoveredOf = (workflowId: string) =>
			[...soak.recovered.values()].filter((id) => id === workflowId).length;
		return {
			seed: SEED,
			durable: DURABLE,
			minutes: MINUTES,
			startedAt: new Date(startedAt).toISOString(),
			seconds: Math.round((Date.now() - startedAt) / 1000),
			triggers: {
				poll: figuresOf(orders.created, soak.copies.poll, recoveredOf(poll.id)),
				webhook: figuresOf(
					orders.created,
					soak.copies.webhook,
					recoveredOf(webhook.id),
					notTheTriggers(orders.created, soak.answers),
				),
			},
			kills: soak.kills,
			startFailures: soak.startFailures,
			startupAnswers: [...soak.answers.values()].flat().filter((a) => a === 'start-up').length,
			lostDeliveries: Object.fromEntries(
				[...orders.created]
					.filter((order) => !soak.copies.webhook.get(order)?.length)
					.map((order) => [order, soak.answers.get(order) ?? []]),
			),
			undelivered,
			sinkOnly,
		};
	} finally {
		await orders?.stop();
		if (soak.n8n) await soak.n8n.stop();
		else await killN8n(soak);
		await soak.proxy?.close();
		await sink.close();
		await emulator.close();
		if (!process.env.E2E_KEEP) rmSync(soak.dataDir, { recursive: true, force: true });
		else log(`n8n's data and log kept in ${soak.dataDir}`);
	}
}

beforeAll(
	async () => {
		process.setMaxListeners(200);
		try {
			results = await runSoak();
			const table = figuresTable(
				{ 'poll trigger': results.triggers.poll, 'webhook trigger': results.triggers.webhook },
				results.kills,
			);
			log(
				`${results.seconds} s\n${table}\ndeliveries answered by n8n's start-up text: ${results.startupAnswers}; events the service gave up delivering: ${results.undelivered}; n8n starts that failed by themselves: ${results.startFailures.length}`,
			);
			for (const [name, figures] of Object.entries(results.triggers)) {
				if (figures.lost) log(`${name}: lost ${figures.lostOrders.join(', ')}`);
				if (figures.lost && name === 'webhook')
					log(
						`answers to the deliveries of the orders lost: ${JSON.stringify(results.lostDeliveries)}`,
					);
				if (figures.duplicatedUnmarked)
					log(`${name}: unmarked duplicates ${figures.unmarkedOrders.join(', ')}`);
			}
			mkdirSync(join(REPO_ROOT, '.tmp'), { recursive: true });
			writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
			log(`figures written to ${RESULTS}`);
		} catch (error) {
			failure = error;
		}
	},
	// The phase, the catch-up, and the kills: on a loaded machine (load 15-20) a kill and n8n's
	// start again took 100 s, so a run of 40 kills outlasted a fixed 45 minutes.
	(MINUTES + 15) * 60_000 + MIN_KILLS * 120_000,
);

const soaked = (): Results => {
	if (failure) throw failure;
	return results!;
};

describe(`crash soak in a real n8n 2.x (${DURABLE ? 'durable poll cursors' : 'default settings'})`, () => {
	it(`n8n was killed at least ${MIN_KILLS} times, ${CHOSEN_KILLS} of them at a chosen moment`, () => {
		const { kills } = soaked();
		expect(Object.values(kills).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(MIN_KILLS);
		// Which chosen moment comes in time depends on when n8n 2.41 polls after a restart (its
		// publication service activates late): each kind is counted and reported; a run of 30
		// minutes or more must have them all, a short one at least CHOSEN_KILLS chosen ones.
		const chosen = KINDS.filter((kind) => kind !== 'random');
		if (MINUTES >= 30) expect(chosen.filter((kind) => !kills[kind])).toEqual([]);
		const atChosen = chosen.reduce((sum, kind) => sum + (kills[kind] ?? 0), 0);
		expect(atChosen).toBeGreaterThanOrEqual(CHOSEN_KILLS);
	});

	it('the database readings hold every order the sink received, in the execution that sent it', () => {
		expect(soaked().sinkOnly).toEqual([]);
	});

	for (const trigger of ['poll', 'webhook'] as const) {
		// Both triggers mark what may have run before a kill: the webhook trigger every new delivery
		// of an event published before n8n started, so a re-send after a crashed (or ended) first
		// copy comes marked; an unmarked one is a repeat (rerunAfterCrash stays in the report).
		it(`${trigger} trigger: every order created after activation is in an execution, and none in two unless marked possibleDuplicate`, () => {
			const figures = soaked().triggers[trigger];
			expect(figures.created).toBeGreaterThan(0);
			expect({ lost: figures.lostOrders, unmarkedDuplicates: figures.unmarkedOrders }).toEqual({
				lost: [],
				unmarkedDuplicates: [],
			});
		});
	}
});
