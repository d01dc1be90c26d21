/**
 * Checks that the in-process harness (test/helpers) runs workflows the way n8n does:
 * logins through a credential's `preAuthentication` are reused across executions and redone
 * once on 401, continue-on-fail produces paired error items, expressions resolve.
 * Everything talks to a real local HTTP server.
 */
import { once } from 'events';
import type { AddressInfo } from 'net';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'http';
import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	chain,
	connect,
	createFunctionNodeType,
	createTestEnvironment,
	type TestEnvironment,
	type TestWorkflow,
} from './helpers';

// ---------------------------------------------------------------------------------------------
// A small service with a session login: POST /login gives a token, GET /items/:id needs it.

interface FakeService {
	baseUrl: string;
	logins: number;
	unauthorized: number;
	itemRequests: number;
	/** Invalidate every session after this many successful item requests (once). */
	expireSessionsAfter?: number;
	close(): Promise<void>;
}

async function startService(): Promise<FakeService> {
	const sessions = new Set<string>();
	const state: Omit<FakeService, 'baseUrl' | 'close'> = { logins: 0, unauthorized: 0, itemRequests: 0 };

	const send = (res: ServerResponse, status: number, body: unknown) => {
		res.writeHead(status, { 'content-type': 'application/json' });
		res.end(JSON.stringify(body));
	};
	const readBody = async (req: IncomingMessage): Promise<IDataObject> => {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		return chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as IDataObject) : {};
	};

	const server: Server = createServer((req, res) => {
		void (async () => {
			const url = new URL(req.url ?? '/', 'http://localhost');
			if (req.method === 'POST' && url.pathname === '/login') {
				const body = await readBody(req);
				if (body.user !== 'alice' || body.password !== 'secret') return send(res, 403, { message: 'bad login' });
				state.logins++;
				const token = `token-${state.logins}-${body.region as string}`;
				sessions.add(token);
				return send(res, 200, { token });
			}
			const match = /^\/items\/([^/]+)$/.exec(url.pathname);
			if (req.method === 'GET' && match) {
				const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
				if (!token || !sessions.has(token)) {
					state.unauthorized++;
					return send(res, 401, { message: 'session expired' });
				}
				const id = decodeURIComponent(match[1]);
				if (id.startsWith('missing')) return send(res, 404, { message: `no item ${id}` });
				state.itemRequests++;
				const service = state as FakeService;
				if (service.expireSessionsAfter !== undefined && state.itemRequests === service.expireSessionsAfter) {
					sessions.clear();
				}
				return send(res, 200, { id, token, tag: url.searchParams.get('tag') });
			}
			send(res, 404, { message: 'not found' });
		})();
	});
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	const { port } = server.address() as AddressInfo;

	return Object.assign(state, {
		baseUrl: `http://127.0.0.1:${port}`,
		close: async () => {
			server.closeAllConnections();
			server.close();
			await once(server, 'close');
		},
	});
}

// ---------------------------------------------------------------------------------------------
// A credential type with a login, and a node that fetches one item per input item.

const sessionCredentialProperties: INodeProperties[] = [
	{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
	{ displayName: 'User', name: 'user', type: 'string', default: '' },
	{ displayName: 'Password', name: 'password', type: 'string', typeOptions: { password: true }, default: '' },
	{ displayName: 'Region', name: 'region', type: 'string', default: 'eu' },
	{
		displayName: 'Session Token',
		name: 'sessionToken',
		type: 'hidden',
		typeOptions: { expirable: true },
		default: '',
	},
];

async function login(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
	const response = (await this.helpers.httpRequest({
		method: 'POST',
		url: `${credentials.baseUrl as string}/login`,
		body: { user: credentials.user, password: credentials.password, region: credentials.region },
		json: true,
	})) as { token: string };
	return response.token;
}

class SessionApi implements ICredentialType {
	name = 'sessionApi';
	displayName = 'Session API (test)';
	properties = sessionCredentialProperties;

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		return { sessionToken: await login.call(this, credentials) };
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.sessionToken}}' } },
	};
}

/** Returns its token under the wrong key: n8n must discard it. */
class BrokenSessionApi extends SessionApi {
	name = 'brokenSessionApi';

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		return { token: await login.call(this, credentials) } as unknown as { sessionToken: string };
	}
}

class FetchItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fetch Items',
		name: 'fetchItems',
		group: ['transform'],
		version: 1,
		description: 'Fetches one item per input item (test only)',
		defaults: { name: 'Fetch Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'sessionApi', required: true, displayOptions: { show: { auth: ['session'] } } },
			{ name: 'brokenSessionApi', required: true, displayOptions: { show: { auth: ['broken'] } } },
		],
		properties: [
			{
				displayName: 'Auth',
				name: 'auth',
				type: 'options',
				options: [
					{ name: 'Session', value: 'session' },
					{ name: 'Broken', value: 'broken' },
				],
				default: 'session',
			},
			{ displayName: 'Item ID', name: 'itemId', type: 'string', default: '' },
			{ displayName: 'Tag', name: 'tag', type: 'string', default: '' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const credentialType = this.getNodeParameter('auth', 0) === 'broken' ? 'brokenSessionApi' : 'sessionApi';
		const { baseUrl } = await this.getCredentials<{ baseUrl: string }>(credentialType);
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			try {
				const itemId = this.getNodeParameter('itemId', i) as string;
				const tag = this.getNodeParameter('tag', i) as string;
				const body = (await this.helpers.httpRequestWithAuthentication.call(this, credentialType, {
					method: 'GET',
					url: `${baseUrl}/items/${encodeURIComponent(itemId)}`,
					qs: tag ? { tag } : {},
					json: true,
				})) as IDataObject;
				out.push({ json: body, pairedItem: { item: i } });
			} catch (error) {
				if (this.continueOnFail()) {
					out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
					continue;
				}
				throw error;
			}
		}
		return [out];
	}
}

// ---------------------------------------------------------------------------------------------

const itemsJson = (ids: Array<string | number>) => JSON.stringify(ids.map((id) => ({ id, name: `n${id}` })));

function fetchWorkflow(ids: Array<string | number>, fetchNode: Partial<TestWorkflow['nodes'][number]> = {}): TestWorkflow {
	return {
		nodes: [
			{ name: 'Items', type: 'testItems', parameters: { items: itemsJson(ids) } },
			{
				name: 'Fetch',
				type: 'fetchItems',
				parameters: { itemId: '={{ $json.id }}', tag: '={{ $json.name.toUpperCase() }}-{{ $itemIndex }}' },
				credentials: { sessionApi: 'cred-1' },
				...fetchNode,
			},
			{ name: 'Collect', type: 'testNoOp' },
		],
		connections: chain('Items', 'Fetch', 'Collect'),
	};
}

