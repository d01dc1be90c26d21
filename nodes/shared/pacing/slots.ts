/**
 * A bounded number of holders at once, the others waiting in line, in three rules:
 * - at most `perScope` holders of one scope (a credential);
 * - a scope's second and later places come from a shared pool of `limit`;
 * - a scope with no holder always has room for its first place, beyond the pool, up to `most`
 *   holders in all: so scopes that hold every pooled place for a long time never stop another
 *   scope's first holder; only `most` holders of different scopes fill every place.
 * A wait ends when its signal aborts (abort.ts: the user's stop, or the wait's deadline).
 */
import { ExecutionStopped } from '../common/abort';

interface Waiter {
	scope: string;
	granted(): void;
}

export class Slots {
	private holders = 0;
	private readonly byScope = new Map<string, number>();
	private readonly line: Waiter[] = [];

	constructor(
		readonly limit: number,
		readonly perScope: number = limit,
		readonly most: number = limit,
	) {}

	/** Holders now, and waiting in line. */
	get inUse(): number {
		return this.holders;
	}

	get waiting(): number {
		return this.line.length;
	}

	/** Holders of `scope` now. */
	heldBy(scope: string): number {
		return this.byScope.get(scope) ?? 0;
	}

	/**
	 * Resolves with the release of a slot once one is free for `scope`, in the order of asking
	 * among those that may take it; rejects with `ExecutionStopped` (and leaves the line) as soon
	 * as `signal` aborts. Call the release once done, whatever happened: it hands the slot on.
	 */
	async acquire(scope: string, signal?: AbortSignal): Promise<() => void> {
		if (signal?.aborted) throw new ExecutionStopped();
		// After every hand-on, no waiter in line has room: one with room now goes ahead fairly.
		if (this.hasRoom(scope)) {
			this.take(scope);
			return this.release(scope);
		}
		await new Promise<void>((resolve, reject) => {
			const waiter: Waiter = {
				scope,
				granted: () => {
					signal?.removeEventListener('abort', stopped);
					resolve();
				},
			};
			const stopped = () => {
				const place = this.line.indexOf(waiter);
				if (place >= 0) this.line.splice(place, 1);
				reject(new ExecutionStopped());
			};
			this.line.push(waiter);
			signal?.addEventListener('abort', stopped, { once: true });
			// Another scope's waiters may be ahead yet unable to start: this one may.
			this.handOn();
		});
		return this.release(scope);
	}

	/** A first place beyond the pool (up to `most`); any other from the pool, `perScope` at most. */
	private hasRoom(scope: string): boolean {
		const held = this.heldBy(scope);
		if (held === 0) return this.holders < this.most;
		return held < this.perScope && this.holders < this.limit;
	}

	private take(scope: string) {
		this.holders++;
		this.byScope.set(scope, this.heldBy(scope) + 1);
	}

	/** Gives free slots to the first waiters in line whose scope has room. */
	private handOn() {
		for (let i = 0; i < this.line.length && this.holders < this.most;) {
			const waiter = this.line[i];
			if (!this.hasRoom(waiter.scope)) {
				i++;
				continue;
			}
			this.line.splice(i, 1);
			this.take(waiter.scope);
			waiter.granted();
		}
	}

	private release(scope: string): () => void {
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.holders--;
			const held = this.heldBy(scope) - 1;
			if (held > 0) this.byScope.set(scope, held);
			else this.byScope.delete(scope);
			this.handOn();
		};
	}
}
