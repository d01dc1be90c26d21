/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/** The results as a table (console) and as RESULTS.md. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { ResultsFile } from './run';
import type { BenchResult, Metric } from './types';

const verdict = (metric: Metric) => (metric.met === undefined ? '' : metric.met ? 'met' : 'MISSED');
const valueText = (metric: Metric) =>
	metric.value === null || metric.value === undefined
		? '–'
		: `${metric.value}${metric.unit ? ` ${metric.unit}` : ''}`;

function rows(results: BenchResult[]): string[][] {
	const table: string[][] = [];
	for (const result of results) {
		if (result.error) {
			table.push([result.id, 'CRASHED', result.error.split('\n')[0], '', '']);
			continue;
		}
		for (const metric of result.metrics ?? []) {
			table.push([result.id, metric.name, valueText(metric), metric.target ?? '', verdict(metric)]);
		}
	}
	return table;
}

const HEADER = ['benchmark', 'metric', 'value', 'target', ''];

/** A plain aligned table for the terminal. */
export function renderTable(results: BenchResult[]): string {
	const table = [HEADER, ...rows(results)];
	const widths = HEADER.map((_, column) => Math.max(...table.map((row) => row[column].length)));
	const line = (row: string[]) =>
		row
			.map((cell, column) => cell.padEnd(widths[column]))
			.join('  ')
			.trimEnd();
	return [
		line(table[0]),
		widths.map((w) => '-'.repeat(w)).join('  '),
		...table.slice(1).map(line),
	].join('\n');
}

const escapeCell = (text: string) => text.replace(/\|/g, '\\|');

function markdownTable(results: BenchResult[]): string {
	const lines = [
		'| benchmark | metric | value | target | |',
		'|---|---|---:|---|---|',
		...rows(results).map((row) => `| ${row.map(escapeCell).join(' | ')} |`),
	];
	return lines.join('\n');
}

/** A figure measured in a real n8n (test/e2e/lib/figures.ts). */
export interface N8nFigure {
	name: string;
	value: string;
	target: string;
	met: boolean;
}

/** What `npm run bench -- queue` (the full queue-mode run) writes to queue-results.json. */
export interface QueueResults {
	date: string;
	n8n: string;
	figures: N8nFigure[];
}

/** What `npm run bench -- million` (test/e2e/million.e2e.ts) writes to million-results.json. */
export interface MillionResults {
	date: string;
	n8n: string;
	rows: number;
	figures: N8nFigure[];
}

/** The target of a figure that is only stated (measured, with no target to meet). */
export const STATED = 'stated';

/** The rows of figures measured in a real n8n, under the benchmark's name. */
function figureTable(id: string, figures: N8nFigure[]): string[] {
	return [
		'| benchmark | metric | value | target | |',
		'|---|---|---:|---|---|',
		...figures.map(
			(f) =>
				`| ${id} | ${escapeCell(f.name)} | ${escapeCell(f.value)} | ${escapeCell(f.target)} | ${f.target === STATED ? '' : f.met ? 'met' : 'MISSED'} |`,
		),
		'',
	];
}

/** The queue-mode figures, measured by the e2e in a real n8n cluster, as a section. */
function queueSection(queue: QueueResults): string[] {
	return [
		'## queue: n8n queue mode (from `npm run bench -- queue`)',
		'',
		`Run ${queue.date}: n8n ${queue.n8n}, the emulator at 50 ms with a plan of 600 per 60 s, default settings. Share of the plan with 2 workers busy: the most accepted answers (429 and 401 excluded: the plan counts neither) in any 60 s window, sliding over the emulator's arrival log, as a share of the plan; the target is 90 to 100 %, since a gateway that counts the plan that way answers anything above it with 429. The rows 1s run scenario 1 again with the emulator's strict plan: the 60 s sliding window plus fixed 10 s windows of a sixth of the plan (100 each); for them each worker's most requests sent in any 10 s window (sliding) is given too, against that sixth (target at most 100 each: the pacing's ceiling per process).`,
		'',
		...figureTable('queue', queue.figures),
	];
}

