/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Seller Platform Poll Trigger, model-based: fast-check generates short random sequences of what
 * happens to an active "New FBPI Order" trigger (orders added on time, late up to 30 hours after
 * their creation, or ahead of the clock, polls, n8n restarts, n8n killed between the static-data
 * save and the execution, activations that fail and are retried from the saved state, the
 * workflow's credential switched to another project and back, n8n's time zone changed, orders
 * GetFbpiOrder cannot read for a while or for ever, the service's list order changed, its page
 * tokens expired, minutes passing between polls: n8n's clock and the service's, one Date.now),
 * against a service with random list quirks (filters ignored or shifted, times without a zone,
 * entries without items, any list order: oldest or newest first, shuffled, changing at every
 * page; small pages; tokens that expire). Each sequence runs on the real emulator through
 * n8n-core's PollContext / PollTriggerExecutor (test/helpers/polls.ts), in a warehouse and
 * workflow of its own, and is checked against a model.
 *
 * The property, checked after every command and at the end after enough extra polls:
 * - every order that appeared in a project's stream after that stream's activation, listed on
 *   time (less than `LOOKBACK_MS` after its creation), is emitted, by a poll of that stream;
 * - one listed later is emitted too when a sweep of the lateness option (*Catch Orders Listed
 *   Late Up To*, `lateListingHours`, default 24 h) is due while it is younger than the option:
 *   the model asks it of the sweep that starts `SWEEP_EVERY_MS` after the end of the sequence;
 *   listed later than that, it may be missed, never emitted twice;
 * - an order is emitted once; again only marked `possibleDuplicate: true` (n8n killed between
 *   the static-data save and the execution, or restarted: at least once, a repeat marked, never
 *   a loss); one GetFbpiOrder cannot read: retried on the next polls, then emitted as listed and
 *   marked, never before `MAX_DETAIL_ATTEMPTS` polls of its stream and `DETAIL_PATIENCE_MS`
 *   since the first poll that could read it;
 * - nothing that was there at the activation (history, or created more than `LOOKBACK_MS`
 *   before it), nothing of another project, ever;
 * - no poll and no activation fails, except by a fault the sequence injected (then n8n retries
 *   the activation from the SAVED static data, which must succeed) or a list that never ends.
 * Two more properties, of fewer runs (their listings are long): a `next_token` that never ends
 * makes a poll fail loudly (an error naming ListFbpiOrders) within `LOUD_WITHIN_POLLS` polls,
 * never a silent stall, and once the service ends its lists again every order is emitted; a
 * window of more than `MAX_SEEN` orders in any list order loses none, or only with a warning in
 * n8n's log.
 * It caught, on the trigger before them: history emitted by a list that shifts or ignores its
 * filters, a zone-less order_created_at read in n8n's zone (orders emitted again under
 * TZ=Asia/Dubai), one unreadable order failing every poll, and the position of one project
 * reused after a switch to another. On adc1307 (restricted with MODEL_COMMANDS / MODEL_QUIRKS), the
 * shrunk counterexamples of issue 42's defects: (1) an order listed 901 s after its creation,
 * then a poll: never emitted; (2) 41 pages of orders (pages of 1) with tokens living 20 minutes:
 * a poll fails on the saved token (also: 41 pages, poll, tokens expire); (3) 7,500 orders in ten
 * minutes, listed newest first: 1,500 never emitted, no warning; (4) lists that never end: 77
 * polls, none failed; (5) an order, then n8n killed between the save and the execution: lost.
 * On the fixes merged, an order stamped 1 s ahead of n8n's clock, then the execution kept and
 * the save lost: emitted again unmarked.
 *
 * Seeded: MODEL_SEED=<n> (default fixed), MODEL_RUNS=<n> (default 150; 1,000 before issue 42's commands: see the note), MODEL_ENDLESS_RUNS and
 * MODEL_BIG_RUNS (default 1 while MAX_SEEN is at most 20,000, else 0: the property is then not defined), MODEL_VERBOSE=1|2 (the situations reached; fast-check's
 * verbose report). To look for one kind of failure, MODEL_COMMANDS=add,late,poll,wait,restart,
 * switch,tz,unreadable,order,bulk,expire,crash,failact,endless,big and MODEL_QUIRKS=ignoreFilters,
 * filterShift,zoneless,withoutItems,listOrder,pageSize,tokenLifetime,lateOption,activeFor (or
 * none) restrict what is generated (default: everything), MODEL_LIST_ORDERS=oldest,newest,shuffled,
 * changing the list orders. A failure prints fast-check's `seed`,
 * `path` and the shrunk counterexample (the commands, then the setup); the same seed (and
 * MODEL_COMMANDS / MODEL_QUIRKS) generates and shrinks the same sequences again.
 * MODEL_PROFILE=<file> appends each sequence's wall time (ms), API requests, commands and setup.
 */
import fc from 'fast-check';
import { appendFileSync } from 'fs';
import { runInThisContext } from 'vm';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { MAX_PAGES_PER_POLL } from '../../dist/nodes/SellerPlatformPollTrigger/listing';
import {
	DETAIL_PATIENCE_MS,
	DETAILS_UNAVAILABLE,
	MAX_DETAIL_ATTEMPTS,
} from '../../dist/nodes/SellerPlatformPollTrigger/pending';
import {
	LOOKBACK_MS,
	MAX_PENDING,
	MAX_SEEN,
} from '../../dist/nodes/SellerPlatformPollTrigger/state';
import { credentialFields, startEmulator, type Emulator } from '../emulator';
import { createTestEnvironment, type TestEnvironment, type TestWorkflow } from '../helpers';
import { ActivePoller } from '../helpers/polls';

const SEED = Number(process.env.MODEL_SEED ?? 20261128);
const DEFAULT_RUNS = 150;
const RUNS = Number(process.env.MODEL_RUNS ?? DEFAULT_RUNS);
const ENDLESS_RUNS = Number(process.env.MODEL_ENDLESS_RUNS ?? 1);
/**
 * A window of more than MAX_SEEN orders: one sequence by default while MAX_SEEN is small (5,000
 * on adc1307: about 15 s); with MAX_SEEN at 200,000 a sequence lists 202,500 orders (more than 20
 * minutes here): only when asked (MODEL_BIG_RUNS=1).
 */
const BIG_RUNS = Number(process.env.MODEL_BIG_RUNS ?? (MAX_SEEN <= 20_000 ? 1 : 0));
/** A file each sequence's wall time (ms), API requests, commands and setup are appended to. */
const PROFILE = process.env.MODEL_PROFILE;
const listOf = (name: string) => process.env[name]?.split(',').map((kind) => kind.trim());
const COMMAND_KINDS = listOf('MODEL_COMMANDS');
const QUIRK_KINDS = listOf('MODEL_QUIRKS');
const allows = (kinds: string[] | undefined, kind: string) => !kinds || kinds.includes(kind);
const command = (kind: string) => allows(COMMAND_KINDS, kind);
const quirk = (kind: string) => allows(QUIRK_KINDS, kind);

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * A constant of the trigger's compiled modules, or `fallback` where it has none (the trigger
 * before the lateness option and the crash confirmation: the model then states the issue's
 * figures).
 */
