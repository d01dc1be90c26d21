/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Odd input is typed, never flipped: yes/no fields filled by an expression read "true" and
 * "false" as what they say and refuse anything else; option values outside the options, header
 * names that reach an object's prototype and polling options of any item are refused before
 * anything is sent. Real n8n executions against the emulator.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DELIVERY_HEADER } from '../../dist/nodes/SellerPlatformTrigger/SellerPlatformTrigger.node';
import {
	credentialFields,
	SEEDED_API_USER,
	SEEDED_DESTINATIONS,
	SEEDED_EXPORTS,
	startEmulator,
	type Emulator,
} from '../emulator';
import { chain, createTestEnvironment, type TestEnvironment } from '../helpers';
import { startFixture, workflowWithItems, type Fixture } from './fixture';

let f: Fixture;
beforeAll(async () => {
	f = await startFixture({ ratePlan: null, importStepMs: 20, exportStepMs: 20 });
});
afterAll(async () => await f.close());
beforeEach(() => f.emulator.clearRequests());

const DESTINATION = SEEDED_DESTINATIONS.active;
const UPDATE = { resource: 'destination', operation: 'update', destinationCode: DESTINATION };
const TABLE_IMPORT = {
	resource: 'import',
	operation: 'createBarcode',
	source: 'bqTable',
	bqTable: 'p.d.t',
	clientReference: '={{ $json.ref }}',
};
const requestsOf = (operation: string) =>
	f.emulator.requests().filter((request) => request.operation === operation);
const bodiesOf = (operation: string) => requestsOf(operation).map((r) => r.body as IDataObject);
let refs = 0;
const ref = () => `typed-${++refs}`;

async function run(items: object[], parameters: INodeParameters) {
	const result = await f.env.runWorkflow(workflowWithItems(items, parameters));
	return { result, error: result.nodeError('Seller Platform') };
}

describe('yes/no fields filled by an expression', () => {
	it('Is Active: "true" activates and "false" deactivates, in any case and with spaces', async () => {
		const { error } = await run([{ v: 'true' }, { v: 'FALSE ' }, { v: ' True' }], {
			...UPDATE,
			updateFields: { isActive: '={{ $json.v }}' },
		});
		expect(error).toBeUndefined();
		expect(bodiesOf('UpdateDestination').map((body) => body.is_active)).toEqual([
			true,
			false,
			true,
		]);
	});

	it('Subscribed: "false" unsubscribes, "true" subscribes', async () => {
		const { error } = await run([{ v: 'false' }, { v: 'true' }], {
			...UPDATE,
			updateFields: {
				eventTypes: { eventType: [{ eventType: 'FBPI::ORDER_SYNC', isActive: '={{ $json.v }}' }] },
			},
		});
		expect(error).toBeUndefined();
		expect(bodiesOf('UpdateDestination').map((body) => body.event_types)).toEqual([
			[{ event_type: 'FBPI::ORDER_SYNC', is_active: false }],
			[{ event_type: 'FBPI::ORDER_SYNC', is_active: true }],
		]);
	});

	it('Remove All Headers: "true" removes every header', async () => {
		const { error } = await run([{ v: 'true' }], {
			...UPDATE,
			updateFields: { removeAllHeaders: '={{ $json.v }}' },
		});
		expect(error).toBeUndefined();
		expect(bodiesOf('UpdateDestination')).toEqual([{ credentials: { values: {} } }]);
	});

	it('the import settings and a mapping\'s Force Sync: "true" and "false" as they say', async () => {
		const settings = await run([{ ref: ref(), force: 'true', notify: 'false' }], {
			...TABLE_IMPORT,
			config: { forceSync: '={{ $json.force }}', isNotificationRequired: '={{ $json.notify }}' },
		});
		expect(settings.error).toBeUndefined();
		const mapping = await run([{ ref: ref(), force: 'TRUE' }], {
			...TABLE_IMPORT,
			source: 'items',
			itemsInput: 'defineBelow',
			mappings: {
				mapping: [{ partnerSku: 'SKU-1', barcode: '12345678', forceSync: '={{ $json.force }}' }],
			},
		});
		expect(mapping.error).toBeUndefined();
		const [first, second] = bodiesOf('CreateBarcodeImport');
		expect(first.config).toEqual({ force_sync: true, is_notification_required: false });
		expect(second.items).toEqual({
			data: [{ partner_sku: 'SKU-1', barcode: '12345678', force_sync: true }],
		});
	});

	it('Wait for Completion and Download File: "true" waits and downloads', async () => {
		const added = f.emulator.addExport();
		const { result, error } = await run([{ v: 'true' }], {
			resource: 'export',
			operation: 'getStatus',
			exportCode: added.export_code,
			options: {
				waitForCompletion: '={{ $json.v }}',
				download: '={{ $json.v }}',
				pollIntervalSeconds: 0.1,
				timeoutSeconds: 20,
			},
		});
		expect(error).toBeUndefined();
		const [out] = result.outputs('Seller Platform');
		expect(out.json).toMatchObject({ export_status: 'COMPLETE', waitTimedOut: false });
		expect(out.binary?.data?.fileName).toMatch(/\.csv$/);
		expect(requestsOf('DownloadExport')).toHaveLength(1);
	});

	const odd: Array<[string, INodeParameters, string]> = [
		[
			'Is Active "yes"',
			{ ...UPDATE, updateFields: { isActive: '={{ "yes" }}' } },
			'The field "Is Active" (isActive) must be true or false, got the text "yes"',
		],
		[
			'Subscribed "no"',
			{
				...UPDATE,
				updateFields: {
					eventTypes: { eventType: [{ eventType: 'FBPI::ORDER_SYNC', isActive: '={{ "no" }}' }] },
				},
			},
			'"Subscribed" (isActive) of the event type "FBPI::ORDER_SYNC" in "Event Types" (eventTypes) must be true or false, got the text "no"',
		],
		[
			'Remove All Headers 1',
			{ ...UPDATE, updateFields: { removeAllHeaders: '={{ 1 }}' } },
			'The field "Remove All Headers" (removeAllHeaders) must be true or false, got 1',
		],
		[
			'Force Sync of the import settings "on"',
			{ ...TABLE_IMPORT, clientReference: 'odd-1', config: { forceSync: '={{ "on" }}' } },
			'The setting "Force Sync" (forceSync) must be true or false, got the text "on"',
		],
		[
			'Notify on Completion null',
			{
				...TABLE_IMPORT,
				clientReference: 'odd-2',
				config: { isNotificationRequired: '={{ null }}' },
			},
			'The setting "Notify on Completion" (isNotificationRequired) must be true or false, got null',
		],
		[
			'a mapping\'s Force Sync "y"',
			{
				...TABLE_IMPORT,
				clientReference: 'odd-3',
				source: 'items',
				itemsInput: 'defineBelow',
				mappings: { mapping: [{ partnerSku: 'S', barcode: '1', forceSync: '={{ "y" }}' }] },
			},
			'The Force Sync (forceSync) of Mapping 1 of "Mappings" (mappings) must be true or false, got the text "y"',
		],
		[
			'Wait for Completion "maybe"',
			{
				resource: 'import',
				operation: 'getStatus',
				reference: 'r-1',
				options: { waitForCompletion: '={{ "maybe" }}' },
			},
			'The option "Wait for Completion" (waitForCompletion) must be true or false, got the text "maybe"',
		],
		[
			'Download File "1"',
			{
				resource: 'export',
				operation: 'getStatus',
				exportCode: SEEDED_EXPORTS.complete,
				options: { download: '={{ "1" }}' },
			},
			'The option "Download File" (download) must be true or false, got the text "1"',
		],
	];

	it.each(odd)(
		'refuses %s, naming the field, before anything is sent',
		async (_, parameters, message) => {
			const { error } = await run([{}], parameters);
			expect(error?.message).toBe(message);
			expect(f.emulator.requests()).toHaveLength(0);
		},
	);
});

