/**
 * Bad input never reaches the network: every rejected condition of every operation fails with a
 * NodeOperationError naming the parameter and the rule, and the emulator receives nothing.
 */
import type { INodeParameters } from 'n8n-workflow';

import { startFixture, workflowWithItems, type Fixture } from './fixture';

let f: Fixture;
beforeAll(async () => {
	f = await startFixture({ ratePlan: null });
});
afterAll(async () => await f.close());
beforeEach(() => f.emulator.clearRequests());

const CREDENTIAL = { resource: 'apiCredential', operation: 'create' };
const IMPORT = { resource: 'import', operation: 'createBarcode', clientReference: 'ref-1' };
const SANDBOX = {
	resource: 'fbpiOrder',
	operation: 'createSandbox',
	warehouseCode: 'WH-1',
	items: { item: [{ status: 'MP_ITEM_STATUS_CONFIRMED', partnerSku: '' }] },
};
const DESTINATION = { resource: 'destination', operation: 'update', destinationCode: 'DEST-1' };
const mapping = (partnerSku: string, barcode: string) => ({
	partnerSku,
	barcode,
	forceSync: false,
});

const cases: Array<[string, INodeParameters, string | RegExp]> = [
	// Path parameters
	[
		'a blank PO number',
		{ resource: 'purchaseOrder', operation: 'get', poNr: '={{ "   " }}' },
		'The parameter "PO Number" (poNr) must not be empty',
	],
	[
		'a PO number of ".."',
		{ resource: 'purchaseOrder', operation: 'get', poNr: '..' },
		'The parameter "PO Number" (poNr) cannot be ".."',
	],
	[
		'a blank FBPI order number',
		{ resource: 'fbpiOrder', operation: 'getCustomerData', fbpiOrderNr: '={{ $json.missing }}' },
		'The parameter "FBPI Order Number" (fbpiOrderNr) must not be empty',
	],
	[
		'a blank import reference',
		{ resource: 'import', operation: 'getStatus', reference: '={{ " " }}' },
		'The parameter "Reference" (reference) must not be empty',
	],
	[
		'a blank destination code',
		{ ...DESTINATION, destinationCode: '={{ "" }}' },
		'The parameter "Destination Code" (destinationCode) must not be empty',
	],
	[
		'a blank export code',
		{ resource: 'export', operation: 'getStatus', exportCode: '={{ "" }}' },
		'The parameter "Export Code" (exportCode) must not be empty',
	],
	[
		'a blank access token',
		{ resource: 'oauth', operation: 'exchangeToken', accessToken: '={{ "" }}' },
		'The parameter "Access Token" (accessToken) must not be empty',
	],

	// CreateCredential
	[
		'neither user code nor channel identifier',
		{ ...CREDENTIAL },
		'Set "User Code" (userCode) or "Channel Identifier" (channelIdentifier): at least one is required',
	],
	[
		'a blank user code',
		{ ...CREDENTIAL, userCode: '={{ "  " }}', channelIdentifier: 'a@p1.idp.noon.partners' },
		'The parameter "User Code" (userCode) must not be blank when it is set',
	],
	[
		'a blank channel identifier',
		{ ...CREDENTIAL, channelIdentifier: '={{ " \\t" }}' },
		'The parameter "Channel Identifier" (channelIdentifier) must not be blank when it is set',
	],
	[
		'11 whitelisted IPs',
		{
			...CREDENTIAL,
			userCode: 'U1',
			whitelistedIps: Array.from({ length: 11 }, (_, i) => `10.0.0.${i + 1}`).join(','),
		},
		'The parameter "Whitelisted IPs" (whitelistedIps) lists 11 addresses, at most 10 are allowed',
	],
	[
		'an entry that is not an IP address',
		{ ...CREDENTIAL, userCode: 'U1', whitelistedIps: '10.0.0.1\n300.1.1.1' },
		'The parameter "Whitelisted IPs" (whitelistedIps) holds "300.1.1.1", which is not an IPv4 or IPv6 address',
	],
	[
		'an IPv6 entry with two "::"',
		{ ...CREDENTIAL, userCode: 'U1', whitelistedIps: '2001:db8::1::2' },
		/holds "2001:db8::1::2", which is not an IPv4 or IPv6 address/,
	],
	[
		'an expiry that does not parse',
		{ ...CREDENTIAL, userCode: 'U1', expiresAt: 'next tuesday' },
		/^The parameter "Expires At" \(expiresAt\) is not a valid date and time/,
	],

	// CreateBarcodeImport
	[
		'zero sources (no mappings)',
		{ ...IMPORT, source: 'items', itemsInput: 'defineBelow', mappings: {} },
		'The parameter "Mappings" (mappings) needs at least one mapping: an import needs exactly one source',
	],
	[
		'an unknown source',
		{ ...IMPORT, source: 'both' },
		/^The parameter "Source" \(source\) must be one of items, fileUrl, bqTable/,
	],
	[
		'an empty client reference',
		{ ...IMPORT, clientReference: '={{ "" }}', source: 'bqTable', bqTable: 'p.d.t' },
		'The parameter "Client Reference" (clientReference) must not be empty',
	],
	[
		'a client reference over 100 characters',
		{ ...IMPORT, clientReference: 'x'.repeat(101), source: 'bqTable', bqTable: 'p.d.t' },
		'The parameter "Client Reference" (clientReference) must be at most 100 characters, got 101',
	],
	[
		'a mapping without partner_sku',
		{
			...IMPORT,
			source: 'items',
			itemsInput: 'defineBelow',
			mappings: { mapping: [mapping('SKU-1', '123'), mapping('', '456')] },
		},
		'Mapping 2 of "Mappings" (mappings) has no Partner SKU (partner_sku): every mapping needs partner_sku and barcode',
	],
	[
		'a mapping without barcode',
		{
			...IMPORT,
			source: 'items',
			itemsInput: 'defineBelow',
			mappings: { mapping: [mapping('SKU-1', ' ')] },
		},
		'Mapping 1 of "Mappings" (mappings) has no Barcode (barcode): every mapping needs partner_sku and barcode',
	],
	[
		'a file URL that is not http(s) or cloud storage',
		{ ...IMPORT, source: 'fileUrl', fileUrl: 'ftp://example.com/a.csv' },
		'The parameter "File URL" (fileUrl) must be an http(s) address or a cloud storage path (gs://bucket/file, s3://bucket/file)',
	],
	[
		'an empty file URL',
		{ ...IMPORT, source: 'fileUrl', fileUrl: '={{ "" }}' },
		'The parameter "File URL" (fileUrl) must not be empty',
	],
	[
		'an empty table',
		{ ...IMPORT, source: 'bqTable', bqTable: '={{ "" }}' },
		'The parameter "Data Warehouse Table" (bqTable) must not be empty',
	],

	// CreateSandboxOrder
	['no items', { ...SANDBOX, items: {} }, 'The parameter "Items" (items) needs at least one item'],
	[
		'an item status other than confirmed/cancelled',
		{ ...SANDBOX, items: { item: [{ status: 'MP_ITEM_STATUS_UNSPECIFIED' }] } },
		'Item 1 of "Items" (items) has the status "MP_ITEM_STATUS_UNSPECIFIED", but it must be one of MP_ITEM_STATUS_CONFIRMED, MP_ITEM_STATUS_CANCELLED',
	],
	[
		'an idempotency key over 10 characters',
		{ ...SANDBOX, idempotencyKey: 'abcdefghijk' },
		'The parameter "Idempotency Key" (idempotencyKey) must be at most 10 characters, got 11',
	],
	[
		'an unknown country code',
		{ ...SANDBOX, countryCode: 'fr' },
		'The parameter "Country Code" (countryCode) must be one of ae, sa, eg, got "fr"',
	],
	[
		'a blank warehouse code',
		{ ...SANDBOX, warehouseCode: '={{ " " }}' },
		'The parameter "Warehouse Code" (warehouseCode) must not be empty',
	],

	// UpdateDestination
	[
		'an event type not NAMESPACE::EVENT_NAME',
		{
			...DESTINATION,
			updateFields: { eventTypes: { eventType: [{ eventType: 'ORDER_SYNC', isActive: true }] } },
		},
		'The event type "ORDER_SYNC" in "Event Types" (eventTypes) must have the form NAMESPACE::EVENT_NAME, e.g. FBPI::ORDER_SYNC',
	],
	[
		'a lower-case event type',
		{
			...DESTINATION,
			updateFields: {
				eventTypes: { eventType: [{ eventType: 'fbpi::order_sync', isActive: true }] },
			},
		},
		/The event type "fbpi::order_sync"/,
	],
	[
		'a URL that is not https',
		{ ...DESTINATION, updateFields: { url: 'http://example.com/hook' } },
		'The field "URL" (url) must be an https:// address, got "http://example.com/hook"',
	],
	[
		'headers and remove-all-headers together',
		{
			...DESTINATION,
			updateFields: {
				headers: { header: [{ name: 'X-Secret', value: 's' }] },
				removeAllHeaders: true,
			},
		},
		'Set either "Headers" (headers) or "Remove All Headers" (removeAllHeaders), not both',
	],
	[
		'an invalid header name',
		{ ...DESTINATION, updateFields: { headers: { header: [{ name: 'X Secret', value: 's' }] } } },
		'The header name "X Secret" in "Headers" (headers) is not a valid HTTP header name',
	],
	[
		'a run option that is not a number of its kind (read once per run)',
		{ resource: 'purchaseOrder', operation: 'get', poNr: 'PO-1', options: { concurrency: -1 } },
		/^The option "Concurrency" \(concurrency\)/,
	],
	[
		'a long invalid header name, quoted short and escaped',
		{
			...DESTINATION,
			updateFields: { headers: { header: [{ name: `X\n${'y'.repeat(10_000)}`, value: 's' }] } },
		},
		`The header name "X\\n${'y'.repeat(38)}…" in "Headers" (headers) is not a valid HTTP header name`,
	],
	[
		'a long URL that is not https, quoted short',
		{ ...DESTINATION, updateFields: { url: `http://example.com/${'a'.repeat(60_000)}` } },
		`The field "URL" (url) must be an https:// address, got "http://example.com/${'a'.repeat(21)}…"`,
	],
];

