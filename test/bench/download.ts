/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * 5. An export of 200 MB downloaded into n8n's binary data (filesystem mode, as n8n keeps binary
 * data by default): the file streams to disk, so the heap must not grow with it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { useFilesystemBinaryData } from '../helpers';
import {
	LATENCY_MS,
	NODE_NAME,
	assertSuccess,
	benchEnvironment,
	collectGarbage,
	createMemorySampler,
	itemsWorkflow,
	mb,
	round,
	timed,
} from './common';
import { startBenchEmulator } from './emulator';
import type { BenchContext, BenchOutcome, Benchmark } from './types';

const SIZE = 200 * 1024 * 1024;
const MAX_HEAP_GROWTH_MB = 50;

export const download: Benchmark = {
	id: 'download',
	async run(context: BenchContext): Promise<BenchOutcome> {
		const storage = mkdtempSync(join(tmpdir(), 'bench-binary-data-'));
		await useFilesystemBinaryData(storage);
		const emulator = await startBenchEmulator(
			{ latencyMs: LATENCY_MS, ratePlan: null },
			context.placement,
		);
		const memorySampler = await createMemorySampler(50);
		try {
			const env = benchEnvironment(emulator);
			const added = (await (
				await fetch(`${emulator.baseUrl}/__control/exports`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ states: ['COMPLETE'], fileSizeBytes: SIZE }),
				})
			).json()) as { export_code: string };
			const parameters = {
				resource: 'export',
				operation: 'getStatus',
				exportCode: added.export_code,
				options: { download: true },
			};
			context.log(`export ${added.export_code}: ${SIZE / 1024 / 1024} MB`);
			collectGarbage();
			const baseline = process.memoryUsage();
			const sampler = memorySampler.start();
			const { value: result, ms } = await timed(
				async () => await env.runWorkflow(itemsWorkflow([{}], parameters)),
			);
			const memory = await sampler.stop();
			assertSuccess(result, 'download run');
			const [item] = result.outputs(NODE_NAME);
			const file = item.binary?.data;
			const heapGrowth = mb(memory.peakHeapUsed - baseline.heapUsed) ?? Infinity;
			return {
				metrics: [
					{
						name: 'file in binary data (bytes, mode)',
						value: `${file?.bytes ?? 0} (${String(file?.data ?? '').split(':')[0] || 'none'})`,
						target: `${SIZE} (filesystem-v2)`,
						met: file?.bytes === SIZE && file?.id !== undefined,
					},
					{ name: 'wall time (runWorkflow)', value: round(ms / 1000, 2), unit: 's' },
					{ name: 'throughput', value: round(SIZE / 1024 / 1024 / (ms / 1000), 1), unit: 'MB/s' },
					{
						name: 'peak heapUsed − baseline',
						value: heapGrowth,
						unit: 'MB',
						target: `<= ${MAX_HEAP_GROWTH_MB} MB`,
						met: heapGrowth <= MAX_HEAP_GROWTH_MB,
					},
					{ name: 'peak rss − baseline', value: mb(memory.peakRss - baseline.rss), unit: 'MB' },
				],
				notes: [
					'The emulator streams generated CSV rows; n8n-core stores them under a temporary binary-data folder (filesystem mode).',
				],
				details: { sizeBytes: SIZE, binary: { ...file, data: undefined }, wallMs: round(ms, 0) },
			};
		} finally {
			await memorySampler.close();
			await emulator.close();
			rmSync(storage, { recursive: true, force: true });
		}
	},
};
