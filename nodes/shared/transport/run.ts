/**
 * The registry of node runs: what one run of a node keeps while it lasts, keyed by the run's
 * context object (n8n drops it at the end of the run): its limits (pacing/policy.ts `RunPolicy`),
 * the rate plan its last request used (the automatic concurrency follows it), a login of the run
 * that timed out, and the logins of its credential during the run (its hints).
 */
import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { loginFingerprint } from '../auth/login';
import { sessions } from '../auth/session';
import { RunPolicy } from '../pacing/policy';
import { PACING, type PlanLimiter } from '../pacing/rateLimiter';

/**
 * The context of a node run that sends requests: its key in this registry. For a poll, the
 * context of `pollRun`: n8n hands every poll of an active trigger the same `IPollFunctions`.
 */
export type RequestContext =
	IExecuteFunctions | IHookFunctions | ILoadOptionsFunctions | IPollFunctions | IWebhookFunctions;

/**
 * The limits of each run (`runPolicy`, `setRunLimits`), keyed by the run's context.
 * Bound: weak, gone with the run's context.
 */
const policies = new WeakMap<object, RunPolicy>();

/**
 * The rate plan the last request of each run used (`suggestedConcurrency`), keyed by the run's
 * context. Bound: weak, gone with the run's context.
 */
const lastLimiters = new WeakMap<object, PlanLimiter>();

/**
 * A login of the run that timed out, keyed by the run's policy: the run's later requests fail
 * with its error instead of waiting for another login. Bound: weak, gone with the policy (and so
 * with the run).
 */
const loginTimeouts = new WeakMap<RunPolicy, Error>();

/**
 * The run's limits (pacing/policy.ts): those the node set for this run (`setRunLimits`, from its
 * options), or the defaults. A stop of the execution ends the run's waits.
 */
export function runPolicy(ctx: RequestContext): RunPolicy {
	let policy = policies.get(ctx);
	if (!policy) {
		const cancel = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal?.() : undefined;
		policy = new RunPolicy(cancel);
		policies.set(ctx, policy);
	}
	return policy;
}

/**
 * The context one poll sends its requests with: n8n gives every poll of an active poll trigger
 * the same `IPollFunctions` (n8n-core `PollTriggerExecutor`), so keyed by it, the activation would
 * be one endless run (the credential read once, a login time-out failing every later poll). This
 * is a fresh object over it (its prototype: every method and helper is n8n's own), one per poll,
 * whose waits on 429 answers and backoff stay within `waitingBudgetMs` (n8n gives up on a poll
 * that runs past its own budget and drops what it found).
 */
export function pollRun(ctx: IPollFunctions, waitingBudgetMs: number): IPollFunctions {
	const run = Object.create(ctx) as IPollFunctions;
	policies.set(run, RunPolicy.forPoll(waitingBudgetMs));
	return run;
}

/** Sets the run's limits from the node's options, before its first request. */
export function setRunLimits(
	ctx: IExecuteFunctions,
	limits: { waitingBudgetMs: number; circuitBreakerLimit: number },
) {
	const cancel = ctx.getExecutionCancelSignal?.();
	policies.set(ctx, new RunPolicy(cancel, limits.waitingBudgetMs, limits.circuitBreakerLimit));
}

/** Notes the rate plan the run's latest request uses. */
export function noteRunLimiter(ctx: RequestContext, limiter: PlanLimiter) {
	lastLimiters.set(ctx, limiter);
}

/**
 * Requests in flight that keep the rate plan of this node run busy (the automatic concurrency):
 * from the plan the run's last request used, or the initial value before its first request.
 */
export function suggestedConcurrency(ctx: RequestContext): number {
	const limiter = lastLimiters.get(ctx);
	return limiter ? limiter.suggestedConcurrency() : PACING.initialConcurrency;
}

/** The login of the run that timed out, if one did. */
export function loginTimedOut(policy: RunPolicy): Error | undefined {
	return loginTimeouts.get(policy);
}

/** Remembers that the run's login timed out. */
export function noteLoginTimedOut(policy: RunPolicy, error: Error) {
	loginTimeouts.set(policy, error);
}

/** The run's first request notes its credential's count of logins (the run's hints). */
export function noteLoginIdentity(policy: RunPolicy, data: ICredentialDataDecryptedObject) {
	if (policy.facts.login) return;
	const identity = loginFingerprint(data);
	policy.facts.login = { identity, before: sessions.loginsDone.get(identity) ?? 0 };
}

/** The logins of the run's credential since its first request (its hints). */
export function loginsDuringRun(policy: RunPolicy): number {
	const login = policy.facts.login;
	return login ? Math.max(0, (sessions.loginsDone.get(login.identity) ?? 0) - login.before) : 0;
}
