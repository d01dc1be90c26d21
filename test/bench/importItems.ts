/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * 3. Barcode import from 100,000 input items: 10 CreateBarcodeImport requests of 10,000
 * mappings; wall time and memory of the benchmark process (the emulator runs in its own).
 */
import { startBenchEmulator } from './emulator';
import {
	LATENCY_MS,
	NODE_NAME,
	assertSuccess,
	benchEnvironment,
	collectGarbage,
	inputWorkflow,
	mb,
	nodeRun,
	round,
	createMemorySampler,
	timed,
} from './common';
import { profiled, type AllocationSummary, type ProfileSummary } from './profile';
import type { BenchContext, BenchOutcome, Benchmark, Metric } from './types';

const ITEMS = 100_000;
const EXPECTED_IMPORTS = 10;

export const importItems: Benchmark = {
	id: 'import',
	async run(context: BenchContext): Promise<BenchOutcome> {
		const emulator = await startBenchEmulator(
			{ latencyMs: LATENCY_MS, ratePlan: null },
			context.placement,
		);
		let closeSampler = async () => {};
		try {
			const env = benchEnvironment(emulator);
			const reference = `bench-${Date.now().toString(36)}`;
			const parameters = {
				resource: 'import',
				operation: 'createBarcode',
				source: 'items',
				itemsInput: 'fromInputItems',
				partnerSkuField: 'sku',
				barcodeField: 'ean',
				clientReference: reference,
			};

			const memorySampler = await createMemorySampler(50);
			closeSampler = memorySampler.close;
			const gc = collectGarbage();
			const baseline = process.memoryUsage();
			const input = Array.from({ length: ITEMS }, (_, i) => ({
				json: { sku: `SKU-${String(i + 1).padStart(6, '0')}`, ean: String(4_000_000_000_000 + i) },
			}));
			collectGarbage();
			const withInput = process.memoryUsage();

			context.log(`${ITEMS} items → ${EXPECTED_IMPORTS} imports`);
			const sampler = memorySampler.start();
			const started = Date.now();
			const { value: result, ms: wallMs } = await timed(
				async () => await env.runWorkflow(inputWorkflow(parameters), { input }),
			);
			const memory = await sampler.stop();
			assertSuccess(result, 'import run');

			const output = result.json(NODE_NAME);
			const node = nodeRun(result);
			const arrivals = await emulator.arrivals('CreateBarcodeImport');
			const stats = await emulator.stats();
			const imports = await emulator.imports();
			const references = arrivals.map((a) => a.clientReference ?? '(none)');
			const expectedReferences = Array.from(
				{ length: EXPECTED_IMPORTS },
				(_, i) => `${reference}-${i + 1}`,
			);
			const referencesOk = JSON.stringify(references) === JSON.stringify(expectedReferences);
			const mappingsSent = arrivals.reduce((total, a) => total + (a.mappings ?? 0), 0);
			const outputRefs = output.map((o) => String(o.client_reference ?? o.import_reference ?? ''));
			const answered = arrivals.map((a) => a.status);

			let profile: ProfileSummary | undefined;
			let allocations: AllocationSummary | undefined;
			if (context.profile) {
				context.log('profiling one more run, CPU and allocations (not part of the figures)');
				const again = { ...parameters, clientReference: `${reference}-p` };
				({ profile, allocations } = await profiled(
					'import',
					async () => await env.runWorkflow(inputWorkflow(again), { input }),
					{ allocations: true },
				));
			}

			const metrics: Metric[] = [
				{ name: 'wall time (runWorkflow)', value: round(wallMs / 1000, 2), unit: 's' },
				{
					name: 'node execution time (n8n)',
					value: round(node.executionTimeMs / 1000, 2),
					unit: 's',
				},
				{
					name: 'CreateBarcodeImport requests',
					value: arrivals.length,
					target: String(EXPECTED_IMPORTS),
					met: arrivals.length === EXPECTED_IMPORTS,
				},
				{
					name: 'client_references',
					value: `${references[0]} … ${references[references.length - 1]}`,
					target: `${reference}-1..-${EXPECTED_IMPORTS}, in order`,
					met: referencesOk,
				},
				{
					name: 'mappings sent / output items',
					value: `${mappingsSent} / ${output.length}`,
					target: `${ITEMS} / ${EXPECTED_IMPORTS}`,
					met: mappingsSent === ITEMS && output.length === EXPECTED_IMPORTS,
				},
				{ name: 'peak rss − baseline', value: mb(memory.peakRss - baseline.rss), unit: 'MB' },
				{
					name: 'peak heapUsed − baseline',
					value: mb(memory.peakHeapUsed - baseline.heapUsed),
					unit: 'MB',
				},
				{
					name: 'absolute peak rss / heapUsed',
					value: `${mb(memory.peakRss)} / ${mb(memory.peakHeapUsed)}`,
					unit: 'MB',
				},
				{
					name: 'of which the 100,000 input items (heapUsed)',
					value: mb(withInput.heapUsed - baseline.heapUsed),
					unit: 'MB',
				},
				{
					name: 'longest gap between 50 ms samples',
					value: round(memory.maxSampleGapMs, 0),
					unit: 'ms',
				},
			];
			return {
				metrics,
				details: {
					items: ITEMS,
					latencyMs: LATENCY_MS,
					emulatorRatePlan: null,
					clientReference: reference,
					wallMs: round(wallMs, 0),
					nodeExecutionMs: node.executionTimeMs,
					startToFirstImportMs: arrivals.length ? arrivals[0].at - started : null,
					importRequests: arrivals.map((a) => ({
						clientReference: a.clientReference,
						mappings: a.mappings,
						bodyBytes: a.bodyBytes,
						status: a.status,
						msAfterStart: a.at - started,
					})),
					answeredStatuses: answered,
					outputClientReferences: outputRefs,
					outputPairedItemsPerImport: result
						.outputs(NODE_NAME)
						.map((o) => (Array.isArray(o.pairedItem) ? o.pairedItem.length : 1)),
					emulatorImports: imports.length,
					logins: stats.logins,
					...(profile ? { profile, allocations } : {}),
					memory: {
						gcExposed: gc,
						baseline: { rss: mb(baseline.rss), heapUsed: mb(baseline.heapUsed) },
						afterBuildingInput: { rss: mb(withInput.rss), heapUsed: mb(withInput.heapUsed) },
						peak: { rss: mb(memory.peakRss), heapUsed: mb(memory.peakHeapUsed) },
						peakMinusBaseline: {
							rss: mb(memory.peakRss - baseline.rss),
							heapUsed: mb(memory.peakHeapUsed - baseline.heapUsed),
						},
						peakMinusInput: {
							rss: mb(memory.peakRss - withInput.rss),
							heapUsed: mb(memory.peakHeapUsed - withInput.heapUsed),
						},
						samples: memory.samples,
						workerRssSamples: memory.workerSamples,
						mainThreadPeakRss: mb(memory.mainThreadPeakRss),
						maxSampleGapMs: round(memory.maxSampleGapMs, 0),
						gapsOver200ms: memory.longGaps.map((g) => ({
							...g,
							fromMs: g.fromMs + (memory.startedAt - started),
						})),
						unit: 'MB (2^20 bytes)',
					},
				},
				notes: [
					'One execution: a testNoOp start node receives the 100,000 items as the execution input (as a trigger would output them) → Seller Platform import/createBarcode, source items, fromInputItems, partnerSkuField sku, barcodeField ean.',
					'Memory: process.memoryUsage() of the benchmark process (a fresh process holding n8n-core and our node; the emulator runs in another process) sampled every 50 ms during runWorkflow. Baseline: after a forced GC, before the input items were built; the input items alone are shown separately (measured after building them and a forced GC).',
					'rss is also sampled every 50 ms from a worker thread, which keeps sampling while the main event loop is blocked; heapUsed can only be read on the main thread, so a heap peak inside a blocked stretch is not seen. A main-thread sample arriving late means the loop was blocked; the longest gap is reported.',
				],
			};
		} finally {
			await closeSampler();
			await emulator.close();
		}
	},
};
