/** A bounded number of holders at once, the others waiting in line (abort.ts: the user's stop). */
import { ExecutionStopped } from './abort';

export class Slots {
	private holders = 0;
	private readonly line: Array<() => void> = [];

	constructor(readonly limit: number) {}

	/** Holders now, and waiting in line. */
	get inUse(): number {
		return this.holders;
	}

	get waiting(): number {
		return this.line.length;
	}

	/**
	 * Resolves with the release of a slot once one is free, in the order of asking; rejects with
	 * `ExecutionStopped` (and leaves the line) as soon as `signal` aborts. Call the release once
	 * done, whatever happened: it hands the slot to the next in line.
	 */
	async acquire(signal?: AbortSignal): Promise<() => void> {
		if (signal?.aborted) throw new ExecutionStopped();
		if (this.holders < this.limit) {
			this.holders++;
			return this.release();
		}
		await new Promise<void>((resolve, reject) => {
			const granted = () => {
				signal?.removeEventListener('abort', stopped);
				resolve();
			};
			const stopped = () => {
				const place = this.line.indexOf(granted);
				if (place >= 0) this.line.splice(place, 1);
				reject(new ExecutionStopped());
			};
			this.line.push(granted);
			signal?.addEventListener('abort', stopped, { once: true });
		});
		return this.release();
	}

	private release(): () => void {
		let released = false;
		return () => {
			if (released) return;
			released = true;
			const next = this.line.shift();
			// The slot goes straight to the next in line: the count of holders stays.
			if (next) next();
			else this.holders--;
		};
	}
}
