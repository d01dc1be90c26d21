/**
 * What n8n shows in the output panel after a run (`addExecutionHints`, n8n 1.79 and later): one
 * sentence per fact, with its numbers, none when nothing happened. Warnings for what needs the
 * user's action (failed items, waits that timed out, things created before a failure), info for
 * the rest. Never a secret: only counts, durations, shares, error messages (already redacted)
 * and the names the run's errors give of what it created.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeExecutionHint,
} from 'n8n-workflow';

import { loginsDuringRun, runPolicy } from '../../shared';
import { timeoutOption } from './options';

/** What the run met (runner.ts gathers it from the outputs and the run's policy). */
export interface RunSummary {
	outputs: INodeExecutionData[];
	/** What the run created before its first failed item (with "continue on fail"). */
	createdBeforeFailure: string[];
	/** 429 answers, the elapsed time waited on them and on backoff, the lowest share paced at. */
	rateLimited: number;
	waitedMs: number;
	lowestShare: number;
	/** Logins of the run's credential while it ran. */
	logins: number;
	/** Notes of the items that succeeded (a field that could not be read), one per item and note. */
	notes?: string[];
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
const percent = (share: number) => `${Math.round(share * 100)} %`;

/** An output item of "continue on fail" for a failed input: `{ error, details }`. */
const isErrorItem = ({ json }: INodeExecutionData) =>
	typeof json.error === 'string' &&
	Object.keys(json).every((key) => key === 'error' || key === 'details');

const hint = (type: 'info' | 'warning', message: string): NodeExecutionHint => ({
	type,
	message,
	location: 'outputPane',
});

function throttlingHints({ rateLimited, waitedMs, lowestShare }: RunSummary): NodeExecutionHint[] {
	const hints: NodeExecutionHint[] = [];
	if (rateLimited > 0) {
		hints.push(
			hint(
				'info',
				`The Seller Platform API answered ${count(rateLimited, '429 (too many requests)', '429s (too many requests)')}; the run waited ${seconds(waitedMs)} in all and repeated the requests`,
			),
		);
	}
	if (lowestShare < 0.995) {
		hints.push(
			hint(
				'info',
				`The run was paced at down to ${percent(lowestShare)} of the rate plan, as others (other n8n processes or integrations) use the same plan`,
			),
		);
	}
	return hints;
}

function itemHints({ outputs, createdBeforeFailure }: RunSummary): NodeExecutionHint[] {
	const hints: NodeExecutionHint[] = [];
	const failed = outputs.filter(isErrorItem);
	if (failed.length) {
		hints.push(
			hint(
				'warning',
				`${count(failed.length, 'item')} of ${outputs.length} failed and ${failed.length === 1 ? 'is in the output as an error item' : 'are in the output as error items'}; the first: ${String(failed[0].json.error)}`,
			),
		);
	}
	if (failed.length && createdBeforeFailure.length) {
		hints.push(
			hint(
				'warning',
				`${count(createdBeforeFailure.length, 'object was', 'objects were')} created before the first failure, and ${createdBeforeFailure.length === 1 ? 'is' : 'are'} in the output: ${createdBeforeFailure.join(', ')}`,
			),
		);
	}
	const flagged = (field: string) =>
		outputs.filter(({ json }) => (json as IDataObject)[field] === true).length;
	const timedOut = flagged('waitTimedOut');
	if (timedOut) {
		hints.push(
			hint(
				'warning',
				`The wait for completion ended at its timeout for ${count(timedOut, 'item')} (waitTimedOut: true): the job may still be running; raise "${timeoutOption.displayName}" or ask for its status later`,
			),
		);
	}
	// Imports only: a shipment found again carries its own note (fbpiShipment/create.operation.ts).
	const found = outputs.filter(
		({ json }) => json.alreadyExisted === true && json.import_reference !== undefined,
	).length;
	if (found) {
		hints.push(
			hint(
				'info',
				`${count(found, 'import was', 'imports were')} found instead of created (alreadyExisted: true): the same request (same source, settings and mappings) was accepted under ${found === 1 ? 'its' : 'their'} client reference before`,
			),
		);
	}
	return hints;
}

/** One hint per note of the run's items, with the count of items it applies to. */
function noteHints(notes: string[] = []): NodeExecutionHint[] {
	const counts = new Map<string, number>();
	for (const note of notes) counts.set(note, (counts.get(note) ?? 0) + 1);
	return [...counts].map(([note, n]) => hint('info', `For ${count(n, 'item')}, ${note}`));
}

/** The run's hints, in the order: items, waits, notes, throttling, logins. */
export function runHints(summary: RunSummary): NodeExecutionHint[] {
	const hints = [...itemHints(summary), ...noteHints(summary.notes), ...throttlingHints(summary)];
	if (summary.logins > 0) {
		hints.push(
			hint('info', `The credential logged in ${count(summary.logins, 'time')} during this run`),
		);
	}
	return hints;
}

/** Adds the run's execution hints; n8n before 1.79 has no hints and gets none. */
export function addRunHints(
	ctx: IExecuteFunctions,
	outputs: INodeExecutionData[],
	createdBeforeFailure: Array<{ item: number; name: string }>,
	notes: string[] = [],
) {
	if (typeof ctx.addExecutionHints !== 'function') return;
	const policy = runPolicy(ctx);
	const hints = runHints({
		outputs,
		createdBeforeFailure: createdBeforeFailure
			.sort((a, b) => a.item - b.item)
			.map((entry) => entry.name),
		rateLimited: policy.facts.rateLimited,
		waitedMs: policy.waitedMs(),
		lowestShare: policy.facts.lowestShare,
		logins: loginsDuringRun(policy),
		notes,
	});
	if (hints.length) ctx.addExecutionHints(...hints);
}