function exported<T>(name: string, fallback: T): T {
	for (const file of ['state', 'listing', 'polling', 'sweep', 'pending', 'confirmation']) {
		try {
			const module = require(`../../dist/nodes/SellerPlatformPollTrigger/${file}`);
			if (module[name] !== undefined) return module[name] as T;
		} catch {
			// no such module in this version
		}
	}
	return fallback;
}

/** How often a sweep of the lateness option starts (the design's 30 minutes). */
const SWEEP_EVERY_MS = exported('SWEEP_EVERY_MS', 30 * MINUTE);
/** Pages of one listing across polls before it is read again from its start (Get Many's 1,000). */
const MAX_LISTING_PAGES = exported('MAX_LISTING_PAGES', 1000);
/** Such restarts before the poll fails. */
const MAX_RESTARTS = exported('MAX_RESTARTS', 2);
/** A list that never ends makes a poll fail within this many polls (one listing of each kind). */
const LOUD_WITHIN_POLLS =
	Math.ceil(MAX_LISTING_PAGES / MAX_PAGES_PER_POLL) * (MAX_RESTARTS + 1) + 2;
/** The option's default (hours). */
const DEFAULT_LATE_HOURS = 24;
/** n8n starts again: a new process life (the crash confirmation's test hook; none before it). */
const newLife: () => void = exported('startNewLifeForTests', () => undefined);
/** What a repeat after a crash or a restart carries. */
const POSSIBLE_DUPLICATE = 'possibleDuplicate';

const POLL_TRIGGER = 'Seller Platform Poll Trigger';
const ZONES = ['UTC', 'Asia/Dubai', 'America/New_York'] as const;
type Zone = (typeof ZONES)[number];
type Project = 'A' | 'B';
const other = (project: Project): Project => (project === 'A' ? 'B' : 'A');
type ListOrder = 'oldest' | 'newest' | 'shuffled' | 'changing';
/** The list orders generated (MODEL_LIST_ORDERS restricts them). */
const LIST_ORDERS = (['oldest', 'newest', 'shuffled', 'changing'] as const).filter((order) =>
	allows(listOf('MODEL_LIST_ORDERS'), order),
);

/**
 * The process's time zone, as `TZ=... n8n start` sets it. Jest gives a test file a copy of
 * `process.env`, so the zone is set on Node's own `process` (the main context's), where V8
 * notices it; restored after each sequence.
 */
const nodeProcess = runInThisContext('process') as NodeJS.Process;
const zoneBefore = nodeProcess.env.TZ;
function setZone(zone: string | undefined): void {
	for (const env of [nodeProcess.env, process.env]) {
		if (zone === undefined) delete env.TZ;
		else env.TZ = zone;
	}
}

// --- The model ------------------------------------------------------------------------------

type Readability = 'readable' | 'for a while' | 'never';

/**
 * - `history`: there when its project's stream was activated, or created more than
 *   `LOOKBACK_MS` before that activation: never emitted. The state is the current stream's only,
 *   so a stream the workflow comes back to starts afresh: an order added to a project while the
 *   workflow was on the other one, or not emitted yet when it left, is history there too;
 * - `due`: appeared in the active stream after its activation: emitted once (listed late, see
 *   `required`);
 * - `either`: created within `EDGE_MS` of the activation's look-back: emitted at most once.
 */
type Status = 'history' | 'due' | 'either';

/** Creation times this close to a stream's activation less `LOOKBACK_MS` may go either way. */
const EDGE_MS = 5 * SECOND;

interface ModelOrder {
	nr: string;
	project: Project;
	status: Status;
	readability: Readability;
	/** 'for a while' orders: readable again (MakeReadable). */
	readableAgain: boolean;
	/** `Model.polls` when it appeared. */
	pollsBefore: number;
	/** Date.now() when the first poll of its stream after it appeared started. */
	firstPollAt?: number;
	createdAt: number;
	/** Date.now() when it appeared in the list. */
	appearedAt: number;
	/** Added by the window of more than MAX_SEEN orders. */
	big?: boolean;
}

interface Model {
	project: Project;
	/** The list entries come without items: the trigger reads each new order (GetFbpiOrder). */
	readsEach: boolean;
	/** Polls of the current stream so far (activations included). */
	polls: number;
	/** When the current stream was activated. */
	streamStart: number;
	/** The lateness option (ms). */
	lateMs: number;
	/** The list's quirks now (the list order changes). */
	quirks: Quirks;
	orders: Map<string, ModelOrder>;
	emitted: Map<string, { marked: boolean; repeats: number }>;
	/** Situations of this sequence (countSituations). */
	seen: Set<string>;
	/** AddBulk ran. */
	bulk?: boolean;
}

/**
 * The clock of the whole file (n8n's and the emulator's: one Date.now), moved on by `Wait` and
 * `finish`; never back (sessions, tokens and pacing keep their times).
 */
const realNow = Date.now;
let clockOffset = 0;
const passTime = (ms: number) => void (clockOffset += ms);

/** A poll of the current stream starts: the orders it is the first to see note its time. */
function pollStarts(model: Model): void {
	model.polls++;
	const now = Date.now();
	for (const order of model.orders.values()) order.firstPollAt ??= now;
}

/** The status of an order appearing now in `project`, created at `createdAt`. */
function statusOf(model: Model, project: Project, createdAt: number): Status {
	// Another project's orders: that stream starts afresh when the workflow comes back to it (its
	// state is the current stream's only), so they are history there.
	if (project !== model.project) return 'history';
	const start = model.streamStart - LOOKBACK_MS;
	if (createdAt < start - EDGE_MS) return 'history';
	return createdAt <= start + EDGE_MS ? 'either' : 'due';
}

// --- The system under test -------------------------------------------------------------------

