/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * FBPI Order → Get Many with Return All over 10,000 orders of one warehouse: the node follows
 * next_token through 200 pages of 50 (ListFbpiOrders, 50 ms per request, no rate plan). Every
 * order must come out once, in creation order; the heap holds the 10,000 output items and must
 * stay bounded by them.
 */
import { startBenchEmulator } from './emulator';
import {
	LATENCY_MS,
	NODE_NAME,
	assertSuccess,
	benchEnvironment,
	collectGarbage,
	createMemorySampler,
	inputWorkflow,
	mb,
	nodeRun,
	round,
	timed,
} from './common';
import type { BenchContext, BenchOutcome, Benchmark, Metric } from './types';

const ORDERS = 10_000;
const PAGE_SIZE = 50;
const WAREHOUSE = 'WH-BENCH-01';
/** The output items (about 1.5 KB of JSON each, as n8n holds them) and the pages in flight. */
const MAX_HEAP_GROWTH_MB = 100;

export const ordersList: Benchmark = {
	id: 'ordersList',
	async run(context: BenchContext): Promise<BenchOutcome> {
		const emulator = await startBenchEmulator(
			{ latencyMs: LATENCY_MS, ratePlan: null },
			context.placement,
		);
		const memorySampler = await createMemorySampler(50);
		try {
			const env = benchEnvironment(emulator);
			// Two items per order (the usual shape), a second apart, from 2026-01-01 on.
			const added = await emulator.addFbpiOrders({
				warehouseCode: WAREHOUSE,
				count: ORDERS,
				createdAt: '2026-01-01T00:00:00Z',
				items: [{}, {}],
			});
			const parameters = {
				resource: 'fbpiOrder',
				operation: 'getMany',
				warehouseCode: { __rl: true, mode: 'id', value: WAREHOUSE },
				returnAll: true,
			};
			context.log(`${ORDERS} orders → Get Many, Return All`);
			const gc = collectGarbage();
			const baseline = process.memoryUsage();
			const sampler = memorySampler.start();
			const { value: result, ms: wallMs } = await timed(
				async () => await env.runWorkflow(inputWorkflow(parameters)),
			);
			const memory = await sampler.stop();
			assertSuccess(result, 'orders list run');

			const output = result.json(NODE_NAME).map((json) => String(json.fbpi_order_nr));
			const distinct = new Set(output).size;
			const inOrder = JSON.stringify(output) === JSON.stringify(added);
			const pages = await emulator.arrivals('ListFbpiOrders');
			const expectedPages = Math.ceil(ORDERS / PAGE_SIZE);
			const growth = mb(memory.peakHeapUsed - baseline.heapUsed);
			const node = nodeRun(result);
			const metrics: Metric[] = [
				{
					name: 'orders output / distinct',
					value: `${output.length} / ${distinct}`,
					target: `${ORDERS} / ${ORDERS}`,
					met: output.length === ORDERS && distinct === ORDERS,
				},
				{
					name: 'every order once, in creation order',
					value: inOrder ? 'yes' : 'no',
					target: 'yes',
					met: inOrder,
				},
				{
					name: 'ListFbpiOrders requests',
					value: pages.length,
					target: String(expectedPages),
					met: pages.length === expectedPages,
				},
				{ name: 'wall time (runWorkflow)', value: round(wallMs / 1000, 2), unit: 's' },
				{
					name: 'node execution time (n8n)',
					value: round(node.executionTimeMs / 1000, 2),
					unit: 's',
				},
				{
					name: 'peak heapUsed − baseline',
					value: growth,
					unit: 'MB',
					target: `<= ${MAX_HEAP_GROWTH_MB}`,
					met: growth <= MAX_HEAP_GROWTH_MB,
				},
				{ name: 'peak rss − baseline', value: mb(memory.peakRss - baseline.rss), unit: 'MB' },
			];
			return {
				metrics,
				details: {
					orders: ORDERS,
					pageSize: PAGE_SIZE,
					latencyMs: LATENCY_MS,
					emulatorRatePlan: null,
					wallMs: round(wallMs, 0),
					nodeExecutionMs: node.executionTimeMs,
					requests: pages.length,
					statuses: [...new Set(pages.map((p) => p.status))],
					memory: {
						gcExposed: gc,
						baseline: { rss: mb(baseline.rss), heapUsed: mb(baseline.heapUsed) },
						peak: { rss: mb(memory.peakRss), heapUsed: mb(memory.peakHeapUsed) },
						maxSampleGapMs: round(memory.maxSampleGapMs, 0),
						unit: 'MB (2^20 bytes)',
					},
				},
				notes: [
					`One execution, one input item: Seller Platform fbpiOrder/getMany, warehouse ${WAREHOUSE} by code, Return All; the emulator holds ${ORDERS} orders of two items each in that warehouse (added through its control API) and answers pages of ${PAGE_SIZE}.`,
					'The pages are read one after another (each needs the token of the one before), so the wall time is about the pages times the latency.',
					'Memory: process.memoryUsage() of the benchmark process sampled every 50 ms during runWorkflow, against a baseline after a forced GC; the output items themselves are most of it.',
				],
			};
		} finally {
			await memorySampler.close();
			await emulator.close();
		}
	},
};
