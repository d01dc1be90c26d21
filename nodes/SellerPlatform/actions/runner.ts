/**
 * The one runner of every operation, and the only `execute`: an operation's `plan` reads and
 * checks the parameters of the input items and returns tasks, sending nothing; the runner then
 * - refuses the run before anything is sent when an item is invalid (or, with "continue on fail",
 *   answers that item with an error item),
 * - checks values no two tasks may share,
 * - sends the tasks with bounded concurrency (automatic by default),
 * - gives every input item exactly one place in the output: a result or an error item, each with
 *   `pairedItem`, in input order.
 */
import {
	NodeApiError,
	NodeOperationError,
	type IBinaryKeyData,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type IPairedItemData,
} from 'n8n-workflow';

import { eventLoopTurns, quoted } from '../../shared';
import { addRunHints } from './hints';
import { readRunOptions } from './options';

export interface TaskOutput {
	json: IDataObject;
	binary?: IBinaryKeyData;
	/** Facts about an item that succeeded (a field that could not be read): the run's hints. */
	notes?: string[];
}

/** One input item's part of a batch task: its output, or the error that item alone failed with. */
export interface ItemOutcome {
	item: number;
	output?: TaskOutput;
	error?: Error;
}

/**
 * What a task's `send` gives: its output; `list`, several outputs of its one item (each entry
 * of a list, each paired with the item); or `outcomes`, one per item of a batch task.
 */
export type TaskResult = TaskOutput | { list: TaskOutput[] } | { outcomes: ItemOutcome[] };

export interface Task {
	/** The input item the task stands for, or `items` for a task built from several. */
	item?: number;
	items?: number[];
	/**
	 * A batch: each of `items` gets its own output item (from `outcomes`, or the task's error for
	 * each when the whole request fails), not one output paired with them all.
	 */
	eachItem?: boolean;
	/** A value no two tasks of a run may share; checked before anything is sent. */
	unique?: { value: string; parameter: string; rule: string };
	/** Tasks of a bulk operation go one at a time, in order. */
	sequential?: boolean;
	/**
	 * For operations that create something: how to name what a successful task created, and what
	 * the user can do about it, for the error of a later failure (the created things are then in
	 * no output). Never a secret.
	 */
	creates?: { describe(json: IDataObject): string; advice: string };
	/** Sends the task; `concurrency`: the run's, for a task that sends several requests itself. */
	send(concurrency: () => number): Promise<TaskResult>;
}

/** An item whose parameters were refused (only with "continue on fail"). */
export interface Refused {
	item: number;
	error: Error;
}

/** A planned entry: a task to send, or a refused item (which has no `send`). */
export type Planned = Task | Refused;

export function isTask(entry: Planned): entry is Task {
	return 'send' in entry;
}

export interface Operation {
	description: INodeProperties[];
	/** Reads and checks the parameters of the run's `itemCount` input items; sends nothing. */
	plan(this: IExecuteFunctions, itemCount: number): Promise<Planned[]>;
}

export function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/** An invalid item: thrown at once, or kept for an error item with "continue on fail". */
export function throwUnlessContinueOnFail(
	ctx: IExecuteFunctions,
	error: unknown,
	item: number,
): Refused {
	const nodeError = asNodeError(ctx, error, item);
	if (!ctx.continueOnFail()) throw nodeError;
	return { item, error: nodeError };
}

/** The usual `plan`: one task per input item, from `task(itemIndex)`. */
export function perItem(
	task: (
		this: IExecuteFunctions,
		itemIndex: number,
	) => Omit<Task, 'item'> | Promise<Omit<Task, 'item'>>,
): Operation['plan'] {
	return async function (this: IExecuteFunctions, itemCount: number) {
		const planned: Planned[] = [];
		for (let item = 0; item < itemCount; item++) {
			try {
				planned.push({ ...(await task.call(this, item)), item });
			} catch (error) {
				planned.push(throwUnlessContinueOnFail(this, error, item));
			}
		}
		return planned;
	};
}

/**
 * The output item of a failed input under "continue on fail": `{ error, details }`, where
 * `error` is the message (the service's own, for API errors) and `details` holds the HTTP code,
 * the service's status_code, status_id and details. No secrets. n8n's "continue (using error
 * output)" recognises items whose only keys are error/message/details, so none are added.
 */
