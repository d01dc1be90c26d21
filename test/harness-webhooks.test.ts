/**
 * Checks the harness's webhook triggers (test/helpers/webhooks.ts) against what the n8n app does:
 * activation runs `checkExists` then `create` in a HookContext (production or test URL), requests
 * reach `webhook()` through a WebhookContext, its three kinds of answer are handled like
 * `WebhookHelpers.executeWebhook`, static data follows the app's saving rules, deactivation runs
 * `delete`, test webhooks go away after one execution. A small local service with a login stands
 * in for the third party the trigger registers with.
 */
import { once } from 'events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IHookFunctions,
	IHttpRequestHelper,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { chain, connect, createTestEnvironment, type ActiveWorkflow, type TestEnvironment, type TestWorkflow } from './helpers';

// --- A third party where a trigger registers its URL (POST /hooks, DELETE /hooks/:id) -------------

interface HookService {
	baseUrl: string;
	logins: number;
	hooks: Map<string, string>;
	failDeletes: boolean;
	close(): Promise<void>;
}

async function startHookService(): Promise<HookService> {
	const tokens = new Set<string>();
	const state = { logins: 0, hooks: new Map<string, string>(), failDeletes: false };
	let nextId = 1;
	const send = (res: ServerResponse, status: number, body: unknown) => {
		res.writeHead(status, { 'content-type': 'application/json' });
		res.end(JSON.stringify(body));
	};
	const readJson = async (req: IncomingMessage): Promise<IDataObject> => {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		return chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as IDataObject) : {};
	};
	const server: Server = createServer((req, res) => {
		void (async () => {
			const url = new URL(req.url ?? '/', 'http://localhost');
			const body = await readJson(req);
			if (req.method === 'POST' && url.pathname === '/login') {
				if (body.password !== 'secret') return send(res, 403, { message: 'bad login' });
				const token = `token-${++state.logins}`;
				tokens.add(token);
				return send(res, 200, { token });
			}
			const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
			if (!token || !tokens.has(token)) return send(res, 401, { message: 'no session' });
			if (req.method === 'POST' && url.pathname === '/hooks') {
				const id = `hook-${nextId++}`;
				state.hooks.set(id, String(body.url));
				return send(res, 200, { id });
			}
			const match = /^\/hooks\/([^/]+)$/.exec(url.pathname);
			if (req.method === 'DELETE' && match) {
				if (state.failDeletes) return send(res, 503, { message: 'try later' });
				state.hooks.delete(match[1]);
				return send(res, 200, {});
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

class HookServiceApi implements ICredentialType {
	name = 'hookServiceApi';
	displayName = 'Hook Service (test)';
	properties = [
		{ displayName: 'Base URL', name: 'baseUrl', type: 'string' as const, default: '' },
		{ displayName: 'Password', name: 'password', type: 'string' as const, typeOptions: { password: true }, default: '' },
		{ displayName: 'Token', name: 'token', type: 'hidden' as const, typeOptions: { expirable: true }, default: '' },
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const { token } = (await this.helpers.httpRequest({
			method: 'POST',
			url: `${credentials.baseUrl as string}/login`,
			body: { password: credentials.password },
			json: true,
		})) as { token: string };
		return { token };
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.token}}' } },
	};
}

// --- A webhook trigger that records what n8n gives it ------------------------------------------------

interface HookCall {
	method: string;
	mode: string;
	activation: string;
	url: string | undefined;
	staticData: IDataObject;
}

const hookCalls: HookCall[] = [];

function record(ctx: IHookFunctions, method: string): IDataObject {
	const data = ctx.getWorkflowStaticData('node');
	hookCalls.push({
		method,
		mode: ctx.getMode(),
		activation: ctx.getActivationMode(),
		url: ctx.getNodeWebhookUrl('default'),
		staticData: JSON.parse(JSON.stringify(data)) as IDataObject,
	});
	return data;
}

class RecordingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Recording Trigger',
		name: 'recordingTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Registers its URL with the hook service and answers by the request (test only)',
		defaults: { name: 'Recording Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		credentials: [{ name: 'hookServiceApi', required: true }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'hook' }],
		properties: [{ displayName: 'Label', name: 'label', type: 'string', default: 'a' }],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const data = record(this, 'checkExists');
				return data.hookId !== undefined && data.url === this.getNodeWebhookUrl('default');
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const data = record(this, 'create');
				const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('hookServiceApi');
				if (this.getNodeParameter('label') === 'fail-create') throw new Error('create refused');
				const { id } = (await this.helpers.httpRequestWithAuthentication.call(this, 'hookServiceApi', {
					method: 'POST',
					url: `${baseUrl}/hooks`,
					body: { url: this.getNodeWebhookUrl('default') },
					json: true,
				})) as { id: string };
				data.hookId = id;
				data.url = this.getNodeWebhookUrl('default');
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				const data = record(this, 'delete');
				if (data.hookId === undefined) return true;
				const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('hookServiceApi');
				await this.helpers.httpRequestWithAuthentication.call(this, 'hookServiceApi', {
					method: 'DELETE',
					url: `${baseUrl}/hooks/${data.hookId as string}`,
					json: true,
				});
				delete data.hookId;
				delete data.url;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const body = this.getBodyData();
		const data = this.getWorkflowStaticData('node');
		data.calls = ((data.calls as number | undefined) ?? 0) + 1;
		switch (body.action) {
			case 'respond':
				return { webhookResponse: { ok: true, calls: data.calls } };
			case 'ignore':
				return {};
			case 'deny':
				this.getResponseObject().status(401).json({ message: 'nope' });
				return { noWebhookResponse: true };
			case 'accept-and-start':
				this.getResponseObject().status(202).json({ accepted: true });
				return { noWebhookResponse: true, workflowData: [this.helpers.returnJsonArray([body])] };
			case 'throw':
				throw new Error('webhook exploded');
			default:
				return {
					workflowData: [
						this.helpers.returnJsonArray([{ ...body, headers: this.getHeaderData().authorization ?? null }]),
						[{ json: { second: true } }],
					],
				};
		}
	}
}

// ---------------------------------------------------------------------------------------------------

let service: HookService;
let env: TestEnvironment;
const handles: ActiveWorkflow[] = [];

beforeEach(async () => {
	hookCalls.length = 0;
	service = await startHookService();
	env = createTestEnvironment({ nodeTypes: [new RecordingTrigger()], credentialTypes: [new HookServiceApi()] });
	env.addCredential('cred-1', 'hookServiceApi', { baseUrl: service.baseUrl, password: 'secret', token: '' });
});

afterEach(async () => {
	for (const handle of handles.splice(0)) await handle.close();
	await env.close();
	await service.close();
});

function workflow(label = 'a'): TestWorkflow {
	const connections = chain('Trigger', 'First');
	connect(connections, 'Trigger', 'Second', 1);
	return {
		id: 'wf-1',
		nodes: [
			{ name: 'Trigger', type: 'recordingTrigger', parameters: { label }, credentials: { hookServiceApi: 'cred-1' } },
			{ name: 'First', type: 'testNoOp' },
			{ name: 'Second', type: 'testNoOp' },
		],
		connections,
	};
}

async function activate(wf: TestWorkflow, mode: 'trigger' | 'manual' = 'trigger', testWebhookTimeoutMs?: number) {
	const handle = await env.activateWorkflow(wf, { mode, testWebhookTimeoutMs });
	handles.push(handle);
	return handle;
}

async function post(url: string, body: unknown, contentType = 'application/json') {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': contentType },
		body: typeof body === 'string' ? body : JSON.stringify(body),
	});
	const text = await response.text();
	let parsed: unknown = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		// not JSON
	}
	return { status: response.status, body: parsed };
}

