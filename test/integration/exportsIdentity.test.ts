/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Exports and identity, through real n8n runs against the emulator: Export → Create
 * (and its wait and download) and Get Categories, Session → Who Am I, API Credential → Remove,
 * OAuth → Create Token; the editor's lists of export categories and of the session's user; the
 * credential's gateway choice; "Custom API Call". Each: the exact request, validation before the
 * network, the output (its schema: fixture.ts), continue on fail, and secrets with a service that
 * echoes them.
 */
import type { INodeParameters } from 'n8n-workflow';

import {
	credentialFields,
	EXPORT_CATEGORIES,
	SEEDED_API_USER,
	SEEDED_OAUTH_CLIENT,
	type RequestLogEntry,
} from '../emulator';
import { gatewayBaseUrl } from '../../dist/nodes/shared/credential/baseUrl';
import { listSearch } from '../helpers';
import { CREDENTIAL_ID, startFixture, workflowWithItems, type Fixture } from './fixture';

const NODE = 'Seller Platform';
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

let f: Fixture;
afterEach(async () => await f?.close());

const sent = (operation: string): RequestLogEntry[] =>
	f.emulator.requests().filter((r) => r.operation === operation);

/** Everything a user can see of a run: outputs, the node's error (message, description). */
function seen(result: Awaited<ReturnType<Fixture['env']['runWorkflow']>>): string {
	const error = result.nodeError(NODE) as (Error & { description?: string }) | undefined;
	let outputs = '';
	try {
		outputs = JSON.stringify(result.outputs(NODE)) + JSON.stringify(result.outputs(NODE, 1));
	} catch {
		// The node did not run to the end: its error is what there is.
	}
	return `${outputs}${JSON.stringify(error ?? null)}${error?.message ?? ''}${error?.description ?? ''}`;
}

