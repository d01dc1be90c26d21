/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * 2. Overhead vs a plain HTTP loop: 2,000 purchaseOrder/get at concurrency 8, no rate plan, the
 * node against a plain keep-alive `http.request` loop with 8 workers, same emulator, same run.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

import { buildUrl } from '../../dist/nodes/shared/gateway/url';
import { USER_AGENT } from '../../dist/nodes/shared/common/constants';
import { startBenchEmulator, type BenchEmulator } from './emulator';
import {
	CREDENTIAL_ID,
	LATENCY_MS,
	arrivalSpan,
	assertSuccess,
	benchEnvironment,
	getPoParameters,
	matchArrivals,
	itemsWorkflow,
	nodeRun,
	poItems,
	round,
	startConnectionCounter,
	timed,
} from './common';
import { plainLoop } from './plainLoop';
import { profiled, type ProfileSummary } from './profile';
import type { BenchContext, BenchOutcome, Benchmark, Metric } from './types';

const REQUESTS = 2000;
const CONCURRENCY = 8;
const WARM_UP = 100;
/** Requests of the supplementary plain loop without keep-alive. */
const NO_KEEP_ALIVE_REQUESTS = 500;
const TARGET_RATIO = 0.8;
/** ABBA: a drift of the machine's speed during the run weighs on both sides equally. */
const ORDER = ['plain', 'node', 'node', 'plain'] as const;

interface Phase {
	kind: 'plain' | 'node' | 'plain-no-keep-alive';
	requests: number;
	/** plain: the loop; node: runWorkflow (testItems + our node + n8n-core bookkeeping). */
	wallMs: number;
	/** node only: n8n's executionTime of the Seller Platform node run. */
	nodeExecutionMs?: number;
	/** From the start of the phase to the first request's arrival at the emulator. */
	startToFirstArrivalMs: number;
	arrivalSpanMs: number;
	arrivalsPerSecond: number;
	perSecond: number;
	/** CPU time of this (the benchmark) process during the phase, per request. */
	cpuMsPerRequest: number;
	/** CPU time of the emulator's process during the phase, per request. */
	emulatorCpuMsPerRequest: number | null;
	tcpConnections: number;
	httpRequests: number;
	/**
	 * Per request and worker, from the first request's start to the last response's end:
	 * concurrency × that time / requests. The ideal is the emulator's latency.
	 */
	cycleMs: number;
	/** Mean time from http.request start to the end of the response, as the client sees it. */
	roundTripMs: number;
	/** cycleMs − roundTripMs: time a worker spends between one response and its next request. */
	betweenRequestsMs: number;
	/** monitorEventLoopDelay (1 ms resolution, the resolution subtracted) during the phase. */
	eventLoopDelayMs: { mean: number; p50: number; p99: number; max: number };
	/** Of the round trip: request start → arrival in the emulator's log (Date.now() on both sides). */
	toEmulatorMs: number;
	/** Of the round trip: arrival in the emulator's log → end of the response at the client. */
	fromEmulatorMs: number;
}

