/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * One "n8n process" of the sharing benchmark (sharing.ts): a Node process of its own, with its own
 * copy of the package loaded from dist/ by n8n's loader (as a queue-mode worker has), running
 * executions of purchaseOrder/get back to back on one credential until it is told to stop or its
 * time is up. Reports to the parent over IPC: executions, items in and out, failures.
 *
 * argv: JSON { baseUrl, credential, label, seconds, itemsPerExecution, maxExecutions? }
 */
import '../setup/env';

import { credentialFields } from '../emulator';
import { assertSuccess, CREDENTIAL_ID, getPoParameters, itemsWorkflow, nodeRun } from './common';
import { createTestEnvironment } from '../helpers';

/** The purchase order numbers of process i start at i × this. */
export const PROCESS_STRIDE = 10_000_000;

interface WorkerArgs {
	baseUrl: string;
	credential: { key_id: string; private_key: string; project_code: string };
	label: string;
	/** Its purchase orders are PO-BULK-<index × PROCESS_STRIDE + n>: the emulator log tells who sent what. */
	index: number;
	seconds: number;
	itemsPerExecution: number;
	/** At most this many executions (unbounded when absent). */
	maxExecutions?: number;
	requestsPerMinute: number;
}

export interface WorkerReport {
	label: string;
	executions: number;
	itemsIn: number;
	itemsOut: number;
	failures: string[];
}

async function main() {
	const args = JSON.parse(process.argv[2]) as WorkerArgs;
	let stop = false;
	process.on('message', (message) => {
		if ((message as { kind?: string })?.kind === 'stop') stop = true;
	});
	const deadline = Date.now() + args.seconds * 1000;
	const env = createTestEnvironment();
	env.addCredential(
		CREDENTIAL_ID,
		'sellerPlatformApi',
		credentialFields(
			{ baseUrl: args.baseUrl, credential: args.credential as never },
			{ requestsPerMinute: args.requestsPerMinute },
		),
	);
	const report: WorkerReport = {
		label: args.label,
		executions: 0,
		itemsIn: 0,
		itemsOut: 0,
		failures: [],
	};
	let next = 1;
	const more = () => report.executions < (args.maxExecutions ?? Infinity);
	while (!stop && Date.now() < deadline && more()) {
		const items = Array.from({ length: args.itemsPerExecution }, (_, i) => ({
			po: `PO-BULK-${args.index * PROCESS_STRIDE + next + i}`,
		}));
		next += items.length;
		const result = await env.runWorkflow(itemsWorkflow(items, getPoParameters()));
		report.executions++;
		report.itemsIn += items.length;
		try {
			assertSuccess(result, `${args.label} execution ${report.executions}`);
			report.itemsOut += nodeRun(result).items;
		} catch (error) {
			report.failures.push(String((error as Error).message));
		}
	}
	process.send!({ kind: 'report', report }, () => process.exit(0));
}

if (require.main === module) void main();