interface Shared {
	emulator: Emulator;
	env: TestEnvironment;
	projects: Record<Project, { code: string; credential: string }>;
}

let shared: Shared;
let sequences = 0;

/** The message of the fault an activation is made to fail with. */
const INJECTED = 'model: this activation fails';

/** One sequence's workflow, warehouse and active trigger, and what its polls emitted. */
class Real {
	readonly workflowId: string;
	readonly warehouse: string;
	project: Project = 'A';
	poller!: ActivePoller;
	/** Pollers of this sequence, with their project and how many emissions were checked. */
	readonly pollers: Array<{ poller: ActivePoller; project: Project; checked: number }> = [];
	readonly failures: string[] = [];
	/** n8n's log up to this sequence. */
	readonly logFrom = shared.env.logger.entries.length;

	constructor(
		readonly quirks: Quirks,
		readonly lateHours: number | undefined,
	) {
		const n = ++sequences;
		this.workflowId = `model-${n}`;
		this.warehouse = `WH-MODEL-${n}`;
	}

	workflow(): TestWorkflow {
		const credential = shared.projects[this.project].credential;
		const options = this.lateHours === undefined ? {} : { lateListingHours: this.lateHours };
		return {
			id: this.workflowId,
			nodes: [
				{
					name: POLL_TRIGGER,
					type: 'sellerPlatformPollTrigger',
					parameters: {
						event: 'newFbpiOrder',
						warehouseCode: { __rl: true, mode: 'id', value: this.warehouse },
						options,
					},
					credentials: { sellerPlatformApi: credential },
				},
			],
			connections: {},
		};
	}

	/**
	 * The list quirks of both projects, with the orders GetFbpiOrder does not find (those at
	 * their default left out).
	 */
	setQuirks(unreadable: string[]) {
		const { listOrder, seed, ...rest } = this.quirks;
		const set = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
		if (listOrder && listOrder !== 'oldest') Object.assign(set, { listOrder, seed });
		for (const project of ['A', 'B'] as const) {
			const projectCode = shared.projects[project].code;
			shared.emulator.setFbpiOrderQuirks({ projectCode, ...set, unreadable } as never);
		}
	}

	addOrders(project: Project, createdAt: number[]): string[] {
		return shared.emulator
			.addFbpiOrders({
				projectCode: shared.projects[project].code,
				warehouseCode: this.warehouse,
				orders: createdAt.map((at) => ({ createdAt: at })),
			})
			.map((order) => order.fbpi_order_nr);
	}

	/** Activation as the app runs it; a failing first poll is recorded, the trigger stays. */
	async activate(mode: 'activate' | 'init' | 'update') {
		const poller = new ActivePoller(shared.env, this.workflow());
		this.pollers.push({ poller, project: this.project, checked: 0 });
		this.poller = poller;
		try {
			await poller.activate(mode);
		} catch (error) {
			this.failures.push(`activation (${mode}): ${(error as Error).message}`);
		}
	}

	async poll() {
		const before = this.poller.errors.length;
		await this.poller.poll();
		for (const error of this.poller.errors.slice(before))
			this.failures.push(`poll: ${error.message}`);
	}

	/** n8n starts again (a new process life) with the workflow active: 'init', the saved data. */
	async restart() {
		await this.poller.settled();
		this.poller.deactivate();
		newLife();
		await this.activate('init');
	}

	/**
	 * A poll, and n8n killed between the static-data save and the execution it starts (n8n starts
	 * both without waiting for either): `executionLost`, the save committed and the execution
	 * never created (the poll's items are gone); `saveLost`, the execution created and the save
	 * lost (the saved static data is what it was before the poll). Then n8n starts again.
	 */
	async crash(kind: CrashKind) {
		const saved = shared.env.workflowStaticData(this.workflowId);
		const entry = this.pollers[this.pollers.length - 1];
		const before = this.poller.emitted.length;
		await this.poll();
		const emitted = this.poller.emitted.length > before;
		if (kind === 'executionLost') entry.checked = this.poller.emitted.length;
		if (kind === 'saveLost' && emitted) savedStaticData().set(this.workflowId, saved);
		await this.restart();
		return emitted;
	}

	/** The workflow saved with the credential of the other project: reactivated ('update'). */
	async switchProject() {
		await this.poller.settled();
		this.poller.deactivate();
		this.project = other(this.project);
		await this.activate('update');
	}

	/** Emissions not checked yet, with the project of the poller that emitted them. */
	takeEmitted(): Array<{ project: Project; items: INodeExecutionData[] }> {
		const taken = [];
		for (const entry of this.pollers) {
			for (const items of entry.poller.emitted.slice(entry.checked))
				taken.push({ project: entry.project, items: items[0] ?? [] });
			entry.checked = entry.poller.emitted.length;
		}
		return taken;
	}

	/** The warnings the trigger logged in this sequence (details and unnamed entries aside). */
	warnings(): string[] {
		return shared.env.logger.entries
			.slice(this.logFrom)
			.filter((entry) => entry.level === 'warn' && entry.message.includes(POLL_TRIGGER))
			.map((entry) => entry.message)
			.filter((message) => !message.includes(DETAILS_UNAVAILABLE))
			.filter((message) => !message.includes('without an fbpi_order_nr'));
	}

	stop() {
		for (const { poller } of this.pollers) poller.deactivate();
	}
}

/** The test environment's saved static data, as a crash leaves it (test code: its own field). */
const savedStaticData = () =>
	(shared.env as unknown as { staticData: Map<string, IDataObject> }).staticData;

// --- Checks ----------------------------------------------------------------------------------

/** The mark of an order emitted as listed, its details unreadable: `{ message, attempts }`. */
const markOf = (json: IDataObject) =>
	json[DETAILS_UNAVAILABLE] as { message: string; attempts: number } | undefined;

/** A broken rule: the message names the order and what the model says of it. */
function violated(message: string): never {
	throw new Error(message);
}

/** Checks what the trigger emitted since the last check against the model; records it. */
function checkEmitted(model: Model, real: Real): void {
	if (real.failures.length) violated(`a poll failed: ${real.failures.join('; ')}`);
	for (const { project, items } of real.takeEmitted()) {
		for (const { json } of items) checkOne(model, project, json);
	}
}

