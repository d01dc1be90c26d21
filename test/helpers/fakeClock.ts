/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
import type { Clock } from '../../dist/nodes/shared/pacing/rateLimiter';

/** A clock whose time only moves when the test says so. */
export class FakeClock implements Clock {
	private time = 0;
	private timers: Array<{ at: number; resolve: () => void }> = [];

	now() {
		return this.time;
	}

	async sleep(ms: number) {
		await new Promise<void>((resolve) => this.timers.push({ at: this.time + ms, resolve }));
	}

	/** Moves time forward in small steps, letting woken callers run between steps. */
	async advance(ms: number, step = 1) {
		const end = this.time + ms;
		while (this.time < end) {
			this.time = Math.min(end, this.time + step);
			const due = this.timers.filter((t) => t.at <= this.time);
			this.timers = this.timers.filter((t) => t.at > this.time);
			due.forEach((t) => t.resolve());
			await flush();
		}
	}
}

/** Lets every pending promise callback run (setImmediate comes after the microtask queue). */
export const flush = async () => await new Promise<void>((resolve) => setImmediate(resolve));
