/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * 1. The rate plan alone sets the speed: purchaseOrder/get with default settings (automatic
 * concurrency) under the documented plan of 1500 per 60 s (emulator `ratePlan { limit: 1500,
 * windowMs: 60000 }`, credential `requestsPerMinute: 1500`), at emulator latencies of 50, 300 and 600 ms, with and
 * without jitter; then four executions started together on one credential.
 */
import type { TestEnvironment } from '../helpers';
import { startBenchEmulator, type BenchEmulator } from './emulator';
import {
	arrivalSpan,
	assertSuccess,
	benchEnvironment,
	getPoParameters,
	itemsWorkflow,
	maxInWindow,
	nodeRun,
	poItems,
	round,
	startConnectionCounter,
	timed,
	transitStats,
} from './common';
import type { BenchContext, BenchOutcome, Benchmark, Metric } from './types';

const ITEMS = 3000;
/** The documented plan: 1500 per 60 s. 3,000 requests take two windows, so the second one binds. */
const PLAN = { limit: 1500, windowMs: 60_000 };
const REQUESTS_PER_MINUTE = 1500;
const CEILING_PER_SECOND = (PLAN.limit * 1000) / PLAN.windowMs;
const TARGET_PERCENT = 95;

interface Scenario {
	name: string;
	latencyMs: number;
	jitterMs: number;
	/** Executions started together on one credential, ITEMS / executions items each. */
	executions: number;
	/** Items in all (ITEMS unless given). */
	items?: number;
	/** Runs before the measured one, in the same process, on the same emulator and credential. */
	before?: { runs: number; items: number; latencyMs: number };
	/** % of the plan the row must reach (TARGET_PERCENT unless given). */
	targetPercent?: number;
}

const SCENARIOS: Scenario[] = [
	{ name: '50 ms', latencyMs: 50, jitterMs: 0, executions: 1 },
	{ name: '300 ± 100 ms', latencyMs: 300, jitterMs: 100, executions: 1 },
	{ name: '600 ms', latencyMs: 600, jitterMs: 0, executions: 1 },
	{ name: '600 ± 200 ms', latencyMs: 600, jitterMs: 200, executions: 1 },
	{ name: '4 executions, 300 ± 100 ms', latencyMs: 300, jitterMs: 100, executions: 4 },
	{
		// The round trips of the runs at 50 ms must not hold the automatic
		// concurrency down when the latency goes up: 25 s at 600 ± 100 ms right after them.
		name: 'latency change: 600 ± 100 ms right after 3 runs of 100 at 50 ms',
		latencyMs: 600,
		jitterMs: 100,
		executions: 1,
		items: 625,
		before: { runs: 3, items: 100, latencyMs: 50 },
		targetPercent: 90,
	},
];

