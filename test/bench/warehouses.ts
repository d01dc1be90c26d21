/**
 * ListWarehouses within its own plan: 30 executions of Warehouse → Get Many started together,
 * and 30 editors opening the warehouse list (searchWarehouses) at the same time, one credential.
 * ListWarehouses' plan (30 per 60 s, at most 15 in any 30 s, per project) is the emulator's for
 * that operation: every request above it is answered 429.
 */
import { listSearch } from '../helpers';
import { startBenchEmulator } from './emulator';
import {
	CREDENTIAL_ID,
	LATENCY_MS,
	assertSuccess,
	benchEnvironment,
	countStatuses,
	itemsWorkflow,
	maxInWindow,
	nodeRun,
	round,
	timed,
} from './common';
import type { BenchContext, BenchOutcome, Benchmark, Metric } from './types';

const EXECUTIONS = 30;
const SEARCHES = 30;
/** The seeded warehouses of a project: one page each. */
const WAREHOUSES = 5;
const PLAN = { requests: 30, windowMs: 60_000, burst: 15, burstWindowMs: 30_000 };

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)];

export const warehouses: Benchmark = {
	id: 'warehouses',
	async run(context: BenchContext): Promise<BenchOutcome> {
		// The default plan, and ListWarehouses' own (test/emulator/endpoints.ts).
		const emulator = await startBenchEmulator({ latencyMs: LATENCY_MS }, context.placement);
		try {
			const env = benchEnvironment(emulator);
			const parameters = { resource: 'warehouse', operation: 'getMany', returnAll: true };
			context.log(`${EXECUTIONS} executions and ${SEARCHES} list searches at once`);
			const executions = Array.from({ length: EXECUTIONS }, async (_, run) => {
				const { value: result, ms } = await timed(
					async () => await env.runWorkflow(itemsWorkflow([{}], parameters)),
				);
				assertSuccess(result, `execution ${run + 1}`);
				if (nodeRun(result).items !== WAREHOUSES)
					throw new Error(`execution ${run + 1}: ${nodeRun(result).items} warehouses`);
				return ms;
			});
			const searches = Array.from({ length: SEARCHES }, async (_, call) => {
				const { value: result, ms } = await timed(
					async () =>
						await listSearch(env, {
							method: 'searchWarehouses',
							credentials: { sellerPlatformApi: CREDENTIAL_ID },
						}),
				);
				if (result.results.length !== WAREHOUSES)
					throw new Error(`search ${call + 1}: ${result.results.length} warehouses`);
				return ms;
			});
			const { value, ms: totalMs } = await timed(
				async () => await Promise.all([Promise.all(executions), Promise.all(searches)]),
			);
			const [executionMs, searchMs] = value;
			const arrivals = await emulator.arrivals('ListWarehouses');
			const statuses = countStatuses(arrivals);
			const inWindow = maxInWindow(arrivals, PLAN.windowMs);
			const inBurst = maxInWindow(arrivals, PLAN.burstWindowMs);
			const metrics: Metric[] = [
				{
					name: 'ListWarehouses requests (executions + one shared list read)',
					value: arrivals.length,
					target: String(EXECUTIONS + 1),
					met: arrivals.length === EXECUTIONS + 1,
				},
				{
					name: 'most in any 60 s, counted by the emulator',
					value: inWindow,
					target: `<= ${PLAN.requests}`,
					met: inWindow <= PLAN.requests,
				},
				{
					name: 'most in any 30 s, counted by the emulator',
					value: inBurst,
					target: `<= ${PLAN.burst}`,
					met: inBurst <= PLAN.burst,
				},
				{
					name: '429 answers',
					value: statuses['429'] ?? 0,
					target: '0',
					met: (statuses['429'] ?? 0) === 0,
				},
				{
					name: 'executions finished / searches answered',
					value: `${executionMs.length} / ${searchMs.length}`,
					target: `${EXECUTIONS} / ${SEARCHES}`,
					met: executionMs.length === EXECUTIONS && searchMs.length === SEARCHES,
				},
				{
					name: 'executions: fastest / median / slowest',
					value: `${round(sorted(executionMs)[0] / 1000)} / ${round(median(executionMs) / 1000)} / ${round(sorted(executionMs)[EXECUTIONS - 1] / 1000)}`,
					unit: 's',
				},
				{
					name: 'searches: median / slowest',
					value: `${round(median(searchMs) / 1000)} / ${round(sorted(searchMs)[SEARCHES - 1] / 1000)}`,
					unit: 's',
				},
			];
			return {
				metrics,
				details: {
					executions: EXECUTIONS,
					searches: SEARCHES,
					latencyMs: LATENCY_MS,
					plan: PLAN,
					totalMs: round(totalMs, 0),
					executionMs: executionMs.map((ms) => round(ms, 0)),
					searchMs: searchMs.map((ms) => round(ms, 0)),
					statuses,
					arrivalsAt: arrivals.map((a) => a.at - (arrivals[0]?.at ?? 0)),
				},
				notes: [
					`${EXECUTIONS} executions (testItems, one item → Warehouse → Get Many, Return All; the project has ${WAREHOUSES} warehouses, one page) and ${SEARCHES} calls of the searchWarehouses list search (as n8n calls it for an editor: LoadOptionsContext), all started at once in one test environment with one credential, ${LATENCY_MS} ms latency. The emulator answers ListWarehouses above 30 per 60 s or 15 per 30 s (sliding, per project) with 429.`,
					'Each execution sends its own request (Get Many reads the list as it is now); the list searches share one read, kept per credential. The shared layer paces ListWarehouses by its own plan, spread evenly: one request every 2 s, so the last of 31 requests leaves about 60 s after the first.',
				],
			};
		} finally {
			await emulator.close();
		}
	},
};
