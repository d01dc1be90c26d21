/**
 * Review of issue 44's changes (Read Rows From a CSV File, the webhook trigger's
 * possibleDuplicate mark) against the real emulator: each test fails on the code as merged.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	pendingRecords,
	recentDeliveries,
} from '../../dist/nodes/SellerPlatformTrigger/deliveries';
import { DELIVERY_HEADER } from '../../dist/nodes/SellerPlatformTrigger/registration';
import { startNewLifeForTests } from '../../dist/nodes/shared';
import { SEEDED_DESTINATIONS, SEEDED_WAREHOUSES, type RequestLogEntry } from '../emulator';
import { workflowWithFiles } from './csvFiles';
import { startFixture, type Fixture } from './fixture';
import { Activations, ORDER_SYNC, TRIGGER, triggerWorkflow } from './triggerFixture';

const NODE = 'Seller Platform';
const DXB = SEEDED_WAREHOUSES.dubai;
const STOCK_CSV: INodeParameters = {
	resource: 'stock',
	operation: 'update',
	mappingMode: 'csvFile',
};
const HOUR = 60 * 60_000;

describe('review44: the webhook trigger possibleDuplicate mark', () => {
	let f: Fixture;
	const activations = new Activations();
	beforeEach(async () => {
		f = await startFixture();
	});
	afterEach(async () => {
		await activations.closeAll();
		await f.env.close();
		await f.close();
	});

	it('a fresh delivery whose body carries its own "possibleDuplicate" comes without the mark ("the field is absent otherwise")', async () => {
		startNewLifeForTests(HOUR);
		const handle = await activations.activate(f.env, triggerWorkflow());
		const secret = f.emulator
			.destinations()
			.find((d) => d.destination_code === SEEDED_DESTINATIONS.active)!.credentials[DELIVERY_HEADER];
		const body = {
			event_schema_version: '1.0',
			event_type: ORDER_SYNC,
			possibleDuplicate: true,
			metadata: {
				message_id: 'review44-own-mark',
				project_code: f.emulator.projectCode,
				published_at: new Date().toISOString(),
			},
			payload: { order_nr: 'FBPI-4402' },
		};
		const response = await fetch(handle.webhookUrl, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', [DELIVERY_HEADER]: secret },
			body: JSON.stringify(body),
		});
		expect(response.status).toBe(200);
		const [execution] = await handle.waitForExecutions(1);
		expect(execution.json(TRIGGER)[0].possibleDuplicate).toBeUndefined();
	});
});
