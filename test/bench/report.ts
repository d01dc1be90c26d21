/** The results as a table (console) and as RESULTS.md. */
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

/** What `npm run bench -- queue` (the full queue-mode run) writes to queue-results.json. */
export interface QueueResults {
	date: string;
	n8n: string;
	figures: Array<{ name: string; value: string; target: string; met: boolean }>;
}

/** The queue-mode figures, measured by the e2e in a real n8n cluster, as a section. */
function queueSection(queue: QueueResults): string[] {
	return [
		'## queue: n8n queue mode (from `npm run bench -- queue`)',
		'',
		`Run ${queue.date}: n8n ${queue.n8n}, the emulator at 50 ms with a plan of 600 per 60 s, default settings. Share of the plan with 2 workers busy: the most accepted answers (429 and 401 excluded: the plan counts neither) in any 60 s window, sliding over the emulator's arrival log, as a share of the plan; the target is 90 to 100 %, since a gateway that counts the plan that way answers anything above it with 429. The rows 1s run scenario 1 again with the emulator's strict plan: the 60 s sliding window plus fixed 10 s windows of a sixth of the plan (100 each); for them each worker's most requests sent in any 10 s window (sliding) is given too, against that sixth (target at most 100 each: the pacing's ceiling per process).`,
		'',
		'| benchmark | metric | value | target | |',
		'|---|---|---:|---|---|',
		...queue.figures.map(
			(f) =>
				`| queue | ${escapeCell(f.name)} | ${escapeCell(f.value)} | ${escapeCell(f.target)} | ${f.met ? 'met' : 'MISSED'} |`,
		),
		'',
	];
}

export function renderMarkdown(file: ResultsFile, queue?: QueueResults): string {
	const out: string[] = [];
	out.push('# Benchmark results');
	out.push('');
	out.push(
		'Written by `npm run bench` (test/bench/run.ts); the raw figures are in `results.json`. The node runs in-process through n8n-core (test/helpers) against the emulator (test/emulator) with a fixed latency of 50 ms per request; each benchmark runs in a fresh process, and its emulator in another process (the runner) unless stated otherwise. The machine is shared and noisy: compare figures of one run with each other (ratios), not absolute timings across runs.',
	);
	out.push('');
	out.push(
		"The overhead ratio depends on how much CPU other processes leave to the benchmark (each section gives the 1-minute load average; the machine has the CPU count shown), because the node spends about 3× the plain loop's CPU per request and the 8 workers' requests come back together at a fixed latency, so their CPU work queues. `npm run bench -- <name> --profile` adds CPU profiles (and, for import, an allocation profile) of extra runs. The queue-mode rows come from `npm run bench -- queue` (queue-results.json), which runs a real n8n cluster.",
	);
	out.push('');
	out.push(`Last command: \`${file.command}\`, ${file.generatedAt}.`);
	out.push('');
	out.push('## Summary');
	out.push('');
	out.push(markdownTable(file.benchmarks));
	out.push('');
	if (queue) out.push(...queueSection(queue));
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
