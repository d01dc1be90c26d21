/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Second review of the tools' refusals: FBPI Order → Get Many's check of a warehouse code
 * against the credential's kept warehouse list (transport/warehouses.ts `knownWarehouses`, the
 * operation's `refuseUnknownWarehouse`), the naming of the model's argument in a refusal
 * (parameters/source.ts `withArguments`), and the advice for a model. Attacked as a hostile or
 * confused model, a co-tenant with a server of its own, a workflow author with odd `$fromAI`
 * parameters and another implementation of the service, through n8n's tool invocation against
 * the emulator.
 *
 * Each FINDING was a defect (its test failed before the fix); the others pin what
 * the review found sound.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SEEDED_WAREHOUSES } from '../emulator';
import { TEST_TOOL_CALLER_NODE_TYPE } from '../helpers';
import { WAREHOUSE_LISTS } from '../../dist/nodes/shared/transport/warehouses';
import { callTool, CREDENTIAL_ID, startFixture, workflowWithItems, type Fixture } from './fixture';

/** FBPI Order → Get Many as a tool, its warehouse code and Created After from the model. */
const fbpiOrders = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'fbpiOrder',
	operation: 'getMany',
	warehouseCode: {
		__rl: true,
		mode: 'id',
		value: "={{ $fromAI('warehouse_code', 'A warehouse code', 'string') }}",
	},
	returnAll: false,
	limit: 50,
	filters: { createdAfter: "={{ $fromAI('created_after', 'An ISO 8601 time', 'string') }}" },
	options: {},
	...extra,
});

/** A range without orders: a warehouse of the project answers "[]" for it. */
const NO_ORDERS = '9000-01-01T00:00:00Z';

const listReads = (f: Fixture) =>
	f.emulator.requests().filter((r) => r.operation === 'ListWarehouses');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts one execution of the Tool Caller with the tool (for two executions at once). */
const startToolCall = (f: Fixture, parameters: INodeParameters, calls: IDataObject[]) =>
	f.env.startExecution(
		{
			nodes: [
				{
					name: 'Tool Caller',
					type: TEST_TOOL_CALLER_NODE_TYPE,
					parameters: { calls: JSON.stringify(calls) },
				},
				{
					name: 'Orders',
					type: 'sellerPlatformTool',
					typeVersion: 1.1,
					parameters,
					credentials: { sellerPlatformApi: CREDENTIAL_ID },
				},
			],
			connections: { Orders: { ai_tool: [[{ node: 'Tool Caller', type: 'ai_tool', index: 0 }]] } },
		},
		{ startNode: 'Tool Caller' },
	);

// Each test has its own emulator, so its own credential and kept list (the kept lists are
// keyed by the login identity, Base URL included); no test waits for a list to expire.
let f: Fixture;
beforeEach(async () => {
	f = await startFixture({ ratePlan: null });
});
afterEach(async () => await f.close());

