/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The executions n8n stored in its SQLite database, read with the `sqlite3` command-line tool while
 * n8n is down (after a kill, before n8n starts again: its crash recovery then replaces a crashed
 * execution's trigger output with `{"isArtificialRecoveredEventItem":true}`, so only a read before
 * that shows which orders the execution carried).
 *
 * A trigger's items are where n8n put them: on the execution stack as the trigger node's data (an
 * execution created and not run yet), or in the trigger node's run data (once it ran).
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { n8nInstall } from './n8n';

export interface StoredItem {
	json: Record<string, unknown>;
}

export interface StoredExecution {
	id: string;
	workflowId: string;
	status: string;
	mode: string;
	/** The trigger node's output items, first output (empty when n8n kept none). */
	triggerItems: StoredItem[];
}

type Flatted = { parse(text: string): unknown };
let flatted: Flatted | undefined;
const parseFlatted = (text: string) =>
	(flatted ??= createRequire(join(n8nInstall().dir, 'package.json'))('flatted') as Flatted).parse(
		text,
	);

/**
 * `.timeout`: a reading right after a kill may find the database locked for a moment (a reader
 * of the soak's own, or the recovery of the killed n8n's journal): it waits up to 30 s for the
 * lock instead of failing at once (seen once in a 30-minute soak: "database is locked").
 */
function query<T>(databaseFile: string, sql: string): T[] {
	const output = execFileSync('sqlite3', ['-cmd', '.timeout 30000', '-json', databaseFile, sql], {
		encoding: 'utf8',
		maxBuffer: 1 << 30,
	});
	return output.trim() ? (JSON.parse(output) as T[]) : [];
}

interface RunData {
	resultData?: { runData?: Record<string, Array<{ data?: { main?: StoredItem[][] } }>> };
	executionData?: {
		nodeExecutionStack?: Array<{ node?: { name?: string }; data?: { main?: StoredItem[][] } }>;
	};
}

/** The trigger's items: from its last run, else from the stack entry that would run it. */
function triggerItemsOf(data: RunData, triggerName: string): StoredItem[] {
	const runs = data.resultData?.runData?.[triggerName];
	const ran = runs?.[runs.length - 1]?.data?.main?.[0];
	if (ran) return ran;
	const queued = data.executionData?.nodeExecutionStack?.find((e) => e.node?.name === triggerName);
	return queued?.data?.main?.[0] ?? [];
}

/**
 * The executions of `workflowIds` (with their trigger's items; the trigger of each workflow named
 * in `triggers`), except those listed in `skip` (already read in a final state).
 */
export function readStoredExecutions(
	databaseFile: string,
	triggers: Record<string, string>,
	skip: ReadonlySet<string> = new Set(),
): StoredExecution[] {
	const ids = Object.keys(triggers)
		.map((id) => `'${id.replace(/'/g, "''")}'`)
		.join(',');
	const rows = query<{ id: number | string; workflowId: string; status: string; mode: string }>(
		databaseFile,
		`SELECT id, workflowId, status, mode FROM execution_entity WHERE workflowId IN (${ids}) ORDER BY id`,
	).filter((row) => !skip.has(String(row.id)));
	const executions: StoredExecution[] = [];
	// In slices, so that one answer of the tool stays small.
	for (let start = 0; start < rows.length; start += 50) {
		const slice = rows.slice(start, start + 50);
		const data = new Map(
			query<{ executionId: number | string; data: string }>(
				databaseFile,
				`SELECT executionId, data FROM execution_data WHERE executionId IN (${slice.map((r) => Number(r.id)).join(',')})`,
			).map((row) => [String(row.executionId), row.data]),
		);
		for (const row of slice) {
			const text = data.get(String(row.id));
			const parsed = (text ? parseFlatted(text) : {}) as RunData;
			executions.push({
				id: String(row.id),
				workflowId: row.workflowId,
				status: row.status,
				mode: row.mode,
				triggerItems: triggerItemsOf(parsed, triggers[row.workflowId]),
			});
		}
	}
	return executions;
}

/** An execution n8n will not touch again: its status is final and not one crash recovery rewrites. */
export const isSettled = (execution: Pick<StoredExecution, 'status'>) =>
	['success', 'error', 'canceled'].includes(execution.status);
