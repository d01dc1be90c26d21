/**
 * Long loops of a node run (reading 100,000 rows, building their outputs) give the event loop its
 * turn now and then, so that n8n answers webhooks, the editor and health checks while a run goes
 * on. n8n's community-node rules allow no `setImmediate`: a zero-delay `sleep` from n8n-workflow
 * lets the loop run its timers and I/O, at about a millisecond a turn, hence turns by time rather
 * than by row count (a slow row, such as an expression, is as long as many fast ones).
 */
import { sleep } from 'n8n-workflow';

import { monotonicNow } from './clock';

/** The longest a loop keeps the event loop before it gives a turn. */
export const TURN_MS = 25;

/** One loop's turns: `due()` at each step (cheap); when it says so, `await pause()`. */
export interface Turns {
	due(): boolean;
	pause(): Promise<void>;
}

export function eventLoopTurns(turnMs = TURN_MS): Turns {
	let since = monotonicNow();
	return {
		due: () => monotonicNow() - since >= turnMs,
		async pause() {
			await sleep(0);
			since = monotonicNow();
		},
	};
}