export function errorItem(
	error: Error,
	pairedItem: IPairedItemData | IPairedItemData[],
): INodeExecutionData {
	const details: IDataObject = {};
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		const context = error.context as IDataObject;
		if (error instanceof NodeApiError && error.httpCode) details.httpCode = error.httpCode;
		if (context.statusCode !== undefined) details.status_code = context.statusCode;
		if (context.statusId !== undefined) details.status_id = context.statusId;
		if (context.details !== undefined) details.service_details = context.details;
		if (error.description) details.description = error.description;
	}
	return { json: { error: error.message, details }, pairedItem };
}

const firstItem = (entry: Planned) => entry.item ?? (entry as Task).items?.[0] ?? 0;
const pairing = (entry: Planned) =>
	'items' in entry && entry.items
		? entry.items.map((item) => ({ item }))
		: { item: firstItem(entry) };

/** Refuses the second and later tasks that repeat a value that must be unique. */
function checkUnique(ctx: IExecuteFunctions, planned: Planned[]) {
	const firstWith = new Map<string, number>();
	planned.forEach((entry, index) => {
		if (!isTask(entry) || !entry.unique) return;
		const { value, parameter, rule } = entry.unique;
		const item = firstItem(entry);
		const first = firstWith.get(value);
		if (first === undefined) {
			firstWith.set(value, item);
			return;
		}
		const error = new NodeOperationError(
			ctx.getNode(),
			`${parameter} of item ${item} repeats the value ${quoted(value)} of item ${first}: ${rule}`,
			{ itemIndex: item },
		);
		planned[index] = throwUnlessContinueOnFail(ctx, error, item);
	});
}

/** The error of a failed run names what the run created before it (in no output now). */
function withCreated(error: Error, created: Array<{ item: number; name: string; advice: string }>) {
	if (!created.length || !(error instanceof NodeApiError || error instanceof NodeOperationError)) {
		return error;
	}
	const names = created.sort((a, b) => a.item - b.item).map((entry) => entry.name);
	const note = `Created before this failure, and in no output now: ${names.join(', ')}. ${created[0].advice}`;
	error.message = `${error.message} (${names.length} created before this failure: see the description)`;
	error.description = error.description ? `${error.description}\n\n${note}` : note;
	Object.assign(error.context, { created: names });
	return error;
}

/**
 * Runs `task(0..count-1)`, starting them in index order, with at most `limit()` running at once
 * (read again before each start, so the limit can follow what the run measures).
 */
export async function runPool(
	count: number,
	limit: () => number,
	task: (index: number) => Promise<void>,
) {
	let next = 0;
	let running = 0;
	await new Promise<void>((resolve, reject) => {
		const startMore = () => {
			if (next >= count && running === 0) return resolve();
			while (next < count && running < Math.max(1, limit())) {
				const index = next++;
				running++;
				task(index).then(() => {
					running--;
					startMore();
				}, reject);
			}
		};
		startMore();
	});
}

/**
 * The run's plan: its options read (options.ts), then the operation's items. With "continue on
 * fail", a run refused as a whole (a run option, or a setting read once per run) gives the reason
 * instead; without it, that throws.
 */
async function planRun(
	ctx: IExecuteFunctions,
	operation: Operation,
): Promise<{ planned: Planned[]; concurrency: () => number } | { refused: unknown }> {
	let failed: unknown;
	try {
		const { concurrency } = readRunOptions(ctx);
		return { planned: await operation.plan.call(ctx, ctx.getInputData().length), concurrency };
	} catch (error) {
		failed = error;
	}
	if (!ctx.continueOnFail()) throw failed;
	return { refused: failed };
}

/**
 * The output items of each input item, by its index (one item, or several: a list's entries, in
 * the order they came): the run's output in input order without sorting or wrapping 100,000 items.
 */
type Slots = Array<INodeExecutionData | INodeExecutionData[] | undefined>;

/** What a run's sending leaves: the output items, what was created, the failure that stops it. */
interface Sent {
	results: Slots;
	created: Array<{ item: number; name: string; advice: string }>;
	/** The notes of the items that succeeded, one entry per item and note. */
	notes: string[];
	/** The failure with the lowest item index stops the run (without "continue on fail"). */
	stop: { item: number; error?: Error; firstFailed: number };
}

/** Adds an output item of input item `item`, after the ones it already has. */
function place(sent: Sent, item: number, data: INodeExecutionData) {
	const before = sent.results[item];
	if (before === undefined) sent.results[item] = data;
	else if (Array.isArray(before)) before.push(data);
	else sent.results[item] = [before, data];
}

