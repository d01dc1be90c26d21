/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * 6. Faults at the service, one scenario each, and what reaches the user: items in, output items,
 * error items, items lost (an input with no output item, or a created thing no output or error
 * names: 0), duplicates created (0), logins and wall time.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { TestEnvironment, WorkflowResult } from '../helpers';
import { benchEnvironment, itemsWorkflow, NODE_NAME, round, timed } from './common';
import { startBenchEmulator, type BenchEmulator } from './emulator';
import type { BenchContext, BenchOutcome, Benchmark, Metric } from './types';

// The kit runs the package from dist/: tune the login time-out of that copy.
const { LOGIN_POLICY } = require('../../dist/nodes/shared/auth/login') as {
	LOGIN_POLICY: { timeoutMs: number };
};

const GET_PO: INodeParameters = {
	resource: 'purchaseOrder',
	operation: 'get',
	poNr: '={{ $json.po }}',
};
const pos = (count: number) =>
	Array.from({ length: count }, (_, i) => ({ po: `PO-BULK-${i + 1}` }));

const workflow = (items: object[], parameters: INodeParameters, continueOnFail = true) =>
	itemsWorkflow(items, parameters, { continueOnFail });

interface Row {
	fault: string;
	itemsIn: number;
	outputs: number;
	errors: number;
	lost: number;
	duplicates: number;
	logins: number;
	ms: number;
	note?: string;
}

