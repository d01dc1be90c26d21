/** 4. Logins: 20 executions of a 50-item purchaseOrder/get workflow sharing one credential store. */
import { startBenchEmulator } from './emulator';
import {
	LATENCY_MS,
	assertSuccess,
	benchEnvironment,
	getPoParameters,
	itemsWorkflow,
	nodeRun,
	poItems,
	round,
	timed,
} from './common';
import type { BenchContext, BenchOutcome, Benchmark, Metric } from './types';

const EXECUTIONS = 20;
const ITEMS = 50;

export const logins: Benchmark = {
	id: 'logins',
	async run(context: BenchContext): Promise<BenchOutcome> {
		const emulator = await startBenchEmulator(
			{ latencyMs: LATENCY_MS, ratePlan: null },
			context.placement,
		);
		try {
			// A plan that does not bind: the default (1,500/min) would pace 50 items to 2 s per execution.
			const env = benchEnvironment(emulator, { requestsPerMinute: 600_000 });
			const executionMs: number[] = [];
			context.log(`${EXECUTIONS} executions`);
			const { ms: totalMs } = await timed(async () => {
				for (let run = 0; run < EXECUTIONS; run++) {
					const { value: result, ms } = await timed(
						async () =>
							await env.runWorkflow(
								itemsWorkflow(poItems(ITEMS, run * ITEMS + 1), getPoParameters(8)),
							),
					);
					assertSuccess(result, `execution ${run + 1}`);
					if (nodeRun(result).items !== ITEMS)
						throw new Error(`execution ${run + 1}: wrong number of items`);
					executionMs.push(round(ms, 0)!);
				}
			});
			const stats = await emulator.stats();
			const metrics: Metric[] = [
				{
					name: 'logins seen by the emulator',
					value: stats.logins,
					target: '1',
					met: stats.logins === 1,
				},
				{
					name: 'preAuthentication calls that returned a session',
					value: `${env.loginCount} (${env.logins.filter((l) => l.reason === 'empty').length} on an empty session, ${env.logins.filter((l) => l.reason === 'expired').length} after a 401)`,
				},
				{
					name: 'GetPurchaseOrder requests',
					value: stats.byOperation.GetPurchaseOrder ?? 0,
					target: String(EXECUTIONS * ITEMS),
					met: stats.byOperation.GetPurchaseOrder === EXECUTIONS * ITEMS,
				},
				{
					name: '401 answers',
					value: stats.statuses['401'] ?? 0,
					target: '0',
					met: (stats.statuses['401'] ?? 0) === 0,
				},
				{
					name: 'first / median execution',
					value: `${executionMs[0]} / ${[...executionMs].sort((a, b) => a - b)[Math.floor(EXECUTIONS / 2)]}`,
					unit: 'ms',
				},
			];
			return {
				metrics,
				details: {
					executions: EXECUTIONS,
					itemsPerExecution: ITEMS,
					latencyMs: LATENCY_MS,
					totalMs: round(totalMs, 0),
					executionMs,
					emulatorStats: stats,
					credentialStoreLogins: env.logins,
				},
				notes: [
					'20 executions one after another in one test environment (one credential store, as one n8n instance), each testItems (50 items) → purchaseOrder/get at concurrency 8, no rate plan, 50 ms latency, credential requestsPerMinute 600,000 (not binding). Logins: successful Login requests counted by the emulator.',
					"n8n calls the credential's preAuthentication for every request that finds no session; the first execution starts 8 requests at once, and the node's shared login makes them wait for one Login request, so the credential store records several preAuthentication results but the emulator sees one login.",
				],
			};
		} finally {
			await emulator.close();
		}
	},
};
