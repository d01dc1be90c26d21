/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Figures of a bench run in a real n8n (queue.e2e.ts, million.e2e.ts): each measured by a scenario
 * and checked by a Jest test of its own, which fails when the figure missed its target or was
 * never measured. Written to the bench's results file; `test/bench/report.ts` renders them.
 */
import { writeFileSync } from 'node:fs';

export interface Figure {
	name: string;
	value: string;
	target: string;
	met: boolean;
}

/** Writes a bench's results to `path` as tab-indented JSON, and logs where. */
export function writeResultsJson(path: string, results: object, log: (message: string) => void) {
	writeFileSync(path, `${JSON.stringify(results, null, '\t')}\n`);
	log(`figures written to ${path}`);
}

export function createFigures(log: (message: string) => void) {
	const figures: Figure[] = [];
	const declared = new Set<string>();
	return {
		figures,
		/** Records a figure measured by a scenario; its test checks it. */
		check(name: string, value: string | number, target: string, met: boolean) {
			if (!declared.has(name)) throw new Error(`figure "${name}" has no test`);
			figures.push({ name, value: String(value), target, met });
			log(`${met ? '✓' : '✗'} ${name}: ${value} (target ${target})`);
		},
		/** A test per figure: it fails when the figure missed its target, or was never measured. */
		figureTests(names: string[]) {
			for (const name of names) {
				declared.add(name);
				it(name, () => {
					const figure = figures.find((f) => f.name === name);
					if (!figure)
						throw new Error('not measured: the scenario ended before it (see its error)');
					if (!figure.met) throw new Error(`${figure.value}, target ${figure.target}`);
				});
			}
		},
	};
}

/**
 * The entries in the busiest period of `windowMs` (sliding: the rule of the emulator's plan, where
 * a request counts until `windowMs` after it), so `.length` is the most in any such window. The
 * same count as test/bench/common.ts's `maxInWindow`, not imported because that module loads the
 * in-process n8n helpers.
 */
export function busiestWindow<T extends { at: number }>(entries: T[], windowMs: number): T[] {
	const sorted = [...entries].sort((a, b) => a.at - b.at);
	let best = [0, 0];
	for (let lo = 0, hi = 0; hi < sorted.length; hi++) {
		while (sorted[hi].at - sorted[lo].at >= windowMs) lo++;
		if (hi + 1 - lo > best[1] - best[0]) best = [lo, hi + 1];
	}
	return sorted.slice(best[0], best[1]);
}
