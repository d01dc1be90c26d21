/**
 * 1. Paced bulk read: 3,000 purchaseOrder/get items in one execution under a rate plan of 60 per
 * second (emulator `ratePlan { limit: 60, windowMs: 1000 }`, credential `requestsPerMinute: 3600`).
 */
import { startBenchEmulator } from './emulator';
import {
	LATENCY_MS,
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
const PLAN = { limit: 60, windowMs: 1000 };
const REQUESTS_PER_MINUTE = 3600;
const CEILING_PER_SECOND = (PLAN.limit * 1000) / PLAN.windowMs;
const TARGET_PERCENT = 95;

async function attempt(concurrency: number, context: BenchContext) {
	const emulator = await startBenchEmulator(
		{ latencyMs: LATENCY_MS, ratePlan: PLAN },
		context.placement,
	);
	try {
		const env = benchEnvironment(emulator, { requestsPerMinute: REQUESTS_PER_MINUTE });
		const counter = startConnectionCounter();
		const started = Date.now();
		const { value: result, ms: wallMs } = await timed(
			async () =>
				await env.runWorkflow(itemsWorkflow(poItems(ITEMS), getPoParameters(concurrency))),
		);
		const connections = counter.stop();
		assertSuccess(result, `paced run at concurrency ${concurrency}`);
		const node = nodeRun(result);
		if (node.items !== ITEMS) throw new Error(`expected ${ITEMS} output items, got ${node.items}`);

		const arrivals = await emulator.arrivals('GetPurchaseOrder');
		const stats = await emulator.stats();
		const span = arrivalSpan(arrivals);
		const accepted = arrivals.filter((a) => a.status !== 429);
		const rejected = arrivals.filter((a) => a.status === 429);
		const endToEnd = (ITEMS * 1000) / wallMs;
		return {
			concurrency,
			wallMs: round(wallMs, 0),
			nodeExecutionMs: node.executionTimeMs,
			getRequests: arrivals.length,
			startToFirstRequestMs: span.firstAt - started,
			spanMs: span.spanMs,
			spanPerSecond: round(span.perSecond, 2),
			spanPercentOfCeiling: round((span.perSecond / CEILING_PER_SECOND) * 100, 1),
			endToEndPerSecond: round(endToEnd, 2),
			endToEndPercentOfCeiling: round((endToEnd / CEILING_PER_SECOND) * 100, 1),
			answers429: stats.statuses['429'] ?? 0,
			statuses: stats.statuses,
			logins: stats.logins,
			maxArrivalsInAnyWindow: maxInWindow(arrivals, PLAN.windowMs),
			maxAcceptedArrivalsInAnyWindow: maxInWindow(accepted, PLAN.windowMs),
			/** When the 429 answers came, ms after the first arrival. */
			rejectedAtMs: rejected.map((a) => a.at - span.firstAt),
			/** Client http.request start → arrival in the emulator's log (ms). */
			transit: transitStats(arrivals, connections.byPath),
		};
	} finally {
		await emulator.close();
	}
}

export const paced: Benchmark = {
	id: 'paced',
	async run(context): Promise<BenchOutcome> {
		const attempts = [];
		context.log(
			`concurrency 8: ${ITEMS} items at ~${CEILING_PER_SECOND}/s, about ${Math.round(ITEMS / CEILING_PER_SECOND)} s`,
		);
		attempts.push(await attempt(8, context));
		if (
			(attempts[0].spanPercentOfCeiling ?? 0) < TARGET_PERCENT ||
			process.env.BENCH_PACED_16 === '1'
		) {
			context.log(
				`concurrency 8 reached ${attempts[0].spanPercentOfCeiling} % of the ceiling: trying 16`,
			);
			attempts.push(await attempt(16, context));
		}
		// The default concurrency when it reaches the target, else the better of the two.
		const best =
			(attempts[0].spanPercentOfCeiling ?? 0) >= TARGET_PERCENT
				? attempts[0]
				: attempts.reduce((a, b) =>
						(b.spanPercentOfCeiling ?? 0) > (a.spanPercentOfCeiling ?? 0) ? b : a,
					);
		const metrics: Metric[] = [
			{ name: 'concurrency used', value: best.concurrency, target: '8, else 16' },
			{
				name: 'wall time (runWorkflow)',
				value: round(best.wallMs! / 1000, 2),
				unit: 's',
				target: '< 60 s',
				met: best.wallMs! < 60_000,
			},
			{
				name: 'throughput, first→last arrival',
				value: best.spanPerSecond,
				unit: 'req/s',
			},
			{
				name: '… as % of the plan ceiling (60/s)',
				value: best.spanPercentOfCeiling,
				unit: '%',
				target: `>= ${TARGET_PERCENT} %`,
				met: (best.spanPercentOfCeiling ?? 0) >= TARGET_PERCENT,
			},
			{ name: 'throughput, end to end', value: best.endToEndPerSecond, unit: 'req/s' },
			{
				name: '… as % of the plan ceiling (60/s)',
				value: best.endToEndPercentOfCeiling,
				unit: '%',
			},
			{ name: '429 answers', value: best.answers429, target: '0', met: best.answers429 === 0 },
			{
				name: 'request start → emulator arrival p50 / p99 / max',
				value: `${best.transit.p50Ms} / ${best.transit.p99Ms} / ${best.transit.maxMs}`,
				unit: 'ms',
			},
			{
				name: `most arrivals in any ${PLAN.windowMs} ms (accepted only)`,
				value: `${best.maxArrivalsInAnyWindow} (${best.maxAcceptedArrivalsInAnyWindow})`,
				target: `<= ${PLAN.limit}`,
				met: best.maxArrivalsInAnyWindow <= PLAN.limit,
			},
		];
		for (const other of attempts.filter((a) => a !== best)) {
			metrics.push({
				name: `concurrency ${other.concurrency}: % of ceiling (first→last) / 429 answers`,
				value: `${other.spanPercentOfCeiling} % / ${other.answers429}`,
			});
		}
		return {
			metrics,
			details: {
				items: ITEMS,
				latencyMs: LATENCY_MS,
				emulatorRatePlan: PLAN,
				credentialRequestsPerMinute: REQUESTS_PER_MINUTE,
				ceilingPerSecond: CEILING_PER_SECOND,
				clientPacing:
					'60 per 1010 ms (3600/min in 60 slices, each stretched by 1 %) = 59.41/s = 99.0 % of the ceiling',
				attempts,
			},
			notes: [
				'One execution: testItems (3,000 items as a JSON parameter) → Seller Platform purchaseOrder/get, through n8n-core, against the emulator (50 ms per request).',
				'First→last arrival: (requests − 1) / (time between the first and the last GetPurchaseOrder arrival in the emulator request log). End to end: items / wall time of runWorkflow, which includes the login, parsing the items and n8n-core bookkeeping.',
				'The client-side pacing allows 60 requests per 1,010 ms, so 99.0 % of the plan ceiling is the most this configuration can reach.',
				"429 answers: the emulator's count of HTTP 429 (the node waits them out and repeats the request, so the run still succeeds). Most arrivals in any 1,000 ms: the largest number of GetPurchaseOrder requests received in any 1,000 ms by the emulator's receipt times (in brackets: only those not answered 429). The emulator applies its plan after its 50 ms latency, at receipt + 50 ms.",
				"Request start → emulator arrival: from http.client.request.start in this process (n8n-core opening the request, after the limiter granted the slot and n8n resolved the credential) to the receipt time in the emulator log, both Date.now(). The pacing leaves 10 ms of slack per 1,010 ms window; a request that takes longer than that from its grant to the server can push 61 into the server's window.",
			],
		};
	},
};