async function measure(
	emulator: BenchEmulator,
	kind: Phase['kind'],
	task: () => Promise<{ wallMs: number; nodeExecutionMs?: number }>,
	requests = REQUESTS,
): Promise<Phase> {
	await emulator.clearRequests();
	const startedAt = Date.now();
	const emulatorCpuBefore =
		emulator.placement === 'separate-process' ? await emulator.cpuUsage() : undefined;
	const counter = startConnectionCounter();
	const loopDelay = monitorEventLoopDelay({ resolution: 1 });
	loopDelay.enable();
	const cpuBefore = process.cpuUsage();
	const { wallMs, nodeExecutionMs } = await task();
	const cpu = process.cpuUsage(cpuBefore);
	loopDelay.disable();
	const connections = counter.stop();
	const emulatorCpuAfter = emulatorCpuBefore ? await emulator.cpuUsage() : undefined;
	const arrivals = await emulator.arrivals('GetPurchaseOrder');
	if (arrivals.length !== requests)
		throw new Error(`${kind}: expected ${requests} requests, the emulator saw ${arrivals.length}`);
	const bad = arrivals.filter((a) => a.status !== 200).length;
	if (bad) throw new Error(`${kind}: ${bad} requests were not answered 200`);
	const span = arrivalSpan(arrivals);
	let to = 0;
	let back = 0;
	let matched = 0;
	for (const { arrival, times } of matchArrivals(arrivals, connections.byPath)) {
		if (times.end === undefined) continue;
		to += arrival.at - times.start;
		back += times.end - arrival.at;
		matched++;
	}
	const perRequest = (micros: number) => round(micros / 1000 / requests, 3)!;
	return {
		kind,
		requests,
		wallMs: round(wallMs, 0)!,
		nodeExecutionMs,
		startToFirstArrivalMs: span.firstAt - startedAt,
		arrivalSpanMs: span.spanMs,
		arrivalsPerSecond: round(span.perSecond, 1)!,
		perSecond: round((requests * 1000) / (nodeExecutionMs ?? wallMs), 1)!,
		cpuMsPerRequest: perRequest(cpu.user + cpu.system),
		emulatorCpuMsPerRequest:
			emulatorCpuBefore && emulatorCpuAfter
				? perRequest(
						emulatorCpuAfter.user -
							emulatorCpuBefore.user +
							emulatorCpuAfter.system -
							emulatorCpuBefore.system,
					)
				: null,
		tcpConnections: connections.sockets,
		httpRequests: connections.requests,
		cycleMs: round((CONCURRENCY * connections.busyMs) / requests, 2)!,
		roundTripMs: round(connections.meanRoundTripMs, 2)!,
		betweenRequestsMs: round(
			(CONCURRENCY * connections.busyMs) / requests - connections.meanRoundTripMs,
			2,
		)!,
		eventLoopDelayMs: {
			mean: round(loopDelay.mean / 1e6 - 1, 2)!,
			p50: round(loopDelay.percentile(50) / 1e6 - 1, 2)!,
			p99: round(loopDelay.percentile(99) / 1e6 - 1, 2)!,
			max: round(loopDelay.max / 1e6 - 1, 2)!,
		},
		toEmulatorMs: round(to / matched, 2)!,
		fromEmulatorMs: round(back / matched, 2)!,
	};
}

const mean = (phases: Phase[], pick: (p: Phase) => number) =>
	round(sum(phases, pick) / phases.length, 2);
const sum = (phases: Phase[], pick: (p: Phase) => number) =>
	phases.reduce((total, p) => total + pick(p), 0);