describe('harness: webhook triggers', () => {
	it('activation: checkExists then create in a HookContext (mode trigger), with login, URL and saved static data', async () => {
		const handle = await activate(workflow());

		expect(handle.webhookUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook\/[0-9a-f-]{36}\/hook$/);
		expect(hookCalls.map(({ method, mode, activation, url }) => ({ method, mode, activation, url }))).toEqual([
			{ method: 'checkExists', mode: 'trigger', activation: 'activate', url: handle.webhookUrl },
			{ method: 'create', mode: 'trigger', activation: 'activate', url: handle.webhookUrl },
		]);
		// httpRequestWithAuthentication in the hook: the credential's login ran once and was persisted.
		expect(service.logins).toBe(1);
		expect(env.logins).toEqual([expect.objectContaining({ credentialId: 'cred-1', reason: 'empty', succeeded: true })]);
		expect(env.credentialData('cred-1').token).toBe('token-1');
		expect([...service.hooks.values()]).toEqual([handle.webhookUrl]);
		expect(env.workflowStaticData('wf-1')).toEqual({ 'node:Trigger': { hookId: 'hook-1', url: handle.webhookUrl } });
		expect(handle.staticData()).toEqual(env.workflowStaticData('wf-1'));

		// The same workflow keeps its webhookId: a second check finds the registration.
		await expect(env.runWebhookMethod(workflow(), 'checkExists')).resolves.toBe(true);
	});

	it('webhook(): workflowData starts an execution with every output; webhookResponse, noWebhookResponse and errors answer without one', async () => {
		const handle = await activate(workflow());

		expect(await post(handle.webhookUrl, { action: 'start', n: 1 })).toEqual({
			status: 200,
			body: { message: 'Workflow was started' },
		});
		const [execution] = await handle.waitForExecutions(1);
		expect(execution.run.mode).toBe('webhook');
		expect(execution.status).toBe('success');
		expect(execution.json('First')).toEqual([{ action: 'start', n: 1, headers: null }]);
		expect(execution.json('Second')).toEqual([{ second: true }]);

		expect(await post(handle.webhookUrl, { action: 'respond' })).toEqual({ status: 200, body: { ok: true, calls: 1 } });
		expect(await post(handle.webhookUrl, { action: 'ignore' })).toEqual({
			status: 200,
			body: { message: 'Webhook call received' },
		});
		expect(await post(handle.webhookUrl, { action: 'deny' })).toEqual({ status: 401, body: { message: 'nope' } });
		expect(await post(handle.webhookUrl, { action: 'throw' })).toEqual({
			status: 500,
			body: { code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' },
		});
		expect(await post(handle.webhookUrl, { action: 'accept-and-start' })).toEqual({
			status: 202,
			body: { accepted: true },
		});
		await handle.waitForExecutions(2);
		await handle.settled();
		expect(handle.executions).toHaveLength(2);
		expect(handle.requests.map((r) => [r.outcome, r.status])).toEqual([
			['execution', 200],
			['response', 200],
			['response', 200],
			['noWebhookResponse', 401],
			['error', 500],
			['execution', 202],
		]);
		expect(handle.errors.map((e) => e.message)).toEqual(['webhook exploded']);
	});

	it('static data changed in webhook() is saved when no execution starts, dropped when one starts (n8n 2.41)', async () => {
		const handle = await activate(workflow());
		const calls = () => (handle.staticData()['node:Trigger'] as IDataObject).calls;

		await post(handle.webhookUrl, { action: 'respond' });
		expect(calls()).toBe(1);
		await post(handle.webhookUrl, { action: 'deny' });
		expect(calls()).toBe(2);
		await post(handle.webhookUrl, { action: 'start' });
		await handle.waitForExecutions(1);
		expect(calls()).toBe(2); // WorkflowRunner.run reset the change flag: not saved
		await post(handle.webhookUrl, { action: 'accept-and-start' });
		await handle.waitForExecutions(2);
		expect(calls()).toBe(3); // the node answered itself: saved before the run started
	});

	it('requests: bodies parsed like n8n (JSON, form, text), 422 for bad JSON, 404 for unknown paths or methods', async () => {
		const handle = await activate(workflow());
		const base = handle.webhookUrl.replace(/\/webhook\/.*$/, '');

		await post(handle.webhookUrl, 'action=start&n=2&n=3', 'application/x-www-form-urlencoded');
		const [execution] = await handle.waitForExecutions(1);
		expect(execution.json('First')).toEqual([{ action: 'start', n: ['2', '3'], headers: null }]);
		expect((await post(handle.webhookUrl, '{not json')).status).toBe(422);
		expect((await post(`${base}/webhook/nothing-here`, {})).status).toBe(404);
		expect((await post(handle.webhookUrl.replace('/webhook/', '/webhook-test/'), {})).status).toBe(404);
		expect((await fetch(handle.webhookUrl)).status).toBe(404);
	});

	it('deactivation: delete (mode internal, activation update), static data saved, URL gone; a failing delete rejects and keeps it active', async () => {
		const handle = await activate(workflow());
		hookCalls.length = 0;
		service.failDeletes = true;

		await expect(handle.deactivate()).rejects.toThrow();
		expect(handle.active).toBe(true);
		expect(service.hooks.size).toBe(1);
		expect(env.workflowStaticData('wf-1')).toEqual({ 'node:Trigger': { hookId: 'hook-1', url: handle.webhookUrl } });

		service.failDeletes = false;
		await handle.deactivate();
		expect(hookCalls.map(({ method, mode, activation }) => [method, mode, activation])).toEqual([
			['delete', 'internal', 'update'],
			['delete', 'internal', 'update'],
		]);
		expect(service.hooks.size).toBe(0);
		expect(handle.active).toBe(false);
		expect(env.workflowStaticData('wf-1')).toEqual({ 'node:Trigger': {} });
		expect((await post(handle.webhookUrl, { action: 'start' })).status).toBe(404);
	});

	it('a failing create fails the activation, runs delete and leaves no route', async () => {
		await expect(activate(workflow('fail-create'))).rejects.toThrow('create refused');
		expect(hookCalls.map((c) => c.method)).toEqual(['checkExists', 'create', 'delete']);
		// The route is free again: the same workflow can be activated.
		const handle = await activate(workflow());
		expect(handle.active).toBe(true);
	});

	it('listen for test event: test URL, hooks in mode manual, static data kept with the registration, removed after one execution', async () => {
		const handle = await activate(workflow(), 'manual');

		expect(handle.webhookUrl).toMatch(/\/webhook-test\/[0-9a-f-]{36}\/hook$/);
		expect(hookCalls.map(({ method, mode, activation, url }) => ({ method, mode, activation, url }))).toEqual([
			{ method: 'checkExists', mode: 'manual', activation: 'manual', url: handle.webhookUrl },
			{ method: 'create', mode: 'manual', activation: 'manual', url: handle.webhookUrl },
		]);
		expect(handle.staticData()).toEqual({ 'node:Trigger': { hookId: 'hook-1', url: handle.webhookUrl } });
		expect(env.workflowStaticData('wf-1')).toEqual({});

		// No execution: still listening.
		expect((await post(handle.webhookUrl, { action: 'respond' })).status).toBe(200);
		expect(handle.active).toBe(true);

		expect((await post(handle.webhookUrl, { action: 'start' })).status).toBe(200);
		const [execution] = await handle.waitForExecutions(1);
		expect(execution.run.mode).toBe('manual');
		await handle.settled();
		expect(handle.active).toBe(false);
		expect(hookCalls.at(-1)).toMatchObject({ method: 'delete', mode: 'internal', activation: 'update', url: handle.webhookUrl });
		expect(service.hooks.size).toBe(0);
		expect(env.workflowStaticData('wf-1')).toEqual({});
		expect((await post(handle.webhookUrl, { action: 'start' })).status).toBe(404);
	});

	it('listen for test event: removed after the timeout without a call', async () => {
		const handle = await activate(workflow(), 'manual', 50);
		await new Promise((resolve) => setTimeout(resolve, 150));
		await handle.settled();
		expect(handle.active).toBe(false);
		expect(service.hooks.size).toBe(0);
	});
});
