/**
 * Poll triggers run the way the n8n app (2.40, without durable poll cursors) runs them, with
 * n8n-core's own `PollContext` and `PollTriggerExecutor`:
 * - activation (`'activate'`; `'init'` when n8n starts again with the workflow active) builds ONE
 *   `PollContext` for the trigger, runs the first poll at once (its error fails the activation),
 *   then saves the static data;
 * - every later poll (`poll()`, the app's cron tick) runs on that same context and `Workflow`, so
 *   static data lives on in memory between polls; a poll that returns items emits them: the
 *   static data is saved and an execution starts (mode 'trigger', the items as the trigger's
 *   output); a poll that returns null saves nothing (the app's cursor commit is a no-op without
 *   durable cursors); a failing poll is recorded (`errors`), as the app records a failed
 *   execution;
 * - `restart()` plays n8n starting again: a new `Workflow` and context from the SAVED static data
 *   only (nothing of this activation's memory), activation `'init'`;
 * - `pollBudgetMs` (option): what the context's `getPollBudgetMs()` says (n8n-core's default: 5 min);
 * - `durableCursors` (option) plays n8n 2.41 with its durable poll cursors on (the app's
 *   `TriggerExecutionContextFactory.getExecutePollFunctions` and scheduler task): the node's
 *   static data of each poll is a copy of the stored cursor (seeded from the node's static data
 *   the first time); a poll that emits stores its copy with the execution, in one step; a later
 *   poll that returns null stores it alone; the poll at activation stores nothing. Every later
 *   poll runs on a new `Workflow` and context built from the SAVED static data, as the
 *   scheduler's task does. The stored cursors outlive `restart()` (they are the database's).
 *   `pollsAtOnce(n)` runs n scheduler tasks at once, each from the cursor stored when it began
 *   (n8n 2.41 runs a task whose lease lapsed beside the current one after a restart);
 *   `pollAfterStaleRead()` a task whose cursor was read before another poll stored its own;
 * - "Fetch Test Event" is a manual execution (`env.runWorkflow`): n8n-core's `WorkflowExecute`
 *   calls `poll()` on a `PollContext` of mode 'manual' and saves no static data.
 */
import { Container } from '@n8n/di';
import { PollContext, PollTriggerExecutor } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	Workflow,
	WorkflowActivateMode,
} from 'n8n-workflow';

export interface PollingOptions {
	/** What the poll context's `getPollBudgetMs()` gives; default n8n-core's. */
	pollBudgetMs?: number;
	/** n8n 2.41's durable poll cursors on (see above). */
	durableCursors?: boolean;
}

/** The stored poll cursors (n8n's `poller_state` table): per environment, per workflow. */
const cursors = new WeakMap<TestEnvironment, Map<string, IDataObject>>();

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

import type { TestEnvironment, TestWorkflow, WorkflowResult } from './environment';
import { additionalData } from './n8n';

/** One poll's staged copy of the stored cursor (n8n's staged cursor store). */
interface Task {
	staged?: { snapshot: IDataObject; seed: IDataObject };
}

/** The task's copy of the cursor when the poll changed it (n8n's `takeStagedCursor`). */
function takeStaged(task: Task): IDataObject | null {
	const staged = task.staged;
	if (!staged || JSON.stringify(staged.snapshot) === JSON.stringify(staged.seed)) return null;
	staged.seed = copy(staged.snapshot);
	return copy(staged.seed);
}

export class ActivePoller {
	readonly executions: WorkflowResult[] = [];
	/** Errors of polls after the activation (the app saves each as a failed execution). */
	readonly errors: Error[] = [];
	/** The items each poll emitted (one entry per emitting poll). */
	readonly emitted: INodeExecutionData[][][] = [];
	active = false;
	private workflow!: Workflow;
	private node!: INode;
	private tick!: (testingTrigger?: boolean) => Promise<void>;
	private readonly pending = new Set<Promise<unknown>>();

	constructor(
		private readonly env: TestEnvironment,
		private readonly input: TestWorkflow,
		private readonly options: PollingOptions = {},
	) {}

	/** Activation as the app runs it: the first poll at once, then the static data saved. */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<this> {
		this.active = true;
		await this.start(activation);
		await this.tick(true);
		this.env.saveStaticData(this.workflow);
		return this;
	}