async function control(emulator: BenchEmulator, path: string, body: unknown) {
	const response = await fetch(`${emulator.baseUrl}/__control${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`control ${path}: HTTP ${response.status}`);
}

/** The runs before the measured one (same process, emulator and credential), at their latency. */
async function runBefore(scenario: Scenario, emulator: BenchEmulator, env: TestEnvironment) {
	if (!scenario.before) return;
	const { runs, items } = scenario.before;
	for (let run = 0; run < runs; run++) {
		const start = 1_000_000 + run * items;
		const result = await env.runWorkflow(itemsWorkflow(poItems(items, start), getPoParameters()));
		assertSuccess(result, `${scenario.name}: run ${run + 1} before`);
	}
	await control(emulator, '/latency', { ms: scenario.latencyMs, jitterMs: scenario.jitterMs });
	await emulator.clearRequests();
}

async function attempt(scenario: Scenario, context: BenchContext) {
	const before = scenario.before;
	const emulator = await startBenchEmulator(
		{
			latencyMs: before?.latencyMs ?? scenario.latencyMs,
			latencyJitterMs: before ? 0 : scenario.jitterMs,
			ratePlan: PLAN,
			requestLogLimit: ITEMS * 2,
		},
		context.placement,
	);
	try {
		const env = benchEnvironment(emulator, { requestsPerMinute: REQUESTS_PER_MINUTE });
		await runBefore(scenario, emulator, env);
		const items = scenario.items ?? ITEMS;
		const counter = startConnectionCounter();
		const perExecution = items / scenario.executions;
		const started = Date.now();
		const { value: runs, ms: wallMs } = await timed(
			async () =>
				await Promise.all(
					Array.from({ length: scenario.executions }, async (_, index) => {
						// Default settings: no options at all (automatic concurrency).
						const workflow = itemsWorkflow(
							poItems(perExecution, 1 + index * perExecution),
							getPoParameters(),
						);
						const { value, ms } = await timed(async () => await env.runWorkflow(workflow));
						return { result: value, ms };
					}),
				),
		);
		const connections = counter.stop();
		for (const run of runs) {
			assertSuccess(run.result, `${scenario.name}`);
			const node = nodeRun(run.result);
			if (node.items !== perExecution)
				throw new Error(`expected ${perExecution} output items, got ${node.items}`);
		}

		const arrivals = await emulator.arrivals('GetPurchaseOrder');
		const stats = await emulator.stats();
		const span = arrivalSpan(arrivals);
		const accepted = arrivals.filter((a) => a.status !== 429);
		const endToEnd = (items * 1000) / wallMs;
		// Each execution's throughput as a share of a fair quarter (or all) of the plan.
		const fairShare = CEILING_PER_SECOND / scenario.executions;
		const shares = runs.map(
			(run) => round(((perExecution * 1000) / run.ms / fairShare) * 100, 1) ?? 0,
		);
		return {
			scenario: scenario.name,
			latencyMs: scenario.latencyMs,
			jitterMs: scenario.jitterMs,
			executions: scenario.executions,
			items,
			targetPercent: scenario.targetPercent ?? TARGET_PERCENT,
			wallMs: round(wallMs, 0),
			getRequests: arrivals.length,
			startToFirstRequestMs: span.firstAt - started,
			spanMs: span.spanMs,
			spanPerSecond: round(span.perSecond, 2),
			spanPercentOfCeiling: round((span.perSecond / CEILING_PER_SECOND) * 100, 1) ?? 0,
			endToEndPercentOfCeiling: round((endToEnd / CEILING_PER_SECOND) * 100, 1),
			slowestExecutionShare: Math.min(...shares),
			executionShares: shares,
			// From the log (cleared after the runs before the measured one, the counters are not).
			answers429: arrivals.length - accepted.length,
			logins: stats.logins,
			maxArrivalsInAnyWindow: maxInWindow(arrivals, PLAN.windowMs),
			maxAcceptedArrivalsInAnyWindow: maxInWindow(accepted, PLAN.windowMs),
			transit: transitStats(arrivals, connections.byPath),
			/** When the 429 answers came, ms after the first arrival. */
			rejectedAtMs: arrivals.filter((a) => a.status === 429).map((a) => a.at - span.firstAt),
			loginsAtMs: (await emulator.arrivals('Login')).map((a) => a.at - span.firstAt),
		};
	} finally {
		await emulator.close();
	}
}

export const paced: Benchmark = {
	id: 'paced',
	async run(context): Promise<BenchOutcome> {
		const results = [];
		// BENCH_PACED_ONLY=<regex>: only the scenarios whose name matches (for a quick look).
		const only = process.env.BENCH_PACED_ONLY
			? new RegExp(process.env.BENCH_PACED_ONLY)
			: undefined;
		for (const scenario of SCENARIOS.filter((s) => !only || only.test(s.name))) {
			const items = scenario.items ?? ITEMS;
			context.log(
				`${scenario.name}: ${items} items at ~${CEILING_PER_SECOND}/s, about ${Math.round(items / CEILING_PER_SECOND)} s`,
			);
			const result = await attempt(scenario, context);
			if (result.answers429) {
				context.log(
					`  429 answers at ${result.rejectedAtMs.join(', ')} ms; logins at ${result.loginsAtMs.join(', ')} ms`,
				);
			}
			results.push(result);
		}
		const metrics: Metric[] = [];
		for (const result of results) {
			const met = result.spanPercentOfCeiling >= result.targetPercent && result.answers429 === 0;
			metrics.push({
				name: `${result.scenario}: % of the plan (first→last arrival) / 429 answers`,
				value: `${result.spanPercentOfCeiling} % / ${result.answers429}`,
				target: `>= ${result.targetPercent} % / 0`,
				met,
			});
			if (result.executions > 1) {
				metrics.push({
					name: `${result.scenario}: slowest execution, % of a fair ${result.executions}th of the plan`,
					value: result.slowestExecutionShare,
					unit: '%',
					target: '>= 90 %',
					met: result.slowestExecutionShare >= 90,
				});
			}
		}
		metrics.push({
			name: `most arrivals in any ${PLAN.windowMs} ms, all scenarios`,
			value: Math.max(...results.map((r) => r.maxArrivalsInAnyWindow)),
			target: `<= ${PLAN.limit}`,
			met: results.every((r) => r.maxArrivalsInAnyWindow <= PLAN.limit),
		});
		return {
			metrics,
			details: {
				items: ITEMS,
				emulatorRatePlan: PLAN,
				credentialRequestsPerMinute: REQUESTS_PER_MINUTE,
				ceilingPerSecond: CEILING_PER_SECOND,
				clientPacing:
					'25 per 1010 ms (1500/min in 60 slices, each stretched by 1 %, starts at least 36 ms apart) and 1500 per 60.6 s = 24.75/s = 99.0 % of the ceiling',
				results,
			},
			notes: [
				'Each row: testItems → Seller Platform purchaseOrder/get with no options (automatic concurrency: rate × measured round trip × 1.5 + 2, at most 64), through n8n-core, against a fresh emulator with the given latency (± jitter: uniformly random within the range, per response). The last row starts four executions of 750 items together on one credential.',
				"% of the plan: (requests − 1) / (time between the first and the last GetPurchaseOrder arrival in the emulator log), against 25/s. The client allows 25 per 1,010 ms, so 99.0 % is the most it can reach. 3,000 requests span two of the emulator's 60 s windows: a client faster than the plan gets 429 answers in the second.",
				'Slowest execution: its items / its wall time, against a fair quarter of the plan (6.25/s).',
				'Latency change: one process, one emulator and credential: three executions of 100 items at 50 ms, then the emulator set to 600 ± 100 ms and, right after, the measured execution of 625 items (about 25 s at the plan); the automatic concurrency must follow the new round trips within seconds.',
				"429 answers: the emulator's count (the node waits them out, so runs succeed anyway). The emulator counts a request at receipt, before its latency, as a gateway does.",
			],
		};
	},
};
