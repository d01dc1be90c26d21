/**
 * A run's waiting budget: the elapsed time it may spend waiting on 429 answers and backoff (a
 * wait for a plan's slot behind a 429's pause or its probe included), however many of its items
 * wait at once. A wait beyond what is left fails at once; when the
 * service said it takes requests again only beyond the budget, the run stops trying and every
 * other wait of the run ends with that reason. The execution's cancel signal ends every wait
 * within a moment.
 */
import { abortable, wait } from '../common/abort';
import type { ElapsedClock } from '../common/clock';
import type { PolicyStop } from '../errors/errors';
import { beyondBudget, type BudgetOwner, type WaitReason } from './waits';

export class WaitingBudget {
	private waiters = 0;
	private waitingSince = 0;
	private spentMs = 0;
	/** Set once the service asked for a wait beyond the budget: the run stops trying. */
	private stopped?: PolicyStop;
	/** Ends the run's other waits when it stops trying. */
	private readonly stopping = new AbortController();

	constructor(
		readonly signal: AbortSignal | undefined,
		readonly limitMs: number,
		private readonly clock: ElapsedClock,
		private readonly owner: BudgetOwner = 'run',
	) {}

	private now(): number {
		return this.clock.now();
	}

	/** Throws the reason the run stopped trying, once it has. */
	checkStopped() {
		if (this.stopped) throw this.stopped;
	}

	/** The elapsed time the run has spent waiting so far (ms). */
	spent(): number {
		return this.spentMs + (this.waiters ? this.now() - this.waitingSince : 0);
	}

	/** What is left of the budget now (ms). */
	left(): number {
		return Math.max(0, this.limitMs - this.spent());
	}

	/**
	 * Waits `ms` out of the budget; fails at once when the wait would go beyond it, or when the
	 * service said it takes requests again only beyond it (`reason.earlier`). When the service's own
	 * time is beyond the budget, the run's other items fail at once too.
	 */
	async waitOut(ms: number, httpStatus: number | undefined, reason: WaitReason | boolean) {
		const why: WaitReason = typeof reason === 'boolean' ? { retryAfter: reason } : reason;
		const now = this.now();
		const at = Math.max(why.earlier?.at ?? -Infinity, now + ms);
		const leftMs = Math.max(0, this.limitMs - this.spent());
		if (at - now > leftMs) {
			const wait = { ms: at - now, at: this.clock.dateOf(at), leftMs, budgetMs: this.limitMs };
			const stop = beyondBudget(wait, why, httpStatus, this.owner);
			if (why.retryAfter && !this.stopped) {
				this.stopped = stop;
				this.stopping.abort();
			}
			throw stop;
		}
		this.holding(true);
		try {
			await this.untilStopped(async (signal) => await wait(ms, signal));
		} finally {
			this.holding(false);
		}
	}

	/**
	 * One of the run's waits begins (`true`) or ends (`false`): the budget is spent while any
	 * runs. Also a wait for a plan's slot behind a 429's pause or its probe (`PlanLimiter.acquire`).
	 */
	holding(on: boolean) {
		if (on && this.waiters++ === 0) this.waitingSince = this.now();
		if (!on && --this.waiters === 0) this.spentMs += this.now() - this.waitingSince;
	}

	/** The error of a wait for a plan's slot behind a 429 that would outlast what is left. */
	beyond(ms: number): PolicyStop {
		const now = this.now();
		const wait = {
			ms,
			at: this.clock.dateOf(now + ms),
			leftMs: this.left(),
			budgetMs: this.limitMs,
		};
		return beyondBudget(wait, { retryAfter: false }, 429, this.owner);
	}

	/**
	 * Runs a wait that ends when the user stops the execution, or when the run stops trying (with
	 * the run's reason): then every wait of the run ends at once, those for a plan's slot included.
	 */
	async untilStopped<T>(waiting: (signal: AbortSignal) => Promise<T>): Promise<T> {
		const signal = AbortSignal.any([this.stopping.signal, ...(this.signal ? [this.signal] : [])]);
		let failed: unknown;
		try {
			return await abortable(waiting(signal), signal);
		} catch (error) {
			failed = error;
		}
		throw this.stopped && !this.signal?.aborted ? this.stopped : failed;
	}
}
