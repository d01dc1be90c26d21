/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The batch operations (shapes/batch.ts) against a broken or malicious service and hostile input,
 * through real n8n runs against the emulator (a review of the batch operations): what a row's failure status
 * echoes never shows a secret; an answer that speaks of one row twice never turns a refusal into a
 * success; the Mapping Column Mode of each item is read as it says.
 */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SEEDED_WAREHOUSES } from '../emulator';
import { CREDENTIAL_ID, startFixture, workflowWithItems, type Fixture } from './fixture';

const NODE = 'Seller Platform';
const DXB = SEEDED_WAREHOUSES.dubai;
const AUTO = 'autoMapInputData';
const STOCK_AUTO: INodeParameters = { resource: 'stock', operation: 'update', mappingMode: AUTO };

let f: Fixture;
beforeEach(async () => {
	f = await startFixture({ ratePlan: null });
});
afterEach(async () => await f.close());

const stockRows = (n: number) =>
	Array.from({ length: n }, (_, i) => ({ warehouse_code: DXB, partner_sku: `S-${i}`, qty: i }));

/** A row of an UpdateStock answer with a status. */
const answerRow = (sku: string, status: IDataObject) => ({
	warehouse_code: DXB,
	partner_sku: sku,
	status,
});
const OK = { status_id: 0, status_code: 'OK', message: '' };
const refused = (message: string, details: unknown[] = []) => ({
	status_id: 9,
	status_code: 'FAILED_PRECONDITION',
	message,
	details,
});

/** The next UpdateStock answers with these rows (the operation itself runs as usual). */
const answerWith = (items: IDataObject[]) =>
	f.emulator.injectFaults({ count: 1, operation: 'UpdateStock', answer: { set: { items } } });

describe('a row failure status that echoes the session', () => {
	it('shows none of the session cookie, in the message or the details, with or without continue on fail', async () => {
		// A first run logs in: the credential holds the session from then on.
		await f.env.runWorkflow(workflowWithItems(stockRows(1), STOCK_AUTO));
		const cookie = String(f.env.credentialData(CREDENTIAL_ID).sessionCookie);
		const values = cookie.split('; ').map((pair) => pair.slice(pair.indexOf('=') + 1));
		expect(values).toHaveLength(2);
		const echoing = () =>
			answerWith([
				answerRow('S-0', refused(`session ${cookie} refused`, [{ session: values[1] }])),
				answerRow('S-1', OK),
			]);

		echoing();
		const kept = await f.env.runWorkflow(
			workflowWithItems(stockRows(2), STOCK_AUTO, { continueOnFail: true }),
		);
		const [failed, passed] = kept.outputs(NODE);
		expect(failed.json.error).toBe(
			'The service refused the row of item 0 (warehouse "WH-DXB-01", SKU "S-0"): session <redacted> refused (FAILED_PRECONDITION)',
		);
		expect((failed.json.details as IDataObject).service_details).toEqual([
			{ session: '<redacted>' },
		]);
		expect(passed.json).toEqual({ warehouse_code: DXB, partner_sku: 'S-1', qty: 1 });

		echoing();
		const stopped = await f.env.runWorkflow(workflowWithItems(stockRows(2), STOCK_AUTO));
		const error = stopped.nodeError(NODE) as Error & { description?: string; context?: object };
		expect(error.message).toContain('session <redacted> refused');

		const seen =
			JSON.stringify(kept.outputs(NODE)) +
			JSON.stringify(error) +
			error.message +
			String(error.description) +
			JSON.stringify(error.context) +
			JSON.stringify(f.env.logger.entries);
		for (const value of values) expect(seen).not.toContain(value);
	});

	it('shows none of it in the status code either', async () => {
		await f.env.runWorkflow(workflowWithItems(stockRows(1), STOCK_AUTO));
		const cookie = String(f.env.credentialData(CREDENTIAL_ID).sessionCookie);
		const value = cookie.split('; ')[0].split('=')[1];
		answerWith([answerRow('S-0', { ...refused('refused'), status_code: `DENIED sid=${value}` })]);
		const result = await f.env.runWorkflow(
			workflowWithItems(stockRows(1), STOCK_AUTO, { continueOnFail: true }),
		);
		const [failed] = result.outputs(NODE);
		expect(failed.json.error).toContain('DENIED sid=<redacted>');
		expect(JSON.stringify(result.outputs(NODE))).not.toContain(value);
	});
});

