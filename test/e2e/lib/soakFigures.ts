/**
 * The soak's figures (soak.e2e.ts): per trigger, the orders created after activation, the copies
 * of each in n8n's executions, and what is lost or repeated. Every order may have at most one
 * unmarked copy: the others must carry `possibleDuplicate: true`.
 *
 * An order of the webhook trigger in no execution is lost only when n8n answered one of its
 * deliveries 2xx (the trigger had it). When n8n never did, the service gave up (n8n was down
 * longer than its retries) or the delivery is still pending; when n8n answered only its start-up
 * text (`n8n is starting up. Please wait`, 200), that is n8n's own answer before it runs any
 * workflow. Both are counted apart.
 */

/** Why an order in no execution is not the trigger's loss. */
export type NotTheTriggers = 'never answered 2xx' | "n8n's start-up answer";

/** One order in one execution's trigger output. */
export interface Copy {
	execution: string;
	marked: boolean;
	/** Its execution ended when n8n was killed (n8n's crash recovery marked it crashed). */
	crashed?: boolean;
}

export interface TriggerFigures {
	/** Orders created after activation (events published, for the webhook trigger). */
	created: number;
	/** Orders in at least one execution. */
	emitted: number;
	/** In no execution, although the trigger had it. */
	lost: number;
	/** In no execution: deliveries never answered 2xx by n8n (the service gave up, or still pending). */
	neverAnswered: number;
	/** In no execution: n8n answered its start-up text and nothing else 2xx. */
	startUpAnswer: number;
	/** Orders in more than one execution (or twice in one), every copy but one marked. */
	duplicatedMarked: number;
	/** Orders with more than one unmarked copy (crashed executions aside, when excused). */
	duplicatedUnmarked: number;
	/**
	 * Orders run again, unmarked, after an execution with them crashed (webhook trigger: the
	 * delivery was not answered, the service sent it again and n8n ran it once more).
	 */
	rerunAfterCrash: number;
	/** Executions whose trigger output n8n replaced after a crash (read before that). */
	recoveredExecutions: number;
	/** Up to 20 of each, for the report. */
	lostOrders: string[];
	unmarkedOrders: string[];
}

export function figuresOf(
	created: readonly string[],
	copies: ReadonlyMap<string, readonly Copy[]>,
	recoveredExecutions: number,
	notTheTriggers: ReadonlyMap<string, NotTheTriggers> = new Map(),
	excuseCrashed = false,
): TriggerFigures {
	const missing = created.filter((order) => !copies.get(order)?.length);
	const lost = missing.filter((order) => !notTheTriggers.has(order));
	const excused = (why: NotTheTriggers) =>
		missing.filter((order) => notTheTriggers.get(order) === why).length;
	const repeated = created.filter((order) => (copies.get(order)?.length ?? 0) > 1);
	const unmarkedCopies = (order: string, withCrashed: boolean) =>
		copies.get(order)!.filter((copy) => !copy.marked && (withCrashed || !copy.crashed)).length;
	const unmarked = repeated.filter((order) => unmarkedCopies(order, !excuseCrashed) > 1);
	const rerun = repeated.filter(
		(order) => unmarkedCopies(order, true) > 1 && !unmarked.includes(order),
	);
	return {
		created: created.length,
		emitted: created.length - missing.length,
		lost: lost.length,
		neverAnswered: excused('never answered 2xx'),
		startUpAnswer: excused("n8n's start-up answer"),
		duplicatedMarked: repeated.length - unmarked.length - rerun.length,
		duplicatedUnmarked: unmarked.length,
		rerunAfterCrash: rerun.length,
		recoveredExecutions,
		lostOrders: lost.slice(0, 20),
		unmarkedOrders: unmarked.slice(0, 20),
	};
}

/** The figures table printed at the end. */
export function figuresTable(
	triggers: Record<string, TriggerFigures>,
	kills: Record<string, number>,
): string {
	const rows: Array<[string, ...string[]]> = [
		['', ...Object.keys(triggers)],
		['created after activation', ...Object.values(triggers).map((f) => String(f.created))],
		['in an n8n execution', ...Object.values(triggers).map((f) => String(f.emitted))],
		['lost', ...Object.values(triggers).map((f) => String(f.lost))],
		[
			'not in n8n: deliveries never answered 2xx',
			...Object.values(triggers).map((f) => String(f.neverAnswered)),
		],
		[
			"not in n8n: n8n's start-up answer",
			...Object.values(triggers).map((f) => String(f.startUpAnswer)),
		],
		['duplicated, marked', ...Object.values(triggers).map((f) => String(f.duplicatedMarked))],
		['duplicated, unmarked', ...Object.values(triggers).map((f) => String(f.duplicatedUnmarked))],
		[
			'run again after a crashed execution',
			...Object.values(triggers).map((f) => String(f.rerunAfterCrash)),
		],
		[
			'executions n8n recovered after a crash',
			...Object.values(triggers).map((f) => String(f.recoveredExecutions)),
		],
	];
	const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
	const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
	const table = [
		line(rows[0]),
		`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
		...rows.slice(1).map(line),
	];
	const killLine = Object.entries(kills)
		.map(([kind, count]) => `${kind} ${count}`)
		.join(', ');
	return `${table.join('\n')}\nkills: ${killLine}`;
}
