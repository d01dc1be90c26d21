import type { EmulatorPlacement } from './emulator';

/** One figure of a benchmark, as printed in the table. */
export interface Metric {
	name: string;
	value: number | string | null;
	unit?: string;
	/** e.g. ">= 95 %", "0", "1". */
	target?: string;
	/** Whether the target was met (absent when the metric has no target). */
	met?: boolean;
}

export interface BenchContext {
	placement: EmulatorPlacement;
	/** `--profile`: after the measured phases, profile extra runs (never the measured ones). */
	profile: boolean;
	log(message: string): void;
}

export interface BenchOutcome {
	metrics: Metric[];
	/** Everything measured, for results.json. */
	details: Record<string, unknown>;
	/** How it was measured, and what to read into it. */
	notes: string[];
}

export interface BenchResult extends Partial<BenchOutcome> {
	id: string;
	title: string;
	startedAt: string;
	durationMs: number;
	emulator: EmulatorPlacement;
	/** `fresh`: the benchmark ran in a process of its own; `shared`: in one with the others. */
	process?: 'fresh' | 'shared';
	/** 1-minute load average of the machine when the benchmark started and ended (shared machine). */
	loadAverage: { start: number; end: number };
	/** The benchmark crashed (not: a target was missed). */
	error?: string;
}

export interface Benchmark {
	id: string;
	run(context: BenchContext): Promise<BenchOutcome>;
}
