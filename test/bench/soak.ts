/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * 8. Soak: one process (one copy of the package, its state kept throughout) for 20 minutes,
 * cycling through the fault table, each fault followed by a full-plan run of 1,250
 * purchaseOrder/get: every full-plan run >= 90% of the plan from its 30th second, no item lost,
 * heap growth over the soak <= 50 MB (after a collection, first full-plan run to last).
 */
import type { TestEnvironment } from '../helpers';
import {
	assertSuccess,
	benchEnvironment,
	collectGarbage,
	getPoParameters,
	itemsWorkflow,
	mb,
	nodeRun,
	poItems,
	round,
} from './common';
import { startBenchEmulator, type BenchEmulator } from './emulator';
import type { BenchOutcome, Benchmark, Metric } from './types';

const PLAN = { limit: 1500, windowMs: 60_000 };
const PER_SECOND = PLAN.limit / 60;
const SOAK_MS = Number(process.env.BENCH_SOAK_MINUTES ?? 20) * 60_000;
const FULL_RUN_ITEMS = 1250;

async function control(emulator: BenchEmulator, path: string, body: unknown = {}) {
	const response = await fetch(`${emulator.baseUrl}/__control${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`control ${path}: HTTP ${response.status}`);
}

interface Fault {
	name: string;
	/** Sets the fault up (and runs the execution that meets it, when it takes one). */
	before(emulator: BenchEmulator, env: TestEnvironment, next: () => number): Promise<number>;
	/** Undoes it after the full-plan run. */
	after?(emulator: BenchEmulator): Promise<void>;
}

/** An execution of `count` items that meets the fault; returns its items lost. */
async function faultRun(env: TestEnvironment, count: number, next: () => number) {
	const result = await env.runWorkflow(
		itemsWorkflow(poItems(count, next()), getPoParameters(), { continueOnFail: true }),
	);
	return count - nodeRun(result).items;
}

const FAULTS: Fault[] = [
	{
		name: '429 storm (15 × 429, Retry-After 1 s)',
		before: async (emulator, env, next) => {
			await control(emulator, '/faults', {
				count: 15,
				status: 429,
				retryAfter: 1,
				operation: 'GetPurchaseOrder',
			});
			return await faultRun(env, 40, next);
		},
	},
	{
		name: 'a small plan (5 per 2 s) for 30 items',
		before: async (emulator, env, next) => {
			await control(emulator, '/rate-plan', { limit: 5, windowMs: 2000 });
			const lost = await faultRun(env, 30, next);
			await control(emulator, '/rate-plan', PLAN);
			return lost;
		},
	},
	{
		name: '5xx (8 × 503)',
		before: async (emulator, env, next) => {
			await control(emulator, '/faults', { count: 8, status: 503, operation: 'GetPurchaseOrder' });
			return await faultRun(env, 40, next);
		},
	},
	{
		name: 'session expiry (after 200 requests of the full-plan run)',
		before: async (emulator) => {
			await control(emulator, '/sessions/expire', { afterRequests: 200 });
			return 0;
		},
	},
	{
		name: 'latency 50 → 600 ms (the full-plan run at 600 ms)',
		before: async (emulator) => {
			await control(emulator, '/latency', { ms: 600 });
			return 0;
		},
		after: async (emulator) => await control(emulator, '/latency', { ms: 50 }),
	},
];

export const soak: Benchmark = {
	id: 'soak',
	async run(context): Promise<BenchOutcome> {
		const emulator = await startBenchEmulator(
			{ latencyMs: 50, ratePlan: PLAN, requestLogLimit: 100_000 },
			context.placement,
		);
		const rows: Array<{ fault: string; shareFrom30s: number; lost: number; at: number }> = [];
		const heap: number[] = [];
		let po = 1;
		const next = () => {
			const start = po;
			po += 2000;
			return start;
		};
		try {
			const env = benchEnvironment(emulator, { requestsPerMinute: PLAN.limit });
			const started = Date.now();
			for (let i = 0; Date.now() - started < SOAK_MS; i++) {
				const fault = FAULTS[i % FAULTS.length];
				const lostInFault = await fault.before(emulator, env, next);
				const runStart = Date.now();
				const result = await env.runWorkflow(
					itemsWorkflow(poItems(FULL_RUN_ITEMS, next()), getPoParameters()),
				);
				assertSuccess(result, `full-plan run after ${fault.name}`);
				await fault.after?.(emulator);
				const times = (await emulator.arrivals('GetPurchaseOrder'))
					.filter((a) => a.at >= runStart + 30_000 && a.status !== 429)
					.map((a) => a.at);
				const share =
					times.length > 1
						? (times.length - 1) / ((times[times.length - 1] - times[0]) / 1000) / PER_SECOND
						: 0;
				const row = {
					fault: fault.name,
					shareFrom30s: round(share * 100, 1) ?? 0,
					lost: lostInFault + (FULL_RUN_ITEMS - nodeRun(result).items),
					at: round((Date.now() - started) / 1000, 0) ?? 0,
				};
				rows.push(row);
				context.log(
					`${row.at} s: after ${row.fault}: ${row.shareFrom30s} % from the 30th second, lost ${row.lost}`,
				);
				await emulator.clearRequests();
				collectGarbage();
				heap.push(process.memoryUsage().heapUsed);
			}
		} finally {
			await emulator.close();
		}
		const worst = Math.min(...rows.map((r) => r.shareFrom30s));
		const lost = rows.reduce((sum, r) => sum + r.lost, 0);
		const growth = heap[heap.length - 1] - heap[0];
		const metrics: Metric[] = [
			{
				name: `${rows.length} full-plan runs over ${round(SOAK_MS / 60_000, 0)} min: the slowest, % of the plan from its 30th second`,
				value: worst,
				unit: '%',
				target: '>= 90 %',
				met: worst >= 90,
			},
			{ name: 'items lost (faults and full-plan runs)', value: lost, target: '0', met: lost === 0 },
			{
				name: 'heap growth, after the first full-plan run to after the last (after a collection)',
				value: mb(growth),
				unit: 'MB',
				target: '<= 50 MB',
				met: growth <= 50 * 1024 * 1024,
			},
		];
		return {
			metrics,
			details: { rows, heapMb: heap.map((h) => mb(h)) },
			notes: [
				'One process and one credential throughout (the package state kept), the emulator at 50 ms and 1500 per 60 s (sliding); each fault then a full-plan run of 1,250 purchaseOrder/get with default settings.',
				'Faults in turn: ' + FAULTS.map((f) => f.name).join('; ') + '.',
			],
		};
	},
};