describe('option values that are none of the options', () => {
	it('refuses a Private Key Output of "None" before the key is created', async () => {
		const { error } = await run([{}], {
			resource: 'apiCredential',
			operation: 'create',
			userCode: SEEDED_API_USER.userCode,
			options: { privateKeyOutput: 'None' },
		});
		expect(error?.message).toBe(
			'The option "Private Key Output" (privateKeyOutput) must be one of "json", "binary", "none", got the text "None"',
		);
		expect(f.emulator.requests()).toHaveLength(0);
	});

	it('refuses a Mappings Input that is none of its options', async () => {
		const { error } = await run([{ sku: 'S', barcode: '1' }], {
			...TABLE_IMPORT,
			clientReference: 'odd-input',
			source: 'items',
			itemsInput: 'fromInputs',
			mappings: { mapping: [{ partnerSku: 'S', barcode: '1' }] },
		});
		expect(error?.message).toBe(
			'The parameter "Mappings Input" (itemsInput) must be one of "fromInputItems", "defineBelow", got the text "fromInputs"',
		);
		expect(f.emulator.requests()).toHaveLength(0);
	});
});

describe('header names that reach an object prototype', () => {
	it.each(['__proto__', 'constructor', 'prototype'])(
		'refuses the header name %s and leaves every header of the destination as it is',
		async (name) => {
			const before = f.emulator.destinations().find((d) => d.destination_code === DESTINATION);
			const { error } = await run([{}], {
				...UPDATE,
				updateFields: { headers: { header: [{ name, value: 'x' }] } },
			});
			expect(error?.message).toBe(
				`A header name in "Headers" (headers) cannot be "${name}": the names __proto__, constructor, prototype are reserved`,
			);
			expect(f.emulator.requests()).toHaveLength(0);
			const after = f.emulator.destinations().find((d) => d.destination_code === DESTINATION);
			expect(after?.credentials).toEqual(before?.credentials);
		},
	);
});

