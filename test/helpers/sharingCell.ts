/**
 * One cell of the sharing matrix (test/helpers/sharingMatrix.ts) on virtual time: its processes
 * (each a real `PlanLimiter`, test/helpers/sharingModel.ts) against the gateway's model, busy
 * together, then all but the first stop. For the matrix test (test/unit/sharingMatrix.test.ts) and
 * the phase sweep (test/bench/sharingPhases.ts).
 */
import {
	BACK_WITHIN_MS,
	startOffsets,
	windowTurnAtOrAfter,
	type MatrixCell,
} from './sharingMatrix';
import { GatewayModelServer, startProcess, type ModelProcess } from './sharingModel';
import { VirtualClock } from './virtualTime';

export const PLAN = 1500;
/** The plan's window: the gateway counts `PLAN` per 60 s (or a sixth of it per 10 s). */
const WINDOW_MS = 60_000;
const PER_SECOND = PLAN / 60;

export interface CellFigures {
	/** Accepted requests while all are busy (from the first start), as a share of the plan. */
	together: number;
	/** Requests answered 429, as a share of all requests (up to the end of `alone`'s 10 s). */
	rejected: number;
	requests: number;
	/** Items the node would have failed (up to the end of `alone`'s 10 s). */
	failed: number;
	/** The one left alone: its accepted requests in the 10 s from 30 s after the others stopped. */
	alone: number;
	/**
	 * The one left alone, from the gateway's turn: its accepted requests in the 10 s from 30 s after
	 * the first turn of the gateway's fixed window at or after the others stopped (`alone` for a
	 * sliding window). Not a target: beside `alone`, where a fixed window leaves no room before it.
	 */
	aloneAfterTurn: number;
}

export interface CellRun {
	/** Added to the cell's seed: other jitter draws. */
	seedShift: number;
	/** When the first process starts, in ms after a turn of the gateway's clock minute (undefined: 3.7 to 11.5 s by the seed). */
	phaseMs?: number;
	/** How long all the processes are busy together, from the last one's start. */
	busyMs: number;
}

/** Moves time on until every process, stopped, has no request left in flight. */
async function settle(clock: VirtualClock, processes: ModelProcess[]) {
	let done = false;
	void Promise.all(processes.map((p) => p.finished)).then(() => (done = true));
	while (!done) await clock.advance(1000);
}

/** Runs `matrixCell` as `run` says, and measures it. */
export async function runCell(matrixCell: MatrixCell, run: CellRun): Promise<CellFigures> {
	const cell = { ...matrixCell, seed: matrixCell.seed + run.seedShift };
	// Not at 0: the fixed windows are the gateway's clock's, not the processes'.
	const clock = new VirtualClock(run.phaseMs ?? 3_700 + (cell.seed % 7) * 1_300);
	const start = clock.now();
	const gateway = new GatewayModelServer(PLAN, WINDOW_MS, cell.model, cell.retryAfter);
	const processes: ModelProcess[] = [];
	for (const [id, offset] of startOffsets(cell).entries()) {
		await clock.runUntil(start + offset);
		processes.push(
			startProcess(clock, gateway, { id, plan: PLAN, jitterMs: 10, seed: cell.seed * 10 + id }),
		);
	}
	const busyEnd = clock.now() + run.busyMs;
	await clock.runUntil(busyEnd);
	processes.slice(1).forEach((p) => p.stop());
	const from = busyEnd + BACK_WITHIN_MS;
	const fromTurn = windowTurnAtOrAfter(cell.model, WINDOW_MS, busyEnd) + BACK_WITHIN_MS;
	await clock.runUntil(from + 10_000);
	// The cell's figures end here; the one left runs on only for `aloneAfterTurn`.
	const arrivals = [...gateway.arrivals];
	const failed = processes.reduce((sum, p) => sum + p.failed, 0);
	await clock.runUntil(fromTurn + 10_000);
	processes[0].stop();
	await settle(clock, processes);
	const accepted = arrivals.filter((a) => a.status === 200);
	const busy = accepted.filter((a) => a.at < busyEnd).length;
	const aloneFrom = (t: number) =>
		gateway.arrivals.filter(
			(a) => a.process === 0 && a.status === 200 && a.at >= t && a.at < t + 10_000,
		).length /
		(PER_SECOND * 10);
	return {
		together: busy / ((busyEnd - start) / 1000) / PER_SECOND,
		rejected: 1 - accepted.length / arrivals.length,
		requests: arrivals.length,
		failed,
		alone: aloneFrom(from),
		aloneAfterTurn: aloneFrom(fromTurn),
	};
}

/** Which of the matrix's targets `figures` misses (empty: the cell is met). */
export function missed(
	figures: CellFigures,
	targets: { together: number; rejected: number; alone: number },
): string[] {
	const misses: string[] = [];
	if (figures.together < targets.together) misses.push('together');
	if (figures.rejected > targets.rejected) misses.push('429');
	if (figures.failed > 0) misses.push('failed');
	if (figures.alone < targets.alone) misses.push('alone');
	return misses;
}
