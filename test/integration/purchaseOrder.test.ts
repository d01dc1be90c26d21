/**
 * The chain end to end: real workflows run through n8n-core, our node and credential, against
 * the emulator on loopback.
 */
import { generateKeyPairSync } from 'crypto';

import { SEEDED_PO } from '../emulator';
import { GET_PO, bulkPoItems, startFixture, workflowWithItems, type Fixture } from './fixture';

const poRequests = (f: Fixture) =>
	f.emulator.requests().filter((r) => r.operation === 'GetPurchaseOrder');

describe('purchaseOrder/get through n8n-core', () => {
	let f: Fixture;
	beforeEach(async () => {
		f = await startFixture({ ratePlan: null });
	});
	afterEach(async () => await f.close());

	it('returns the record with an ISO release date, in input order, paired to its item', async () => {
		const items = [
			{ po: SEEDED_PO.released },
			{ po: SEEDED_PO.pendingNoDate },
			{ po: SEEDED_PO.pendingDayZero },
			{ po: '../x' },
		];
		const result = await f.env.runWorkflow(
			workflowWithItems(items, GET_PO, { continueOnFail: true }),
		);
		const out = result.outputs('Seller Platform');
		expect(out).toHaveLength(4);
		expect(out.map((o) => o.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);

		expect(out[0].json).toMatchObject({
			po_nr: SEEDED_PO.released,
			po_status: 'PO_STATUS_RELEASED',
			po_release_date: { year: 2024, month: 3, day: 15 },
			po_release_date_iso: '2024-03-15',
		});
		expect((out[0].json.po_lines as unknown[]).length).toBe(3);
		expect(out[1].json).toMatchObject({
			po_nr: SEEDED_PO.pendingNoDate,
			po_release_date_iso: null,
		});
		expect(out[2].json).toMatchObject({
			po_nr: SEEDED_PO.pendingDayZero,
			po_release_date_iso: null,
		});
		// "../x" stayed one path segment: the service looked up exactly that number.
		expect(out[3].json.details).toMatchObject({ httpCode: '404', status_code: 'NOT_FOUND' });
		expect(String(out[3].json.error)).toContain('../x');

		const requests = poRequests(f);
		expect(requests.map((r) => r.path).sort()).toEqual(
			[
				`/fbpo/v1/po/${SEEDED_PO.released}/get`,
				`/fbpo/v1/po/${SEEDED_PO.pendingNoDate}/get`,
				`/fbpo/v1/po/${SEEDED_PO.pendingDayZero}/get`,
				'/fbpo/v1/po/..%2Fx/get',
			].sort(),
		);
		for (const request of requests) {
			expect(request.method).toBe('GET');
			expect(request.body).toBeNull();
			expect(request.headers.accept).toBe('application/json');
			expect(request.headers['user-agent']).toMatch(/^n8n-nodes-seller-platform\/\d+\.\d+\.\d+/);
			// Both cookies of the login came back, whatever their names.
			expect(String(request.headers.cookie).split('; ')).toHaveLength(2);
		}
	});

	it('logs in once for 50 items over 3 executions', async () => {
		for (let run = 0; run < 3; run++) {
			const result = await f.env.runWorkflow(workflowWithItems(bulkPoItems(50, run * 50), GET_PO));
			expect(result.status).toBe('success');
			expect(result.outputs('Seller Platform')).toHaveLength(50);
		}
		const stats = f.emulator.stats();
		expect(stats.logins).toBe(1);
		expect(stats.byOperation.GetPurchaseOrder).toBe(150);
		expect(stats.statuses['401'] ?? 0).toBe(0);

		const login = f.emulator.requests().find((r) => r.operation === 'Login');
		expect(login?.body).toEqual({
			token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
			default_project_code: f.emulator.projectCode,
		});
	});

	it('costs exactly one new login when the session expires mid-run, and loses no item', async () => {
		await f.env.runWorkflow(workflowWithItems(bulkPoItems(1), GET_PO));
		expect(f.emulator.stats().logins).toBe(1);

		f.emulator.expireSessionsAfter(20);
		const result = await f.env.runWorkflow(workflowWithItems(bulkPoItems(50), GET_PO));

		expect(result.status).toBe('success');
		const out = result.outputs('Seller Platform');
		expect(out.map((o) => o.json.po_nr)).toEqual(bulkPoItems(50).map((i) => i.po));
		const stats = f.emulator.stats();
		expect(stats.statuses['401']).toBeGreaterThanOrEqual(1);
		expect(stats.logins).toBe(2);
	});

	it('waits out a burst of 429 answers and finishes every item', async () => {
		// Three with Retry-After: 0, then three without it (exponential backoff with jitter).
		f.emulator.injectFaults({
			count: 3,
			status: 429,
			retryAfter: 0,
			operation: 'GetPurchaseOrder',
		});
		f.emulator.injectFaults({ count: 3, status: 429, operation: 'GetPurchaseOrder' });
		// 4 items (10 before the pacing took the whole window): after six 429s in a row the plan's limiter paces the rest
		// as shared, about one a second, so each item more is a second more of waiting.
		const result = await f.env.runWorkflow(workflowWithItems(bulkPoItems(4), GET_PO));

		expect(result.status).toBe('success');
		expect(result.outputs('Seller Platform').map((o) => o.json.po_nr)).toEqual(
			bulkPoItems(4).map((i) => i.po),
		);
		expect(f.emulator.stats().statuses['429']).toBe(6);
		expect(f.emulator.stats().statuses['200']).toBe(4 + 1); // + the login
	});

	it('repeats a read after 5xx answers and a reset connection', async () => {
		f.emulator.injectFaults({ count: 2, status: 503, operation: 'GetPurchaseOrder' });
		f.emulator.injectFaults({ count: 1, reset: true, operation: 'GetPurchaseOrder' });
		const result = await f.env.runWorkflow(workflowWithItems([{ po: SEEDED_PO.released }], GET_PO));
		expect(result.status).toBe('success');
		expect(result.json('Seller Platform')[0].po_nr).toBe(SEEDED_PO.released);
		expect(poRequests(f)).toHaveLength(4);
	});

	it('with "continue on fail", yields one error item per failed input, paired, and keeps going', async () => {
		const items = [
			{ po: SEEDED_PO.released },
			{ po: 'NOPE-1' },
			{ po: '  ' },
			{ po: SEEDED_PO.releasedSar },
		];
		const result = await f.env.runWorkflow(
			workflowWithItems(items, GET_PO, { onError: 'continueRegularOutput' }),
		);
		const out = result.outputs('Seller Platform');
		expect(out).toHaveLength(4);
		expect(out.map((o) => o.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(out[0].json.po_nr).toBe(SEEDED_PO.released);
		expect(out[1].json).toEqual({
			error: 'purchase order "NOPE-1" not found',
			details: expect.objectContaining({ httpCode: '404', status_code: 'NOT_FOUND', status_id: 5 }),
		});
		expect(out[2].json.error).toBe('The parameter "PO Number" (poNr) must not be empty');
		expect(out[3].json.po_nr).toBe(SEEDED_PO.releasedSar);
		// The blank number never reached the service.
		expect(poRequests(f)).toHaveLength(3);
	});

	it('sends failed items to the error output with "continue (using error output)"', async () => {
		const items = [{ po: SEEDED_PO.released }, { po: 'NOPE-2' }];
		const result = await f.env.runWorkflow(
			workflowWithItems(items, GET_PO, { onError: 'continueErrorOutput' }),
		);
		expect(result.outputs('Seller Platform', 0).map((o) => o.json.po_nr)).toEqual([
			SEEDED_PO.released,
		]);
		const errors = result.outputs('Seller Platform', 1);
		expect(errors).toHaveLength(1);
		expect(errors[0].pairedItem).toEqual({ item: 1 });
		expect(errors[0].json.error).toBe('purchase order "NOPE-2" not found');
		expect(errors[0].json.details).toMatchObject({ status_code: 'NOT_FOUND', httpCode: '404' });
	});

	it('without "continue on fail", validates every item before sending any request', async () => {
		const items = [{ po: SEEDED_PO.released }, { po: SEEDED_PO.releasedSar }, { po: '' }];
		const result = await f.env.runWorkflow(workflowWithItems(items, GET_PO));
		expect(result.status).toBe('error');
		const error = result.nodeError('Seller Platform');
		expect(error?.message).toBe('The parameter "PO Number" (poNr) must not be empty');
		expect(f.emulator.requests()).toHaveLength(0);
	});

	it('fails the execution with the service message when an item fails', async () => {
		const result = await f.env.runWorkflow(workflowWithItems([{ po: 'NOPE-3' }], GET_PO));
		expect(result.status).toBe('error');
		const error = result.nodeError('Seller Platform') as {
			message: string;
			httpCode?: string;
			description?: string;
		};
		expect(error.message).toContain('NOPE-3');
		expect(error.httpCode).toBe('404');
		expect(error.description).toContain('status_code NOT_FOUND');
	});
});

describe('rate plan', () => {
	it('paces requests under the plan so a bulk run gets no 429', async () => {
		// Credential: 300 per minute = 5 per second. Server: at most 6 per second per operation, a
		// request of headroom: a slot granted on time can reach the server late when other processes
		// hold the CPU (CI installs n8n meanwhile), and pacing at the exact limit under load is the
		// paced benchmark's job. Without pacing, 16 requests at once would get ten 429 answers.
		const f = await startFixture(
			{ ratePlan: { limit: 6, windowMs: 1000 } },
			{ requestsPerMinute: 300 },
		);
		try {
			const started = Date.now();
			const result = await f.env.runWorkflow(
				workflowWithItems(bulkPoItems(16), { ...GET_PO, options: { concurrency: 16 } }),
			);
			expect(result.status).toBe('success');
			expect(f.emulator.stats().statuses['429'] ?? 0).toBe(0);
			// 16 requests at 5 per second need at least three full windows.
			expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
		} finally {
			await f.close();
		}
	});
});

describe('login failures', () => {
	const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
		.privateKey.export({ type: 'pkcs8', format: 'pem' })
		.toString();

	it.each([
		[
			'a wrong private key',
			{ privateKey: otherKey },
			/^Seller Platform login failed: .*signature/i,
			'401',
		],
		[
			'a wrong project code',
			{ projectCode: 'PRJ000' },
			/^Seller Platform login failed: .*PRJ000/,
			'403',
		],
		[
			'an unknown key id',
			{ keyId: 'noon-partners-key-id-unknown' },
			/^Seller Platform login failed: .*key/i,
			'401',
		],
	])(
		'fails with the service message for %s, without leaking secrets',
		async (_name, overrides, message, httpCode) => {
			const f = await startFixture({}, overrides);
			try {
				const result = await f.env.runWorkflow(
					workflowWithItems([{ po: SEEDED_PO.released }], GET_PO, { continueOnFail: true }),
				);
				const [item] = result.outputs('Seller Platform');
				expect(item.pairedItem).toEqual({ item: 0 });
				expect(item.json.error).toMatch(message);
				expect(item.json.details).toMatchObject({ httpCode });
				expect(f.emulator.stats().logins).toBe(0);
				expect(f.emulator.stats().byOperation.GetPurchaseOrder ?? 0).toBe(0);

				const everything = JSON.stringify(result.run);
				const login = f.emulator.requests().find((r) => r.operation === 'Login');
				const token = (login?.body as { token: string }).token;
				expect(everything).not.toContain(token);
				expect(everything).not.toContain(f.emulator.credential.private_key.split('\n')[1]);
				expect(everything).not.toContain(otherKey.split('\n')[1]);
			} finally {
				await f.close();
			}
		},
	);

	it('rejects a malformed private key before any request', async () => {
		const f = await startFixture({}, { privateKey: 'not a key' });
		try {
			const result = await f.env.runWorkflow(
				workflowWithItems([{ po: SEEDED_PO.released }], GET_PO),
			);
			expect(result.status).toBe('error');
			expect(result.nodeError('Seller Platform')?.message).toBe(
				'The "Private Key" field of the credential is not a valid PEM private key',
			);
			expect(f.emulator.requests()).toHaveLength(0);
		} finally {
			await f.close();
		}
	});
});

describe('secrets', () => {
	it('never puts the session cookie, JWT or key into outputs or errors', async () => {
		const f = await startFixture({ ratePlan: null });
		try {
			const result = await f.env.runWorkflow(
				workflowWithItems([{ po: SEEDED_PO.released }, { po: 'NOPE-4' }], GET_PO, {
					continueOnFail: true,
				}),
			);
			const login = f.emulator.requests().find((r) => r.operation === 'Login');
			const cookie = String(
				f.emulator.requests().find((r) => r.operation === 'GetPurchaseOrder')?.headers.cookie,
			);
			const everything = JSON.stringify(result.run);
			for (const cookiePair of cookie.split('; '))
				expect(everything).not.toContain(cookiePair.split('=')[1]);
			expect(everything).not.toContain((login?.body as { token: string }).token);
			expect(everything).not.toContain(f.emulator.credential.private_key.split('\n')[1]);
			expect(JSON.stringify(f.env.logger.entries)).not.toContain(
				cookie.split('; ')[0].split('=')[1],
			);
		} finally {
			await f.close();
		}
	});
});

describe('an edited credential', () => {
	it('does not use a session obtained with other credential values: it logs in again with the new ones', async () => {
		const f = await startFixture({ ratePlan: null });
		try {
			await f.env.runWorkflow(workflowWithItems([{ po: SEEDED_PO.released }], GET_PO));
			const stored = f.env.credentialData('cred-1');
			expect(stored.sessionCookie).toMatch(/_npsid=/);

			// The user pastes another key of the same account; the stored session stays in the data.
			const other = await f.emulator.addCredential();
			f.env.addCredential('cred-1', 'sellerPlatformApi', {
				...stored,
				keyId: other.key_id,
				privateKey: other.private_key,
			});
			const result = await f.env.runWorkflow(
				workflowWithItems([{ po: SEEDED_PO.releasedSar }], GET_PO),
			);

			expect(result.json('Seller Platform')[0].po_nr).toBe(SEEDED_PO.releasedSar);
			const logins = f.emulator.requests().filter((r) => r.operation === 'Login');
			expect(logins).toHaveLength(2);
			const sub = JSON.parse(
				Buffer.from(
					(logins[1].body as { token: string }).token.split('.')[1],
					'base64url',
				).toString(),
			).sub;
			expect(sub).toBe(other.key_id);
			// The old session was not sent with the new values.
			const reads = f.emulator.requests().filter((r) => r.operation === 'GetPurchaseOrder');
			expect(reads.map((r) => r.status)).toEqual([200, 401, 200]);
			expect(reads[1].headers.cookie).toBeUndefined();
		} finally {
			await f.close();
		}
	});
});
