/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The batch operations (shapes/batch.ts) against a broken or malicious service and hostile input,
 * through real n8n runs against the emulator (review of issue 36): what a row's failure status
 * echoes never shows a secret; an answer that speaks of one row twice never turns a refusal into a
 * success; the Mapping Column Mode of each item is read as it says.
 */
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
});
