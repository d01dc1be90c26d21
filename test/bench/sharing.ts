/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * 7. Sharing the plan without lasting harm (the rate controller, nodes/shared/pacing/rateController.ts),
 * against both of the emulator's plan models (the 60 s sliding window; strict: also fixed 10 s
 * windows of a sixth of the plan), plan 1500 per 60 s, latency 50 ms, default node settings:
 * - sequence: one process meets a throttling episode (the server's plan cut to 5 per 2 s for an
 *   execution of 30 items), then runs 1,250 items at the full plan: its rate from the 30th second;
 *   (strict) the same after 40 items, latency 40-60 ms; and after 12 items and 3 ordinary runs,
 *   625 items at latency 600 ms (`EPISODE_CASES`);
 * - 2, 3 and 4 processes (separate Node processes, each loading dist/ with n8n-core, one
 *   credential) running executions back to back for 3 minutes: aggregate share, 429s, the most
 *   accepted answers in any 60 s and any 10 s, items lost;
 * - the others leave: of 2 processes, one stops after 90 s; the other's time back to 90%;
 * - the sharing matrix (test/helpers/sharingMatrix.ts, the same cells as the virtual-time test
 *   test/unit/sharingMatrix.test.ts): each gateway window model (sliding or fixed, 10 s or 60 s),
 *   429 with and without Retry-After, 2, 3 and 4 processes started together or staggered, busy
 *   together for `BENCH_MATRIX_BUSY_SECONDS` (60), then all but the first stop.
 * `BENCH_SHARING_ONLY` (a regular expression) picks rows by key: `^matrix` the matrix alone,
 * `^matrix sliding-10s ` one model, `^matrix sliding-10s no-retry-after 2 together$` one cell.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import {
	assertSuccess,
	benchEnvironment,
	getPoParameters,
	itemsWorkflow,
	maxInWindow,
	nodeRun,
	poItems,
	round,
} from './common';
import {
	BACK_WITHIN_MS,
	MATRIX_CELLS,
	MATRIX_TARGETS,
	STAGGER_MS,
	startOffsets,
	windowTurnAtOrAfter,
	type MatrixCell,
} from '../helpers/sharingMatrix';
import { startBenchEmulator, type BenchEmulator } from './emulator';
import type { Arrival } from './emulatorSummary';
import { PROCESS_STRIDE, type WorkerReport } from './sharingWorker';
import type { BenchContext, BenchOutcome, Benchmark, Metric } from './types';

const PLAN = 1500;
const PER_SECOND = PLAN / 60;
const MODELS = ['sliding', 'strict'] as const;
type Model = (typeof MODELS)[number];
const SHARING_SECONDS = Number(process.env.BENCH_SHARING_SECONDS ?? 180);
const LEAVE_AFTER_SECONDS = 90;
/** Items of each of the 2 processes of the 60 s row (1,400 at the plan's 25/s: about 56 s). */
const SHORT_ITEMS = 700;
const LEAVE_WATCH_SECONDS = 130;
/** The matrix: how long all of a cell's processes are busy together, from the last one's start. */
const MATRIX_BUSY_SECONDS = Number(process.env.BENCH_MATRIX_BUSY_SECONDS ?? 60);
const STAGGER_TEXT = `${STAGGER_MS.map((ms) => ms / 1000).join(', ')} s apart`;
/** The matrix's executions are short, so a process told to stop ends within seconds. */
const MATRIX_ITEMS = 50;