describe('in-process n8n harness', () => {
	let service: FakeService;
	let env: TestEnvironment;

	beforeEach(async () => {
		service = await startService();
		env = createTestEnvironment({
			nodeTypes: [new FetchItems()],
			credentialTypes: [new SessionApi(), new BrokenSessionApi()],
		});
		// No sessionToken stored: the credential-type default ('') applies, as in n8n.
		env.addCredential('cred-1', 'sessionApi', { baseUrl: service.baseUrl, user: 'alice', password: 'secret' });
	});

	afterEach(async () => {
		await service.close();
	});

	it('logs in once and reuses the persisted session across executions', async () => {
		for (let run = 0; run < 3; run++) {
			const result = await env.runWorkflow(fetchWorkflow([1, 2, 3, 4, 5]));
			expect(result.error).toBeUndefined();
			expect(result.status).toBe('success');
			expect(result.executedNodes).toEqual(['Items', 'Fetch', 'Collect']);
			expect(result.json('Collect')).toEqual([1, 2, 3, 4, 5].map((id, i) => ({
				id: String(id),
				token: 'token-1-eu',
				tag: `N${id}-${i}`,
			})));
			expect(result.outputs('Fetch').map((item) => item.pairedItem)).toEqual(
				[0, 1, 2, 3, 4].map((item) => ({ item })),
			);
		}
		expect(env.loginCount).toBe(1);
		expect(env.logins).toEqual([expect.objectContaining({ credentialId: 'cred-1', reason: 'empty', succeeded: true })]);
		expect(service.logins).toBe(1);
		expect(service.unauthorized).toBe(0);
		// Persisted like n8n's database: stored fields plus the session, without type defaults.
		expect(env.credentialData('cred-1')).toEqual({
			baseUrl: service.baseUrl,
			user: 'alice',
			password: 'secret',
			sessionToken: 'token-1-eu',
		});
	});

	it('logs in again exactly once when the service answers 401 mid-run, and retries the request', async () => {
		service.expireSessionsAfter = 2;
		const result = await env.runWorkflow(fetchWorkflow([1, 2, 3, 4, 5]));

		expect(result.error).toBeUndefined();
		expect(result.json('Fetch').map((json) => [json.id, json.token])).toEqual([
			['1', 'token-1-eu'],
			['2', 'token-1-eu'],
			['3', 'token-2-eu'],
			['4', 'token-2-eu'],
			['5', 'token-2-eu'],
		]);
		expect(service.unauthorized).toBe(1);
		expect(service.logins).toBe(2);
		expect(env.loginCount).toBe(2);
		expect(env.logins.map((l) => l.reason)).toEqual(['empty', 'expired']);
		expect(env.credentialData('cred-1').sessionToken).toBe('token-2-eu');

		// The next execution starts with the refreshed session.
		await env.runWorkflow(fetchWorkflow([6]));
		expect(env.loginCount).toBe(2);
	});

	it('continueOnFail: one error item per failed input, paired with it', async () => {
		const result = await env.runWorkflow(
			fetchWorkflow([1, 'missing-a', 3, 'missing-b', 5], { continueOnFail: true }),
		);

		expect(result.error).toBeUndefined();
		const out = result.outputs('Collect');
		expect(out).toHaveLength(5);
		expect(out.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
		expect(out[1].json.error).toEqual(expect.any(String));
		expect(out[3].json.error).toEqual(expect.any(String));
		expect([out[0], out[2], out[4]].map((item) => item.json.id)).toEqual(['1', '3', '5']);
		expect(env.loginCount).toBe(1);
	});

	it("onError 'continueErrorOutput': failed items go to output 1", async () => {
		const workflow = fetchWorkflow([1, 'missing-a', 3], { onError: 'continueErrorOutput' });
		connect(workflow.connections, 'Fetch', 'Collect', 1);
		const result = await env.runWorkflow(workflow);

		expect(result.error).toBeUndefined();
		expect(result.json('Fetch', 0).map((json) => json.id)).toEqual(['1', '3']);
		const errors = result.outputs('Fetch', 1);
		expect(errors).toHaveLength(1);
		expect(errors[0].pairedItem).toEqual({ item: 1 });
		expect(errors[0].json.error).toEqual(expect.any(String));
	});

	it('a failing node without continue-on-fail fails the execution', async () => {
		const result = await env.runWorkflow(fetchWorkflow([1, 'missing-a']));

		expect(result.status).toBe('error');
		expect(result.error?.message).toEqual(expect.any(String));
		expect(result.nodeError('Fetch')).toBeDefined();
		expect(result.executedNodes).toEqual(['Items', 'Fetch']);
		expect(() => result.outputs('Collect')).toThrow(/Collect/);
	});

	it('a login that fails is counted as an attempt, not a login, and fails the node', async () => {
		env.addCredential('cred-1', 'sessionApi', { baseUrl: service.baseUrl, user: 'alice', password: 'wrong' });
		const result = await env.runWorkflow(fetchWorkflow([1]));

		expect(result.status).toBe('error');
		expect(env.loginCount).toBe(0);
		expect(env.logins).toHaveLength(1);
		expect(env.logins[0].error).toBeDefined();
		expect(env.credentialData('cred-1').sessionToken).toBeUndefined();
	});

	it('discards a preAuthentication result without the expirable property', async () => {
		env.addCredential('cred-2', 'brokenSessionApi', { baseUrl: service.baseUrl, user: 'alice', password: 'secret' });
		const result = await env.runWorkflow(
			fetchWorkflow([1], { parameters: { auth: 'broken', itemId: '={{ $json.id }}' }, credentials: { brokenSessionApi: 'cred-2' } }),
		);

		// Login on the empty session, 401, login again after the 401, one retry, 401 again.
		expect(result.status).toBe('error');
		expect(service.logins).toBe(2);
		expect(service.unauthorized).toBe(2);
		expect(env.loginCount).toBe(0);
		expect(env.logins.map((l) => [l.reason, l.succeeded])).toEqual([
			['empty', false],
			['expired', false],
		]);
		expect(env.credentialData('cred-2').sessionToken).toBeUndefined();
	});

	it('gives nodes binary data, static data and a logger; static data persists only outside manual runs', async () => {
		const probe = createFunctionNodeType('probe', async function (this: IExecuteFunctions) {
			const staticData = this.getWorkflowStaticData('global');
			staticData.runs = ((staticData.runs as number | undefined) ?? 0) + 1;
			this.logger.warn('probe ran', { runs: staticData.runs });
			const binary = await this.helpers.prepareBinaryData(Buffer.from('hello'), 'hello.txt', 'text/plain');
			const buffer = await this.helpers.getBinaryDataBuffer(0, 'data').catch(() => undefined);
			return [[{ json: { runs: staticData.runs, hadInputBinary: buffer !== undefined }, binary: { data: binary }, pairedItem: { item: 0 } }]];
		});
		env.nodeTypes.add(probe);
		const workflow: TestWorkflow = {
			nodes: [
				{ name: 'Items', type: 'testItems' },
				{ name: 'Probe', type: 'probe' },
			],
			connections: chain('Items', 'Probe'),
		};

		const manual = await env.runWorkflow(workflow);
		expect(manual.json('Probe')).toEqual([{ runs: 1, hadInputBinary: false }]);
		const binary = manual.outputs('Probe')[0].binary!.data;
		expect(Buffer.from(binary.data, 'base64').toString()).toBe('hello');
		expect(binary).toMatchObject({ fileName: 'hello.txt', mimeType: 'text/plain', bytes: 5 });
		expect(env.workflowStaticData()).toEqual({});

		await env.runWorkflow(workflow, { mode: 'trigger' });
		const third = await env.runWorkflow(workflow, { mode: 'trigger' });
		expect(third.json('Probe')[0].runs).toBe(2);
		expect(env.workflowStaticData()).toEqual({ global: { runs: 2 } });
		expect(env.logger.entries.filter((e) => e.message === 'probe ran')).toHaveLength(3);
	});

	it('authenticate: generic qs/body/auth properties and the function form', async () => {
		const workflow = env.createWorkflow(fetchWorkflow([1]));
		const node = workflow.getNode('Fetch')!;
		const credentials = { user: 'alice', password: 'secret', sessionToken: 'abc' };

		class GenericEverywhere extends SessionApi {
			name = 'genericEverywhere';
			authenticate: IAuthenticateGeneric = {
				type: 'generic',
				properties: {
					qs: { session: '={{$credentials.sessionToken}}', fixed: 'yes' },
					body: { user: '={{$credentials.user}}' },
					auth: { username: '={{$credentials.user}}', password: '={{$credentials.password}}' },
				},
			};
		}
		class FunctionAuth implements ICredentialType {
			name = 'functionAuth';
			displayName = 'Function auth (test)';
			properties = sessionCredentialProperties;
			authenticate = async (creds: ICredentialDataDecryptedObject, options: IHttpRequestOptions) => ({
				...options,
				headers: { ...options.headers, 'X-Token': `fn-${creds.sessionToken as string}` },
			});
		}
		env.credentialTypes.add(new GenericEverywhere());
		env.credentialTypes.add(new FunctionAuth());

		const generic = await env.credentialsHelper.authenticate(
			credentials,
			'genericEverywhere',
			{ url: 'http://x', qs: { page: 1 } },
			workflow,
			node,
		);
		expect(generic.qs).toEqual({ page: 1, session: 'abc', fixed: 'yes' });
		expect(generic.body).toEqual({ user: 'alice' });
		expect(generic.auth).toEqual({ username: 'alice', password: 'secret' });

		const fn = await env.credentialsHelper.authenticate(credentials, 'functionAuth', { url: 'http://x' });
		expect(fn.headers).toEqual({ 'X-Token': 'fn-abc' });
	});
});