function checkOne(model: Model, project: Project, json: IDataObject): void {
	const nr = json.fbpi_order_nr as string;
	const order = model.orders.get(nr);
	if (!order) violated(`emitted ${nr}, an order of no warehouse of this sequence`);
	const what = `order ${nr} (project ${order.project}, ${order.status}, ${order.readability})`;
	if (order.project !== project) violated(`${what} emitted by the stream of project ${project}`);
	if (order.status === 'history') violated(`${what} emitted: it was there at the activation`);
	const before = model.emitted.get(nr);
	if (before) {
		if (json[POSSIBLE_DUPLICATE] !== true) violated(`${what} emitted twice, unmarked`);
		before.repeats++;
		model.seen.add('repeat marked possibleDuplicate');
		return;
	}
	const mark = markOf(json);
	if (!mark && !Array.isArray(json.items)) violated(`${what} emitted without items, unmarked`);
	if (mark && order.readability === 'readable') violated(`${what} emitted marked unreadable`);
	// Given up after MAX_DETAIL_ATTEMPTS polls of its stream failed to read it over at least
	// DETAIL_PATIENCE_MS (more when n8n restarted meanwhile: the attempts of polls that emitted
	// nothing are not saved).
	const polls = model.polls - order.pollsBefore;
	if (mark && order.status === 'due' && polls < MAX_DETAIL_ATTEMPTS)
		violated(`${what} emitted as listed after ${polls} polls`);
	const waited = Date.now() - (order.firstPollAt ?? Date.now());
	if (mark && order.status === 'due' && waited < DETAIL_PATIENCE_MS)
		violated(`${what} emitted as listed ${seconds(waited)} after the first poll`);
	model.emitted.set(nr, { marked: mark !== undefined, repeats: 0 });
	if (order.appearedAt - order.createdAt > LOOKBACK_MS) model.seen.add('late order emitted');
}

/**
 * Whether the order must have been emitted by the end: listed on time (the short window of the
 * polls after it reaches it), or late but younger than the option when the sweep of the end
 * (`sweptAt`, `SWEEP_EVERY_MS` after the sequence) started.
 */
function required(model: Model, order: ModelOrder, sweptAt: number): boolean {
	if (order.status !== 'due' || order.project !== model.project) return false;
	if (order.appearedAt - order.createdAt <= LOOKBACK_MS - MINUTE) return true;
	return sweptAt - order.createdAt <= model.lateMs - 2 * MINUTE;
}

/** At the end: every order required was emitted (after enough polls). */
function checkAllDue(model: Model, real: Real, sweptAt: number): void {
	const warned = real.warnings().length > 0;
	const missing = [...model.orders.values()]
		.filter((order) => required(model, order, sweptAt) && !model.emitted.has(order.nr))
		.filter((order) => !(order.big && warned));
	if (missing.length) {
		const late = (o: ModelOrder) =>
			`, listed ${minutes(o.appearedAt - o.createdAt)} after its creation`;
		const shown = missing.slice(0, 5).map((o) => `${o.nr} (${o.readability}${late(o)})`);
		const more = missing.length > 5 ? ` and ${missing.length - 5} more` : '';
		violated(`due, never emitted, no warning: ${shown.join(', ')}${more}`);
	}
	for (const order of model.orders.values()) {
		if (order.readability === 'never' && model.emitted.get(order.nr)?.marked === false)
			violated(`order ${order.nr}, never readable, emitted unmarked`);
	}
}

// --- Generators ------------------------------------------------------------------------------

interface Quirks {
	ignoreFilters?: boolean;
	filterShiftMs?: number;
	zonelessTimes?: boolean;
	listWithoutItems?: boolean;
	listOrder?: ListOrder;
	seed?: number;
	pageSize?: number;
	tokenLifetimeMs?: number;
	endlessTokens?: boolean;
}

/** An order there before the first activation: its creation time, ms before now (negative: ahead). */
interface HistoryOrder {
	project: Project;
	ageMs: number;
	readability: Readability;
}

interface Setup {
	quirks: Quirks;
	zone: Zone;
	history: HistoryOrder[];
	/** The lateness option (hours); undefined: not set (its default). */
	lateHours?: number;
	/** The trigger active this long before the commands (a poll at its end). */
	activeForMs: number;
}

const maybe = <T>(kind: string, arb: fc.Arbitrary<T>, none: T): fc.Arbitrary<T> =>
	quirk(kind) ? arb : fc.constant(none);

/** A list order: 'changing' only with pages of 50 (with smaller ones a listing skips orders). */
const listOrderArb = (pageSize: number | undefined): fc.Arbitrary<ListOrder> =>
	fc.constantFrom<ListOrder>(...LIST_ORDERS.filter((o) => !pageSize || o !== 'changing'));

const quirksArb: fc.Arbitrary<Quirks> = fc
	.record({
		ignoreFilters: maybe('ignoreFilters', fc.boolean(), false),
		// Filters applied as if every time were up to two hours earlier: older orders are listed.
		filterShiftMs: maybe(
			'filterShift',
			fc.oneof(
				fc.constant(0),
				fc.integer({ min: 1, max: 120 }).map((m) => m * MINUTE),
			),
			0,
		),
		zonelessTimes: maybe('zoneless', fc.boolean(), false),
		listWithoutItems: maybe('withoutItems', fc.boolean(), false),
		// Pages of one or two orders: listings over many pages and polls, with page tokens.
		pageSize: maybe(
			'pageSize',
			fc.constantFrom<number | undefined>(...Array<undefined>(8).fill(undefined), 1, 2),
			undefined,
		),
		tokenLifetimeMs: maybe(
			'tokenLifetime',
			fc.constantFrom<number | undefined>(undefined, undefined, 5 * MINUTE, 20 * MINUTE),
			undefined,
		),
		seed: fc.nat({ max: 1000 }),
	})
	.chain((quirks) =>
		maybe('listOrder', listOrderArb(quirks.pageSize), 'oldest').map((listOrder) => ({
			...quirks,
			listOrder,
		})),
	);

/**
 * A history order's age: recent (in the activation's listing: kept 30 s away from its start, so
 * a slow activation still lists it), older than any window (listed only by a service that
 * ignores or shifts the filters; a day back at most), or ahead of n8n's clock (a skewed service).
 * Either way it must never be emitted, so the edges do not change the property.
 */
const historyAgeArb = fc.oneof(
	fc.integer({ min: 0, max: (LOOKBACK_MS - 30 * SECOND) / SECOND }),
	fc.integer({ min: (LOOKBACK_MS + 30 * SECOND) / SECOND, max: 24 * 3600 }),
	fc.integer({ min: -300, max: -1 }),
);