export const overhead: Benchmark = {
	id: 'overhead',
	async run(context: BenchContext): Promise<BenchOutcome> {
		const emulator = await startBenchEmulator(
			{ latencyMs: LATENCY_MS, ratePlan: null },
			context.placement,
		);
		try {
			const env = benchEnvironment(emulator, { requestsPerMinute: 600_000 });
			const parameters = getPoParameters(CONCURRENCY);
			const items = poItems(REQUESTS);
			const urls = items.map((item) =>
				buildUrl(emulator.baseUrl, 'GetPurchaseOrder', { po_nr: item.po }),
			);

			// Warm-up: logs in (so the plain loop can use the node's session), JIT-compiles both paths.
			const warm = await env.runWorkflow(itemsWorkflow(poItems(WARM_UP, 900_001), parameters));
			assertSuccess(warm, 'warm-up');
			const cookie = String(env.credentialData(CREDENTIAL_ID).sessionCookie ?? '');
			if (!cookie) throw new Error('no session cookie after the warm-up run');
			const headers = { Accept: 'application/json', 'User-Agent': USER_AGENT, Cookie: cookie };
			await plainLoop(urls.slice(0, WARM_UP), headers, CONCURRENCY);

			const runPlain =
				(keepAlive: boolean, count = REQUESTS) =>
				async () => {
					const result = await plainLoop(urls.slice(0, count), headers, CONCURRENCY, keepAlive);
					if (result.failures) throw new Error(`plain loop: ${result.failures} requests failed`);
					return { wallMs: result.wallMs };
				};
			const runNode = async () => {
				const { value: result, ms } = await timed(
					async () => await env.runWorkflow(itemsWorkflow(items, parameters)),
				);
				assertSuccess(result, 'node run');
				const node = nodeRun(result);
				if (node.items !== REQUESTS) throw new Error(`node run: ${node.items} output items`);
				return { wallMs: ms, nodeExecutionMs: node.executionTimeMs };
			};

			const phases: Phase[] = [];
			for (const kind of ORDER) {
				context.log(`${kind}: ${REQUESTS} requests`);
				phases.push(await measure(emulator, kind, kind === 'plain' ? runPlain(true) : runNode));
			}
			context.log(`plain without keep-alive (supplementary): ${NO_KEEP_ALIVE_REQUESTS} requests`);
			const noKeepAlive = await measure(
				emulator,
				'plain-no-keep-alive',
				runPlain(false, NO_KEEP_ALIVE_REQUESTS),
				NO_KEEP_ALIVE_REQUESTS,
			);
			let profiles: Record<string, ProfileSummary> | undefined;
			if (context.profile) {
				context.log(
					'profiling one more node run and one more plain loop (not part of the figures)',
				);
				profiles = {
					node: (await profiled('overhead-node', runNode)).profile,
					plain: (await profiled('overhead-plain', runPlain(true))).profile,
				};
			}
			const stats = await emulator.stats();

			const plain = phases.filter((p) => p.kind === 'plain');
			const node = phases.filter((p) => p.kind === 'node');
			const plainRate = (sum(plain, (p) => p.requests) * 1000) / sum(plain, (p) => p.wallMs);
			const nodeRate = (sum(node, (p) => p.requests) * 1000) / sum(node, (p) => p.nodeExecutionMs!);
			const nodeWorkflowRate = (sum(node, (p) => p.requests) * 1000) / sum(node, (p) => p.wallMs);
			const spanRate = (phases: Phase[]) =>
				(sum(phases, (p) => p.requests - 1) * 1000) / sum(phases, (p) => p.arrivalSpanMs);
			const ratio = nodeRate / plainRate;
			const metrics: Metric[] = [
				{ name: 'plain loop (keep-alive, 8 workers)', value: round(plainRate, 1), unit: 'req/s' },
				{ name: 'node (n8n executionTime of the node)', value: round(nodeRate, 1), unit: 'req/s' },
				{
					name: 'ratio node / plain',
					value: round(ratio, 3),
					target: `>= ${TARGET_RATIO}`,
					met: ratio >= TARGET_RATIO,
				},
				{
					name: 'node, whole workflow (runWorkflow wall)',
					value: round(nodeWorkflowRate, 1),
					unit: 'req/s',
				},
				{ name: 'ratio, whole workflow / plain', value: round(nodeWorkflowRate / plainRate, 3) },
				{
					name: 'ratio, first→last arrival rates',
					value: round(spanRate(node) / spanRate(plain), 3),
				},
				{
					name: 'CPU per request, node / plain',
					value: `${round(sum(node, (p) => p.cpuMsPerRequest) / node.length, 3)} / ${round(sum(plain, (p) => p.cpuMsPerRequest) / plain.length, 3)}`,
					unit: 'ms',
				},
				{
					name: 'per request: cycle = round trip + between requests, node',
					value: `${mean(node, (p) => p.cycleMs)} = ${mean(node, (p) => p.roundTripMs)} + ${mean(node, (p) => p.betweenRequestsMs)}`,
					unit: 'ms',
				},
				{
					name: '… plain',
					value: `${mean(plain, (p) => p.cycleMs)} = ${mean(plain, (p) => p.roundTripMs)} + ${mean(plain, (p) => p.betweenRequestsMs)}`,
					unit: 'ms',
				},
				{
					name: 'round trip = to emulator + back, node / plain',
					value: `${mean(node, (p) => p.toEmulatorMs)} + ${mean(node, (p) => p.fromEmulatorMs)} / ${mean(plain, (p) => p.toEmulatorMs)} + ${mean(plain, (p) => p.fromEmulatorMs)}`,
					unit: 'ms',
				},
				{
					name: 'event loop delay mean / p99, node / plain',
					value: `${mean(node, (p) => p.eventLoopDelayMs.mean)} / ${mean(node, (p) => p.eventLoopDelayMs.p99)} / ${mean(plain, (p) => p.eventLoopDelayMs.mean)} / ${mean(plain, (p) => p.eventLoopDelayMs.p99)}`,
					unit: 'ms',
				},
				{
					name: 'TCP connections per run, node / plain',
					value: `${node.map((p) => p.tcpConnections).join('+')} / ${plain.map((p) => p.tcpConnections).join('+')}`,
				},
				{
					name: 'plain loop without keep-alive (supplementary)',
					value: noKeepAlive.perSecond,
					unit: 'req/s',
				},
			];
			return {
				metrics,
				details: {
					requests: REQUESTS,
					concurrency: CONCURRENCY,
					latencyMs: LATENCY_MS,
					emulatorRatePlan: null,
					credentialRequestsPerMinute: 600_000,
					order: [...ORDER, 'plain-no-keep-alive'],
					idealPerSecond: (CONCURRENCY * 1000) / LATENCY_MS,
					plainPerSecond: round(plainRate, 2),
					nodePerSecond: round(nodeRate, 2),
					nodeWorkflowPerSecond: round(nodeWorkflowRate, 2),
					ratio: round(ratio, 4),
					ratioWorkflow: round(nodeWorkflowRate / plainRate, 4),
					ratioArrivalSpan: round(spanRate(node) / spanRate(plain), 4),
					phases,
					plainNoKeepAlive: noKeepAlive,
					emulatorStats: stats,
					...(profiles ? { profiles } : {}),
				},
				notes: [
					`Order: warm-up (a ${WARM_UP}-item node run, which logs in, and ${WARM_UP} plain requests), then plain, node, node, plain (ABBA), then a supplementary plain loop without keep-alive (a new connection per request, as n8n-core's HTTP helper opens; ${NO_KEEP_ALIVE_REQUESTS} requests). Same emulator, same URLs (PO-BULK-1..2000) in every phase.`,
					"Plain loop: Node's http.request with a keep-alive http.Agent (maxSockets 8), 8 workers, the node's URL, Accept, User-Agent and session Cookie (taken from the credential store after the warm-up login), each body read and JSON-parsed.",
					'Node rate: requests / n8n executionTime of the Seller Platform node run (includes resolving the 2,000 poNr expressions before the first request). Whole workflow: requests / runWorkflow wall time (adds the testItems node parsing 2,000 items and n8n-core bookkeeping). Plain rate: requests / loop wall time. Each side summed over its two phases.',
					`The ideal at 8 in flight and ${LATENCY_MS} ms per request is ${(CONCURRENCY * 1000) / LATENCY_MS} req/s. TCP connections and HTTP requests are counted with the net.client.socket and http.client.request.start diagnostics channels; CPU with process.cpuUsage() of each process.`,
					`Per request: cycle = ${CONCURRENCY} × (first request start → last response end) / requests, what one worker spends per request; round trip = mean time from http.request start to the end of the response (http.client.request.start / http.client.response.finish), connection set-up included; between requests = the rest (the node, n8n-core and the HTTP client library before the request starts and after the response ends, and the event loop's queue).`,
				],
			};
		} finally {
			await emulator.close();
		}
	},
};