async function control(emulator: BenchEmulator, path: string, body: unknown = {}) {
	await fetch(`${emulator.baseUrl}/__control${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
}

const loginCount = async (emulator: BenchEmulator) => (await emulator.arrivals('Login')).length;

/** Runs one scenario and counts what reached the user. */
async function scenario(
	emulator: BenchEmulator,
	fault: string,
	itemsIn: number,
	run: (env: TestEnvironment) => Promise<WorkflowResult>,
	extra: (result: WorkflowResult) => Promise<Partial<Row>> = async () => ({}),
	env: TestEnvironment = benchEnvironment(emulator),
): Promise<Row> {
	const loginsBefore = await loginCount(emulator);
	const { value: result, ms } = await timed(async () => await run(env));
	console.log(`  ${fault}: ${Math.round(ms)} ms`);
	const out = result.run.data.resultData.runData[NODE_NAME]?.[0]?.data?.main?.[0] ?? [];
	const errors = out.filter((item) => item.json.error !== undefined).length;
	return {
		fault,
		itemsIn,
		outputs: out.length,
		errors,
		lost: Math.max(0, itemsIn - out.length),
		duplicates: 0,
		logins: (await loginCount(emulator)) - loginsBefore,
		ms,
		...(await extra(result)),
	};
}

export const faults: Benchmark = {
	id: 'faults',
	async run(context: BenchContext): Promise<BenchOutcome> {
		const emulator = await startBenchEmulator({ latencyMs: 20, ratePlan: null }, context.placement);
		const clearFaults = async () =>
			await fetch(`${emulator.baseUrl}/__control/faults`, { method: 'DELETE' });
		const inject = async (spec: object) => await control(emulator, '/faults', spec);
		const rows: Row[] = [];
		try {
			const env = benchEnvironment(emulator);
			await env.runWorkflow(workflow(pos(1), GET_PO));

			await control(emulator, '/sessions/expire');
			await inject({ count: 10, delayMs: 700, operation: 'GetPurchaseOrder' });
			rows.push(
				await scenario(
					emulator,
					'session expires, 401s spread over 0.7 s',
					20,
					async (e) =>
						await e.runWorkflow(workflow(pos(20), { ...GET_PO, options: { concurrency: 20 } })),
					undefined,
					env,
				),
			);

			// Ten purchase orders under each fault: what it needs first, the faults, a name.
			const reads: Array<{
				fault: string;
				expire?: boolean;
				faults: object[];
				loginTimeoutMs?: number;
			}> = [
				{
					fault:
						'login hangs (time-out 1 s here, 30 s by default): the items waiting on it fail, later ones log in',
					expire: true,
					faults: [{ count: 3, delayMs: 3000, operation: 'Login' }],
					loginTimeoutMs: 1000,
				},
				{
					fault: 'login answers 503 twice',
					expire: true,
					faults: [{ count: 2, status: 503, operation: 'Login' }],
				},
				{
					fault: '429 storm, Retry-After 0 (15 answers)',
					faults: [{ count: 15, status: 429, retryAfter: 0, operation: 'GetPurchaseOrder' }],
				},
				{
					fault: '5xx on reads (8 answers 503)',
					faults: [{ count: 8, status: 503, operation: 'GetPurchaseOrder' }],
				},
				// Last of the reads: the process then remembers the service's hour for a minute (runs
				// fail at once, one request a minute probes), which the next row shows.
				{
					fault: '429 storm, Retry-After 3600 s',
					faults: [{ count: 1000, status: 429, retryAfter: 3600, operation: 'GetPurchaseOrder' }],
				},
				{
					fault:
						'a run right after the storm with Retry-After 3600 s (no fault left): fails at once, saying when, nothing sent',
					faults: [],
				},
			];
			const timeout = LOGIN_POLICY.timeoutMs;
			for (const read of reads) {
				if (read.expire) await control(emulator, '/sessions/expire');
				for (const spec of read.faults) await inject(spec);
				LOGIN_POLICY.timeoutMs = read.loginTimeoutMs ?? timeout;
				const sentBefore = (await emulator.arrivals('GetPurchaseOrder')).length;
				rows.push(
					await scenario(
						emulator,
						read.fault,
						10,
						async (e) => await e.runWorkflow(workflow(pos(10), GET_PO)),
						async () => {
							const sent = (await emulator.arrivals('GetPurchaseOrder')).length - sentBefore;
							return { note: `${sent} GetPurchaseOrder requests sent` };
						},
					),
				);
				LOGIN_POLICY.timeoutMs = timeout;
				await clearFaults();
			}

			const users = ['usr-catalog-sync', 'usr-catalog-sync', 'usr-missing', 'usr-catalog-sync'];
			const creates = await scenario(
				emulator,
				'failure in the middle of creates (API keys, no continue on fail)',
				4,
				async (e) =>
					await e.runWorkflow(
						workflow(
							users.map((user) => ({ user })),
							{ resource: 'apiCredential', operation: 'create', userCode: '={{ $json.user }}' },
							false,
						),
					),
				async (result) => {
					const made = (await emulator.arrivals('CreateCredential')).filter(
						(a) => a.status === 200,
					).length;
					const error = result.run.data.resultData.runData[NODE_NAME]?.[0]?.error as
						{ context?: { created?: string[] } } | undefined;
					const named = error?.context?.created?.length ?? 0;
					return {
						errors: 1,
						lost: Math.max(0, made - named),
						note: `${made} keys made before the failure, ${named} named in the error; item 4 not sent`,
					};
				},
			);
			rows.push(creates);

			const mappings = (count: number) =>
				Array.from({ length: count }, (_, i) => ({ sku: `SKU-${i}`, ean: `${4000000000000 + i}` }));
			const reference = `fault-${Date.now().toString(36)}`;
			const importParameters = {
				resource: 'import',
				operation: 'createBarcode',
				source: 'items',
				itemsInput: 'fromInputItems',
				partnerSkuField: 'sku',
				barcodeField: 'ean',
				clientReference: reference,
			};
			await env.runWorkflow(workflow(mappings(20_000), importParameters));
			rows.push(
				await scenario(
					emulator,
					're-run of a split import after it made 2 of 3 imports',
					25_000,
					async (e) => await e.runWorkflow(workflow(mappings(25_000), importParameters)),
					async (result) => {
						const imports = (await emulator.imports()).filter((i) =>
							String(i.client_reference).startsWith(reference),
						);
						const out = result.run.data.resultData.runData[NODE_NAME]?.[0]?.data?.main?.[0] ?? [];
						const found = out.filter((o) => o.json.alreadyExisted === true).length;
						return {
							lost: 0,
							duplicates: imports.length - 3,
							note: `3 output items (one per import, paired with their 25,000 items), ${found} found, not created again`,
						};
					},
					env,
				),
			);
		} finally {
			await emulator.close();
		}

		const metrics: Metric[] = rows.map((row) => ({
			name: row.fault,
			value: `in ${row.itemsIn} · out ${row.outputs} · errors ${row.errors} · lost ${row.lost} · duplicates ${row.duplicates} · logins ${row.logins} · ${round(row.ms / 1000, 2)} s`,
			target: 'lost 0, duplicates 0',
			met: row.lost === 0 && row.duplicates === 0,
		}));
		return {
			metrics,
			notes: [
				'Each row: input items, output items, error items among them, items lost, duplicates created, Login requests, wall time.',
				...rows.filter((row) => row.note).map((row) => `${row.fault}: ${row.note}`),
			],
			details: { rows },
		};
	},
};