const readabilityArb: fc.Arbitrary<Readability> = command('unreadable')
	? fc.constantFrom<Readability>('readable', 'readable', 'for a while', 'never')
	: fc.constant<Readability>('readable');

const setupArb: fc.Arbitrary<Setup> = fc.record({
	quirks: quirksArb,
	zone: command('tz') ? fc.constantFrom(...ZONES) : fc.constant<Zone>('UTC'),
	history: fc.array(
		fc.record({
			project: command('switch') ? fc.constantFrom<Project>('A', 'B') : fc.constant<Project>('A'),
			ageMs: historyAgeArb.map((s) => s * SECOND),
			// Never read by a trigger that works (never emitted): readable, or not at all.
			readability: command('unreadable')
				? fc.constantFrom<Readability>('readable', 'never')
				: fc.constant<Readability>('readable'),
		}),
		{ maxLength: 3 },
	),
	lateHours: maybe(
		'lateOption',
		fc.constantFrom<number | undefined>(undefined, undefined, undefined, 24, 6, 1, 0),
		undefined,
	),
	// Active for up to 36 hours already: orders listed late after their creation are not
	// older than the stream.
	activeForMs: maybe(
		'activeFor',
		fc.oneof(
			fc.constant(0),
			fc.integer({ min: 1, max: 36 }).map((h) => h * HOUR),
		),
		command('late') ? 36 * HOUR : 0,
	),
});

// --- Commands --------------------------------------------------------------------------------

type Command = fc.AsyncCommand<Model, Real>;

const seconds = (ms: number) => `${ms / SECOND}s`;
const minutes = (ms: number) => `${Math.round(ms / MINUTE)} min`;

/** Records the orders just added (appearing now) in the model. */
function appeared(model: Model, project: Project, nrs: string[], createdAt: number[], big = false) {
	const now = Date.now();
	nrs.forEach((nr, i) => {
		model.orders.set(nr, {
			nr,
			project,
			status: statusOf(model, project, createdAt[i]),
			readability: 'readable',
			readableAgain: false,
			pollsBefore: model.polls,
			createdAt: createdAt[i],
			appearedAt: now,
			big,
		});
	});
}

/**
 * Orders appearing in a project's warehouse now, created `agesMs` before now: on time (up to a
 * minute short of LOOKBACK_MS, so the next poll's window still reaches them whatever the time
 * since the last poll: the windows start LOOKBACK_MS before the last poll), listed late (up to
 * 30 hours after their creation), or ahead of n8n's clock (up to two minutes).
 */
class AddOrders implements Command {
	constructor(
		readonly where: 'current' | 'other',
		readonly agesMs: number[],
		readonly readability: Readability,
	) {}
	check = () => true;
	async run(model: Model, real: Real) {
		const project = this.where === 'current' ? model.project : other(model.project);
		const now = Date.now();
		const createdAt = this.agesMs.map((age) => now - age);
		const nrs = real.addOrders(project, createdAt);
		appeared(model, project, nrs, createdAt);
		for (const nr of nrs) {
			model.orders.get(nr)!.readability = model.readsEach ? this.readability : 'readable';
		}
		real.setQuirks(unreadableNow(model));
	}
	toString() {
		const ages = this.agesMs.map(seconds).join(', ');
		return `add(${this.where}, created [${ages}] ago, ${this.readability})`;
	}
}

/**
 * Many orders at once (on time, the last ten minutes): with pages of one or two orders, more
 * than one poll's pages (`MAX_PAGES_PER_POLL`): the listing goes on at the next poll from its
 * saved `next_token`.
 */
class AddBulk implements Command {
	constructor(readonly pages: number) {}
	/** Once a sequence, with small pages only (each listing of them is one request a page). */
	check = (model: Readonly<Model>) => model.quirks.pageSize !== undefined && !model.bulk;
	async run(model: Model, real: Real) {
		model.bulk = true;
		const count = this.pages * model.quirks.pageSize!;
		const now = Date.now();
		const interval = Math.floor((10 * MINUTE) / count);
		const createdAt = Array.from({ length: count }, (_, i) => now - 10 * MINUTE + i * interval);
		appeared(model, model.project, real.addOrders(model.project, createdAt), createdAt);
	}
	toString() {
		return `add ${this.pages} pages of orders`;
	}
}

class Poll implements Command {
	check = () => true;
	async run(model: Model, real: Real) {
		pollStarts(model);
		await real.poll();
		checkEmitted(model, real);
	}
	toString() {
		return 'poll';
	}
}

class Restart implements Command {
	check = () => true;
	async run(model: Model, real: Real) {
		pollStarts(model);
		await real.restart();
		checkEmitted(model, real);
	}
	toString() {
		return 'restart';
	}
}

type CrashKind = 'executionLost' | 'saveLost';

/** A poll, n8n killed between its static-data save and its execution, n8n started again. */
class Crash implements Command {
	constructor(readonly kind: CrashKind) {}
	check = () => true;
	async run(model: Model, real: Real) {
		pollStarts(model);
		const emitted = await real.crash(this.kind);
		if (emitted) model.seen.add(`crash: ${this.kind}`);
		pollStarts(model);
		checkEmitted(model, real);
	}
	toString() {
		return `crash (${this.kind === 'executionLost' ? 'save kept, execution lost' : 'execution kept, save lost'})`;
	}
}

/**
 * n8n starts again and the activation's first poll fails (a fault of the service: its first
 * ListFbpiOrders answers 400): n8n drops that activation and its memory, and activates again from
 * the SAVED static data, which must succeed.
 */
class FailingActivation implements Command {
	check = () => true;
	async run(model: Model, real: Real) {
		shared.emulator.injectFaults({
			count: 1,
			operation: 'ListFbpiOrders',
			status: 400,
			message: INJECTED,
		});
		pollStarts(model);
		await real.restart();
		shared.emulator.clearFaults();
		const injected = real.failures.findIndex((failure) => failure.includes(INJECTED));
		if (injected >= 0) {
			real.failures.splice(injected, 1);
			real.poller.deactivate();
			model.seen.add('failed activation retried');
			pollStarts(model);
			await real.activate('init');
		}
		checkEmitted(model, real);
	}
	toString() {
		return 'restart, its activation fails, retried';
	}
}

/**
 * The workflow's credential changed to the other project's (saved: reactivated, 'update'): that
 * stream starts afresh. The stream left is forgotten: its orders not emitted yet are history
 * (coming back starts afresh too).
 */