describe('an answer that speaks of one row twice', () => {
	it('makes that item an error whatever the order of its answers (a refusal never passes as a success), the other rows as answered', async () => {
		answerWith([
			answerRow('S-0', OK),
			answerRow('S-1', refused('no stock location')),
			answerRow('S-0', refused('no stock location')),
			answerRow('S-2', OK),
			answerRow('S-1', OK),
			answerRow('NOT-SENT', OK),
		]);
		const result = await f.env.runWorkflow(
			workflowWithItems(stockRows(3), STOCK_AUTO, { continueOnFail: true }),
		);
		const out = result.outputs(NODE);
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		for (const item of [0, 1]) {
			expect(out[item].json.error).toBe(
				`The service's answer gave the row of item ${item} (warehouse "WH-DXB-01", SKU "S-${item}") more than once: which of its answers holds is unknown`,
			);
		}
		expect(out[2].json).toEqual({ warehouse_code: DXB, partner_sku: 'S-2', qty: 2 });
		const hints = (result.run.data.resultData.runData[NODE]?.[0]?.hints ?? []).map(
			(hint) => hint.message,
		);
		expect(hints).toContain(
			"The service refused 0 rows (a failure status) and left 0 rows out of its answers and answered 2 rows more than once; each is its item's error",
		);
		expect(hints).toContain("1 row of the service's answers matched no row sent and was ignored");
	});
});

describe('Mapping Column Mode given by an expression', () => {
	it('property: each item is read as its own mode says, whatever the first item says, or refused naming the parameter (any JSON value)', async () => {
		const mode = fc.oneof(
			fc.constantFrom(AUTO, 'defineBelow'),
			fc.constantFrom(AUTO, 'defineBelow'),
			fc.jsonValue({ maxDepth: 1 }),
			fc.constantFrom(' autoMapInputData', 'AUTOMAPINPUTDATA', 'defineBelow ', '', 0, 1, true),
		);
		const parameters: INodeParameters = {
			resource: 'stock',
			operation: 'update',
			mappingMode: '={{ $json.mode }}',
			warehouseCode: { __rl: true, mode: 'id', value: '={{ ($json.wh) }}' },
			partnerSku: '={{ ($json.sku) }}',
			quantity: '={{ $json.n }}',
		};
		let run = 0;
		await fc.assert(
			fc.asyncProperty(fc.array(mode, { minLength: 1, maxLength: 12 }), async (modes) => {
				run++;
				// The item's own fields say one row, the parameters' expressions another.
				const items = modes.map((m, i) => ({
					mode: m,
					warehouse_code: DXB,
					partner_sku: `F-${run}-${i}`,
					qty: 1,
					wh: DXB,
					sku: `P-${run}-${i}`,
					n: 2,
				}));
				const result = await f.env.runWorkflow(
					workflowWithItems(items, parameters, { continueOnFail: true }),
				);
				const out = result.outputs(NODE);
				expect(out.map((o) => o.pairedItem)).toEqual(items.map((_, item) => ({ item })));
				modes.forEach((m, i) => {
					if (m === AUTO)
						expect(out[i].json).toEqual({
							warehouse_code: DXB,
							partner_sku: `F-${run}-${i}`,
							qty: 1,
						});
					else if (m === 'defineBelow')
						expect(out[i].json).toEqual({
							warehouse_code: DXB,
							partner_sku: `P-${run}-${i}`,
							qty: 2,
						});
					else
						expect(out[i].json.error).toMatch(
							/^The parameter "Mapping Column Mode" \(mappingMode\) must be one of "autoMapInputData", "defineBelow", (?:"csvFile", )?got /,
						);
				});
			}),
			{ numRuns: 25, seed: 3636 },
		);
	});
});

describe('stopping the execution while the rows are read', () => {
	it('ends the reading of 20,000 rows mapped by expressions within a moment, having sent nothing', async () => {
		const items = Array.from({ length: 20_000 }, (_, i) => ({ wh: DXB, sku: `S-${i}`, qty: i }));
		const parameters: INodeParameters = {
			resource: 'stock',
			operation: 'update',
			warehouseCode: { __rl: true, mode: 'id', value: '={{ ($json.wh) }}' },
			partnerSku: '={{ ($json.sku) }}',
			quantity: '={{ ($json.qty) }}',
		};
		const started = await f.env.startExecution(workflowWithItems(items, parameters));
		// Reading them takes seconds (20 s and more on a loaded machine): the stop comes during it.
		await new Promise((resolve) => setTimeout(resolve, 1500));
		const stoppedAt = Date.now();
		started.cancel();
		const result = await started.finished;
		expect(result.nodeError(NODE)?.message).toBe('The execution was stopped');
		// Before: the run ended when every row was read (24 s after the stop here, idle).
		expect(Date.now() - stoppedAt).toBeLessThan(3000);
		expect(f.emulator.requests().filter((r) => r.operation === 'UpdateStock')).toHaveLength(0);
	}, 120_000);
});
