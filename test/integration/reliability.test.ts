/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Faults at the service, injected through the emulator, and what the node does about them: the
 * login neither hangs nor storms, waiting has limits, nothing created is lost, odd input never
 * reaches the network.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

// The kit runs the package as n8n loads it, from dist/: tune the instance it runs.
import { LOGIN_POLICY } from '../../dist/nodes/shared/auth/login';
import { credentialFields, SEEDED_API_USER, SEEDED_WAREHOUSES } from '../emulator';
import { bulkPoItems, GET_PO, startFixture, workflowWithItems, type Fixture } from './fixture';

let f: Fixture;
afterEach(async () => await f?.close());

const requestsOf = (operation: string) =>
	f.emulator.requests().filter((r) => r.operation === operation);

describe('the login', () => {
	const timeout = LOGIN_POLICY.timeoutMs;
	afterEach(() => {
		LOGIN_POLICY.timeoutMs = timeout;
	});

	it('gives up on a login that does not answer within its deadline, without trying again, for every waiting item', async () => {
		f = await startFixture({ ratePlan: null });
		LOGIN_POLICY.timeoutMs = 300;
		// The service answers the login 5 s after it arrives: well after the 0.3 s deadline.
		f.emulator.injectFaults({ count: 3, delayMs: 5000, operation: 'Login' });
		const result = await f.env.runWorkflow(
			workflowWithItems(bulkPoItems(5), GET_PO, { continueOnFail: true }),
		);
		const out = result.outputs('Seller Platform');
		expect(out).toHaveLength(5);
		for (const item of out) {
			expect(item.json.error).toMatch(/timed out: no complete answer within 0.3 s$/);
		}
		expect(requestsOf('Login')).toHaveLength(1);
		expect(requestsOf('GetPurchaseOrder')).toHaveLength(0);
		// The run was over before that late answer (status still null): it did not wait for it. An
		// order, not a time: the 5 s count from the login's arrival, so a slow start does not count.
		expect(requestsOf('Login')[0].status).toBeNull();
	});

	it('tries a login that fails with 503 twice more, then goes on with one session', async () => {
		f = await startFixture({ ratePlan: null });
		f.emulator.injectFaults({ count: 2, status: 503, operation: 'Login' });
		const result = await f.env.runWorkflow(workflowWithItems(bulkPoItems(5), GET_PO));
		expect(result.outputs('Seller Platform')).toHaveLength(5);
		expect(requestsOf('Login')).toHaveLength(3);
		expect(f.emulator.stats().logins).toBe(1);
	});

	it("never waits for another credential's login: one hangs, the other's reads go on", async () => {
		f = await startFixture({ ratePlan: null });
		LOGIN_POLICY.timeoutMs = 3000;
		// A gateway that takes the connection and never answers: the login of the first credential hangs.
		let reached = false;
		const silent = createServer(() => {
			reached = true;
		});
		await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
		const { port } = silent.address() as AddressInfo;
		f.env.addCredential(
			'hung',
			'sellerPlatformApi',
			credentialFields(f.emulator, { baseUrl: `http://127.0.0.1:${port}` }),
		);
		try {
			const hung = workflowWithItems(bulkPoItems(2), GET_PO, { continueOnFail: true });
			hung.nodes[1].credentials = { sellerPlatformApi: 'hung' };
			let hungOver = false;
			const hanging = f.env.runWorkflow(hung).finally(() => {
				hungOver = true;
			});
			while (!reached) await new Promise((resolve) => setTimeout(resolve, 20));
			const result = await f.env.runWorkflow(workflowWithItems(bulkPoItems(5), GET_PO));
			expect(result.outputs('Seller Platform')).toHaveLength(5);
			// Done while the hung login still waits out its 3 s deadline (this run takes about 0.2 s
			// idle): an order, not a time. Waiting for that login would end this run after it.
			expect(hungOver).toBe(false);
			const stuck = await hanging;
			expect(stuck.outputs('Seller Platform')[0].json.error).toMatch(/login at .* timed out/);
		} finally {
			silent.closeAllConnections();
			silent.close();
		}
	}, 60_000);

	it('costs one new login when the session expires, however the 401s are spread over time', async () => {
		f = await startFixture({ ratePlan: null });
		await f.env.runWorkflow(workflowWithItems(bulkPoItems(1), GET_PO));
		expect(requestsOf('Login')).toHaveLength(1);
		f.emulator.expireSessions();
		// Half the requests are answered (401) long after the other half made the new login.
		f.emulator.injectFaults({ count: 5, delayMs: 700, operation: 'GetPurchaseOrder' });
		const result = await f.env.runWorkflow(
			workflowWithItems(bulkPoItems(10), { ...GET_PO, options: { concurrency: 10 } }),
		);
		expect(result.outputs('Seller Platform')).toHaveLength(10);
		const unauthorized = requestsOf('GetPurchaseOrder').filter((r) => r.status === 401);
		// The 5 held back answer 401 after the new login; requests not yet sent when that login
		// started wait for it and go with the new session.
		expect(unauthorized.length).toBeGreaterThanOrEqual(6);
		expect(requestsOf('Login')).toHaveLength(2);
	});
});

