/**
 * The limits of one node run, shared by its items: its waiting budget (budget.ts), its circuit
 * breaker (breaker.ts), the execution's cancel signal, and what the run met on its way for the
 * hints n8n shows after it. How requests wait under these limits: retries.ts and paced.ts.
 */
import { MONOTONIC, type ElapsedClock } from '../common/clock';
import type { Failure } from '../errors/errors';
import { CircuitBreaker } from './breaker';
import { WaitingBudget } from './budget';
import { RETRY_POLICY, type BudgetOwner, type WaitReason } from './waits';

/** What a run met on its way, for the hints n8n shows after it: never a secret. */
export interface RunFacts {
	/** 429 answers the run's requests got. */
	rateLimited: number;
	/**
	 * The lowest share of the plan the run's requests were paced at while others used the plan
	 * (recurring throttling episodes: rateController.ts `shared`); 1 when they never did.
	 */
	lowestShare: number;
	/** The credential's login identity, and its count of logins when the run first sent. */
	login?: { identity: string; before: number };
}

export class RunPolicy {
	readonly budget: WaitingBudget;
	readonly breaker: CircuitBreaker;
	/** The run's hint counters (runner.ts, hints.ts). */
	readonly facts: RunFacts = { rateLimited: 0, lowestShare: 1 };

	constructor(
		readonly signal: AbortSignal | undefined,
		readonly waitingBudgetMs: number = RETRY_POLICY.waitingBudgetMs,
		readonly circuitBreakerLimit: number = RETRY_POLICY.circuitBreakerLimit,
		clock: ElapsedClock = MONOTONIC,
		owner: BudgetOwner = 'run',
	) {
		this.budget = new WaitingBudget(signal, waitingBudgetMs, clock, owner);
		this.breaker = new CircuitBreaker(circuitBreakerLimit);
	}

	/** The limits of one poll of the poll trigger: its waits within `waitingBudgetMs`. */
	static forPoll(waitingBudgetMs: number): RunPolicy {
		return new RunPolicy(undefined, waitingBudgetMs, undefined, undefined, 'poll');
	}

	/** Refuses to send once the run has stopped trying or its breaker is open. */
	checkBreaker() {
		this.budget.checkStopped();
		this.breaker.check();
	}

	/** Counts an answer for the breaker (breaker.ts). */
	record(failure?: Failure) {
		this.breaker.record(failure);
	}

	/** The elapsed time the run has spent waiting on 429 answers and backoff so far (ms). */
	waitedMs(): number {
		return this.budget.spent();
	}

	/** What is left of the run's waiting budget now (ms). */
	budgetLeft(): number {
		return this.budget.left();
	}

	/** Waits `ms` out of the run's budget (budget.ts `waitOut`). */
	async waitOut(ms: number, httpStatus: number | undefined, reason: WaitReason | boolean) {
		await this.budget.waitOut(ms, httpStatus, reason);
	}

	/** Runs a wait that ends at the user's stop or when the run stops trying (budget.ts). */
	async untilStopped<T>(waiting: (signal: AbortSignal) => Promise<T>): Promise<T> {
		return await this.budget.untilStopped(waiting);
	}
}