/** The million-row catalog in a real n8n, as a section. */
function millionSection(million: MillionResults): string[] {
	return [
		`## million: a catalog of ${million.rows.toLocaleString('en-US')} rows in a real n8n (from \`npm run bench -- million\`)`,
		'',
		`Run ${million.date}: n8n ${million.n8n}. The example \`sync-stock-from-csv-file.json\` (Read/Write Files from Disk → Stock → Update reading the CSV file's rows from the binary data) run from the REST API, as the editor's button runs it; the emulator at 50 ms with a plan of 1,500 per 60 s, the credential at its default 1,500 a minute. End to end is n8n's own duration of the execution (its start to its end), against the plan's own time for the requests, (R − 1) × 40 ms + 50 ms. The heap is n8n's Prometheus metric \`nodejs_heap_size_used_bytes\` (\`/metrics\`, \`N8N_METRICS=true\`), sampled every second; the peak RSS is the kernel's (\`VmHWM\`). Each row is counted in the emulator's request log (UpdateStock requests answered 200).`,
		'',
		...figureTable('million', million.figures),
	];
}

export function renderMarkdown(
	file: ResultsFile,
	queue?: QueueResults,
	million?: MillionResults,
): string {
	const out: string[] = [];
	out.push('# Benchmark results');
	out.push('');
	out.push(
		'Written by `npm run bench` (test/bench/run.ts); the raw figures are in `results.json`. The node runs in-process through n8n-core (test/helpers) against the emulator (test/emulator) with a fixed latency of 50 ms per request; each benchmark runs in a fresh process, and its emulator in another process (the runner) unless stated otherwise. The machine is shared and noisy: compare figures of one run with each other (ratios), not absolute timings across runs.',
	);
	out.push('');
	out.push(
		"The overhead ratio depends on how much CPU other processes leave to the benchmark (each section gives the 1-minute load average; the machine has the CPU count shown), because the node spends about 3× the plain loop's CPU per request and the 8 workers' requests come back together at a fixed latency, so their CPU work queues. `npm run bench -- <name> --profile` adds CPU profiles (and, for import, an allocation profile) of extra runs. The queue-mode rows come from `npm run bench -- queue` (queue-results.json), which runs a real n8n cluster; the million-row rows from `npm run bench -- million` (million-results.json), which runs a real n8n.",
	);
	out.push('');
	out.push(`Last command: \`${file.command}\`, ${file.generatedAt}.`);
	out.push('');
	out.push('## Summary');
	out.push('');
	out.push(markdownTable(file.benchmarks));
	out.push('');
	if (queue) out.push(...queueSection(queue));
	if (million) out.push(...millionSection(million));
	for (const result of file.benchmarks) {
		const m = result.machine;
		out.push(`## ${result.id}: ${result.title}`);
		out.push('');
		out.push(
			`Run ${result.startedAt}, ${(result.durationMs / 1000).toFixed(1)} s, in ${result.process === 'shared' ? 'a process shared with the other benchmarks' : 'a process of its own'}; emulator ${result.emulator}; Node ${m.node}, ${m.cpuCount} CPU (${m.cpuModel}), ${m.totalMemoryMb} MB RAM, 1-minute load average ${result.loadAverage?.start ?? m.loadAverageAtStart[0]} at its start and ${result.loadAverage?.end ?? '?'} at its end (${m.cpuCount} CPUs); commit ${m.gitCommit ?? '?'}${m.sourceDirty ? ' with uncommitted changes under nodes/ or credentials/' : ''}.`,
		);
		out.push('');
		if (result.error) {
			out.push('Crashed:');
			out.push('');
			out.push('```');
			out.push(result.error);
			out.push('```');
			out.push('');
			continue;
		}
		out.push(markdownTable([result]));
		out.push('');
		for (const note of result.notes ?? []) out.push(`- ${note}`);
		out.push('');
	}
	return `${out.join('\n').trimEnd()}\n`;
}

const RESULTS_JSON = join(__dirname, 'results.json');
const RESULTS_MD = join(__dirname, 'RESULTS.md');
/** Where `npm run bench -- queue` and `npm run bench -- million` write their figures. */
export const QUEUE_RESULTS_JSON = join(__dirname, 'queue-results.json');
export const MILLION_RESULTS_JSON = join(__dirname, 'million-results.json');

const readJson = <T>(file: string): T | undefined =>
	existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;

/** The figures of the last runs in a real n8n, if any: the arguments after `file` of renderMarkdown. */
export function realN8nResults(): [QueueResults | undefined, MillionResults | undefined] {
	return [readJson(QUEUE_RESULTS_JSON), readJson(MILLION_RESULTS_JSON)];
}

/** RESULTS.md again from results.json and the real-n8n figures (nothing when results.json is missing). */
export function rewriteReport(): void {
	const file = readJson<ResultsFile>(RESULTS_JSON);
	if (file) writeFileSync(RESULTS_MD, renderMarkdown(file, ...realN8nResults()));
}