describe('waiting has limits', () => {
	it('fails an item at once when Retry-After is beyond the waiting budget, saying when to come back', async () => {
		f = await startFixture({ ratePlan: null });
		f.emulator.injectFaults({
			count: 1,
			status: 429,
			retryAfter: 3600,
			operation: 'GetPurchaseOrder',
		});
		const started = Date.now();
		const result = await f.env.runWorkflow(
			workflowWithItems([{ po: 'PO-BULK-1' }], GET_PO, { continueOnFail: true }),
		);
		const [item] = result.outputs('Seller Platform');
		expect(item.json.error).toMatch(
			/takes requests again at \d{4}-\d\d-\d\dT[\d:.]+Z \(Retry-After 3600 s\), beyond this run's waiting budget/,
		);
		expect(item.json.details).toMatchObject({ httpCode: '429' });
		// Idle about 0.1 s; waiting for the Retry-After would take the hour (a hang).
		expect(Date.now() - started).toBeLessThan(5000);
		expect(requestsOf('GetPurchaseOrder')).toHaveLength(1);
	});

	it('ends every item of the run at once when the service asks for a wait beyond the budget, the items waiting for a slot included', async () => {
		f = await startFixture({ ratePlan: null });
		f.emulator.injectFaults({
			count: 1000,
			status: 429,
			retryAfter: 3600,
			operation: 'GetPurchaseOrder',
		});
		const started = Date.now();
		const result = await f.env.runWorkflow(
			workflowWithItems(bulkPoItems(10), GET_PO, { continueOnFail: true }),
		);
		const out = result.outputs('Seller Platform');
		expect(out).toHaveLength(10);
		for (const item of out) {
			expect(item.json.error).toMatch(/\(Retry-After 3600 s\), beyond this run's waiting budget/);
		}
		// Before: the items queued for a slot waited out the plan's pause (60 s) one after the other.
		expect(Date.now() - started).toBeLessThan(5000);
		expect(requestsOf('GetPurchaseOrder').length).toBeLessThan(10);
	});

	it('fails the items at once on a Retry-After beyond any date, saying so, keeps the item that succeeded, and leaves other credentials alone', async () => {
		f = await startFixture({ ratePlan: null });
		// The first request is answered (a moment late), every later one 429 with 10^13 s: a date
		// beyond what JavaScript can name ("Invalid time value" before).
		f.emulator.injectFaults({ count: 1, delayMs: 1, operation: 'GetPurchaseOrder' });
		f.emulator.injectFaults({
			count: 1000,
			status: 429,
			retryAfter: 10_000_000_000_000,
			operation: 'GetPurchaseOrder',
		});
		const message =
			"The Seller Platform API takes requests again only after Retry-After 10000000000000 s, beyond any date, beyond this run's waiting budget";
		const started = Date.now();
		const result = await f.env.runWorkflow(
			workflowWithItems(
				bulkPoItems(4),
				{ ...GET_PO, options: { concurrency: 1 } },
				{ continueOnFail: true },
			),
		);
		const out = result.outputs('Seller Platform');
		expect(out).toHaveLength(4);
		expect(out[0].json).toMatchObject({ po_nr: 'PO-BULK-1' });
		for (const item of out.slice(1)) {
			expect(item.json.error).toBe(message);
			expect(item.json.details).toMatchObject({ httpCode: '429' });
			expect(JSON.stringify(item.json)).not.toContain('Invalid time value');
		}
		// All at once: before, each item waited the plan's 60 s pause in turn.
		expect(Date.now() - started).toBeLessThan(5000);
		expect(requestsOf('GetPurchaseOrder')).toHaveLength(2);

		// Then, in the same process: without "continue on fail" the node fails with that message.
		const again = await f.env.runWorkflow(workflowWithItems(bulkPoItems(3, 10), GET_PO));
		expect(again.nodeError('Seller Platform')?.message).toMatch(
			/takes requests again only after its Retry-After to an earlier request: \d+ s from now, beyond any date/,
		);
		expect(requestsOf('GetPurchaseOrder')).toHaveLength(2);
		// Another credential (another project, so another plan) is not held up at all.
		f.emulator.clearFaults();
		const other = await f.emulator.addCredential({ projectCode: 'PRJ-OTHER' });
		f.env.addCredential(
			'cred-other',
			'sellerPlatformApi',
			credentialFields({ baseUrl: f.emulator.baseUrl, credential: other }),
		);
		const workflow = workflowWithItems(bulkPoItems(3, 20), GET_PO);
		workflow.nodes[1].credentials = { sellerPlatformApi: 'cred-other' };
		const startedOther = Date.now();
		const theirs = await f.env.runWorkflow(workflow);
		expect(theirs.nodeError('Seller Platform')?.message).toBeUndefined();
		expect(theirs.outputs('Seller Platform')).toHaveLength(3);
		// Idle about 0.1 s; sharing the first plan's wait, it would wait beyond any date (a hang).
		expect(Date.now() - startedOther).toBeLessThan(5000);
	});

	it('fails a later run at once while the last Retry-After reaches beyond its budget, quoting the time and sending nothing', async () => {
		f = await startFixture({ ratePlan: null });
		f.emulator.injectFaults({
			count: 1,
			status: 429,
			retryAfter: 86_400,
			operation: 'GetPurchaseOrder',
		});
		const first = await f.env.runWorkflow(
			workflowWithItems(bulkPoItems(1), GET_PO, { continueOnFail: true }),
		);
		const [refused] = first.outputs('Seller Platform');
		const said = /takes requests again at (\S+) \(Retry-After 86400 s\)/.exec(
			String(refused.json.error),
		);
		expect(said).not.toBeNull();
		const until = Date.parse(said![1]);
		expect(requestsOf('GetPurchaseOrder')).toHaveLength(1);

		const started = Date.now();
		const second = await f.env.runWorkflow(
			workflowWithItems(bulkPoItems(3, 10), GET_PO, { continueOnFail: true }),
		);
		// Before: it waited the plan's 60 s pause, then sent a probe, before it learnt anything.
		expect(Date.now() - started).toBeLessThan(5000);
		const out = second.outputs('Seller Platform');
		expect(out).toHaveLength(3);
		for (const item of out) {
			const error = String(item.json.error);
			const quoted =
				/takes requests again at (\S+) \(its Retry-After to an earlier request: \d+ s from now\), beyond this run's waiting budget$/.exec(
					error,
				);
			expect(quoted).not.toBeNull();
			expect(Math.abs(Date.parse(quoted![1]) - until)).toBeLessThan(1000);
			expect((item.json.details as { description: string }).description).toContain(
				'Nothing was sent',
			);
		}
		expect(requestsOf('GetPurchaseOrder')).toHaveLength(1);
	});

	it('still backs off on Retry-After: 0', async () => {
		f = await startFixture({ ratePlan: null });
		f.emulator.injectFaults({
			count: 1,
			status: 429,
			retryAfter: 0,
			operation: 'GetPurchaseOrder',
		});
		await f.env.runWorkflow(workflowWithItems([{ po: 'PO-BULK-1' }], GET_PO));
		const [first, second] = requestsOf('GetPurchaseOrder');
		expect(first.status).toBe(429);
		expect(second.status).toBe(200);
		expect(second.at - first.at).toBeGreaterThanOrEqual(240);
	});

	it('stops the run after consecutive failures across items, without sending the rest', async () => {
		f = await startFixture({ ratePlan: null });
		f.emulator.injectFaults({ count: 100, status: 503, operation: 'GetPurchaseOrder' });
		const result = await f.env.runWorkflow(
			workflowWithItems(
				bulkPoItems(10),
				{ ...GET_PO, options: { concurrency: 1, stopAfterFailures: 5 } },
				{ continueOnFail: true },
			),
		);
		const out = result.outputs('Seller Platform');
		expect(out).toHaveLength(10);
		expect(out[0].json.details).toMatchObject({ httpCode: '503' });
		for (const item of out.slice(1)) {
			expect(item.json.error).toBe(
				'Stopped after 5 consecutive failed answers (HTTP 503) from the Seller Platform API',
			);
		}
		expect(requestsOf('GetPurchaseOrder')).toHaveLength(5);
	});
});

