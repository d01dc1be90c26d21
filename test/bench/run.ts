/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * `npm run bench [-- <name>...] [--in-process] [--no-write] [--profile] [--same-process]`
 *
 * `npm run bench -- queue` (only when named): the full queue-mode run behind the queue
 * figures of docs/queue-mode.md, test/e2e/queue.e2e.ts with QUEUE_FULL=1 in a real n8n 2.x (main,
 * 2 workers, a webhook process, Postgres, Redis; about 11 minutes); it writes
 * test/bench/queue-results.json and the report. CI runs the same file's short checks
 * (`npm run test:e2e:queue`).
 *
 * `npm run bench -- million` (only when named): a catalog of 1,000,000 rows in a real n8n 2.x
 * (test/e2e/million.e2e.ts with MILLION_ROWS=1000000 unless set: about 8 minutes), the example
 * sync-stock-from-csv-file.json against the emulator at the plan; it writes
 * test/bench/million-results.json and the report (a run of another size: .tmp/million-results.json).
 *
 * Benchmarks of the Seller Platform node running in-process through n8n-core against the
 * emulator (50 ms per request): paced, overhead, import, logins (all by default). Prints a table
 * and writes test/bench/results.json and test/bench/RESULTS.md (a partial run replaces only its
 * benchmarks there). Missed targets are reported, not thrown: the exit code is non-zero only when
 * a benchmark crashed.
 *
 * Each benchmark runs in a fresh process forked from this one, and this process hosts the
 * benchmark's emulator: the emulator's CPU and memory stay out of the benchmark's process, and no
 * benchmark inherits another's heap, compiled code or module state (rate limiters, sessions).
 *
 *   --in-process   run the emulator in the benchmark's process instead
 *   --no-write     print only
 *   --profile      also CPU-profile extra runs of overhead (node and plain) and import (plus its
 *                  allocations), after the measured ones; profiles in test/bench/profiles/,
 *                  summaries in results.json
 *   --same-process run every benchmark in this process (their emulators in a host process)
 */
import '../setup/env';

