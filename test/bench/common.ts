/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/** Pieces shared by the benchmarks: n8n environment, workflows, measurements. */
import diagnosticsChannel from 'node:diagnostics_channel';
import { once } from 'node:events';
import { constants, performance, PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';

import type {
	ICredentialDataDecryptedObject,
	INodeExecutionData,
	INodeParameters,
} from 'n8n-workflow';

import {
	chain,
	createTestEnvironment,
	type TestEnvironment,
	type TestWorkflow,
	type WorkflowResult,
} from '../helpers';
import { credentialFields } from '../emulator';
import type { BenchEmulator } from './emulator';
import type { Arrival } from './emulatorSummary';

export const CREDENTIAL_ID = 'bench';
export const NODE_NAME = 'Seller Platform';
export const LATENCY_MS = 50;

/** An in-process n8n with our node and credential, and a credential for `emulator`. */
export function benchEnvironment(
	emulator: BenchEmulator,
	overrides: ICredentialDataDecryptedObject = {},
): TestEnvironment {
	const env = createTestEnvironment();
	env.addCredential(CREDENTIAL_ID, 'sellerPlatformApi', credentialFields(emulator, overrides));
	return env;
}

/** `testItems` (items as a JSON parameter, as the integration tests do) → our node. */
export function itemsWorkflow(
	items: object[],
	parameters: INodeParameters,
	settings: { continueOnFail?: boolean } = {},
): TestWorkflow {
	return {
		nodes: [
			{ name: 'Items', type: 'testItems', parameters: { items: JSON.stringify(items) } },
			{
				name: NODE_NAME,
				type: 'sellerPlatform',
				parameters,
				credentials: { sellerPlatformApi: CREDENTIAL_ID },
				...settings,
			},
		],
		connections: chain('Items', NODE_NAME),
	};
}

/**
 * `testNoOp` as the start node, fed the items as the execution's input (as a trigger's output
 * would be) → our node. For large inputs: no 100,000-item JSON parameter to parse.
 */
export function inputWorkflow(parameters: INodeParameters): TestWorkflow {
	return {
		nodes: [
			{ name: 'Input', type: 'testNoOp' },
			{
				name: NODE_NAME,
				type: 'sellerPlatform',
				parameters,
				credentials: { sellerPlatformApi: CREDENTIAL_ID },
			},
		],
		connections: chain('Input', NODE_NAME),
	};
}

export const poItems = (count: number, start = 1) =>
	Array.from({ length: count }, (_, i) => ({ po: `PO-BULK-${start + i}` }));

/** purchaseOrder/get; without `concurrency`, the default settings (automatic concurrency). */
export const getPoParameters = (concurrency?: number): INodeParameters => ({
	resource: 'purchaseOrder',
	operation: 'get',
	poNr: '={{ $json.po }}',
	options: concurrency === undefined ? {} : { concurrency },
});

/** n8n's own record of how long the node ran (ms), and how many items it output. */
export function nodeRun(
	result: WorkflowResult,
	name = NODE_NAME,
): { executionTimeMs: number; items: number } {
	const run = result.run.data.resultData.runData[name]?.[0];
	return {
		executionTimeMs: run?.executionTime ?? NaN,
		items: (run?.data?.main?.[0] as INodeExecutionData[] | undefined)?.length ?? 0,
	};
}

/** Fails loudly when an execution did not succeed: a benchmark of a failing run means nothing. */
export function assertSuccess(result: WorkflowResult, what: string): void {
	if (result.status !== 'success') {
		const error = result.error ?? result.nodeError(NODE_NAME);
		throw new Error(
			`${what}: execution ended with status ${result.status}: ${error?.message ?? 'no error'}`,
		);
	}
}

export async function timed<T>(task: () => Promise<T>): Promise<{ value: T; ms: number }> {
	const started = performance.now();
	const value = await task();
	return { value, ms: performance.now() - started };
}

export interface Span {
	count: number;
	firstAt: number;
	lastAt: number;
	spanMs: number;
	/** (count - 1) / span: the rate between the first and the last arrival. */
	perSecond: number;
}

export function arrivalSpan(arrivals: Arrival[]): Span {
	const times = arrivals.map((a) => a.at).sort((a, b) => a - b);
	const firstAt = times[0] ?? NaN;
	const lastAt = times[times.length - 1] ?? NaN;
	const spanMs = lastAt - firstAt;
	return {
		count: times.length,
		firstAt,
		lastAt,
		spanMs,
		perSecond: spanMs > 0 ? ((times.length - 1) * 1000) / spanMs : NaN,
	};
}

/** Largest number of arrivals within any window of `windowMs` (the server's view of the pacing). */
export function maxInWindow(arrivals: Arrival[], windowMs: number): number {
	const times = arrivals.map((a) => a.at).sort((a, b) => a - b);
	let best = 0;
	for (let lo = 0, hi = 0; hi < times.length; hi++) {
		while (times[hi] - times[lo] >= windowMs) lo++;
		best = Math.max(best, hi - lo + 1);
	}
	return best;
}

export type RequestTimes = Map<string, Array<{ start: number; end?: number }>>;

/** Pairs the n-th arrival of a path (by log order) with the n-th request this process sent to it. */
export function matchArrivals(arrivals: Arrival[], byPath: RequestTimes) {
	const seen = new Map<string, number>();
	const pairs: Array<{ arrival: Arrival; times: { start: number; end?: number } }> = [];
	for (const arrival of [...arrivals].sort((a, b) => a.seq - b.seq)) {
		const index = seen.get(arrival.path) ?? 0;
		seen.set(arrival.path, index + 1);
		const times = byPath.get(arrival.path)?.[index];
		if (times) pairs.push({ arrival, times });
	}
	return pairs;
}

/**
 * Time from the client's http.request start to the request's arrival in the emulator's log
 * (Date.now() on both sides, so ms resolution), matched by path.
 */
export function transitStats(arrivals: Arrival[], byPath: RequestTimes) {
	const transit: number[] = [];
	for (const { arrival, times } of matchArrivals(arrivals, byPath))
		transit.push(arrival.at - times.start);
	transit.sort((a, b) => a - b);
	const pick = (q: number) =>
		transit[Math.min(transit.length - 1, Math.floor(q * transit.length))] ?? NaN;
	return {
		matched: transit.length,
		meanMs: round(transit.reduce((t, v) => t + v, 0) / transit.length, 2),
		p50Ms: pick(0.5),
		p99Ms: pick(0.99),
		maxMs: transit[transit.length - 1] ?? NaN,
	};
}

export function countStatuses(arrivals: Arrival[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const a of arrivals) counts[String(a.status)] = (counts[String(a.status)] ?? 0) + 1;
	return counts;
}

export const round = (value: number, digits = 1) =>
	Number.isFinite(value) ? Number(value.toFixed(digits)) : null;
export const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

/** `global.gc`, exposed at run time (no --expose-gc flag needed). */
let gcFunction: (() => void) | undefined;
export function collectGarbage(): boolean {
	if (!gcFunction) {
		try {
			setFlagsFromString('--expose-gc');
			gcFunction = runInNewContext('gc') as () => void;
		} catch {
			return false;
		}
	}
	gcFunction();
	gcFunction();
	return true;
}

export interface MemorySample {
	t: number;
	rss: number;
	heapUsed: number;
	/** The process's CPU time so far (user + system, all threads), ms. */
	cpuMs: number;
}

/** Runs in a worker thread: samples the process's RSS even while the main event loop is blocked. */
const RSS_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
let peak = 0;
let samples = 0;
let timer;
parentPort.on('message', (message) => {
	if (message === 'start') {
		peak = process.memoryUsage.rss();
		samples = 1;
		timer = setInterval(() => {
			peak = Math.max(peak, process.memoryUsage.rss());
			samples++;
		}, workerData.intervalMs);
	} else if (message === 'stop') {
		clearInterval(timer);
		peak = Math.max(peak, process.memoryUsage.rss());
		parentPort.postMessage({ peak, samples: samples + 1 });
	}
});
`;

/** `PerformanceObserver` gc entries' `detail.kind`, by name. */
const GC_KINDS: Record<number, string> = {
	[constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
	[constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
	[constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
	[constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

function gcTotals(gcs: Array<{ ms: number; kind: string }>) {
	const totals: Record<string, { count: number; ms: number; longestMs: number }> = {};
	for (const { ms, kind } of gcs) {
		const total = (totals[kind] ??= { count: 0, ms: 0, longestMs: 0 });
		total.count++;
		total.ms = Math.round(total.ms + ms);
		total.longestMs = Math.max(total.longestMs, Math.round(ms));
	}
	return totals;
}

/**
 * Samples memory every `intervalMs`: `process.memoryUsage()` (rss, heapUsed) on this event loop,
 * and the process's rss from a worker thread too, which keeps sampling while this loop is blocked
 * (heapUsed is per isolate, so only this thread can read it; a late sample shows a blocked loop,
 * and the largest gap between samples is reported). Create it before taking the baseline: the
 * worker's own memory then belongs to the baseline.
 */
export async function createMemorySampler(intervalMs = 50) {
	const worker = new Worker(RSS_WORKER, { eval: true, workerData: { intervalMs } });
	await once(worker, 'online');
	return {
		start() {
			const samples: MemorySample[] = [];
			const started = performance.now();
			/** Heap in use right after each major GC (mark-sweep-compact): the live heap, no garbage. */
			const liveAfterGc: number[] = [];
			/** Every GC of the run: its start (ms from the first sample), its pause, its kind. */
			const gcs: Array<{ at: number; ms: number; kind: string }> = [];
			const record = (entries: Array<{ startTime: number; duration: number }>) => {
				for (const entry of entries) {
					const kind = (entry as { detail?: { kind?: number } }).detail?.kind ?? 0;
					if (kind === constants.NODE_PERFORMANCE_GC_MAJOR)
						liveAfterGc.push(process.memoryUsage().heapUsed);
					const at = entry.startTime - started;
					gcs.push({ at, ms: entry.duration, kind: GC_KINDS[kind] ?? `kind ${kind}` });
				}
			};
			const gcObserver = new PerformanceObserver((list) => record(list.getEntries()));
			gcObserver.observe({ entryTypes: ['gc'] });
			const startedAt = Date.now();
			const sample = () => {
				const { rss, heapUsed } = process.memoryUsage();
				const { user, system } = process.cpuUsage();
				samples.push({
					t: performance.now() - started,
					rss,
					heapUsed,
					cpuMs: (user + system) / 1000,
				});
			};
			worker.postMessage('start');
			sample();
			const timer = setInterval(sample, intervalMs);
			return {
				async stop() {
					clearInterval(timer);
					record(gcObserver.takeRecords());
					gcObserver.disconnect();
					sample();
					const [fromWorker] = (
						await Promise.all([once(worker, 'message'), worker.postMessage('stop')])
					)[0] as [{ peak: number; samples: number }];
					await worker.terminate();
					let maxGap = 0;
					/**
					 * Each gap's CPU time (the whole process's: near the gap, the loop ran; far under it,
					 * the machine gave the process no core) and GC pauses by kind (the rest: JavaScript).
					 */
					const longGaps: Array<{
						fromMs: number;
						gapMs: number;
						cpuMs: number;
						gc: Record<string, number>;
					}> = [];
					for (let i = 1; i < samples.length; i++) {
						const [from, to] = [samples[i - 1].t, samples[i].t];
						maxGap = Math.max(maxGap, to - from);
						if (to - from < 4 * intervalMs) continue;
						// The GC pauses inside the gap, ms by kind: the rest of it is JavaScript.
						const gc: Record<string, number> = {};
						for (const { at, ms, kind } of gcs) {
							const inside = Math.min(to, at + ms) - Math.max(from, at);
							if (inside > 0) gc[kind] = Math.round((gc[kind] ?? 0) + inside);
						}
						const cpuMs = Math.round(samples[i].cpuMs - samples[i - 1].cpuMs);
						longGaps.push({ fromMs: Math.round(from), gapMs: Math.round(to - from), cpuMs, gc });
					}
					const mainPeakRss = Math.max(...samples.map((s) => s.rss));
					return {
						startedAt,
						/** `performance.now()` at the first sample: `longGaps[].fromMs` counts from it. */
						startedPerf: started,
						/** The most heap in use after a major GC (live objects), or NaN without one. */
						peakLiveHeap: liveAfterGc.length ? Math.max(...liveAfterGc) : NaN,
						majorGcs: liveAfterGc.length,
						/** GC pauses of the run by kind: count and total ms. */
						gcTotals: gcTotals(gcs),
						samples: samples.length,
						workerSamples: fromWorker.samples,
						peakRss: Math.max(mainPeakRss, fromWorker.peak),
						mainThreadPeakRss: mainPeakRss,
						peakHeapUsed: Math.max(...samples.map((s) => s.heapUsed)),
						/** Every sample (`t`: ms from the first). */
						series: samples,
						maxSampleGapMs: maxGap,
						longGaps,
					};
				},
			};
		},
		async close() {
			await worker.terminate();
		},
	};
}

/**
 * Watches this process's HTTP client through Node's diagnostics channels: outgoing TCP connections
 * (`net.client.socket`), requests (`http.client.request.start`) and their round trips until the
 * response ended (`http.client.response.finish`), as the client sees them.
 */
export function startConnectionCounter() {
	const counts = { sockets: 0, requests: 0 };
	const started = new WeakMap<object, number>();
	/**
	 * Per request path, in order: Date.now() at request start and at response end (for matching
	 * with the emulator's arrivals; a repeated request adds a second entry).
	 */
	const byPath = new Map<string, Array<{ start: number; end?: number }>>();
	const timesOf = new WeakMap<object, { start: number; end?: number }>();
	let roundTripMs = 0;
	let finished = 0;
	let firstStart = Infinity;
	let lastFinish = -Infinity;
	const onSocket = () => counts.sockets++;
	const onRequest = (message: unknown) => {
		counts.requests++;
		const now = performance.now();
		firstStart = Math.min(firstStart, now);
		const request = (message as { request: { path?: string } }).request;
		started.set(request, now);
		if (request.path) {
			const times = { start: Date.now() };
			timesOf.set(request, times);
			const list = byPath.get(request.path);
			if (list) list.push(times);
			else byPath.set(request.path, [times]);
		}
	};
	const onFinish = (message: unknown) => {
		const request = (message as { request: { path?: string } }).request;
		const at = started.get(request);
		if (at === undefined) return;
		const times = timesOf.get(request);
		if (times) times.end = Date.now();
		const now = performance.now();
		roundTripMs += now - at;
		finished++;
		lastFinish = Math.max(lastFinish, now);
	};
	diagnosticsChannel.subscribe('net.client.socket', onSocket);
	diagnosticsChannel.subscribe('http.client.request.start', onRequest);
	diagnosticsChannel.subscribe('http.client.response.finish', onFinish);
	return {
		stop() {
			diagnosticsChannel.unsubscribe('net.client.socket', onSocket);
			diagnosticsChannel.unsubscribe('http.client.request.start', onRequest);
			diagnosticsChannel.unsubscribe('http.client.response.finish', onFinish);
			return {
				...counts,
				/** Mean time from a request's start to the end of its response. */
				meanRoundTripMs: finished ? roundTripMs / finished : NaN,
				/** From the first request's start to the last response's end. */
				busyMs: lastFinish - firstStart,
				/** `performance.now()` at the first request's start and at the last response's end. */
				firstStartAt: firstStart,
				lastFinishAt: lastFinish,
				byPath,
			};
		},
	};
}