describe.each(cases)('rejects %s before any request', (_name, parameters, message) => {
	it('fails the node with a message naming the parameter and the rule', async () => {
		const result = await f.env.runWorkflow(workflowWithItems([{ a: 1 }], parameters));
		expect(result.status).toBe('error');
		const error = result.nodeError('Seller Platform');
		if (typeof message === 'string') expect(error?.message).toBe(message);
		else expect(error?.message).toMatch(message);
		expect(f.emulator.requests()).toHaveLength(0);
	});

	it('with "continue on fail", gives one paired error item and still sends nothing', async () => {
		const result = await f.env.runWorkflow(
			workflowWithItems([{ a: 1 }, { a: 2 }], parameters, { continueOnFail: true }),
		);
		const out = result.outputs('Seller Platform');
		expect(out).toHaveLength(2);
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		for (const item of out) {
			if (typeof message === 'string') expect(item.json.error).toBe(message);
			else expect(item.json.error).toMatch(message);
		}
		expect(f.emulator.requests()).toHaveLength(0);
	});
});

describe('values that must differ between the items of a run', () => {
	const parameters: INodeParameters = {
		...IMPORT,
		source: 'bqTable',
		bqTable: 'p.d.t',
		clientReference: '={{ $json.ref }}',
	};
	const items = [{ ref: 'r-1' }, { ref: 'r-2' }, { ref: 'r-1' }];

	it('rejects a repeated client reference before any request', async () => {
		const result = await f.env.runWorkflow(workflowWithItems(items, parameters));
		expect(result.nodeError('Seller Platform')?.message).toBe(
			'The parameter "Client Reference" (clientReference) of item 2 repeats the value "r-1" of item 0: every import needs its own client_reference',
		);
		expect(f.emulator.requests()).toHaveLength(0);
	});

	it('with "continue on fail", fails only the repeating item', async () => {
		const result = await f.env.runWorkflow(
			workflowWithItems(items, parameters, { continueOnFail: true }),
		);
		const out = result.outputs('Seller Platform');
		expect(out.map((o) => o.json.client_reference ?? o.json.error)).toEqual([
			'r-1',
			'r-2',
			expect.stringContaining('repeats the value "r-1" of item 0'),
		]);
		expect(f.emulator.requests().filter((r) => r.operation === 'CreateBarcodeImport')).toHaveLength(
			2,
		);
	});
});

describe('a client reference that leaves no room for the suffix of split imports', () => {
	it('is refused before any request when the input items make more than one import', async () => {
		const items = Array.from({ length: 10_001 }, (_, i) => ({ sku: `S-${i}`, code: `${i}` }));
		const parameters: INodeParameters = {
			...IMPORT,
			source: 'items',
			itemsInput: 'fromInputItems',
			partnerSkuField: 'sku',
			barcodeField: 'code',
			clientReference: 'x'.repeat(99),
		};
		const result = await f.env.runWorkflow(workflowWithItems(items, parameters));
		expect(result.nodeError('Seller Platform')?.message).toBe(
			'The parameter "Client Reference" (clientReference) must leave room for the suffix of split imports: at most 98 characters, got 99',
		);
		expect(f.emulator.requests()).toHaveLength(0);
	});
});