/** The output items in input order; long runs give the event loop its turns (common/turns.ts). */
async function inInputOrder(results: Slots): Promise<INodeExecutionData[]> {
	const outputs: INodeExecutionData[] = [];
	const turns = eventLoopTurns();
	for (let item = 0; item < results.length; item++) {
		if (turns.due()) await turns.pause();
		const entry = results[item];
		if (entry === undefined) continue;
		if (Array.isArray(entry)) for (const data of entry) outputs.push(data);
		else outputs.push(entry);
	}
	return outputs;
}

const outputItem = (output: TaskOutput, pairedItem: INodeExecutionData['pairedItem']) =>
	output.binary
		? { json: output.json, binary: output.binary, pairedItem }
		: { json: output.json, pairedItem };

/** An item that failed: its error item with "continue on fail", else the run's stop (lowest item). */
function failItem(
	ctx: IExecuteFunctions,
	sent: Sent,
	item: number,
	error: unknown,
	paired: IPairedItemData | IPairedItemData[] = { item },
) {
	const nodeError = asNodeError(ctx, error, item);
	sent.stop.firstFailed = Math.min(sent.stop.firstFailed, item);
	if (ctx.continueOnFail()) place(sent, item, errorItem(nodeError, paired));
	else if (item < sent.stop.item) Object.assign(sent.stop, { item, error: nodeError });
}

/** Places what a task sent: its output, its list's entries, or each batch item's outcome. */
function placeResult(ctx: IExecuteFunctions, entry: Task, result: TaskResult, sent: Sent) {
	const item = firstItem(entry);
	if ('outcomes' in result) {
		for (const { item: each, output, error } of result.outcomes) {
			if (!output) {
				failItem(ctx, sent, each, error);
				continue;
			}
			if (output.notes) sent.notes.push(...output.notes);
			place(sent, each, outputItem(output, { item: each }));
		}
		return;
	}
	const outputs = 'list' in result ? result.list : [result];
	for (const output of outputs) {
		if (output.notes) sent.notes.push(...output.notes);
		place(sent, item, outputItem(output, pairing(entry)));
	}
	if (entry.creates && !('list' in result)) {
		const { describe, advice } = entry.creates;
		sent.created.push({ item, name: describe(result.json), advice });
	}
}

/** Sends one planned entry, or answers a refused one with its error item. */
async function sendEntry(
	ctx: IExecuteFunctions,
	entry: Planned,
	sent: Sent,
	concurrency: () => number,
) {
	if (!isTask(entry)) return failItem(ctx, sent, firstItem(entry), entry.error);
	try {
		placeResult(ctx, entry, await entry.send(concurrency), sent);
	} catch (error) {
		if (entry.eachItem && entry.items) {
			for (const item of entry.items) failItem(ctx, sent, item, error);
		} else failItem(ctx, sent, firstItem(entry), error, pairing(entry));
	}
}

export async function runOperation(
	this: IExecuteFunctions,
	operation: Operation,
): Promise<INodeExecutionData[]> {
	// n8n's own work on the input items before the node (100,000 of them) is one turn, the
	// node's planning the next ones: never one block.
	const turns = eventLoopTurns();
	await turns.pause();
	const plan = await planRun(this, operation);
	if ('refused' in plan) {
		// Every input item gets the run's error: none passes on as if it had worked.
		const error = asNodeError(this, plan.refused, 0);
		return this.getInputData().map((_, item) => errorItem(error, { item }));
	}
	const planned: Array<Planned | undefined> = plan.planned;
	checkUnique(this, plan.planned);

	const sequential = plan.planned.some((entry) => isTask(entry) && entry.sequential);
	const sent: Sent = {
		results: [],
		created: [],
		notes: [],
		stop: { item: Infinity, firstFailed: Infinity },
	};
	// No task starts after a failure that stops the run. A task sent is let go (its rows with it):
	// a run holds its rows to send and its outputs, not both whole.
	await runPool(planned.length, sequential ? () => 1 : plan.concurrency, async (index) => {
		const entry = planned[index] as Planned;
		planned[index] = undefined;
		if (!sent.stop.error) await sendEntry(this, entry, sent, plan.concurrency);
	});
	if (sent.stop.error) throw withCreated(sent.stop.error, sent.created);
	const outputs = await inInputOrder(sent.results);
	const createdBeforeFailure = sent.created.filter((entry) => entry.item < sent.stop.firstFailed);
	addRunHints(this, outputs, createdBeforeFailure, sent.notes);
	// n8n's own work on the output items after the node is a turn of its own too.
	await turns.pause();
	return outputs;
}