describe('nothing created is lost', () => {
	it('creates API keys one at a time in input order, and stops at the first failure naming the keys made', async () => {
		f = await startFixture({ ratePlan: null });
		const users = [
			SEEDED_API_USER.userCode,
			SEEDED_API_USER.userCode,
			'usr-missing',
			SEEDED_API_USER.userCode,
		];
		const keysBefore =
			f.emulator.apiUsers().find((u) => u.user_code === SEEDED_API_USER.userCode)?.key_count ?? 0;
		const result = await f.env.runWorkflow(
			workflowWithItems(
				users.map((user) => ({ user })),
				{
					resource: 'apiCredential',
					operation: 'create',
					userCode: '={{ $json.user }}',
					options: { concurrency: 8 },
				},
			),
		);
		const created = requestsOf('CreateCredential');
		expect(created.map((r) => (r.body as IDataObject).user_code)).toEqual(users.slice(0, 3));
		for (let i = 1; i < created.length; i++)
			expect(created[i].at).toBeGreaterThanOrEqual(created[i - 1].at);

		const error = result.nodeError('Seller Platform') as {
			message: string;
			description: string;
			context: IDataObject;
		};
		expect(error.message).toMatch(
			/not found.*\(2 created before this failure: see the description\)$/,
		);
		const made = (error.context.created as string[]) ?? [];
		expect(made).toEqual([
			expect.stringMatching(/^key ID \S+$/),
			expect.stringMatching(/^key ID \S+$/),
		]);
		expect(new Set(made).size).toBe(2);
		const user = f.emulator.apiUsers().find((u) => u.user_code === SEEDED_API_USER.userCode);
		expect(user?.key_count).toBe(keysBefore + 2);
		expect(error.description).toContain('deactivate these keys');
		const everything = JSON.stringify(result.run);
		expect(everything).not.toMatch(/BEGIN (RSA )?PRIVATE KEY/);
	});

	it('names the sandbox orders made before a failure, with their idempotency keys', async () => {
		f = await startFixture({ ratePlan: null });
		const warehouses = [
			SEEDED_WAREHOUSES.dubai,
			SEEDED_WAREHOUSES.riyadh,
			'WH-NOWHERE',
			SEEDED_WAREHOUSES.cairo,
		];
		const result = await f.env.runWorkflow(
			workflowWithItems(
				warehouses.map((warehouse, i) => ({ warehouse, key: `key-${i}` })),
				{
					resource: 'fbpiOrder',
					operation: 'createSandbox',
					warehouseCode: '={{ $json.warehouse }}',
					idempotencyKey: '={{ $json.key }}',
					items: { item: [{ status: 'MP_ITEM_STATUS_CONFIRMED', partnerSku: '' }] },
					options: { concurrency: 1 },
				},
			),
		);
		expect(requestsOf('CreateSandboxOrder')).toHaveLength(3);
		const error = result.nodeError('Seller Platform') as {
			description: string;
			context: IDataObject;
		};
		expect(error.context.created).toEqual([
			expect.stringMatching(/^sandbox order \S+ \(idempotency key key-0\)$/),
			expect.stringMatching(/^sandbox order \S+ \(idempotency key key-1\)$/),
		]);
		expect(error.description).toContain('same Idempotency Keys');
	});

	it('re-runs a split import after a failure without duplicates: the imports already made are found', async () => {
		f = await startFixture({ ratePlan: null });
		const mappings = (count: number) =>
			Array.from({ length: count }, (_, i) => ({ sku: `SKU-${i}`, ean: `${4000000000000 + i}` }));
		const parameters = {
			resource: 'import',
			operation: 'createBarcode',
			source: 'items',
			itemsInput: 'fromInputItems',
			partnerSkuField: 'sku',
			barcodeField: 'ean',
			clientReference: 'rerun-1',
		};
		// The first run made rerun-1-1 and rerun-1-2 before it failed; the re-run has all the items.
		await f.env.runWorkflow(workflowWithItems(mappings(20_000), parameters));
		const result = await f.env.runWorkflow(workflowWithItems(mappings(25_000), parameters));
		const out = result.outputs('Seller Platform').map((o) => o.json);
		expect(out.map((o) => [o.client_reference, o.alreadyExisted ?? false])).toEqual([
			['rerun-1-1', true],
			['rerun-1-2', true],
			['rerun-1-3', false],
		]);
		expect(
			f.emulator.imports().filter((i) => String(i.client_reference).startsWith('rerun-1')),
		).toHaveLength(3);
	});
});