class SwitchProject implements Command {
	check = () => true;
	async run(model: Model, real: Real) {
		for (const order of model.orders.values()) {
			if (
				order.project === model.project &&
				order.status !== 'history' &&
				!model.emitted.has(order.nr)
			)
				order.status = 'history';
		}
		model.project = other(model.project);
		model.streamStart = Date.now();
		pollStarts(model);
		await real.switchProject();
		checkEmitted(model, real);
	}
	toString() {
		return 'switch credential';
	}
}

/** Minutes pass before the next command (n8n's poll interval, or n8n down). */
class Wait implements Command {
	constructor(readonly minutes: number) {}
	check = () => true;
	async run() {
		passTime(this.minutes * MINUTE);
	}
	toString() {
		return `wait ${this.minutes} min`;
	}
}

class SetZone implements Command {
	constructor(readonly zone: Zone) {}
	check = () => true;
	async run() {
		setZone(this.zone);
	}
	toString() {
		return `TZ=${this.zone}`;
	}
}

/** The service lists in another order from now on (a token of the earlier order is refused). */
class SetListOrder implements Command {
	constructor(readonly order: ListOrder) {}
	check = (model: Readonly<Model>) => !(this.order === 'changing' && model.quirks.pageSize);
	async run(model: Model, real: Real) {
		model.quirks.listOrder = this.order;
		real.setQuirks(unreadableNow(model));
	}
	toString() {
		return `list order ${this.order}`;
	}
}

/** The service refuses every page token it gave so far (its signing key rotated). */
class ExpireTokens implements Command {
	check = () => true;
	async run(model: Model) {
		for (const project of ['A', 'B'] as const)
			shared.emulator.expireFbpiOrderTokens(shared.projects[project].code);
		if (model.quirks.pageSize) model.seen.add('page tokens expired, small pages');
	}
	toString() {
		return 'page tokens expire';
	}
}

/**
 * The service's lists never end (a fresh next_token on every last page): a poll fails loudly,
 * naming ListFbpiOrders, within LOUD_WITHIN_POLLS polls; then the lists end again.
 */
class Endless implements Command {
	check = () => true;
	async run(model: Model, real: Real) {
		model.quirks.endlessTokens = true;
		real.setQuirks(unreadableNow(model));
		let loud: string | undefined;
		for (let i = 0; i < LOUD_WITHIN_POLLS && loud === undefined; i++) {
			pollStarts(model);
			await real.poll();
			loud = real.failures.find((failure) => failure.includes('ListFbpiOrders'));
			const quiet = real.failures.filter((failure) => !failure.includes('ListFbpiOrders'));
			if (quiet.length) violated(`a poll failed, not naming ListFbpiOrders: ${quiet.join('; ')}`);
			real.failures.length = 0;
			checkEmitted(model, real);
			// An order appears while the lists never end: emitted once they end again.
			const now = Date.now();
			if (i === 0) appeared(model, model.project, real.addOrders(model.project, [now]), [now]);
		}
		if (loud === undefined)
			violated(`lists that never end: ${LOUD_WITHIN_POLLS} polls, none failed (a silent stall)`);
		model.seen.add('endless list failed loudly');
		model.quirks.endlessTokens = false;
		real.setQuirks(unreadableNow(model));
	}
	toString() {
		return 'lists never end, until a poll fails';
	}
}

/** More than MAX_SEEN orders in one window (the last ten minutes), in the current list order. */
class AddBigWindow implements Command {
	check = () => true;
	async run(model: Model, real: Real) {
		const count = MAX_SEEN + 2500;
		const now = Date.now();
		const createdAt = Array.from(
			{ length: count },
			(_, i) => now - 10 * MINUTE + Math.floor((i * 10 * MINUTE) / count),
		);
		const nrs: string[] = [];
		for (let i = 0; i < count; i += 50_000)
			nrs.push(...real.addOrders(model.project, createdAt.slice(i, i + 50_000)));
		appeared(model, model.project, nrs, createdAt, true);
	}
	toString() {
		return `add ${MAX_SEEN + 2500} orders in ten minutes`;
	}
}

/** One order GetFbpiOrder could not read is readable again (the `index`-th such, cyclically). */
class MakeReadable implements Command {
	constructor(readonly index: number) {}
	check = (model: Readonly<Model>) => forAWhile(model).length > 0;
	async run(model: Model, real: Real) {
		const orders = forAWhile(model);
		orders[this.index % orders.length].readableAgain = true;
		real.setQuirks(unreadableNow(model));
	}
	toString() {
		return `readable again #${this.index}`;
	}
}

const forAWhile = (model: Readonly<Model>) =>
	[...model.orders.values()].filter((o) => o.readability === 'for a while' && !o.readableAgain);

const unreadableNow = (model: Readonly<Model>) =>
	[...model.orders.values()]
		.filter(
			(o) => o.readability === 'never' || (o.readability === 'for a while' && !o.readableAgain),
		)
		.map((o) => o.nr);

/** Ages of added orders (s): on time or ahead (weight 3), listed late up to 30 hours (1). */
const ageArb = command('late')
	? fc.oneof(
			{ weight: 3, arbitrary: fc.integer({ min: -120, max: (LOOKBACK_MS - MINUTE) / SECOND }) },
			{ weight: 1, arbitrary: fc.integer({ min: LOOKBACK_MS / SECOND, max: 30 * 3600 }) },
		)
	: fc.integer({ min: -120, max: (LOOKBACK_MS - MINUTE) / SECOND });

