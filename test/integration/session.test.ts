import { startFixture, workflowWithItems, type Fixture } from './fixture';

describe('session/login', () => {
	let f: Fixture;
	beforeEach(async () => {
		f = await startFixture();
	});
	afterEach(async () => await f.close());

	it('logs in once per run and reports who is logged in, never the session itself', async () => {
		const result = await f.env.runWorkflow(
			workflowWithItems([{ a: 1 }, { a: 2 }], { resource: 'session', operation: 'login' }),
		);
		const out = result.outputs('Seller Platform');
		expect(out).toHaveLength(2);
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(out[0].json).toMatchObject({
			loggedIn: true,
			keyId: f.emulator.credential.key_id,
			projectCode: f.emulator.projectCode,
			baseUrl: f.emulator.baseUrl,
		});
		expect((out[0].json.sessionCookieNames as string[]).length).toBe(2);

		expect(f.emulator.stats().logins).toBe(1);
		const login = f.emulator.requests().find((r) => r.operation === 'Login');
		expect(login?.method).toBe('POST');
		expect(login?.path).toBe('/identity/public/v1/api/login');
		expect(login?.headers['content-type']).toMatch(/^application\/json/);
		expect(login?.headers['user-agent']).toMatch(/^n8n-nodes-seller-platform\//);

		const everything = JSON.stringify(result.run);
		expect(everything).not.toContain((login?.body as { token: string }).token);
		expect(everything).not.toContain('_npsid=');
	});

	it('reports a failed login with the service message', async () => {
		const expired = await f.emulator.addCredential({ expiresAt: Date.now() - 60_000 });
		f.env.addCredential('cred-1', 'sellerPlatformApi', {
			baseUrl: f.emulator.baseUrl,
			keyId: expired.key_id,
			privateKey: expired.private_key,
			projectCode: expired.project_code,
			sessionCookie: '',
		});
		const result = await f.env.runWorkflow(
			workflowWithItems(
				[{}],
				{ resource: 'session', operation: 'login' },
				{ continueOnFail: true },
			),
		);
		const [item] = result.outputs('Seller Platform');
		expect(item.json.error).toMatch(/^Seller Platform login failed: .*expired/i);
		expect(item.json.details).toMatchObject({ httpCode: '401' });
	});
});
