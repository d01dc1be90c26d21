/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The sharing matrix's cells on virtual time (test/helpers/sharingCell.ts) at several start phases
 * of the gateway's clock minute and several jitter seeds: one line per cell (together, 429, alone,
 * alone after the gateway's turn, failed items; met, or which targets it missed), then the count
 * met per model and phase, and the count met with alone after the turn in place of alone. The
 * matrix test (test/unit/sharingMatrix.test.ts) runs each cell at one phase; a fixed window's
 * verdict depends on it. Not part of `npm test`:
 *
 *   npm run build && npx ts-node --transpile-only --prefer-ts-exts test/bench/sharingPhases.ts
 *
 * `SWEEP_PHASES_MS`: first start this many ms after a clock minute's turn, default
 * `5000,20000,35000,50000` (`default`: each cell's phase in the matrix test); `SWEEP_SEEDS`
 * (`0,1`, as `MATRIX_SEED`); `SWEEP_MODELS` (`fixed-10s,fixed-60s`; `all`: every model);
 * `MATRIX_BUSY_MS` (180000, the matrix test's; 60000 is the bench's; a list such as
 * `54000,60000,90000,180000`: each stop time in turn, the counts per stop time and model at the end,
 * to see how a verdict moves with the moment the others stop).
 */
import { MATRIX_CELLS, MATRIX_TARGETS } from '../helpers/sharingMatrix';
import { missed, runCell } from '../helpers/sharingCell';

const list = (value: string | undefined, fallback: string) => (value ?? fallback).split(',');
const PHASES = list(process.env.SWEEP_PHASES_MS, '5000,20000,35000,50000').map((phase) =>
	phase === 'default' ? undefined : Number(phase),
);
const SEEDS = list(process.env.SWEEP_SEEDS, '0,1').map(Number);
const MODELS = list(process.env.SWEEP_MODELS, 'fixed-10s,fixed-60s');
const BUSY_MS = list(process.env.MATRIX_BUSY_MS, '180000').map(Number);
const CELLS = MATRIX_CELLS.filter((cell) => MODELS.includes('all') || MODELS.includes(cell.model));

/** Cells met, met with alone after the turn, and run, per model, phase (and stop time). */
type Counts = Map<string, { met: number; metAfterTurn: number; of: number }>;

const pct = (x: number) => `${(x * 100).toFixed(1)}`.padStart(5);
const phaseName = (phaseMs?: number) => (phaseMs === undefined ? 'default' : `${phaseMs / 1000} s`);

async function main() {
	const counts: Counts = new Map();
	const countKey = (model: string, phaseMs: number | undefined, busyMs: number) =>
		`${model} ${phaseName(phaseMs)}${BUSY_MS.length > 1 ? `, busy ${busyMs / 1000} s` : ''}`;
	for (const busyMs of BUSY_MS) {
		for (const cell of CELLS) {
			for (const phaseMs of PHASES)
				counts.set(countKey(cell.model, phaseMs, busyMs), { met: 0, metAfterTurn: 0, of: 0 });
		}
	}
	for (const busyMs of BUSY_MS) {
		for (const seed of SEEDS) {
			for (const phaseMs of PHASES) {
				await runCells(seed, phaseMs, busyMs, counts, countKey);
			}
		}
	}
	report(counts);
}

async function runCells(
	seed: number,
	phaseMs: number | undefined,
	busyMs: number,
	counts: Counts,
	countKey: (model: string, phaseMs: number | undefined, busyMs: number) => string,
) {
	for (const cell of CELLS) {
		const figures = await runCell(cell, { seedShift: 7919 * seed, phaseMs, busyMs });
		const misses = missed(figures, MATRIX_TARGETS);
		// The same targets, the one left measured from the gateway's turn after the stop.
		const afterTurn = missed({ ...figures, alone: figures.aloneAfterTurn }, MATRIX_TARGETS);
		console.log(
			[
				`busy ${busyMs / 1000} s seed ${seed} phase ${phaseName(phaseMs).padStart(7)}  ${cell.key.padEnd(38)}`,
				`together ${pct(figures.together)} %  429 ${pct(figures.rejected)} %`,
				`alone ${pct(figures.alone)} %  after the turn ${pct(figures.aloneAfterTurn)} %`,
				`failed ${figures.failed}`,
				misses.length ? `MISSED ${misses.join(' ')}` : 'met',
				afterTurn.length
					? `(after the turn: MISSED ${afterTurn.join(' ')})`
					: '(after the turn: met)',
			].join('  '),
		);
		const count = counts.get(countKey(cell.model, phaseMs, busyMs))!;
		count.of++;
		if (!misses.length) count.met++;
		if (!afterTurn.length) count.metAfterTurn++;
	}
}

function report(counts: Counts) {
	let met = 0;
	let metAfterTurn = 0;
	let of = 0;
	for (const [key, count] of counts) {
		console.log(
			`${key.padEnd(22)} ${count.met} of ${count.of}, with alone after the turn ${count.metAfterTurn}`,
		);
		met += count.met;
		metAfterTurn += count.metAfterTurn;
		of += count.of;
	}
	const busy = BUSY_MS.map((ms) => ms / 1000).join(', ');
	const run = `seeds ${SEEDS.join(', ')}, busy ${busy} s`;
	console.log(`met ${met} of ${of} (${run})`);
	console.log(`met with alone after the turn ${metAfterTurn} of ${of} (${run})`);
}

void main();