describe('polling options, checked for every item', () => {
	const STATUS = { resource: 'import', operation: 'getStatus', reference: '={{ $json.ref }}' };

	it('refuses a poll interval below 0.1 s in any item, before anything is sent', async () => {
		const { error } = await run(
			[
				{ ref: 'a', interval: 1 },
				{ ref: 'b', interval: 0.05 },
			],
			{ ...STATUS, options: { pollIntervalSeconds: '={{ $json.interval }}' } },
		);
		expect(error?.message).toBe(
			'The option "Poll Interval (Seconds)" (pollIntervalSeconds) must be at least 0.1, got 0.05',
		);
		expect(f.emulator.requests()).toHaveLength(0);
	});

	it('refuses a timeout that is not finite in any item; "continue on fail" keeps the others', async () => {
		const result = await f.env.runWorkflow(
			workflowWithItems(
				[
					{ ref: 'a', timeout: 5 },
					{ ref: 'b', timeout: 'one / zero' },
					{ ref: 'c', timeout: 'Infinity' },
				],
				{
					...STATUS,
					options: {
						timeoutSeconds: '={{ $json.timeout === "one / zero" ? 1 / 0 : $json.timeout }}',
					},
				},
				{ continueOnFail: true },
			),
		);
		const out = result.json('Seller Platform');
		expect(out[1].error).toBe(
			'The option "Timeout (Seconds)" (timeoutSeconds) must be a number, got Infinity',
		);
		expect(out[2].error).toBe(
			'The option "Timeout (Seconds)" (timeoutSeconds) must be a number, got the text "Infinity"',
		);
		expect(requestsOf('GetImportStatus').map((r) => r.path.split('/').pop())).toEqual(['a']);
	});

	it('waits a poll interval longer than a timer takes without polling early (sleep never gets more than 2^31-1 ms)', async () => {
		const started = await f.env.startExecution(
			workflowWithItems([{}], {
				resource: 'export',
				operation: 'getStatus',
				exportCode: SEEDED_EXPORTS.pending,
				// 3,000,000 s = 3e9 ms: beyond what one timer takes.
				options: { waitForCompletion: true, pollIntervalSeconds: 3e6, timeoutSeconds: 1e7 },
			}),
		);
		// After the first poll, however long the run took to reach it: an interval cut to a timer's
		// 1 ms fallback would poll again within a few ms, hundreds of times in 0.5 s.
		while (requestsOf('GetExportStatus').length < 1)
			await new Promise((resolve) => setTimeout(resolve, 20));
		await new Promise((resolve) => setTimeout(resolve, 500));
		const polls = requestsOf('GetExportStatus').length;
		started.cancel();
		await started.finished;
		expect(polls).toBe(1);
	});
});

describe('Seller Platform Trigger', () => {
	const TRIGGER = 'Seller Platform Trigger';
	let emulator: Emulator;
	let env: TestEnvironment;
	beforeEach(async () => {
		emulator = await startEmulator();
		env = createTestEnvironment();
		env.addCredential('cred-1', 'sellerPlatformApi', credentialFields(emulator));
	});
	afterEach(async () => {
		await env.close();
		await emulator.close();
	});

	const workflow = (parameters: INodeParameters) => ({
		id: 'typed-trigger',
		nodes: [
			{
				name: TRIGGER,
				type: 'sellerPlatformTrigger',
				parameters: { destinationCode: DESTINATION, events: ['FBPI::ORDER_SYNC'], ...parameters },
				credentials: { sellerPlatformApi: 'cred-1' },
			},
			{ name: 'Received', type: 'testNoOp' },
		],
		connections: chain(TRIGGER, 'Received'),
	});
	const updates = () => emulator.requests().filter((r) => r.operation === 'UpdateDestination');

	it('Drop Duplicate Deliveries "false": a repeated delivery starts the workflow again', async () => {
		const handle = await env.activateWorkflow(workflow({ options: { deduplicate: 'false' } }));
		const { registration } = handle.staticData()[`node:${TRIGGER}`] as {
			registration: { secret: string };
		};
		const delivery = { event_type: 'FBPI::ORDER_SYNC', metadata: { message_id: 'm-1' } };
		for (let i = 0; i < 2; i++) {
			const response = await fetch(handle.webhookUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json', [DELIVERY_HEADER]: registration.secret },
				body: JSON.stringify(delivery),
			});
			expect(response.status).toBe(200);
		}
		await handle.settled();
		expect(handle.executions).toHaveLength(2);
		await handle.deactivate();
	});

	const refused: Array<[string, INodeParameters, string]> = [
		[
			'a Drop Duplicate Deliveries of "maybe"',
			{ options: { deduplicate: 'maybe' } },
			'The option "Drop Duplicate Deliveries" (deduplicate) must be true or false, got the text "maybe"',
		],
		[
			'Events given as one text',
			{ events: 'FBPI::ORDER_SYNC' },
			'The parameter "Events" (events) must be a list, got the text "FBPI::ORDER_SYNC"',
		],
		[
			'a Destination Code that is an object',
			{ destinationCode: { code: DESTINATION } },
			'The parameter "Destination Code" (destinationCode) must be text, got an object',
		],
	];

	it.each(refused)(
		'refuses %s at activation, before the destination is touched',
		async (_, parameters, message) => {
			await expect(env.activateWorkflow(workflow(parameters))).rejects.toThrow(message);
			expect(updates()).toHaveLength(0);
		},
	);
});