describe('odd input never reaches the network', () => {
	it.each([
		[
			'an object',
			{ po: { nr: 'PO-1' } },
			'The parameter "PO Number" (poNr) must be text, got an object',
		],
		['an array', { po: ['PO-1'] }, 'The parameter "PO Number" (poNr) must be text, got an array'],
		[
			'a lone surrogate',
			{ po: 'PO-\ud800' },
			'The parameter "PO Number" (poNr) holds a lone surrogate',
		],
		[
			'text over 64 kB',
			{ po: 'P'.repeat(70_000) },
			'The parameter "PO Number" (poNr) is 70000 characters long',
		],
		[
			'an integer beyond 2^53',
			{ po: 2 ** 53 + 2 },
			'The parameter "PO Number" (poNr) holds the number 9007199254740994, beyond 2^53',
		],
	])('refuses %s in a text parameter, naming it', async (_name, item, message) => {
		f = await startFixture({ ratePlan: null });
		const result = await f.env.runWorkflow(workflowWithItems([{ po: 'PO-BULK-1' }, item], GET_PO));
		expect((result.nodeError('Seller Platform') as Error).message).toContain(message);
		expect(f.emulator.requests()).toEqual([]);
	});

	it('refuses an object as a destination header value, and an integer option beyond 2^53', async () => {
		f = await startFixture({ ratePlan: null });
		const header = await f.env.runWorkflow(
			workflowWithItems([{ value: { a: 1 } }], {
				resource: 'destination',
				operation: 'update',
				destinationCode: 'DST-1001',
				updateFields: { headers: { header: [{ name: 'X-Key', value: '={{ $json.value }}' }] } },
			}),
		);
		expect((header.nodeError('Seller Platform') as Error).message).toBe(
			'The value of the header "X-Key" in "Headers" (headers) must be text, got an object',
		);
		const option = await f.env.runWorkflow(
			workflowWithItems([{ po: 'PO-BULK-1' }], {
				...GET_PO,
				options: { concurrency: 2 ** 53 + 2 },
			}),
		);
		expect((option.nodeError('Seller Platform') as Error).message).toBe(
			'The option "Concurrency" (concurrency) is beyond 2^53',
		);
		expect(f.emulator.requests()).toEqual([]);
	});
});