describe('review 2: the warehouse check as a hostile or confused model', () => {
	it('many made-up codes cost one ListWarehouses read, each refused in a short message (sound)', async () => {
		const made = ['WH-FAKE-1', 'wh-dxb-01', 'x'.repeat(10_000), 'WH-FAKE-2', 'WH-DXB-01 '];
		const { answers } = await callTool(
			f,
			'Orders',
			fbpiOrders(),
			made.map((code) => ({ warehouse_code: code, created_after: '' })),
		);
		expect(answers.slice(0, 4).map((a) => a.error)).toEqual(
			Array(4).fill(expect.stringMatching(/not a warehouse of this project/)),
		);
		for (const answer of answers) expect(String(answer.error).length).toBeLessThan(500);
		// Trimmed, the last one is a warehouse of the project: its orders come back.
		expect(answers[4].result).toMatch(/^\[/);
		expect(listReads(f)).toHaveLength(1);
	});

	// FINDING, fixed (medium). The check turns a failed ListWarehouses into the call's failure: a
	// warehouse of the project with no orders in the range gets "injected fault: HTTP 503 …
	// operation ListWarehouses" instead of "[]", though its orders were read. The model learns
	// neither that the order list was read nor that only a side check failed.
	it('a warehouse of the project with no orders still answers "[]" while ListWarehouses fails', async () => {
		f.emulator.injectFaults({ count: 100, status: 503, operation: 'ListWarehouses' });
		const { answers } = await callTool(f, 'Orders', fbpiOrders(), [
			{ warehouse_code: SEEDED_WAREHOUSES.dubai, created_after: NO_ORDERS },
		]);
		expect(answers[0]).toEqual({ tool: 'Orders', result: '[]' });
	}, 60_000);

	// FINDING, fixed (medium). A failed read is dropped at once, so while ListWarehouses fails (or is
	// throttled) every later empty list reads it again, with its retries: 4 requests and about
	// 7 s per call. A model that retries spends the 30-per-minute plan the editor's warehouse
	// list and Warehouse → Get Many share, and every call is slow.
	it('while ListWarehouses fails, a second empty list does not read it again', async () => {
		f.emulator.injectFaults({ count: 100, status: 503, operation: 'ListWarehouses' });
		await callTool(f, 'Orders', fbpiOrders(), [
			{ warehouse_code: 'WH-MADE-UP-1', created_after: '' },
			{ warehouse_code: 'WH-MADE-UP-2', created_after: '' },
		]);
		// One read with its retries (4 requests) serves both calls; today: 8.
		expect(listReads(f).length).toBeLessThanOrEqual(4);
	}, 60_000);

	// FINDING, fixed (medium). Callers asking at once share one read, run under the first caller's
	// execution: when that execution is stopped (the editor's stop, an MCP client gone), the other
	// execution's call fails with "The execution was stopped … The user stopped the execution",
	// though nobody stopped it and its warehouse is the project's.
	it("one execution's stop does not fail another execution's call that shares the read", async () => {
		f.emulator.injectFaults({ count: 1, delayMs: 3000, operation: 'ListWarehouses' });
		const first = await startToolCall(f, fbpiOrders(), [
			{ warehouse_code: 'WH-MADE-UP', created_after: '' },
		]);
		await sleep(800);
		const second = await startToolCall(f, fbpiOrders(), [
			{ warehouse_code: SEEDED_WAREHOUSES.dubai, created_after: NO_ORDERS },
		]);
		await sleep(500);
		first.cancel();
		const [, answer] = (await second.finished).json('Tool Caller');
		await first.finished.catch(() => undefined);
		await sleep(2000); // the delayed answer ends before the emulator closes
		expect(answer).toEqual({ tool: 'Orders', result: '[]' });
	}, 30_000);
});

describe('the warehouse check: the limit docs/ai-assistant.md states', () => {
	// "a warehouse created in the last 5 minutes may be refused until the list is read again": the
	// kept list's clock is moved on, not waited for.
	it('a warehouse created after the list was read is refused until the kept list is 5 minutes old, then answers "[]"', async () => {
		const made = await callTool(f, 'Orders', fbpiOrders(), [
			{ warehouse_code: 'WH-MADE-UP', created_after: '' },
		]);
		expect(made.answers[0].error).toMatch(/not a warehouse of this project/);
		const [{ warehouse_code: created }] = f.emulator.addWarehouses({ count: 1, prefix: 'WH-NEW' });
		const call = [{ warehouse_code: created, created_after: '' }];
		const clock = WAREHOUSE_LISTS.now;
		let movedMs = WAREHOUSE_LISTS.lifetimeMs - 60_000; // 4 minutes later
		WAREHOUSE_LISTS.now = () => clock() + movedMs;
		try {
			const kept = await callTool(f, 'Orders', fbpiOrders(), call);
			expect(kept.answers[0].error).toMatch(/not a warehouse of this project/);
			expect(listReads(f)).toHaveLength(1);
			movedMs = WAREHOUSE_LISTS.lifetimeMs; // 5 minutes later
			const read = await callTool(f, 'Orders', fbpiOrders(), call);
			expect(read.answers[0]).toEqual({ tool: 'Orders', result: '[]' });
			expect(listReads(f)).toHaveLength(2);
		} finally {
			WAREHOUSE_LISTS.now = clock;
		}
	});
});

describe('review 2: the warehouse check against other servers', () => {
	it("a co-tenant's server listing a code never makes it a warehouse of another credential (sound)", async () => {
		const other = await startFixture({ ratePlan: null });
		try {
			const [{ warehouse_code: theirs }] = other.emulator.addWarehouses({
				count: 1,
				prefix: 'WH-THEIRS',
			});
			// The co-tenant's list is read and kept first (same n8n process, same kept lists).
			const own = await callTool(other, 'Orders', fbpiOrders(), [
				{ warehouse_code: theirs, created_after: '' },
			]);
			expect(own.answers[0].result).toEqual('[]');
			const { answers } = await callTool(f, 'Orders', fbpiOrders(), [
				{ warehouse_code: theirs, created_after: '' },
			]);
			expect(answers[0].error).toMatch(/not a warehouse of this project/);
			expect(listReads(f)).toHaveLength(1);
		} finally {
			await other.close();
		}
	});

	// FINDING, fixed (low; the bound predates the check, the check makes it costly). The kept lists drop
	// the oldest first beyond `maxEntries` warehouses in all (20,000): a co-tenant whose own server
	// lists 10,000 warehouses per credential evicts every other credential's list with two
	// credentials, and each empty order list of theirs reads ListWarehouses again (their plan: 30
	// per minute). `maxEntries` is lowered to 12 here (lists of 5 and 15) to stand for it.
	it("a co-tenant's large lists do not evict another credential's kept list", async () => {
		const other = await startFixture({ ratePlan: null });
		other.emulator.addWarehouses({ count: 10 });
		const bound = WAREHOUSE_LISTS.maxEntries;
		WAREHOUSE_LISTS.maxEntries = 12;
		try {
			const made = { warehouse_code: 'WH-MADE-UP', created_after: '' };
			await callTool(f, 'Orders', fbpiOrders(), [made]);
			await callTool(other, 'Orders', fbpiOrders(), [made]);
			await callTool(f, 'Orders', fbpiOrders(), [made]);
			expect(listReads(f)).toHaveLength(1);
		} finally {
			WAREHOUSE_LISTS.maxEntries = bound;
			await other.close();
		}
	});

	it('a ListWarehouses error that echoes the session never reaches the model: the empty list stands', async () => {
		f.emulator.injectFaults({ count: 1, status: 400, echo: true, operation: 'ListWarehouses' });
		const { answers } = await callTool(f, 'Orders', fbpiOrders(), [
			{ warehouse_code: 'WH-MADE-UP', created_after: '' },
		]);
		expect(answers[0]).toEqual({ tool: 'Orders', result: '[]' });
	});

	// FINDING, fixed (low). A read stops after `maxPages` pages (20 of the reference's 500: 10,000
	// warehouses; fewer with a service that pages smaller) and the kept list is taken as whole: a
	// warehouse of the project beyond it, with no orders, is refused as "not a warehouse of this
	// project". The page cap is lowered to 1 here to stand for such a project.
	it('a warehouse beyond the pages read is not refused as unknown', async () => {
		f.emulator.addWarehouses({ count: 500 });
		const [{ warehouse_code: last }] = f.emulator.addWarehouses({ count: 1, prefix: 'WH-LAST' });
		WAREHOUSE_LISTS.maxPages = 1;
		try {
			const { answers } = await callTool(f, 'Orders', fbpiOrders(), [
				{ warehouse_code: last, created_after: '' },
			]);
			expect(answers[0]).toEqual({ tool: 'Orders', result: '[]' });
		} finally {
			WAREHOUSE_LISTS.maxPages = 20;
		}
	});

	// FINDING, fixed (low). A service whose codes differ only in case (WH-a and WH-A): "wh-A" is told
	// "the project has WH-a", the first case-insensitive match, not the one it is closest to nor
	// both.
	it('codes that differ only in case are all named in the refusal', async () => {
		const listed = (code: string) => ({
			warehouse_code: code,
			display_name: code,
			fulfillment_system_code: 'FBPI',
			is_active: true,
		});
		f.emulator.injectFaults({
			count: 1,
			operation: 'ListWarehouses',
			answer: { set: { warehouses: [listed('WH-a'), listed('WH-A')] } },
		});
		const { answers } = await callTool(f, 'Orders', fbpiOrders(), [
			{ warehouse_code: 'wh-A', created_after: '' },
		]);
		expect(answers[0].error).toContain('"WH-A"');
	});
});

describe('review 2: naming the model argument, with odd $fromAI parameters', () => {
	// FINDING, fixed (low). The first "(word)" of the message is taken for the parameter's name: a display
	// name with a word in parentheses ("Timeout (Seconds)", "Actual Weight (Kg)") hides it, and the
	// model is not told which of its arguments was refused.
	it('an option whose display name has parentheses is named by its argument', async () => {
		const parameters = fbpiOrders({
			options: { timeoutSeconds: "={{ $fromAI('timeout_s', 'Seconds', 'number') }}" },
		});
		const { answers } = await callTool(f, 'Orders', parameters, [
			{ warehouse_code: SEEDED_WAREHOUSES.dubai, created_after: '', timeout_s: 0 },
		]);
		expect(answers[0].error).toMatch(/Timeout \(Seconds\).*must be above 0/);
		expect(answers[0].error).toContain('timeout_s');
	});

	// FINDING, fixed (low). Two $fromAI in one parameter (a date and a time): only the first key is
	// named, so a model whose "time" was wrong is told to fix "day".
	it('a parameter made of two arguments names both', async () => {
		const parameters = fbpiOrders({
			filters: {
				createdAfter:
					"={{ $fromAI('day', 'YYYY-MM-DD', 'string') + 'T' + $fromAI('time', 'HH:mm:ssZ', 'string') }}",
			},
		});
		const { answers } = await callTool(f, 'Orders', parameters, [
			{ warehouse_code: SEEDED_WAREHOUSES.dubai, day: '2026-01-31', time: 'noon' },
		]);
		expect(answers[0].error).toContain('"day"');
		expect(answers[0].error).toContain('"time"');
	});

	it('a value that looks like a parameter name is never rewritten; the refused one is (sound)', async () => {
		const { answers } = await callTool(f, 'Orders', fbpiOrders(), [
			{ warehouse_code: SEEDED_WAREHOUSES.dubai, created_after: '(warehouseCode)' },
		]);
		expect(answers[0].error).toContain(
			'"Created After" (createdAfter, the argument "created_after") must be a date and time, got the text "(warehouseCode)". Give an ISO 8601',
		);
	});
});

describe('review 2: runs that are not a tool (sound)', () => {
	it('a refused date keeps the editor message and advice, and an unknown code lists nothing without ListWarehouses', async () => {
		const bad = await f.env.runWorkflow(
			workflowWithItems([{}], {
				resource: 'fbpiOrder',
				operation: 'getMany',
				warehouseCode: { __rl: true, mode: 'id', value: SEEDED_WAREHOUSES.dubai },
				filters: { createdAfter: '31/01/2026' },
			}),
		);
		expect(bad.error?.message).toMatch(/^The field "Created After" \(createdAfter\) must be/);
		expect(bad.error?.description).toMatch(/^Pick a date/);
		const unknown = await f.env.runWorkflow(
			workflowWithItems([{}], {
				resource: 'fbpiOrder',
				operation: 'getMany',
				warehouseCode: { __rl: true, mode: 'id', value: 'WH-MADE-UP' },
			}),
		);
		expect(unknown.error?.message).toBeUndefined();
		expect(listReads(f)).toHaveLength(0);
	});
});
