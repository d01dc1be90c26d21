/**
 * CSV files for the tests of Read Rows From a CSV File (csvFile.test.ts, csvFileDisk.test.ts) and
 * the workflow that hands them to the node as binary data (the `testFiles` node).
 */
import type { INodeParameters } from 'n8n-workflow';

import { SEEDED_WAREHOUSES } from '../emulator';
import { chain, type TestNode, type TestWorkflow } from '../helpers';
import { CREDENTIAL_ID } from './fixture';

const NODE = 'Seller Platform';
const DXB = SEEDED_WAREHOUSES.dubai;
const RUH = SEEDED_WAREHOUSES.riyadh;

export const sku = (n: number) => `SKU-${String(n).padStart(6, '0')}`;

/** A stock file: header, then `rows` rows (a BOM, CRLF, quoted fields and a column to ignore). */
export function stockCsv(
	rows: number,
	edit: (n: number, cells: string[]) => string[] = (_, c) => c,
) {
	const lines = ['\uFEFFwarehouse_code,partner_sku,title,qty'];
	for (let n = 0; n < rows; n++) {
		const cells = [
			n % 2 ? RUH : DXB,
			sku(n),
			`"Mug, ""white"" ${n}\nsecond line"`,
			String(n % 500),
		];
		lines.push(edit(n, cells).join(','));
	}
	return `${lines.join('\r\n')}\r\n`;
}

/** The line a data row starts on: the header is line 1, each stock row's title holds a line break. */
export const lineOfRow = (n: number) => 2 + 2 * n;

export function workflowWithFiles(
	files: Array<{ text: string; base64?: string; fileName?: string; field?: string }>,
	parameters: INodeParameters,
	nodeSettings: Partial<TestNode> = {},
): TestWorkflow {
	return {
		nodes: [
			{ name: 'Files', type: 'testFiles', parameters: { files: files as unknown as string } },
			{
				name: NODE,
				type: 'sellerPlatform',
				parameters,
				credentials: { sellerPlatformApi: CREDENTIAL_ID },
				...nodeSettings,
			},
		],
		connections: chain('Files', NODE),
	};
}