const sleep = async (ms: number) =>
	await new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function control(emulator: BenchEmulator, path: string, body: unknown) {
	const response = await fetch(`${emulator.baseUrl}/__control${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`control ${path}: HTTP ${response.status}`);
}

const plan = (model: Model) => ({ limit: PLAN, windowMs: 60_000, model });

async function emulatorFor(model: Model, context: BenchContext) {
	return await startBenchEmulator(
		{ latencyMs: 50, ratePlan: plan(model), requestLogLimit: 400_000 },
		context.placement,
	);
}

const accepted = (arrivals: Arrival[]) => arrivals.filter((a) => a.status !== 429);
const percent = (value: number) => round(value * 100, 1) ?? 0;
/** Which sharing process sent an arrival (its purchase order numbers, see sharingWorker.ts). */
const processOf = (arrival: Arrival) =>
	Math.floor(Number(/PO-BULK-(\d+)/.exec(arrival.path)?.[1] ?? 0) / PROCESS_STRIDE);

/** Rate of `times` (sorted) from `from` on, as a share of the plan. */
function shareFrom(times: number[], from: number): number {
	const after = times.filter((t) => t >= from);
	if (after.length < 2) return 0;
	return (after.length - 1) / ((after[after.length - 1] - after[0]) / 1000) / PER_SECOND;
}

/**
 * A run after a throttling episode (the server's plan cut to 5 per 2 s, a tenth of the plan), in
 * the same process and credential: `episode` items while it lasts, `between` ordinary executions
 * of 50 items at the full plan, then `items` at `latency`; its share of the plan from `fromS`.
 */
interface EpisodeCase {
	key: string;
	models: readonly Model[];
	episode: number;
	between?: number;
	items: number;
	latency?: { ms: number; jitterMs: number };
	fromS: number;
	/** The row's name after the model's. */
	name(r: { episode429: number }): string;
}

const EPISODE_CASES: EpisodeCase[] = [
	{
		key: 'sequence',
		models: MODELS,
		episode: 30,
		items: 1250,
		fromS: 30,
		name: (r) => `sequence, after an episode (${r.episode429} × 429)`,
	},
	{
		key: 'episode 40',
		models: ['strict'],
		episode: 40,
		items: 1250,
		latency: { ms: 50, jitterMs: 10 },
		fromS: 30,
		name: (r) =>
			`after an episode at 10 % of the plan (40 items, ${r.episode429} × 429), 1,250 items at latency 40-60 ms`,
	},
	{
		key: 'episode 12',
		models: ['strict'],
		episode: 12,
		between: 3,
		items: 625,
		latency: { ms: 600, jitterMs: 0 },
		fromS: 0,
		name: (r) =>
			`after a short episode (12 items, ${r.episode429} × 429) and 3 ordinary runs, 625 items at latency 600 ms`,
	},
];

async function afterEpisode(model: Model, context: BenchContext, c: EpisodeCase) {
	const emulator = await emulatorFor(model, context);
	try {
		const env = benchEnvironment(emulator, { requestsPerMinute: PLAN });
		const run = async (items: number, from: number, what: string) => {
			const result = await env.runWorkflow(itemsWorkflow(poItems(items, from), getPoParameters()));
			assertSuccess(result, what);
			return result;
		};
		await control(emulator, '/rate-plan', { limit: 5, windowMs: 2000 });
		await run(c.episode, 1, 'throttling episode');
		const episode429 = (await emulator.arrivals('GetPurchaseOrder')).filter(
			(a) => a.status === 429,
		);
		await control(emulator, '/rate-plan', plan(model));
		for (let i = 0; i < (c.between ?? 0); i++) await run(50, 501 + 50 * i, 'ordinary run');
		if (c.latency) await control(emulator, '/latency', c.latency);
		const started = Date.now();
		const result = await run(c.items, 1001, 'full-plan run');
		const arrivals = (await emulator.arrivals('GetPurchaseOrder')).filter((a) => a.at >= started);
		const times = accepted(arrivals).map((a) => a.at);
		return {
			episode429: episode429.length,
			gapAfterLast429Ms: started - Math.max(...episode429.map((a) => a.at)),
			shareFrom: percent(shareFrom(times, started + c.fromS * 1000)),
			shareWhole: percent(shareFrom(times, started)),
			answers429: arrivals.length - times.length,
			percent429: round(((arrivals.length - times.length) / arrivals.length) * 100, 2) ?? 0,
			items: nodeRun(result).items,
			wallMs: Date.now() - started,
		};
	} finally {
		await emulator.close();
	}
}

interface Worker {
	child: ChildProcess;
	report: Promise<WorkerReport>;
}

function startWorker(
	emulator: BenchEmulator,
	index: number,
	seconds: number,
	executions?: { items: number; count?: number },
): Worker {
	const args = {
		baseUrl: emulator.baseUrl,
		credential: emulator.credential,
		label: `p${index}`,
		index,
		seconds,
		itemsPerExecution: executions?.items ?? 500,
		maxExecutions: executions?.count,
		requestsPerMinute: PLAN,
	};
	const child = fork(join(__dirname, 'sharingWorker.ts'), [JSON.stringify(args)], {
		execArgv: ['-r', 'ts-node/register/transpile-only'],
		env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', TS_NODE_PREFER_TS_EXTS: 'true' },
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	const report = new Promise<WorkerReport>((resolve, reject) => {
		child.on('message', (message) => {
			const m = message as { kind?: string; report?: WorkerReport };
			if (m.kind === 'report' && m.report) resolve(m.report);
		});
		child.once('exit', (code) => reject(new Error(`sharing worker ${index} exited (${code})`)));
	});
	return { child, report };
}

function lost(reports: WorkerReport[]) {
	return reports.reduce((sum, r) => sum + (r.itemsIn - r.itemsOut), 0);
}

/**
 * `count` processes started together, each running executions of 500 items for SHARING_SECONDS,
 * or (`short`) one execution of `short.items` each: about a minute for two (the
 * first minute of sharing, against the strict model's 10 s windows).
 */
async function processes(
	count: number,
	model: Model,
	context: BenchContext,
	short?: { items: number },
) {
	const emulator = await emulatorFor(model, context);
	try {
		const workers = Array.from({ length: count }, (_, i) =>
			short
				? startWorker(emulator, i + 1, 600, { items: short.items, count: 1 })
				: startWorker(emulator, i + 1, SHARING_SECONDS),
		);
		const reports = await Promise.all(workers.map((w) => w.report));
		const arrivals = await emulator.arrivals('GetPurchaseOrder');
		const times = accepted(arrivals).map((a) => a.at);
		const first = times[0];
		const last = times[times.length - 1];
		// While all of them share the plan: up to the last request of the process that finished
		// first (each starts executions until its time is up, so the last ones end one by one; that
		// tail is the "others leave" row's scenario, not sharing).
		const lastOf = (i: number) =>
			Math.max(
				...accepted(arrivals)
					.filter((a) => processOf(a) === i + 1)
					.map((a) => a.at),
			);
		const allBusyEnd = Math.min(...reports.map((_, i) => lastOf(i)));
		const busy = accepted(arrivals).filter((a) => a.at <= allBusyEnd);
		const busySeconds = (allBusyEnd - first) / 1000;
		const perProcess = reports.map((_, i) =>
			percent(busy.filter((a) => processOf(a) === i + 1).length / busySeconds / PER_SECOND),
		);
		return {
			processes: count,
			seconds: round(busySeconds, 0),
			aggregate: percent((busy.length - 1) / busySeconds / PER_SECOND),
			wholeSpan: {
				seconds: round((last - first) / 1000, 0),
				aggregate: percent((times.length - 1) / ((last - first) / 1000) / PER_SECOND),
			},
			perProcess,
			requests: arrivals.length,
			answers429: arrivals.length - times.length,
			percent429: round(((arrivals.length - times.length) / arrivals.length) * 100, 2) ?? 0,
			max60s: percent(maxInWindow(accepted(arrivals), 60_000) / PLAN),
			max10s: percent(maxInWindow(accepted(arrivals), 10_000) / (PLAN / 6)),
			lost: lost(reports),
			failures: reports.flatMap((r) => r.failures),
			executions: reports.map((r) => r.executions),
		};
	} finally {
		await emulator.close();
	}
}

async function othersLeave(model: Model, context: BenchContext) {
	const emulator = await emulatorFor(model, context);
	try {
		const stays = startWorker(emulator, 1, LEAVE_AFTER_SECONDS + LEAVE_WATCH_SECONDS);
		const leaves = startWorker(emulator, 2, LEAVE_AFTER_SECONDS);
		const left = await leaves.report;
		const stoppedAt = Date.now();
		const stayed = await stays.report;
		const mine = accepted(await emulator.arrivals('GetPurchaseOrder'))
			.filter((a) => processOf(a) === 1)
			.map((a) => a.at);
		// The first moment after the stop when the last 10 s carried >= 90% of the plan.
		let backAfterMs: number | undefined;
		for (let t = stoppedAt; t <= mine[mine.length - 1]; t += 500) {
			const inWindow = mine.filter((x) => x > t - 10_000 && x <= t).length;
			if (inWindow >= 0.9 * PER_SECOND * 10) {
				backAfterMs = t - stoppedAt;
				break;
			}
		}
		return {
			backAfterS: backAfterMs === undefined ? null : round(backAfterMs / 1000, 1),
			lost: lost([left, stayed]),
			failures: [...left.failures, ...stayed.failures],
		};
	} finally {
		await emulator.close();
	}
}

/**
 * One cell of the sharing matrix against the emulator's model: its processes start (together or
 * staggered), all are busy for `MATRIX_BUSY_SECONDS` after the last start, then all but the first
 * are told to stop (each ends its execution of 50 items); the first runs on alone for 40 s more,
 * or up to 40 s after the first turn of the gateway's fixed window at or after the stop (on the
 * emulator's clock, the machine's) for `aloneAfterTurn`. The cell's requests and 429s end 40 s
 * after the stop, lost items and failures count the whole run.
 */
async function matrixCell(cell: MatrixCell, context: BenchContext) {
	const ratePlan = {
		limit: PLAN,
		windowMs: 60_000,
		model: cell.model,
		retryAfter: cell.retryAfter,
	};
	const emulator = await startBenchEmulator(
		{ latencyMs: 50, ratePlan, requestLogLimit: 400_000 },
		context.placement,
	);
	try {
		const workers: Worker[] = [];
		const started = Date.now();
		for (const [i, offset] of startOffsets(cell).entries()) {
			await sleep(started + offset - Date.now());
			workers.push(startWorker(emulator, i + 1, 3600, { items: MATRIX_ITEMS }));
		}
		await sleep(MATRIX_BUSY_SECONDS * 1000);
		const stoppedAt = Date.now();
		for (const worker of workers.slice(1)) worker.child.send({ kind: 'stop' });
		const others = await Promise.all(workers.slice(1).map((w) => w.report));
		const othersEndedAfterS = round((Date.now() - stoppedAt) / 1000, 0);
		const from = stoppedAt + BACK_WITHIN_MS;
		const turn = windowTurnAtOrAfter(cell.model, ratePlan.windowMs, stoppedAt);
		const fromTurn = turn + BACK_WITHIN_MS;
		await sleep(fromTurn + 10_000 - Date.now());
		workers[0].child.send({ kind: 'stop' });
		const reports = [await workers[0].report, ...others];
		const all = await emulator.arrivals('GetPurchaseOrder');
		const arrivals = all.filter((a) => a.at < from + 10_000);
		const times = accepted(arrivals).map((a) => a.at);
		const busy = times.filter((t) => t <= stoppedAt);
		const aloneFrom = (t: number) =>
			accepted(all).filter((a) => processOf(a) === 1 && a.at >= t && a.at < t + 10_000).length /
			(PER_SECOND * 10);
		return {
			together: percent((busy.length - 1) / ((stoppedAt - times[0]) / 1000) / PER_SECOND),
			requests: arrivals.length,
			answers429: arrivals.length - times.length,
			percent429: round(((arrivals.length - times.length) / arrivals.length) * 100, 2) ?? 0,
			lost: lost(reports),
			failures: reports.flatMap((r) => r.failures),
			alone: percent(aloneFrom(from)),
			aloneAfterTurn: percent(aloneFrom(fromTurn)),
			turnAfterS: round((turn - stoppedAt) / 1000, 1),
			othersEndedAfterS,
		};
	} finally {
		await emulator.close();
	}
}

/** The matrix's rows (`BENCH_SHARING_ONLY` picks cells by `matrix <key>`). */
async function matrix(
	context: BenchContext,
	wanted: (name: string) => boolean,
	out: { metrics: Metric[]; details: Record<string, unknown> },
) {
	const pct = (share: number) => share * 100;
	for (const cell of MATRIX_CELLS) {
		if (!wanted(`matrix ${cell.key}`)) continue;
		context.log(`matrix: ${cell.name}, ${MATRIX_BUSY_SECONDS} s busy`);
		const r = await matrixCell(cell, context);
		out.details[`matrix ${cell.key}`] = r;
		context.log(JSON.stringify(r));
		out.metrics.push({
			name: `matrix: ${cell.name}: together % of the plan / 429s / items lost / the one left alone, from the ${BACK_WITHIN_MS / 1000}th second / the same from the ${BACK_WITHIN_MS / 1000}th second after the gateway's turn`,
			value: `${r.together} % / ${r.percent429} % (${r.answers429} of ${r.requests}) / ${r.lost} / ${r.alone} % / ${r.aloneAfterTurn} % (turn ${r.turnAfterS} s after the stop)`,
			target: `>= ${pct(MATRIX_TARGETS.together)} % / <= ${pct(MATRIX_TARGETS.rejected)} % / 0 / >= ${pct(MATRIX_TARGETS.alone)} % / –`,
			met:
				r.together >= pct(MATRIX_TARGETS.together) &&
				r.percent429 <= pct(MATRIX_TARGETS.rejected) &&
				r.lost === 0 &&
				!r.failures.length &&
				r.alone >= pct(MATRIX_TARGETS.alone),
		});
	}
}