describe('secrets and redirects', () => {
	/** A server on another origin (another port of loopback) that records what reaches it. */
	async function otherOrigin() {
		const { createServer } = await import('http');
		const seen: Array<{ url?: string; headers: IDataObject }> = [];
		const server = createServer((req, res) => {
			seen.push({ url: req.url, headers: req.headers as IDataObject });
			res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as { port: number };
		return { url: `http://127.0.0.1:${port}`, seen, close: () => server.close() };
	}

	it('never shows the session cookie, even when the service echoes it with quotes and backslashes', async () => {
		f = await startFixture({ ratePlan: null });
		await f.env.runWorkflow(workflowWithItems(bulkPoItems(1), GET_PO));
		const cookie = String(f.env.credentialData('cred-1').sessionCookie);
		f.emulator.injectFaults({ count: 1, status: 400, echo: true, operation: 'GetPurchaseOrder' });
		const result = await f.env.runWorkflow(
			workflowWithItems(bulkPoItems(1), GET_PO, { continueOnFail: true }),
		);
		const [item] = result.outputs('Seller Platform');
		expect(item.json.error).toContain('<redacted>');
		const everything = JSON.stringify(result.run) + JSON.stringify(f.env.logger.entries);
		for (const value of cookie.split('; ').map((pair) => pair.split('=')[1]))
			expect(everything).not.toContain(value);
	});

	it('never shows a destination header value the service echoes, whatever characters it holds', async () => {
		f = await startFixture({ ratePlan: null });
		const secret = 'se"cr\\et-value-42';
		f.emulator.injectFaults({ count: 1, status: 400, echo: true, operation: 'UpdateDestination' });
		const result = await f.env.runWorkflow(
			workflowWithItems(
				[{}],
				{
					resource: 'destination',
					operation: 'update',
					destinationCode: 'DST-1001',
					updateFields: { headers: { header: [{ name: 'X-Key', value: secret }] } },
				},
				{ continueOnFail: true },
			),
		);
		const everything = JSON.stringify(result.run);
		expect(everything).toContain('<redacted>');
		expect(everything).not.toContain(JSON.stringify(secret).slice(1, -1));
		expect(everything).not.toContain('cr\\et-value');
	});

	it('never shows the login token the service echoes', async () => {
		f = await startFixture({ ratePlan: null });
		f.emulator.injectFaults({ count: 1, status: 401, echo: true, operation: 'Login' });
		const result = await f.env.runWorkflow(
			workflowWithItems(bulkPoItems(1), GET_PO, { continueOnFail: true }),
		);
		const [item] = result.outputs('Seller Platform');
		expect(item.json.error).toContain('<jwt>');
		const token = (requestsOf('Login')[0].body as { token: string }).token;
		expect(JSON.stringify(result.run)).not.toContain(token.split('.')[2]);
	});

	it('does not follow a redirect to another origin: the cookie never leaves the gateway', async () => {
		f = await startFixture({ ratePlan: null });
		const other = await otherOrigin();
		try {
			f.emulator.injectFaults({
				count: 1,
				redirect: { location: `${other.url}/steal`, status: 307 },
				operation: 'GetPurchaseOrder',
			});
			const result = await f.env.runWorkflow(
				workflowWithItems(bulkPoItems(1), GET_PO, { continueOnFail: true }),
			);
			const [item] = result.outputs('Seller Platform');
			expect(item.json.error).toBe(
				`The Seller Platform API redirected the request to another origin (${other.url}); it was not followed`,
			);
			expect(other.seen).toEqual([]);
		} finally {
			other.close();
		}
	});

	it('follows a redirect within the gateway, and refuses a login redirected elsewhere', async () => {
		f = await startFixture({ ratePlan: null });
		const other = await otherOrigin();
		try {
			f.emulator.injectFaults({
				count: 1,
				redirect: { location: `${f.emulator.baseUrl}/fbpo/v1/po/PO-1001/get`, status: 307 },
				operation: 'GetPurchaseOrder',
			});
			const result = await f.env.runWorkflow(workflowWithItems([{ po: 'PO-1002' }], GET_PO));
			expect(result.json('Seller Platform')[0].po_nr).toBe('PO-1001');
			expect(requestsOf('GetPurchaseOrder')).toHaveLength(2);

			f.emulator.expireSessions();
			f.emulator.injectFaults({
				count: 1,
				redirect: { location: `${other.url}/login`, status: 308 },
				operation: 'Login',
			});
			const refused = await f.env.runWorkflow(
				workflowWithItems(bulkPoItems(1), GET_PO, { continueOnFail: true }),
			);
			expect(refused.outputs('Seller Platform')[0].json.error).toBe(
				`The Seller Platform login was redirected to another origin (${other.url}) and was not followed`,
			);
			expect(other.seen).toEqual([]);
		} finally {
			other.close();
		}
	});

	it('refuses a Base URL with a user name and password, without echoing it', async () => {
		f = await startFixture({ ratePlan: null });
		f.env.addCredential('cred-1', 'sellerPlatformApi', {
			...f.env.credentialData('cred-1'),
			baseUrl: f.emulator.baseUrl.replace('http://', 'http://admin:hunter2@'),
		});
		const result = await f.env.runWorkflow(
			workflowWithItems(bulkPoItems(1), GET_PO, { continueOnFail: true }),
		);
		const [item] = result.outputs('Seller Platform');
		expect(item.json.error).toBe(
			'The "Base URL" field of the credential must not contain a user name or password',
		);
		expect(JSON.stringify(result.run)).not.toContain('hunter2');
		expect(f.emulator.requests()).toEqual([]);
	});
});

describe('stopping the execution', () => {
	it('ends the wait for an export at once, and sends nothing more', async () => {
		f = await startFixture({ ratePlan: null });
		const pending = f.emulator.addExport({ states: ['PENDING'] });
		const started = await f.env.startExecution(
			workflowWithItems([{}], {
				resource: 'export',
				operation: 'getStatus',
				exportCode: pending.export_code,
				options: { waitForCompletion: true, pollIntervalSeconds: 30, timeoutSeconds: 300 },
			}),
		);
		while (requestsOf('GetExportStatus').length < 1) await new Promise((r) => setTimeout(r, 20));
		const stoppedAt = Date.now();
		started.cancel();
		await started.finished;
		// A stop noticed only at the next poll would take the 30 s interval; idle it takes a few ms.
		expect(Date.now() - stoppedAt).toBeLessThan(3000);
		await new Promise((r) => setTimeout(r, 1000));
		expect(requestsOf('GetExportStatus')).toHaveLength(1);
	});
});

describe('sharing the rate plan with others (another n8n process, another tool)', () => {
	it('pauses every request of the process until the Retry-After of a 429', async () => {
		f = await startFixture({ ratePlan: null });
		f.emulator.injectFaults({
			count: 1,
			status: 429,
			retryAfter: 2,
			operation: 'GetPurchaseOrder',
		});
		// 3 items (6 before the pacing took the whole window): after the pause the limiter paces the rest about one a second.
		const result = await f.env.runWorkflow(workflowWithItems(bulkPoItems(3), GET_PO));
		expect(result.outputs('Seller Platform')).toHaveLength(3);
		const gets = requestsOf('GetPurchaseOrder');
		const rejected = gets.filter((r) => r.status === 429);
		expect(rejected).toHaveLength(1);
		// Requests granted after the 429 came back waited for its Retry-After, not only its own.
		const after = gets.filter((r) => r.seq > rejected[0].seq);
		expect(after).toHaveLength(3);
		expect(Math.min(...after.map((r) => r.at)) - rejected[0].at).toBeGreaterThanOrEqual(1900);
	});

	it('settles at the share the others leave it, with few 429 answers and nothing lost', async () => {
		// The credential's plan is 300 per minute (5 per second); the service lets this client have
		// only 5 per 2 seconds, as when another process uses the other half.
		f = await startFixture({ ratePlan: { limit: 5, windowMs: 2000 } }, { requestsPerMinute: 300 });
		// 15 items (30 before the pacing took the whole window): three of the limiter's 10 s windows after the first 429.
		const result = await f.env.runWorkflow(workflowWithItems(bulkPoItems(15), GET_PO));
		expect(result.status).toBe('success');
		expect(result.outputs('Seller Platform')).toHaveLength(15);
		const gets = requestsOf('GetPurchaseOrder');
		const rejected = gets.filter((r) => r.status === 429).length;
		// Without adapting, every other request would be answered 429 (about 15 of 30).
		expect(rejected).toBeLessThanOrEqual(5);
	}, 60_000);
});