/** The commands of the main property (of `kinds`, by MODEL_COMMANDS). */
function commandArbs(): Array<fc.Arbitrary<Command>> {
	const add = fc
		.record({
			where: command('switch')
				? fc.constantFrom<'current' | 'other'>('current', 'current', 'other')
				: fc.constant<'current' | 'other'>('current'),
			ages: fc.array(ageArb, { minLength: 1, maxLength: 2 }),
			readability: readabilityArb,
		})
		.map(
			({ where, ages, readability }) =>
				new AddOrders(
					where,
					ages.map((s) => s * SECOND),
					readability,
				),
		);
	// Adds and polls twice as likely as any other command.
	const arbs: Array<fc.Arbitrary<Command>> = [
		add,
		add,
		fc.constant(new Poll()),
		fc.constant(new Poll()),
	];
	if (command('wait'))
		arbs.push(
			fc
				.oneof(
					{ weight: 4, arbitrary: fc.integer({ min: 1, max: 10 }) },
					{ weight: 1, arbitrary: fc.integer({ min: 20, max: 45 }) },
				)
				.map((minutes) => new Wait(minutes)),
		);
	if (command('restart')) arbs.push(fc.constant(new Restart()));
	if (command('switch')) arbs.push(fc.constant(new SwitchProject()));
	if (command('tz')) arbs.push(fc.constantFrom(...ZONES).map((z) => new SetZone(z)));
	if (command('unreadable'))
		arbs.push(...[1, 2].map(() => fc.nat({ max: 3 }).map((i) => new MakeReadable(i))));
	if (command('order')) arbs.push(fc.constantFrom(...LIST_ORDERS).map((o) => new SetListOrder(o)));
	if (command('bulk'))
		arbs.push(
			fc
				.integer({ min: MAX_PAGES_PER_POLL + 1, max: MAX_PAGES_PER_POLL + 5 })
				.map((p) => new AddBulk(p)),
		);
	if (command('expire')) arbs.push(fc.constant(new ExpireTokens()));
	if (command('crash'))
		arbs.push(fc.constantFrom<CrashKind>('executionLost', 'saveLost').map((k) => new Crash(k)));
	if (command('failact')) arbs.push(fc.constant(new FailingActivation()));
	return arbs;
}

// --- The run ---------------------------------------------------------------------------------

/** Sequences that passed through each situation the trigger once got wrong. */
const situations: Record<string, number> = {
	'history listed although older than the window asked': 0,
	'order emitted with n8n in a zone ahead of UTC, times without zone': 0,
	'order emitted as listed, marked, its details unreadable': 0,
	'order emitted after its details were unreadable for a while': 0,
	'credential switched to another project that has orders': 0,
	'order emitted after a restart': 0,
	'late order emitted': 0,
	'orders emitted from a list newest first, shuffled or changing': 0,
	'page tokens expired, small pages': 0,
	'crash: executionLost': 0,
	'crash: saveLost': 0,
	'failed activation retried': 0,
	'repeat marked possibleDuplicate': 0,
};

function countSituations(setup: Setup, model: Model, commands: Iterable<Command>) {
	const ran = [...commands].map(String);
	const orders = [...model.orders.values()];
	const emitted = (o: ModelOrder) => model.emitted.has(o.nr);
	const { ignoreFilters, filterShiftMs, zonelessTimes } = setup.quirks;
	const old = setup.history.some((o) => o.ageMs > LOOKBACK_MS);
	const bump = (situation: string, when: boolean) => {
		if (when) situations[situation]++;
	};
	bump(
		'history listed although older than the window asked',
		old && (ignoreFilters || filterShiftMs! > 0),
	);
	const dubai = setup.zone === 'Asia/Dubai' || ran.includes('TZ=Asia/Dubai');
	bump(
		'order emitted with n8n in a zone ahead of UTC, times without zone',
		!!zonelessTimes && dubai && model.emitted.size > 0,
	);
	bump(
		'order emitted as listed, marked, its details unreadable',
		[...model.emitted.values()].some((e) => e.marked),
	);
	bump(
		'order emitted after its details were unreadable for a while',
		orders.some((o) => o.readableAgain && emitted(o)),
	);
	const switched = ran.includes('switch credential');
	bump(
		'credential switched to another project that has orders',
		switched && orders.some((o) => o.project === 'B'),
	);
	bump('order emitted after a restart', ran.includes('restart') && model.emitted.size > 0);
	const unusual =
		setup.quirks.listOrder !== 'oldest' || ran.some((c) => c.startsWith('list order'));
	bump(
		'orders emitted from a list newest first, shuffled or changing',
		unusual && model.emitted.size > 0,
	);
	for (const situation of model.seen) if (situation in situations) situations[situation]++;
}

/** The sequence's start: history orders, the first activation, the time it has been active. */
async function start(setup: Setup): Promise<{ model: Model; real: Real }> {
	// A copy: commands change it (the list order), fast-check reuses the setup when shrinking.
	const real = new Real({ ...setup.quirks }, setup.lateHours);
	const readsEach = setup.quirks.listWithoutItems === true;
	const model: Model = {
		project: 'A',
		readsEach,
		polls: 1,
		streamStart: Date.now(),
		lateMs: (setup.lateHours ?? DEFAULT_LATE_HOURS) * HOUR,
		quirks: real.quirks,
		orders: new Map(),
		emitted: new Map(),
		seen: new Set(),
	};
	setZone(setup.zone);
	const now = Date.now();
	for (const { project, ageMs, readability: asked } of setup.history) {
		const [nr] = real.addOrders(project, [now - ageMs]);
		// Listed with its items, an order is never read alone: GetFbpiOrder's 404 does not matter.
		const readability = readsEach ? asked : 'readable';
		const order = { nr, project, readability, readableAgain: false, pollsBefore: 0 };
		model.orders.set(nr, { ...order, status: 'history', createdAt: now - ageMs, appearedAt: now });
	}
	real.setQuirks(unreadableNow(model));
	await real.activate('activate');
	checkEmitted(model, real);
	if (setup.activeForMs > 0) {
		passTime(setup.activeForMs);
		pollStarts(model);
		await real.poll();
		checkEmitted(model, real);
	}
	return { model, real };
}

/** Polls enough for every listing of the warehouse to end (its pages, the room for new orders). */
function pollsToEnd(model: Model): number {
	const orders = model.orders.size;
	const pages = Math.ceil(orders / (model.quirks.pageSize ?? 50));
	return Math.max(Math.ceil(pages / MAX_PAGES_PER_POLL), Math.ceil(orders / MAX_PENDING)) + 1;
}

/** `polls` polls, a minute apart (n8n's shortest interval) after the first. */
async function pollsAt(model: Model, real: Real, polls: number): Promise<void> {
	for (let i = 0; i < polls; i++) {
		if (i > 0) passTime(MINUTE);
		pollStarts(model);
		await real.poll();
		checkEmitted(model, real);
	}
}

/**
 * Enough polls for every due order to be emitted: the listings under way end, then a sweep of
 * the lateness option starts (`SWEEP_EVERY_MS` later) and ends; then one more poll for each
 * attempt an order GetFbpiOrder cannot read is given before it is emitted as listed, far enough
 * apart that `MAX_DETAIL_ATTEMPTS` of them span `DETAIL_PATIENCE_MS` (a minute to spare).
 */