export const sharing: Benchmark = {
	id: 'sharing',
	async run(context): Promise<BenchOutcome> {
		const metrics: Metric[] = [];
		const details: Record<string, unknown> = {};
		const only = process.env.BENCH_SHARING_ONLY
			? new RegExp(process.env.BENCH_SHARING_ONLY)
			: undefined;
		const wanted = (name: string) => !only || only.test(name);
		for (const model of MODELS) {
			for (const c of EPISODE_CASES) {
				if (!c.models.includes(model) || !wanted(`${c.key} ${model}`)) continue;
				context.log(`${c.key} (${model}): a throttling episode, then ${c.items} items`);
				const r = await afterEpisode(model, context, c);
				details[`${c.key} ${model}`] = r;
				context.log(JSON.stringify(r));
				const from = c.fromS ? `from the ${c.fromS}th second` : 'whole run';
				metrics.push({
					name: `${model}: ${c.name(r)}: % of the plan ${from} / 429 answers`,
					value: `${r.shareFrom} % / ${r.answers429} (${r.percent429} %)`,
					target: '>= 90 % / <= 1 %',
					met: r.shareFrom >= 90 && r.percent429 <= 1 && r.items === c.items,
				});
			}
			for (const count of [2, 3, 4]) {
				if (!wanted(`${count} processes ${model}`)) continue;
				context.log(`${count} processes (${model}), ${SHARING_SECONDS} s`);
				const r = await processes(count, model, context);
				details[`${count} processes ${model}`] = r;
				context.log(JSON.stringify(r));
				const met =
					r.aggregate >= 90 &&
					r.percent429 <= 1 &&
					r.max60s <= 100 &&
					r.lost === 0 &&
					!r.failures.length;
				metrics.push({
					name: `${model}: ${count} processes, ${r.seconds} s all busy: aggregate % of the plan / 429s / most in any 60 s / most in any 10 s / lost`,
					value: `${r.aggregate} % (${r.perProcess.join(' + ')}; whole run ${r.wholeSpan.aggregate} % over ${r.wholeSpan.seconds} s) / ${r.percent429} % (${r.answers429} of ${r.requests}) / ${r.max60s} % / ${r.max10s} % / ${r.lost}`,
					target: '>= 90 % / <= 1 % / <= 100 % / – / 0',
					met,
				});
			}
			if (model === 'strict' && wanted(`2 processes 60 s ${model}`)) {
				context.log(
					`2 processes (${model}), one execution of ${SHORT_ITEMS} items each (about 60 s)`,
				);
				const r = await processes(2, model, context, { items: SHORT_ITEMS });
				details[`2 processes 60 s ${model}`] = r;
				context.log(JSON.stringify(r));
				const met = r.percent429 <= 1 && r.max60s <= 100 && r.lost === 0 && !r.failures.length;
				metrics.push({
					name: `${model}: 2 processes started together, ${SHORT_ITEMS} items each (${r.wholeSpan.seconds} s): 429s / aggregate % of the plan / most in any 60 s / most in any 10 s / lost`,
					value: `${r.percent429} % (${r.answers429} of ${r.requests}) / ${r.wholeSpan.aggregate} % / ${r.max60s} % / ${r.max10s} % / ${r.lost}`,
					target: '<= 1 % / – / <= 100 % / – / 0',
					met,
				});
			}
			if (wanted(`leave ${model}`)) {
				context.log(`the others leave (${model})`);
				const r = await othersLeave(model, context);
				details[`leave ${model}`] = r;
				context.log(JSON.stringify(r));
				metrics.push({
					name: `${model}: of 2 processes one stops after ${LEAVE_AFTER_SECONDS} s: the other back at 90 % of the plan after / lost`,
					value: `${r.backAfterS ?? 'never'} s / ${r.lost}`,
					target: '<= 120 s / 0',
					met: r.backAfterS !== null && r.backAfterS <= 120 && r.lost === 0,
				});
			}
		}
		await matrix(context, wanted, { metrics, details });
		return {
			metrics,
			details,
			notes: [
				'Plan 1500 per 60 s at the emulator and in the credential, latency 50 ms, default node settings (automatic concurrency). Shares are of the plan (25/s), from the emulator log: accepted requests (not 429) between the first and the last; for the 2, 3 and 4 processes rows, while all of them are busy: from the first request to the last one of the process that finished first (each process starts executions of 500 items until its 3 minutes are up, so they end one by one; the rate over the whole run, tail included, is given beside it). 429s, the most in any 60 s and in any 10 s and lost items count the whole run.',
				'sliding: the emulator counts the plan in a sliding 60 s window; strict: also in fixed 10 s windows of 250 (a gateway with finer windows).',
				'Processes: separate Node processes, each with its own copy of the package loaded from dist/ by n8n-core (as queue-mode workers have), executions of 500 items back to back on one credential (one project, one plan).',
				`2 processes, ${SHORT_ITEMS} items each (strict only): the first minute of sharing, the two processes started together, one execution each; 429s over the whole run.`,
				'Sequence: the episode is an execution of 30 items while the emulator allows 5 per 2 s (about 6 × 429); the full-plan run starts right after it in the same process.',
				"After an episode at 10 % of the plan (strict): the same with an episode of 40 items at 5 per 2 s (the emulator's Retry-After: the wait of its sliding window, rounded up to whole seconds, 1 or 2), then 1,250 items at latency 50 ± 10 ms (uniform). After a short episode (strict): 12 items at 5 per 2 s, 3 ordinary executions of 50 items at the full plan and 50 ms, then 625 items at latency 600 ms (the automatic concurrency must reach 15 to carry the plan): its share over the whole run, from its first request to its last.",
				'Most in any 10 s: accepted answers in any 10 s window against a sixth of the plan (250); the sliding model lets a window of processes start in a burst (its first minute is empty), the strict one does not.',
				`Matrix: the emulator counts the plan (1500) in a sliding or fixed 60 s window, or a sixth of it (250) in a sliding or fixed 10 s window, and answers 429 with a Retry-After (the wait until that window has room, whole seconds) or without one (the node backs off 250-500 ms, doubling). Processes as above, executions of ${MATRIX_ITEMS} items back to back; started together, or staggered ${STAGGER_TEXT}; all busy for ${MATRIX_BUSY_SECONDS} s after the last start, then all but the first are told to stop (each ends its execution). Together: accepted requests from the first to the stop, as a share of the plan; 429s up to the end of the one left alone's 10 s, items lost over the whole cell; the one left alone: its accepted requests in the 10 s from ${BACK_WITHIN_MS / 1000} s after the stop, as a share of the plan's 250; after the turn (not a target): the same from ${BACK_WITHIN_MS / 1000} s after the first turn of the gateway's fixed window (10 s or 60 s, on the clock) at or after the stop (a sliding window: the same as alone), since in a fixed window the one left alone has no room before that turn if the others filled it.`,
			],
		};
	},
};
