/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Workflows saved as JSON (as n8n exports them) run through the kit: what a user builds in the
 * editor, with the package's type names as n8n stores them.
 */
import { join } from 'path';

import { workflowFromFile } from '../helpers';
import { startFixture, type Fixture } from './fixture';

describe('saved workflows', () => {
	let f: Fixture;
	beforeEach(async () => {
		f = await startFixture({ ratePlan: null });
	});
	afterEach(async () => await f.close());

	it('routes found purchase orders and the missing one to their outputs ("continue using error output")', async () => {
		const result = await f.env.runWorkflow(
			workflowFromFile(join(__dirname, 'workflows', 'purchase-orders-with-errors.workflow.json')),
		);
		expect(result.status).toBe('success');
		expect(result.json('Found').map((o) => [o.po_nr, o.po_release_date_iso])).toEqual([
			['PO-1001', '2024-03-15'],
			['PO-1004', null],
		]);
		const [missing] = result.outputs('Not found');
		expect(missing.json.error).toBe('purchase order "PO-MISSING" not found');
		expect(result.outputs('Get purchase order', 1).map((o) => o.pairedItem)).toEqual([{ item: 1 }]);
		expect(f.emulator.stats().logins).toBe(1);
	});
});