import { execFileSync, fork, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';

import { HOSTED_BY_PARENT_ENV, type EmulatorPlacement } from './emulator';
import type { EmulatorHost } from './emulatorHost';
import { isEmulatorMessage, type EmulatorRequest } from './emulatorProtocol';
import { realN8nResults, renderMarkdown, renderTable } from './report';
import type { BenchOutcome, BenchResult, Benchmark } from './types';

/** The benchmarks, loaded only by the process that runs them (this one loads no n8n code). */
/** `optIn`: run only when named (too long for the default run). */
const BENCHMARKS: Array<{ id: string; title: string; load: () => Benchmark; optIn?: boolean }> = [
	{
		id: 'paced',
		title:
			'The plan sets the speed: 3,000 purchaseOrder/get, plan 1500 per 60 s, default settings, latency 50 to 600 ms ± jitter, 4 executions',
		load: () => (require('./paced') as typeof import('./paced')).paced,
	},
	{
		id: 'overhead',
		title: 'Overhead vs a plain HTTP loop: 2,000 purchaseOrder/get, concurrency 8, no rate plan',
		load: () => (require('./overhead') as typeof import('./overhead')).overhead,
	},
	{
		id: 'import',
		title: 'Barcode import fromInputItems: 100,000 input items',
		load: () => (require('./importItems') as typeof import('./importItems')).importItems,
	},
	{
		id: 'ordersList',
		title: 'FBPI Order → Get Many, Return All: 10,000 orders of one warehouse (200 pages of 50)',
		load: () => (require('./ordersList') as typeof import('./ordersList')).ordersList,
	},
	{
		id: 'stockUpdate',
		title:
			'Stock → Update of 100,000 rows from input items: plan 1500 per 60 s, latency 50 ms, 100 rows a request',
		load: () => (require('./stockUpdate') as typeof import('./stockUpdate')).stockUpdate,
	},
	{
		id: 'csvFile',
		title:
			'Stock → Update of 1,000,000 rows read straight from a CSV file on disk (Read Rows From a CSV File): heap, rows a second, each row once',
		load: () => (require('./csvFile') as typeof import('./csvFile')).csvFile,
	},
	{
		id: 'download',
		title: 'Export download: a 200 MB file into binary data on disk',
		load: () => (require('./download') as typeof import('./download')).download,
	},
	{
		id: 'faults',
		title: 'Faults at the service: what reaches the user',
		load: () => (require('./faults') as typeof import('./faults')).faults,
	},
	{
		id: 'sharing',
		title:
			'Sharing the plan without lasting harm: a throttling episode then a full-plan run; 2, 3 and 4 processes; the others leave (sliding and strict plan models); the sharing matrix (every gateway window model, with and without Retry-After)',
		load: () => (require('./sharing') as typeof import('./sharing')).sharing,
	},
	{
		id: 'soak',
		title:
			'Soak: 20 minutes in one process through the fault table, a full-plan run after each fault',
		load: () => (require('./soak') as typeof import('./soak')).soak,
		optIn: true,
	},
	{
		id: 'warehouses',
		title:
			'ListWarehouses within its own plan (30 per 60 s, 15 per 30 s): 30 executions of warehouse/getMany and 30 list searches at once',
		load: () => (require('./warehouses') as typeof import('./warehouses')).warehouses,
	},
	{
		id: 'logins',
		title: 'Logins: 20 executions × 50 purchaseOrder/get, one credential store',
		load: () => (require('./logins') as typeof import('./logins')).logins,
	},
];
const RESULTS_JSON = join(__dirname, 'results.json');
const RESULTS_MD = join(__dirname, 'RESULTS.md');

export interface MachineFacts {
	date: string;
	node: string;
	v8: string;
	platform: string;
	osRelease: string;
	cpuModel: string;
	cpuCount: number;
	availableParallelism: number;
	totalMemoryMb: number;
	loadAverageAtStart: number[];
	gitCommit: string | null;
	/** Uncommitted changes under nodes/ or credentials/ when the benchmark ran. */
	sourceDirty: boolean | null;
}

export interface ResultsFile {
	generatedAt: string;
	command: string;
	machine: MachineFacts;
	benchmarks: Array<BenchResult & { machine: MachineFacts }>;
}

function git(...args: string[]): string | null {
	try {
		return execFileSync('git', args, {
			cwd: join(__dirname, '..', '..'),
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}).trim();
	} catch {
		return null;
	}
}

function machineFacts(): MachineFacts {
	const cpus = os.cpus();
	const dirty = git('status', '--porcelain', '--', 'nodes', 'credentials');
	return {
		date: new Date().toISOString(),
		node: process.version,
		v8: process.versions.v8,
		platform: `${process.platform} ${process.arch}`,
		osRelease: os.release(),
		cpuModel: cpus[0]?.model?.trim() ?? 'unknown',
		cpuCount: cpus.length,
		availableParallelism:
			typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length,
		totalMemoryMb: Math.round(os.totalmem() / 1024 / 1024),
		loadAverageAtStart: os.loadavg().map((l) => Number(l.toFixed(2))),
		gitCommit: git('rev-parse', '--short', 'HEAD'),
		sourceDirty: dirty === null ? null : dirty !== '',
	};
}

function usage(): string {
	return `Usage: npm run bench [-- <name>...] [--in-process] [--no-write] [--profile] [--same-process]\n  names: ${BENCHMARKS.map((b) => b.id).join(', ')}, ${Object.keys(REAL_N8N).join(', ')} (default: all but soak, ${Object.keys(REAL_N8N).join(' and ')})`;
}

const log = (message: string) => console.log(`  ${message}`);

/** Child side of `runIsolated`: runs one benchmark and sends its outcome to the parent. */
async function child(id: string, placement: EmulatorPlacement, profile: boolean): Promise<number> {
	const send = async (message: object) =>
		await new Promise<void>((resolve) => process.send!(message, () => resolve()));
	try {
		const benchmark = BENCHMARKS.find((b) => b.id === id)!.load();
		await send({ kind: 'outcome', outcome: await benchmark.run({ placement, profile, log }) });
	} catch (error) {
		await send({ kind: 'outcome', error: String((error as Error)?.stack ?? error) });
	}
	return 0;
}

let host: EmulatorHost | undefined;

/**
 * Runs one benchmark in a fresh process and hosts its emulators here. Options of this process
 * (e.g. --cpu-prof) are passed on.
 */
async function runIsolated(
	id: string,
	placement: EmulatorPlacement,
	profile: boolean,
): Promise<BenchOutcome> {
	const execArgv: string[] = [];
	for (let i = 0; i < process.execArgv.length; i++) {
		const arg = process.execArgv[i];
		if ((arg === '-r' || arg === '--require') && /ts-node/.test(process.execArgv[i + 1] ?? '')) i++;
		else execArgv.push(arg);
	}
	execArgv.push('-r', 'ts-node/register/transpile-only');
	const args = [
		id,
		CHILD_FLAG,
		...(placement === 'in-process' ? ['--in-process'] : []),
		...(profile ? ['--profile'] : []),
	];
	const worker = fork(__filename, args, {
		execArgv,
		env: {
			...process.env,
			TS_NODE_TRANSPILE_ONLY: 'true',
			TS_NODE_PREFER_TS_EXTS: 'true',
			[HOSTED_BY_PARENT_ENV]: placement === 'in-process' ? '0' : '1',
		},
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	let reply: { outcome?: BenchOutcome; error?: string } | undefined;
	worker.on('message', (message: unknown) => {
		if (isEmulatorMessage(message)) {
			host ??= new (require('./emulatorHost') as typeof import('./emulatorHost')).EmulatorHost();
			void host.handle(message as EmulatorRequest).then((answer) => {
				if (worker.connected) worker.send(answer);
			});
		} else if ((message as { kind?: string })?.kind === 'outcome') {
			reply = message as typeof reply;
		}
	});
	const [code, signal] = (await once(worker, 'exit')) as [number | null, string | null];
	await host?.closeAll();
	if (reply?.outcome) return reply.outcome;
	throw new Error(
		reply?.error ?? `benchmark process exited (code ${code}, signal ${signal}) without a result`,
	);
}

const CHILD_FLAG = '--child';

/**
 * Benchmarks in a real n8n, run by Jest (test/e2e/), not forked here; each with the environment
 * that makes its e2e file the full run.
 */
const REAL_N8N: Record<string, { title: string; file: string; env: NodeJS.ProcessEnv }> = {
	queue: {
		title: 'n8n queue mode, the full run (test/e2e/queue.e2e.ts, QUEUE_FULL=1)',
		file: 'test/e2e/queue.e2e.ts',
		env: { QUEUE_FULL: '1' },
	},
	million: {
		title: `a catalog of a million rows in n8n (test/e2e/million.e2e.ts, MILLION_ROWS=${process.env.MILLION_ROWS ?? '1000000'})`,
		file: 'test/e2e/million.e2e.ts',
		env: { MILLION_ROWS: process.env.MILLION_ROWS ?? '1000000' },
	},
};

/** Runs each named real-n8n benchmark; non-zero when any failed. */
function runAll(names: string[]): number {
	let status = 0;
	for (const name of names) status = runRealN8n(name) || status;
	return status;
}

/** `npm run bench -- queue` or `-- million`: the e2e install of n8n 2.x, then the run. */
function runRealN8n(name: string): number {
	const root = join(__dirname, '..', '..');
	const { title, file, env } = REAL_N8N[name];
	console.log(`\n▶ ${name}: ${title}`);
	const install = spawnSync(process.execPath, [join(root, 'test', 'e2e', 'install.js')], {
		cwd: root,
		stdio: 'inherit',
	});
	if (install.status !== 0) return install.status ?? 1;
	const jest = spawnSync(
		process.execPath,
		[require.resolve('jest/bin/jest'), '-c', 'test/e2e/jest.config.js', file],
		{ cwd: root, stdio: 'inherit', env: { ...process.env, ...env } },
	);
	return jest.status ?? 1;
}

async function main(): Promise<number> {
	const args = process.argv.slice(2);
	if (args.includes(CHILD_FLAG)) {
		return await child(
			args[0],
			args.includes('--in-process') ? 'in-process' : 'separate-process',
			args.includes('--profile'),
		);
	}
	const flags = new Set(args.filter((a) => a.startsWith('--')));
	const names = args.filter((a) => !a.startsWith('--') && !(a in REAL_N8N));
	const realN8n = Object.keys(REAL_N8N).filter((name) => args.includes(name));
	for (const flag of flags) {
		if (!['--in-process', '--no-write', '--profile', '--same-process', '--help'].includes(flag)) {
			console.error(`Unknown option ${flag}\n${usage()}`);
			return 2;
		}
	}
	if (flags.has('--help')) {
		console.log(usage());
		return 0;
	}
	const unknown = names.filter((n) => !BENCHMARKS.some((b) => b.id === n));
	if (unknown.length) {
		console.error(`Unknown benchmark ${unknown.join(', ')}\n${usage()}`);
		return 2;
	}
	if (realN8n.length && !names.length) return runAll(realN8n);
	const selected = names.length
		? BENCHMARKS.filter((b) => names.includes(b.id))
		: BENCHMARKS.filter((b) => !b.optIn);
	const placement: EmulatorPlacement =
		flags.has('--in-process') || process.env.BENCH_EMULATOR === 'in-process'
			? 'in-process'
			: 'separate-process';

	const machine = machineFacts();
	console.log(
		`Node ${machine.node}, ${machine.cpuCount} CPU (${machine.cpuModel}), load ${machine.loadAverageAtStart.join(' ')}, emulator: ${placement}`,
	);

	const results: Array<BenchResult & { machine: MachineFacts }> = [];
	let crashed = false;
	const total = performance.now();
	for (const benchmark of selected) {
		const startedAt = new Date().toISOString();
		const started = performance.now();
		console.log(`\n▶ ${benchmark.id}: ${benchmark.title}`);
		const loadStart = Number(os.loadavg()[0].toFixed(2));
		const base = {
			id: benchmark.id,
			title: benchmark.title,
			startedAt,
			emulator: placement,
			process: flags.has('--same-process') ? ('shared' as const) : ('fresh' as const),
			machine,
		};
		const loadAverage = () => ({ start: loadStart, end: Number(os.loadavg()[0].toFixed(2)) });
		let outcome: BenchOutcome | undefined;
		let failure: string | undefined;
		try {
			outcome = flags.has('--same-process')
				? await benchmark.load().run({ placement, profile: flags.has('--profile'), log })
				: await runIsolated(benchmark.id, placement, flags.has('--profile'));
		} catch (error) {
			failure = String((error as Error)?.stack ?? error);
		}
		const durationMs = Math.round(performance.now() - started);
		if (outcome) {
			const result = { ...base, durationMs, loadAverage: loadAverage(), ...outcome };
			results.push(result);
			console.log(renderTable([result]));
		} else {
			crashed = true;
			console.error(`  ✗ ${benchmark.id} crashed: ${failure}`);
			results.push({
				...base,
				durationMs,
				loadAverage: loadAverage(),
				error: failure ?? 'unknown failure',
			});
		}
	}
	console.log(`\nTotal ${((performance.now() - total) / 1000).toFixed(1)} s\n`);
	console.log(renderTable(results));

	if (!flags.has('--no-write')) {
		const file = mergeResults(results, machine, args);
		writeFileSync(RESULTS_JSON, `${JSON.stringify(file, null, '\t')}\n`);
		writeFileSync(RESULTS_MD, renderMarkdown(file, ...realN8nResults()));
		console.log(
			`Written: ${relative(process.cwd(), RESULTS_JSON)}, ${relative(process.cwd(), RESULTS_MD)}`,
		);
	}
	const realN8nStatus = runAll(realN8n);
	return crashed || realN8nStatus !== 0 ? 1 : 0;
}

/** Replaces the benchmarks of this run in the results file, keeping the others, in the usual order. */
function mergeResults(
	fresh: Array<BenchResult & { machine: MachineFacts }>,
	machine: MachineFacts,
	args: string[],
): ResultsFile {
	let previous: ResultsFile['benchmarks'] = [];
	if (existsSync(RESULTS_JSON)) {
		try {
			previous = (JSON.parse(readFileSync(RESULTS_JSON, 'utf8')) as ResultsFile).benchmarks ?? [];
		} catch {
			previous = [];
		}
	}
	const byId = new Map(previous.map((r) => [r.id, r]));
	for (const result of fresh) byId.set(result.id, result);
	const order = BENCHMARKS.map((b) => b.id);
	return {
		generatedAt: new Date().toISOString(),
		command: `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`,
		machine,
		benchmarks: [...byId.values()].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id)),
	};
}

main().then(
	(code) => {
		process.exitCode = code;
		// Keep-alive sockets or timers of n8n-core must not hold the process open.
		setTimeout(() => process.exit(code), 500).unref();
	},
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