	/**
	 * A `Workflow` from the saved static data, its poll context and n8n-core's poll tick; with
	 * durable cursors, `seed` is the stored cursor the scheduler's task read (default: the stored
	 * one when the poll begins).
	 */
	private async start(activation: WorkflowActivateMode, seed?: IDataObject): Promise<void> {
		this.workflow = await this.env.createWorkflow(this.input);
		this.node = Object.values(this.workflow.nodes).find(
			(node) => this.workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion).poll,
		)!;
		const data = additionalData({
			credentialsHelper: this.env.credentialsHelper,
			baseUrl: this.env.baseUrl,
			workflowId: this.workflow.id,
		});
		// Each context its own staged copy, as each poll of the app's has.
		const task: Task = {};
		const durable = this.options.durableCursors ? this.durableHooks(task, seed) : undefined;
		const context = new PollContext(
			this.workflow,
			this.node,
			data,
			'trigger',
			activation,
			(items) => this.emit(items, task),
			(error) => void this.errors.push(error),
			durable?.commitCursor,
			durable?.runPoll,
			durable?.resolveNodeStaticData,
			this.options.pollBudgetMs === undefined ? undefined : () => this.options.pollBudgetMs!,
		);
		this.tick = Container.get(PollTriggerExecutor).create(
			this.workflow,
			this.node,
			context,
			() => this.active,
		);
	}

	/** The stored cursors of this environment. */
	private get cursors(): Map<string, IDataObject> {
		if (!cursors.has(this.env)) cursors.set(this.env, new Map());
		return cursors.get(this.env)!;
	}

	/** What the app's durable cursors give the poll context (n8n 2.41, see above). */
	private durableHooks(task: Task, taskSeed?: IDataObject) {
		const key = `${this.workflow.id}/${this.node.id}`;
		return {
			runPoll: async <T>(poll: () => Promise<T>): Promise<T> => {
				if (!this.cursors.has(key))
					this.cursors.set(key, copy(this.workflow.getStaticData('node', this.node)));
				const seed = taskSeed ?? this.cursors.get(key)!;
				task.staged = { snapshot: copy(seed), seed };
				return await poll();
			},
			resolveNodeStaticData: () => task.staged!.snapshot,
			commitCursor: async () => {
				const cursor = takeStaged(task);
				if (cursor) this.cursors.set(key, cursor);
			},
		};
	}

	private emit(items: INodeExecutionData[][], task: Task) {
		this.emitted.push(items);
		if (this.options.durableCursors) {
			// Stored with the execution, in one transaction.
			const cursor = takeStaged(task);
			if (cursor) this.cursors.set(`${this.workflow.id}/${this.node.id}`, cursor);
		}
		this.env.saveStaticData(this.workflow);
		const run = this.env
			.startExecution(this.input, { mode: 'trigger', startNode: this.node.name, inputs: items })
			.then(async (started) => this.executions.push(await started.finished));
		this.pending.add(run);
		void run.finally(() => this.pending.delete(run));
	}

	/** One poll, as the app's cron tick runs it; resolves once its executions have finished. */
	async poll(): Promise<void> {
		// The scheduler's task of durable cursors: a new Workflow from the saved static data.
		if (this.options.durableCursors) await this.start('update');
		await this.tick();
		await this.settled();
	}

	/**
	 * Durable cursors: `count` polls of the scheduler at once (n8n 2.41 runs a poll whose lease
	 * lapsed beside the current one), each from the cursor stored when it began.
	 */
	async pollsAtOnce(count: number): Promise<void> {
		const ticks = [];
		for (let i = 0; i < count; i++) {
			await this.start('update');
			ticks.push(this.tick);
		}
		await Promise.all(ticks.map(async (tick) => await tick()));
		await this.settled();
	}

	/**
	 * Durable cursors: a poll whose task read the stored cursor before another poll ran and
	 * stored its own (n8n reads the cursor when the task begins, before the poll).
	 */
	async pollAfterStaleRead(): Promise<void> {
		const stale = this.storedCursor();
		await this.poll();
		await this.start('update', stale);
		await this.tick();
		await this.settled();
	}

	async settled(): Promise<void> {
		while (this.pending.size) await Promise.allSettled([...this.pending]);
	}

	/** The stored cursor of the poll trigger (durable cursors), undefined before its first poll. */
	storedCursor(): IDataObject | undefined {
		const cursor = this.cursors.get(`${this.workflow.id}/${this.node.id}`);
		return cursor && copy(cursor);
	}

	/** Static data of the workflow in this activation's memory (not necessarily saved). */
	memory() {
		return JSON.parse(JSON.stringify(this.workflow.staticData)) as Record<string, unknown>;
	}

	/** n8n starts again: this activation is gone, a new one starts from the saved static data. */
	async restart(): Promise<ActivePoller> {
		await this.settled();
		this.active = false;
		return await new ActivePoller(this.env, this.input, this.options).activate('init');
	}

	deactivate(): void {
		this.active = false;
	}
}

export async function activatePolling(
	env: TestEnvironment,
	input: TestWorkflow,
	options: PollingOptions = {},
): Promise<ActivePoller> {
	await env.ready();
	return await new ActivePoller(env, input, options).activate('activate');
}
