/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * A clock whose time only moves when the test moves it, for the rate limiter's fake-clock tests
 * and simulations: `sleep` registers a timer; `run` jumps from timer to timer (in time order),
 * letting every woken caller run before the next one.
 */
import type { Clock } from '../../dist/nodes/shared/pacing/rateLimiter';

interface Timer {
	at: number;
	seq: number;
	resolve: () => void;
	reject: (error: Error) => void;
}

/** Lets every pending promise callback run (setImmediate comes after the microtask queue). */
export const flush = async () => await new Promise<void>((resolve) => setImmediate(resolve));

export class VirtualClock implements Clock {
	private time: number;
	private seq = 0;
	private timers: Timer[] = [];

	constructor(start = 0) {
		this.time = start;
	}

	now() {
		return this.time;
	}

	async sleep(ms: number, signal?: AbortSignal) {
		await new Promise<void>((resolve, reject) => {
			const timer: Timer = { at: this.time + Math.max(0, ms), seq: this.seq++, resolve, reject };
			this.timers.push(timer);
			signal?.addEventListener(
				'abort',
				() => {
					this.timers = this.timers.filter((t) => t !== timer);
					reject(new Error('aborted'));
				},
				{ once: true },
			);
		});
	}

	/** The time of the next timer (undefined: none). */
	nextAt(): number | undefined {
		let next: number | undefined;
		for (const timer of this.timers) if (next === undefined || timer.at < next) next = timer.at;
		return next;
	}

	/** Moves time to `end`, waking each timer at its time, in order. */
	async runUntil(end: number) {
		await flush();
		for (;;) {
			const next = this.nextAt();
			if (next === undefined || next > end) break;
			this.time = Math.max(this.time, next);
			const due = this.timers.filter((t) => t.at <= this.time).sort((a, b) => a.seq - b.seq);
			this.timers = this.timers.filter((t) => t.at > this.time);
			for (const timer of due) timer.resolve();
			await flush();
		}
		this.time = Math.max(this.time, end);
		await flush();
	}

	/** Moves time on by `ms`. */
	async advance(ms: number) {
		await this.runUntil(this.time + ms);
	}
}
