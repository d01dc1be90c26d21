/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Stock → Update of a catalog of 1,000,000 rows read straight from a CSV file (Mapping Column Mode
 * Read Rows From a CSV File), the file in n8n's binary data on disk (filesystem mode, n8n's
 * default outside queue mode): the heap the run needs over the baseline (the file made and
 * stored before the baseline), the rows a second, and that every row went exactly once (10,000
 * requests of 100 rows, the rows counted at the emulator). The emulator at a high plan (60,000
 * requests a minute, 20 ms a request) so the run is the node's own work, not the plan's wait;
 * the node's longest hold of the event loop, sampled every 10 ms.
 *
 * `BENCH_CSV_ROWS` shrinks the run for probing (never for the reported figures).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type { IBinaryData, INodeExecutionData } from 'n8n-workflow';

import { useFilesystemBinaryData } from '../helpers';
import { startBenchEmulator } from './emulator';
import {
	assertSuccess,
	benchEnvironment,
	collectGarbage,
	createMemorySampler,
	inputWorkflow,
	mb,
	NODE_NAME,
	round,
	timed,
} from './common';
import type { BenchContext, BenchOutcome, Benchmark } from './types';

const ROWS = Number(process.env.BENCH_CSV_ROWS) || 1_000_000;
/** The package's cap (nodes/SellerPlatform/actions/stock/row.ts MAX_STOCK_ROWS). */
const CAP = 100;
const PLAN = { limit: 60_000, windowMs: 60_000 };
const LATENCY_MS = 20;
const MONITOR_MS = 10;
/** Targets: a small n8n's heap (issue "1,000,000 rows": 1 GB for the whole of n8n). */
const MAX_HEAP_OVER_BASELINE_MB = 150;
const MAX_BLOCK_MS = 100;

const WAREHOUSES = ['WH-DXB-01', 'WH-RUH-02'];

/** The catalog: header, then ROWS rows of warehouse, SKU, quantity and a title to ignore. */
function catalog(rows: number): Buffer {
	const lines = ['warehouse_code,partner_sku,qty,title'];
	for (let n = 0; n < rows; n++)
		lines.push(`${WAREHOUSES[n % 2]},SKU-${String(n).padStart(7, '0')},${n % 1000},"Mug, white"`);
	return Buffer.from(`${lines.join('\n')}\n`);
}

/** The file stored as n8n stores a binary on disk: what a Read Files node hands on. */
async function storedFile(rows: number): Promise<IBinaryData> {
	const data = catalog(rows);
	return await Container.get(BinaryDataService).store(
		{ type: 'execution', workflowId: 'bench', executionId: 'csv' },
		data,
		{ data: '', mimeType: 'text/csv', fileName: 'catalog.csv' },
	);
}

export const csvFile: Benchmark = {
	id: 'csvFile',
	async run(context: BenchContext): Promise<BenchOutcome> {
		const storage = mkdtempSync(join(tmpdir(), 'bench-csv-binary-data-'));
		await useFilesystemBinaryData(storage);
		const emulator = await startBenchEmulator(
			{ latencyMs: LATENCY_MS, ratePlan: PLAN, requestLogLimit: Math.ceil(ROWS / CAP) + 10 },
			context.placement,
		);
		const memorySampler = await createMemorySampler(MONITOR_MS);
		try {
			const env = benchEnvironment(emulator, { requestsPerMinute: PLAN.limit });
			const binary = await storedFile(ROWS);
			context.log(`catalog.csv: ${ROWS} rows, ${binary.fileSize} on disk`);
			const input: INodeExecutionData[] = [{ json: {}, binary: { data: binary } }];
			const parameters = { resource: 'stock', operation: 'update', mappingMode: 'csvFile' };
			collectGarbage();
			const baseline = process.memoryUsage();
			const sampler = memorySampler.start();
			const started = Date.now();
			const { value: result, ms } = await timed(
				async () => await env.runWorkflow(inputWorkflow(parameters), { input }),
			);
			const memory = await sampler.stop();
			assertSuccess(result, 'csvFile run');
			const summary = result.json(NODE_NAME)[0];
			const arrivals = await emulator.arrivals('UpdateStock');
			const rowsArrived = arrivals.reduce((sum, arrival) => sum + (arrival.rows ?? 0), 0);
			const refused = arrivals.filter((arrival) => arrival.status !== 200).length;
			const firstRequestMs = arrivals.length ? arrivals[0].at - started : NaN;
			const heapOverBaseline = mb(memory.peakHeapUsed - baseline.heapUsed) ?? NaN;
			const rssOverBaseline = mb(memory.peakRss - baseline.rss) ?? NaN;
			const rowsPerSecond = Math.round(ROWS / (ms / 1000));
			const block = round(memory.maxSampleGapMs, 0) ?? NaN;
			const exactlyOnce =
				arrivals.length === Math.ceil(ROWS / CAP) && rowsArrived === ROWS && refused === 0;
			return {
				metrics: [
					{ name: 'rows', value: ROWS },
					{
						name: 'requests / rows arrived / answered other than 200',
						value: `${arrivals.length} / ${rowsArrived} / ${refused}`,
						target: `${Math.ceil(ROWS / CAP)} / ${ROWS} / 0`,
						met: exactlyOnce,
					},
					{
						name: 'summary: rows applied',
						value: Number(summary.rowsApplied),
						target: String(ROWS),
						met: summary.rowsApplied === ROWS && summary.rowsFailed === 0,
					},
					{ name: 'end to end', value: round(ms / 1000, 1), unit: 's' },
					{
						name: 'first pass (every row checked) until the first request',
						value: round(firstRequestMs / 1000, 1),
						unit: 's',
					},
					{ name: 'rows per second, end to end', value: rowsPerSecond },
					{
						name: 'heap peak over the baseline',
						value: heapOverBaseline,
						unit: 'MB',
						target: `<= ${MAX_HEAP_OVER_BASELINE_MB}`,
						met: heapOverBaseline <= MAX_HEAP_OVER_BASELINE_MB,
					},
					{
						name: 'live heap peak over the baseline (after a major GC)',
						value: mb(memory.peakLiveHeap - baseline.heapUsed),
						unit: 'MB',
					},
					{ name: 'RSS peak over the baseline', value: rssOverBaseline, unit: 'MB' },
					{
						name: 'longest event-loop block (10 ms samples)',
						value: block,
						unit: 'ms',
						target: `<= ${MAX_BLOCK_MS}`,
						met: block <= MAX_BLOCK_MS,
					},
				],
				details: {
					rows: ROWS,
					fileBytes: binary.bytes,
					plan: PLAN,
					latencyMs: LATENCY_MS,
					wallMs: Math.round(ms),
					firstRequestMs,
					summary,
					baselineHeapMb: mb(baseline.heapUsed),
					peakHeapMb: mb(memory.peakHeapUsed),
					gcTotals: memory.gcTotals,
					longGaps: memory.longGaps.slice(0, 20),
				},
				notes: [
					"The file is made and stored on disk (n8n filesystem mode) before the baseline: the heap measured is the run's own (two passes over the stream, the key hashes in typed arrays outside the heap, the rows of the requests in flight).",
					"The emulator runs at 60,000 requests a minute and 20 ms a request, so the time is the node's reading, checking and sending; at the common plan of 1,500 a minute, the 10,000 requests take 400 s whatever the node does.",
				],
			};
		} finally {
			await memorySampler.close();
			await emulator.close();
			rmSync(storage, { recursive: true, force: true });
		}
	},
};