describe('export/create', () => {
	const CREATE = (extra: INodeParameters = {}): INodeParameters => ({
		resource: 'export',
		operation: 'create',
		exportCategoryCode: byId('={{ $json.category }}'),
		params: '={{ $json.params }}',
		...extra,
	});
	const ORDERS = {
		category: 'ORDERS_EXPORT',
		params: { date_from: '2025-03-01', date_to: '2025-03-31' },
	};

	it('sends the category and its parameters as a JSON object, once, and answers the export code', async () => {
		f = await startFixture();
		const result = await f.env.runWorkflow(
			workflowWithItems(
				[ORDERS, { category: ' CATALOG_EXPORT ', params: '{ "brand": "Acme" }' }],
				CREATE(),
			),
		);
		expect(result.status).toBe('success');
		expect(sent('CreateExport').map((r) => [r.method, r.path, r.body])).toEqual([
			[
				'POST',
				'/impex/v1/export/create',
				{ export_category_code: 'ORDERS_EXPORT', params: ORDERS.params },
			],
			[
				'POST',
				'/impex/v1/export/create',
				{ export_category_code: 'CATALOG_EXPORT', params: { brand: 'Acme' } },
			],
		]);
		const codes = result.json(NODE).map((json) => json.export_code);
		expect(codes).toEqual([expect.stringMatching(/^EXP-\d+$/), expect.stringMatching(/^EXP-\d+$/)]);
		expect(result.outputs(NODE).map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		// No wait asked for: nothing else is sent.
		expect(sent('GetExportStatus')).toHaveLength(0);
	});

	it('with Wait for Completion polls the new export to COMPLETE and downloads its file', async () => {
		f = await startFixture({ exportStepMs: 50 });
		const result = await f.env.runWorkflow(
			workflowWithItems(
				[ORDERS],
				CREATE({ options: { waitForCompletion: true, pollIntervalSeconds: 0.1, download: true } }),
			),
		);
		expect(result.status).toBe('success');
		const [item] = result.outputs(NODE);
		expect(item.json).toMatchObject({
			export_category_code: 'ORDERS_EXPORT',
			export_status: 'COMPLETE',
			params: JSON.stringify(ORDERS.params),
			waitTimedOut: false,
		});
		expect(item.binary?.data?.fileName).toBe(`${String(item.json.export_code)}.csv`);
		expect(sent('CreateExport')).toHaveLength(1);
		const polls = sent('GetExportStatus');
		expect(polls.length).toBeGreaterThanOrEqual(2);
		expect(new Set(polls.map((r) => JSON.stringify(r.body)))).toEqual(
			new Set([JSON.stringify({ export_code: item.json.export_code })]),
		);
		expect(sent('DownloadExport')).toHaveLength(1);
	});

	it('a failed wait names the export it created; a failed create is never sent again', async () => {
		f = await startFixture({ exportStepMs: 50 });
		f.emulator.injectFaults({ operation: 'GetExportStatus', count: 1, status: 400 });
		const waited = await f.env.runWorkflow(
			workflowWithItems([ORDERS], CREATE({ options: { waitForCompletion: true } })),
		);
		const error = waited.nodeError(NODE) as Error & { description?: string };
		const code = f.emulator.requests().find((r) => r.operation === 'CreateExport')!;
		expect(code.status).toBe(200);
		expect(error.message).toMatch(/^Export EXP-\d+ was created, but waiting for it failed: /);
		expect(error.description).toMatch(/Export → Get Status/);

		f.emulator.clearRequests();
		f.emulator.injectFaults({ operation: 'CreateExport', count: 1, status: 503 });
		const failed = await f.env.runWorkflow(workflowWithItems([ORDERS], CREATE()));
		expect(failed.status).toBe('error');
		expect(sent('CreateExport').map((r) => r.status)).toEqual([503]);
	});

	it('refuses parameters that are no JSON object before sending; with continue on fail, one output per item', async () => {
		f = await startFixture();
		const items = [
			{ category: 'ORDERS_EXPORT', params: '[1, 2]' },
			{ category: 'ORDERS_EXPORT', params: '{ not json' },
			{ category: 'ORDERS_EXPORT', params: '{ "n": 9007199254740993 }' },
			{ category: '  ', params: {} },
			{ category: 'CATALOG_EXPORT', params: { brand: 'x'.repeat(70_000) } },
			ORDERS,
			{ category: 'ORDERS_EXPORT', params: { date_from: '2025-03-01' } },
		];
		const stopped = await f.env.runWorkflow(workflowWithItems(items, CREATE()));
		expect(stopped.nodeError(NODE)?.message).toBe(
			'The parameter "Parameters" (params) must be a JSON object, got an array',
		);
		expect(sent('CreateExport')).toHaveLength(0);

		const result = await f.env.runWorkflow(
			workflowWithItems(items, CREATE(), { continueOnFail: true }),
		);
		const out = result.outputs(NODE);
		expect(out.map((o) => o.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		expect(out.map((o) => String(o.json.error ?? ''))).toEqual([
			'The parameter "Parameters" (params) must be a JSON object, got an array',
			expect.stringMatching(/^The parameter "Parameters" \(params\) is not valid JSON/),
			expect.stringMatching(/params\.n is a number beyond 2\^53/),
			'The parameter "Export Category Code" (exportCategoryCode) must not be empty',
			expect.stringMatching(/params\.brand is 70000 characters long/),
			'',
			// The service's own refusal of the missing required parameter.
			'params.date_to is required for ORDERS_EXPORT',
		]);
		expect(out[5].json.export_code).toMatch(/^EXP-/);
		// Only the two accepted items were sent.
		expect(sent('CreateExport').map((r) => r.status)).toEqual([200, 400]);
	});
});

describe('export/getCategories and the category list of the editor', () => {
	it('gives one item per category, and the list offers them with their parameters', async () => {
		f = await startFixture();
		const result = await f.env.runWorkflow(
			workflowWithItems([{}], { resource: 'export', operation: 'getCategories' }),
		);
		expect(result.json(NODE)).toEqual(EXPORT_CATEGORIES);
		expect(sent('GetExportCategoryList').map((r) => [r.method, r.path, r.body])).toEqual([
			['GET', '/impex/v1/export/category/list', null],
		]);

		const search = async (filter?: string) =>
			await listSearch(f.env, {
				method: 'searchExportCategories',
				credentials: { sellerPlatformApi: CREDENTIAL_ID },
				parameters: { resource: 'export', operation: 'create' },
				filter,
			});
		expect((await search()).results.map((r) => r.value)).toEqual(
			EXPORT_CATEGORIES.map((c) => c.export_category_code),
		);
		expect((await search(' orders ')).results).toEqual([
			{
				name: 'ORDERS_EXPORT',
				value: 'ORDERS_EXPORT',
				description: 'Parameters: date_from, date_to, country_code',
			},
		]);
	});
});

describe('session/whoAmI and apiCredential/remove', () => {
	const REMOVE = (extra: INodeParameters = {}): INodeParameters => ({
		resource: 'apiCredential',
		operation: 'remove',
		userCode: byId('={{ $json.user }}'),
		...extra,
	});
	const keysOf = (userCode: string) =>
		f.emulator.apiUsers().find((u) => u.user_code === userCode)?.key_count;

	it('Who Am I answers the user of the session; the User Code list offers it', async () => {
		f = await startFixture();
		const result = await f.env.runWorkflow(
			workflowWithItems([{}], { resource: 'session', operation: 'whoAmI' }),
		);
		const [me] = result.json(NODE);
		const own = f.emulator
			.apiUsers()
			.find((u) => u.channel_identifier === f.emulator.credential.channel_identifier);
		expect(me).toEqual({
			user_code: own?.user_code,
			username: f.emulator.credential.channel_identifier,
		});
		expect(sent('Whoami').map((r) => [r.method, r.path])).toEqual([['GET', '/identity/v1/whoami']]);

		const list = await listSearch(f.env, {
			method: 'searchUserCodes',
			credentials: { sellerPlatformApi: CREDENTIAL_ID },
			parameters: { resource: 'apiCredential', operation: 'remove' },
		});
		expect(list.results).toEqual([
			{ name: `${me.username} (${me.user_code})`, value: me.user_code },
		]);
	});

	it('removes one key by its ID, or every key of the user when Key ID is left empty', async () => {
		f = await startFixture();
		const extra = await f.emulator.addCredential();
		const own = f.emulator
			.apiUsers()
			.find((u) => u.channel_identifier === extra.channel_identifier)!;
		expect(keysOf(own.user_code)).toBe(2);
		const one = await f.env.runWorkflow(
			workflowWithItems(
				[{ user: own.user_code, key: extra.key_id }],
				REMOVE({ keyId: '={{ $json.key }}' }),
			),
		);
		expect(one.json(NODE)).toEqual([{ success: true, credentials_removed: 1 }]);
		expect(keysOf(own.user_code)).toBe(1);

		// Two keys of another service account, made with API Credential → Create.
		const create = {
			resource: 'apiCredential',
			operation: 'create',
			userCode: SEEDED_API_USER.userCode,
			options: { privateKeyOutput: 'none' },
		};
		await f.env.runWorkflow(workflowWithItems([{}, {}], create));
		expect(keysOf(SEEDED_API_USER.userCode)).toBe(2);
		const all = await f.env.runWorkflow(
			workflowWithItems([{ user: SEEDED_API_USER.userCode }], REMOVE()),
		);
		expect(all.json(NODE)).toEqual([{ success: true, credentials_removed: 2 }]);
		expect(keysOf(SEEDED_API_USER.userCode)).toBe(0);
		expect(sent('RemoveCredentials').map((r) => [r.path, r.body])).toEqual([
			[
				'/identity/apiuser/v1/credential/remove',
				{ user_code: own.user_code, key_id: extra.key_id },
			],
			['/identity/apiuser/v1/credential/remove', { user_code: SEEDED_API_USER.userCode }],
		]);
		// This credential's own key is still there and still works.
		expect(keysOf(own.user_code)).toBe(1);
	});

	it('refuses a Key ID that is set but gives nothing, before sending; continue on fail keeps every item', async () => {
		f = await startFixture();
		const items = [
			{ user: SEEDED_API_USER.userCode, key: '' },
			{ user: SEEDED_API_USER.userCode, key: '   ' },
			{ user: SEEDED_API_USER.userCode },
			{ user: ' ', key: 'noon-partners-key-id-1' },
			{ user: SEEDED_API_USER.userCode, key: 'noon-partners-key-id-nope' },
		];
		const parameters = REMOVE({ keyId: '={{ $json.key }}' });
		const stopped = await f.env.runWorkflow(workflowWithItems(items, parameters));
		expect(stopped.nodeError(NODE)?.message).toBe(
			'The parameter "Key ID" (keyId) is set but gives an empty text, no key ID: the item is refused rather than removing every key of the user',
		);
		expect(sent('RemoveCredentials')).toHaveLength(0);

		const result = await f.env.runWorkflow(
			workflowWithItems(items, parameters, { continueOnFail: true }),
		);
		const out = result.outputs(NODE);
		expect(out.map((o) => o.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		expect(out.map((o) => String(o.json.error))).toEqual([
			expect.stringMatching(/"Key ID" \(keyId\) is set but gives an empty text/),
			expect.stringMatching(/"Key ID" \(keyId\) is set but gives the text "   "/),
			expect.stringMatching(/"Key ID" \(keyId\) is set but gives undefined/),
			'The parameter "User Code" (userCode) must not be empty',
			expect.stringMatching(/key_id "noon-partners-key-id-nope" is not an active key/),
		]);
		expect(sent('RemoveCredentials').map((r) => r.body)).toEqual([
			{ user_code: SEEDED_API_USER.userCode, key_id: 'noon-partners-key-id-nope' },
		]);
	});
});

describe('oauth/createToken', () => {
	const CREATE_TOKEN = (extra: INodeParameters = {}): INodeParameters => ({
		resource: 'oauth',
		operation: 'createToken',
		code: '={{ $json.code }}',
		clientId: SEEDED_OAUTH_CLIENT.clientId,
		clientSecret: SEEDED_OAUTH_CLIENT.clientSecret,
		...extra,
	});

	it('trades a code for a token (sent once, exactly), which Exchange Token then takes', async () => {
		f = await startFixture();
		const code = f.emulator.issueOAuthCode({ workflow: 'seller-profile' });
		const result = await f.env.runWorkflow(workflowWithItems([{ code }], CREATE_TOKEN()));
		const [token] = result.json(NODE);
		expect(token).toEqual({
			access_token: expect.stringMatching(/\S{40}/),
			token_type: 'TOKEN_TYPE_BEARER',
			expires_in: '3600s',
			scopes: [...SEEDED_OAUTH_CLIENT.scopes],
			project_code: f.emulator.projectCode,
		});
		expect(sent('CreateToken').map((r) => [r.method, r.path, r.body])).toEqual([
			[
				'POST',
				'/identity/oauth/v1/token/create',
				{
					grant_type: 'authorization_code',
					code,
					client_id: SEEDED_OAUTH_CLIENT.clientId,
					client_secret: SEEDED_OAUTH_CLIENT.clientSecret,
				},
			],
		]);
		const exchanged = await f.env.runWorkflow(
			workflowWithItems([{ token: token.access_token }], {
				resource: 'oauth',
				operation: 'exchangeToken',
				accessToken: '={{ $json.token }}',
			}),
		);
		expect(exchanged.json(NODE)[0]).toMatchObject({ result: { store_code: 'STR10001' } });

		// A used code is refused by the service, and a refused create is not sent again.
		f.emulator.injectFaults({ operation: 'CreateToken', count: 1, status: 503 });
		const again = await f.env.runWorkflow(workflowWithItems([{ code }], CREATE_TOKEN()));
		expect(again.status).toBe('error');
		expect(sent('CreateToken').map((r) => r.status)).toEqual([200, 503]);
	});

	it('with Access Token Output "Nowhere", no trace of the token is in the output', async () => {
		f = await startFixture();
		const code = f.emulator.issueOAuthCode();
		const result = await f.env.runWorkflow(
			workflowWithItems([{ code }], CREATE_TOKEN({ options: { accessTokenOutput: 'none' } })),
		);
		const [json] = result.json(NODE);
		expect(json.access_token).toBe('[removed: Access Token Output is Nowhere]');
		expect(json.project_code).toBe(f.emulator.projectCode);
		// The token was made: the emulator's log holds it; the output does not.
		const answer = sent('CreateToken')[0];
		expect(answer.status).toBe(200);
	});

	it('with Access Token Output "Nowhere", every token field of the answer is removed, not only access_token', async () => {
		f = await startFixture();
		const code = f.emulator.issueOAuthCode();
		const idToken = `eyJhbGciOiJSUzI1NiJ9.${Buffer.from('{"sub":"client-1"}').toString('base64url')}.c2lnbmF0dXJlLW9mLXRlc3Q`;
		const refreshToken = 'rt_0f3c9a7d2b1e4f6a8c0d5e7b';
		f.emulator.injectFaults({
			operation: 'CreateToken',
			count: 1,
			answer: { set: { refresh_token: refreshToken, id_token: idToken } },
		});
		const result = await f.env.runWorkflow(
			workflowWithItems([{ code }], CREATE_TOKEN({ options: { accessTokenOutput: 'none' } })),
		);
		const [json] = result.json(NODE);
		const note = '[removed: Access Token Output is Nowhere]';
		expect(json).toMatchObject({ access_token: note, refresh_token: note, id_token: note });
		expect(json.project_code).toBe(f.emulator.projectCode);
		const text = seen(result);
		for (const token of [refreshToken, idToken]) expect(text).not.toContain(token);
		expect(text).not.toMatch(/eyJ[\w-]+\./);
	});

	it('with Access Token Output "Nowhere", token fields spelled in camelCase or with dashes, a list of tokens and a jwt field are removed too; token_type stays', async () => {
		f = await startFixture();
		const tokens = {
			accessToken: 'at_camel_5d2e8f1a9b7c3e6d',
			refreshToken: 'rt_camel_0f3c9a7d2b1e4f6a',
			idToken: 'id_camel_8c0d5e7b1a2b3c4d',
			'Refresh-Token': 'rt_dash_9b7c3e6d4f0a1b2c',
			token_value: 'tv_snake_1a2b3c4d5e6f7a8b',
			jwt: 'jw_plain_2b3c4d5e6f7a8b9c',
		};
		f.emulator.injectFaults({
			operation: 'CreateToken',
			count: 1,
			answer: {
				set: {
					...tokens,
					nested: { sessionToken: 'st_nested_3e6d4f0a1b2c' },
					tokens: ['tk_list_4f0a1b2c3d4e', 'tk_list_5a6b7c8d9e0f'],
				},
			},
		});
		const result = await f.env.runWorkflow(
			workflowWithItems(
				[{ code: f.emulator.issueOAuthCode() }],
				CREATE_TOKEN({ options: { accessTokenOutput: 'none' } }),
			),
		);
		const [json] = result.json(NODE);
		const text = seen(result);
		const listed = ['st_nested_3e6d4f0a1b2c', 'tk_list_4f0a1b2c3d4e', 'tk_list_5a6b7c8d9e0f'];
		for (const token of [...Object.values(tokens), ...listed]) {
			expect(text).not.toContain(token);
		}
		expect(json.token_type).toBe('TOKEN_TYPE_BEARER');
		expect(json.project_code).toBe(f.emulator.projectCode);
	});

	it('a token the service issued and then echoed in an error (a gateway failing after CreateToken) is masked', async () => {
		f = await startFixture();
		// The operation runs (the token is issued), then the gateway answers 502 with the token in
		// its text: once inside the answer's JSON, once alone.
		for (const answer of [
			{ status: 502, prefix: 'upstream timeout after issuing ' },
			{ status: 502, unwrap: 'access_token', prefix: 'upstream timeout after issuing ' },
		]) {
			f.emulator.injectFaults({ operation: 'CreateToken', count: 1, answer });
			const result = await f.env.runWorkflow(
				workflowWithItems([{ code: f.emulator.issueOAuthCode() }], CREATE_TOKEN(), {
					continueOnFail: true,
				}),
			);
			const text = seen(result);
			expect(text).toContain('upstream timeout after issuing');
			expect(text).toContain('<redacted>');
			expect(text).not.toMatch(/eyJ[\w-]+\./);
			expect(JSON.stringify(f.env.logger.entries)).not.toMatch(/eyJ[\w-]+\./);
		}
		expect(sent('CreateToken').map((r) => r.status)).toEqual([502, 502]);
	});

	it('an opaque token the service echoes in an error is masked however its field is spelled: camelCase, JSON inside a text, URL-encoded', async () => {
		f = await startFixture();
		const opaque = [
			'ya29a0AfH6SMBx9k2LqQwE7',
			'rt0f3c9a7d2b1e4f6a8c0d5e',
			'ya29b1QqZ8x7VvW6u5T4s3R',
		];
		// A gRPC gateway writes proto3 JSON in camelCase; a proxy wraps the upstream's JSON in a
		// text (its quotes escaped) or a URL.
		f.emulator.injectFaults({
			operation: 'CreateToken',
			count: 1,
			answer: {
				status: 502,
				prefix: 'upstream timeout after issuing ',
				omit: ['access_token'],
				set: {
					accessToken: opaque[0],
					upstream: JSON.stringify({ refresh_token: opaque[1] }),
					callback: `https://app.example.com/cb#access_token%3D${opaque[2]}%26token_type%3Dbearer`,
				},
			},
		});
		const result = await f.env.runWorkflow(
			workflowWithItems([{ code: f.emulator.issueOAuthCode() }], CREATE_TOKEN(), {
				continueOnFail: true,
			}),
		);
		const text = seen(result) + JSON.stringify(f.env.logger.entries);
		expect(text).toContain('upstream timeout after issuing');
		expect(text).toContain('token_type%3Dbearer');
		for (const token of opaque) expect(text).not.toContain(token);
		expect(sent('CreateToken').map((r) => r.status)).toEqual([502]);
	});

	it("Exchange Token's workflow result keeps the tokens it issued (the output asked for); the access token sent stays masked", async () => {
		f = await startFixture();
		const issued = {
			client_id: 'noon-oauth-client-7f3a9c2e',
			access_token: 'at_5d2e8f1a9b7c3e6d4f0a',
			id_token: `eyJhbGciOiJSUzI1NiJ9.${Buffer.from('{"sub":"client-7f3a"}').toString('base64url')}.c2lnbmF0dXJlLW9mLXRlc3Q`,
		};
		f.emulator.injectFaults({
			operation: 'ExchangeToken',
			count: 1,
			answer: { set: { result: issued } },
		});
		const accessToken = (
			await f.env.runWorkflow(
				workflowWithItems([{ code: f.emulator.issueOAuthCode() }], CREATE_TOKEN()),
			)
		).json(NODE)[0].access_token as string;
		const result = await f.env.runWorkflow(
			workflowWithItems([{ token: accessToken }], {
				resource: 'oauth',
				operation: 'exchangeToken',
				accessToken: '={{ $json.token }}',
			}),
		);
		const [json] = result.json(NODE);
		expect(json.result).toEqual(issued);
		expect(JSON.stringify(json)).not.toContain(accessToken);
	});

	it('never shows the client secret or the code a service echoes; refuses blank fields before sending', async () => {
		f = await startFixture();
		const code = f.emulator.issueOAuthCode();
		for (const echo of [
			true,
			{ field: 'message' as const },
			{ field: 'details' as const, encoding: 'base64' as const },
		]) {
			f.emulator.injectFaults({ operation: 'CreateToken', count: 1, status: 400, echo });
			const result = await f.env.runWorkflow(
				workflowWithItems([{ code }], CREATE_TOKEN(), { continueOnFail: true }),
			);
			const text = seen(result);
			expect(text).toMatch(/error/);
			for (const secret of [SEEDED_OAUTH_CLIENT.clientSecret, code]) {
				expect(text).not.toContain(secret);
				expect(text).not.toContain(Buffer.from(secret).toString('base64'));
			}
		}
		const stopped = await f.env.runWorkflow(
			workflowWithItems([{ code, grant: ' ' }], CREATE_TOKEN({ grantType: '={{ $json.grant }}' })),
		);
		expect(stopped.nodeError(NODE)?.message).toBe(
			'The parameter "Grant Type" (grantType) must not be empty',
		);
		expect(sent('CreateToken')).toHaveLength(3);
	});
});

describe('the credential: gateway choice', () => {
	it("a custom address is used as it is, in runs and in the credential's Test", async () => {
		f = await startFixture();
		f.env.addCredential(
			'custom',
			'sellerPlatformApi',
			credentialFields(f.emulator, { gateway: 'custom', baseUrl: `${f.emulator.baseUrl}/` }),
		);
		expect(await f.env.testCredential('custom')).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		const result = await f.env.runWorkflow(
			workflowWithItems(
				[{}],
				{ resource: 'session', operation: 'whoAmI' },
				{
					credentials: { sellerPlatformApi: 'custom' },
				},
			),
		);
		expect(result.status).toBe('success');
	});

	it('a credential saved before the Gateway field (a Base URL alone) keeps working as it was', async () => {
		f = await startFixture();
		expect(f.env.credentialData(CREDENTIAL_ID)).not.toHaveProperty('gateway');
		expect(await f.env.testCredential(CREDENTIAL_ID)).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		const result = await f.env.runWorkflow(
			workflowWithItems([{}], { resource: 'session', operation: 'login' }),
		);
		expect(result.json(NODE)[0].baseUrl).toBe(f.emulator.baseUrl);
	});

	it('a named gateway wins over a Base URL left in the data; a custom one is the Base URL as typed', () => {
		expect(gatewayBaseUrl({ gateway: 'noonSandbox', baseUrl: 'http://127.0.0.1:1' })).toBe(
			'https://noon-sandbox-api-gateway.noon.partners',
		);
		expect(gatewayBaseUrl({ gateway: 'namshi', baseUrl: 'http://127.0.0.1:1' })).toBe(
			'https://namshi-api-gateway.noon.partners',
		);
		expect(gatewayBaseUrl({ gateway: 'noon' })).toBe('https://noon-api-gateway.noon.partners');
		expect(gatewayBaseUrl({ gateway: 'custom', baseUrl: ' http://127.0.0.1:9/ ' })).toBe(
			'http://127.0.0.1:9/',
		);
		expect(gatewayBaseUrl({ gateway: 'constructor', baseUrl: 'http://127.0.0.1:9' })).toBe(
			'http://127.0.0.1:9',
		);
	});
});

describe('Custom API Call', () => {
	it.each([
		['resource', { resource: '__CUSTOM_API_CALL__', operation: '__CUSTOM_API_CALL__' }],
		['operation', { resource: 'export', operation: '__CUSTOM_API_CALL__' }],
	])(
		'chosen as the %s, points to the HTTP Request node with this credential and sends nothing',
		async (_, parameters) => {
			f = await startFixture();
			const result = await f.env.runWorkflow(workflowWithItems([{}], parameters));
			const error = result.nodeError(NODE) as Error & { description?: string };
			expect(error.message).toBe(
				'"Custom API Call" runs in the HTTP Request node, not in the Seller Platform node',
			);
			expect(error.description).toMatch(/"Predefined Credential Type".*"Seller Platform API"/);
			expect(error.description).toMatch(/pacing of this package .* does not apply/);
			expect(f.emulator.requests()).toHaveLength(0);
		},
	);
});