async function finish(model: Model, real: Real): Promise<void> {
	if (model.quirks.endlessTokens) {
		model.quirks.endlessTokens = false;
		real.setQuirks(unreadableNow(model));
	}
	await pollsAt(model, real, pollsToEnd(model));
	passTime(SWEEP_EVERY_MS + MINUTE);
	const sweptAt = Date.now();
	await pollsAt(model, real, pollsToEnd(model));
	const unreadable = unreadableNow(model).length > 0;
	const apart = Math.ceil(DETAIL_PATIENCE_MS / (MAX_DETAIL_ATTEMPTS - 1) / MINUTE + 1) * MINUTE;
	for (let i = 0; unreadable && i <= MAX_DETAIL_ATTEMPTS; i++) {
		passTime(apart);
		await pollsAt(model, real, 1);
	}
	checkAllDue(model, real, sweptAt);
}

let clock: jest.SpyInstance<number, []>;

beforeAll(async () => {
	clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + clockOffset);
	const emulator = await startEmulator({ ratePlan: null });
	const env = createTestEnvironment();
	await env.ready();
	const otherProject = await emulator.addCredential({ projectCode: 'PRJ90002' });
	// Far above what the sequences send: the pacing of the credential's plan never waits.
	const fast = { requestsPerMinute: 1_000_000 };
	env.addCredential('cred-model-a', 'sellerPlatformApi', credentialFields(emulator, fast));
	env.addCredential(
		'cred-model-b',
		'sellerPlatformApi',
		credentialFields({ baseUrl: emulator.baseUrl, credential: otherProject }, fast),
	);
	shared = {
		emulator,
		env,
		projects: {
			A: { code: emulator.credential.project_code, credential: 'cred-model-a' },
			B: { code: otherProject.project_code, credential: 'cred-model-b' },
		},
	};
});

afterAll(async () => {
	setZone(zoneBefore);
	await shared?.emulator.close();
	clock?.mockRestore();
});

let onEnd: () => void = () => undefined;

/** Runs the sequences of `commands` (then `last`) from `setups`, `runs` times. */
async function check(
	commands: Array<fc.Arbitrary<Command>>,
	setups: fc.Arbitrary<Setup>,
	runs: number,
	maxCommands: number,
	last?: Command,
) {
	await fc.assert(
		fc.asyncProperty(
			// The commands first: fast-check shrinks them by what ran in the failing run, which a
			// shrink of an element before them would forget.
			fc.commands(commands, { maxCommands }),
			setups,
			async (sequence, setup) => {
				const t0 = realNow();
				const r0 = shared.emulator.stats().requests;
				const { model, real } = await start(setup);
				if (PROFILE)
					onEnd = () => {
						const took = `${realNow() - t0}\t${shared.emulator.stats().requests - r0}`;
						const what = `${[...sequence].map(String).join(' | ')}\t${JSON.stringify(setup)}`;
						appendFileSync(PROFILE, `${took}\t${what}\n`);
					};
				try {
					await fc.asyncModelRun(() => ({ model, real }), sequence);
					if (last) await last.run(model, real);
					await finish(model, real);
					countSituations(setup, model, sequence);
				} finally {
					real.stop();
					onEnd();
					onEnd = () => undefined;
					shared.emulator.clearFaults();
					setZone(zoneBefore);
				}
			},
		),
		{ seed: SEED, numRuns: runs, verbose: Number(process.env.MODEL_VERBOSE ?? 0) },
	);
}

/** The commands before the last one of the properties of fewer runs. */
function fewCommands(): Array<fc.Arbitrary<Command>> {
	const arbs: Array<fc.Arbitrary<Command>> = [
		fc
			.array(fc.integer({ min: -120, max: (LOOKBACK_MS - MINUTE) / SECOND }), {
				minLength: 1,
				maxLength: 2,
			})
			.map(
				(ages) =>
					new AddOrders(
						'current',
						ages.map((s) => s * SECOND),
						'readable',
					),
			),
		fc.constant(new Poll()),
	];
	if (command('restart')) arbs.push(fc.constant(new Restart()));
	if (command('wait')) arbs.push(fc.integer({ min: 1, max: 10 }).map((m) => new Wait(m)));
	if (command('crash'))
		arbs.push(fc.constantFrom<CrashKind>('executionLost', 'saveLost').map((k) => new Crash(k)));
	return arbs;
}

/** Setups of the properties of fewer runs: plain, in any list order but 'changing'. */
const plainSetupArb: fc.Arbitrary<Setup> = fc.record({
	quirks: fc.record({
		listOrder: maybe(
			'listOrder',
			fc.constantFrom<ListOrder>(...LIST_ORDERS.filter((order) => order !== 'changing')),
			'oldest',
		),
		seed: fc.nat({ max: 1000 }),
	}),
	zone: fc.constant<Zone>('UTC'),
	history: fc.constant([]),
	activeForMs: fc.constant(0),
});

describe('Seller Platform Poll Trigger: model-based sequences', () => {
	it(`each order that appears after its stream's activation is emitted once (again only marked possibleDuplicate), nothing else ever (${RUNS} sequences, seed ${SEED})`, async () => {
		if (RUNS <= 0) return;
		await check(commandArbs(), setupArb, RUNS, 8);
		if (process.env.MODEL_VERBOSE) console.log(situations);
		// The sequences reached every situation the trigger got wrong before (asked of 1,000 runs:
		// fewer do not reach the rarest, an order unreadable for a while, then emitted).
		if (!COMMAND_KINDS && !QUIRK_KINDS && RUNS >= 1000) {
			for (const [situation, count] of Object.entries(situations))
				expect({ situation, reached: count >= 1 }).toEqual({ situation, reached: true });
		}
	}, 1_200_000);

	it(`a list that never ends fails a poll loudly within ${LOUD_WITHIN_POLLS} polls, then every order is emitted (${ENDLESS_RUNS} sequences)`, async () => {
		if (ENDLESS_RUNS <= 0 || !command('endless')) return;
		await check(fewCommands(), plainSetupArb, ENDLESS_RUNS, 4, new Endless());
	}, 1_200_000);

	// Defined only when it runs (see BIG_RUNS): a test of 0 sequences would check nothing. The
	// default run relies on pollState.test.ts (pruning past MAX_SEEN by creation time) and
	// pollTriggerService.test.ts (7,500 orders newest first in one window).
	if (BIG_RUNS > 0 && command('big')) {
		it(`a window of more than MAX_SEEN (${MAX_SEEN}) orders in any list order loses none, or only with a warning (${BIG_RUNS} sequences)`, async () => {
			await check(fewCommands(), plainSetupArb, BIG_RUNS, 3, new AddBigWindow());
		}, 1_200_000);
	}
});
