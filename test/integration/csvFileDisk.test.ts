/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Read Rows From a CSV File with n8n's binary data on disk (`N8N_DEFAULT_BINARY_DATA_MODE=
 * filesystem`, n8n's default outside queue mode): the file is read as a stream from n8n's
 * storage (its binary has an `id`, no base64), every row sent exactly once; the failedRows file
 * is written there too. A file of its own: the mode is set for the whole process.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SEEDED_WAREHOUSES } from '../emulator';
import { useFilesystemBinaryData } from '../helpers';
import { lineOfRow, sku, stockCsv, workflowWithFiles } from './csvFiles';
import { startFixture, type Fixture } from './fixture';

const NODE = 'Seller Platform';
const STOCK_CSV: INodeParameters = {
	resource: 'stock',
	operation: 'update',
	mappingMode: 'csvFile',
};

describe('Read Rows From a CSV File, binary data on disk', () => {
	let f: Fixture;
	let storage: string;
	const saved = { ...process.env };
	beforeAll(async () => {
		storage = mkdtempSync(join(tmpdir(), 'csv-binary-data-'));
		await useFilesystemBinaryData(storage);
	});
	afterAll(() => {
		process.env.N8N_DEFAULT_BINARY_DATA_MODE = saved.N8N_DEFAULT_BINARY_DATA_MODE;
		process.env.N8N_BINARY_DATA_STORAGE_PATH = saved.N8N_BINARY_DATA_STORAGE_PATH;
		rmSync(storage, { recursive: true, force: true });
	});
	beforeEach(async () => {
		f = await startFixture({ ratePlan: null });
	});
	afterEach(async () => await f.close());

	it('Stock → Update, 2,000 rows read from n8n’s storage: each sent once; the failedRows file written there', async () => {
		f.emulator.injectRowFaults({ operation: 'UpdateStock', fail: [{ partner_sku: sku(1234) }] });
		const result = await f.env.runWorkflow(
			workflowWithFiles([{ text: stockCsv(2000) }], STOCK_CSV, { continueOnFail: true }),
		);
		// The input file is on disk: an id, no base64.
		const [input] = result.outputs('Files');
		expect(input.binary!.data.id).toMatch(/^filesystem(-v2)?:/);
		const rows = f.emulator
			.requests()
			.filter((entry) => entry.operation === 'UpdateStock')
			.flatMap((entry) => (entry.body as { items: IDataObject[] }).items);
		expect(rows.map((row) => row.partner_sku)).toEqual(
			Array.from({ length: 2000 }, (_, n) => sku(n)),
		);
		const [out] = result.outputs(NODE);
		expect(out.json).toMatchObject({
			rowsRead: 2000,
			rowsSent: 2000,
			requests: 20,
			rowsApplied: 1999,
			rowsFailed: 1,
		});
		const failedRows = out.binary!.failedRows;
		expect(failedRows.id).toMatch(/^filesystem(-v2)?:/);
		const text = (await Container.get(BinaryDataService).getAsBuffer(failedRows)).toString('utf8');
		expect(text.split('\n')[1]).toMatch(
			new RegExp(`^${lineOfRow(1234)},${SEEDED_WAREHOUSES.dubai},${sku(1234)},`),
		);
	});
});
