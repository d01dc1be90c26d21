/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Webhook triggers run the way the n8n app runs them, with n8n-core's `HookContext` and
 * `WebhookContext`:
 * - activation runs `checkExists`, then `create` if it answered false (a throw runs `delete` and
 *   fails the activation); changed static data is saved;
 * - "listen for test event" (`mode: 'manual'`) does the same on the `/webhook-test/` URL with an
 *   EMPTY static data of its own, and runs `delete` once a call has started an execution;
 * - a loopback listener plays n8n's webhook server (with `req.ip` as Express gives it for the
 *   environment's `proxyHops`, N8N_PROXY_HOPS): each call runs `webhook()` on a fresh
 *   `Workflow` with the saved static data, then, in n8n 2.41's order (n8n's
 *   `webhooks/webhook-helpers.js` `executeWebhook`, `webhooks/live-webhooks.js`): a node that
 *   answers itself (`noWebhookResponse`) has its static data saved, then its execution started;
 *   `{ workflowData }` with responseMode 'onReceived' clears the static data's "changed" mark
 *   (as `WorkflowRunner.run` does), starts the execution, then the static data is saved if
 *   marked changed, then n8n answers (the description's `responseData`, else `webhookResponse`,
 *   else "Workflow was started"); a call that starts nothing has its static data saved, then
 *   n8n answers `webhookResponse`. Each call's `steps` record that order; `crashBeforeSave` and
 *   `holdBeforeSave` play n8n killed, or still busy, between the execution and the save;
 * - deactivation runs `delete` and saves the static data.
 */
import { createServer, type IncomingMessage, type Server } from 'http';
import type { AddressInfo } from 'net';
import { HookContext, WebhookContext } from 'n8n-core';
import {
	NodeHelpers,
	type IDataObject,
	type INode,
	type IWebhookData,
	type IWebhookResponseData,
	type Workflow,
} from 'n8n-workflow';

import type { TestEnvironment, TestWorkflow, WorkflowResult } from './environment';
import { additionalData } from './n8n';

export interface ActivateOptions {
	/** 'trigger' (default): the workflow is active. 'manual': the editor's "listen for test event". */
	mode?: 'trigger' | 'manual';
}

/** One call on a webhook URL and how it was answered. */
export interface WebhookCall {
	method: string;
	path: string;
	headers: IDataObject;
	body: unknown;
	status: number;
	responseBody: unknown;
	outcome: 'execution' | 'noWebhookResponse' | 'response' | 'error';
	/** What happened, in order: 'node answered', 'execution started', 'static data saved', 'n8n answered', 'crashed'. */
	steps: string[];
}

type Method = 'checkExists' | 'create' | 'delete';

/** The webhook server of one environment: routes `webhook/<path>` and `webhook-test/<path>`. */
const servers = new WeakMap<
	TestEnvironment,
	{ server: Server; routes: Map<string, ActiveWorkflow> }
>();

async function serverOf(env: TestEnvironment) {
	let entry = servers.get(env);
	if (!entry) {
		const routes = new Map<string, ActiveWorkflow>();
		const server = createServer((req, res) => {
			void route(routes, req, res);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		server.unref();
		entry = { server, routes };
		servers.set(env, entry);
		(env as { baseUrl: string }).baseUrl =
			`http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
	}
	return entry;
}

async function route(
	routes: Map<string, ActiveWorkflow>,
	req: IncomingMessage,
	res: import('http').ServerResponse,
) {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	const path = decodeURIComponent((req.url ?? '/').split('?')[0].replace(/^\//, ''));
	const active = routes.get(path);
	const send = (status: number, body: unknown) => {
		res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
	};
	if (!active) return send(404, { message: `The requested webhook "${path}" is not registered.` });
	let body: unknown = {};
	const text = Buffer.concat(chunks).toString('utf8');
	try {
		if (text) body = JSON.parse(text);
	} catch {
		return send(422, { message: 'Failed to parse request body' });
	}
	await active.call(req, res, path, body);
}

/**
 * `req.ip` as n8n's Express app computes it: with N8N_PROXY_HOPS = 0 (default, no "trust proxy")
 * the connecting address; with N hops, the addresses are the connecting one followed by the
 * X-Forwarded-For entries from right to left, and the one N places along (or the last) is it.
 */
export function requestIp(req: IncomingMessage, proxyHops: number): string | undefined {
	const socket = req.socket.remoteAddress;
	if (!proxyHops) return socket;
	const header = req.headers['x-forwarded-for'];
	const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
		.split(',')
		.map((entry) => entry.trim())
		.filter(Boolean)
		.reverse();
	const addresses = [socket, ...forwarded];
	return addresses[Math.min(proxyHops, addresses.length - 1)];
}

function nodeTypeOf(workflow: Workflow, node: INode) {
	return workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
}

/**
 * The body n8n sends for responseMode 'onReceived' (n8n's `extractWebhookOnReceivedResponse`):
 * the description's responseData evaluated with the default "firstEntryJson" (so a description
 * without it gets that text), undefined for "noData", else `webhookResponse`, else "Workflow was
 * started".
 */
function onReceivedAnswer(
	workflow: Workflow,
	node: INode,
	mode: 'manual' | 'webhook',
	webhook: IWebhookData,
	result: IWebhookResponseData,
): unknown {
	const responseData = workflow.expression.getComplexParameterValue(
		node,
		webhook.webhookDescription.responseData,
		mode,
		{},
		undefined,
		'firstEntryJson',
	);
	if (responseData === 'noData') return undefined;
	return responseData || (result.webhookResponse ?? { message: 'Workflow was started' });
}

export class ActiveWorkflow {
	readonly executions: WorkflowResult[] = [];
	readonly requests: WebhookCall[] = [];
	active = true;
	private readonly pending = new Set<Promise<unknown>>();
	/**
	 * When set, the next call that starts an execution runs it (n8n killed there: the test clears
	 * what the process kept) and stops: no save, no answer (the connection is dropped).
	 */
	crashBeforeSave: (() => void) | undefined;
	/** When set, calls that start an execution wait for it between the execution and the save. */
	holdBeforeSave: Promise<void> | undefined;
	/** A test webhook's own static data (n8n never saves it). */
	private readonly testStaticData: IDataObject = {};

	constructor(
		private readonly env: TestEnvironment,
		private readonly input: TestWorkflow,
		private readonly test: boolean,
		private readonly routes: Map<string, ActiveWorkflow>,
	) {}

	/** The URL of the (first) webhook: `<listener>/webhook/<path>` or `/webhook-test/<path>`. */
	webhookUrl = '';

	/** Static data now: the saved one, or a test webhook's own. */
	staticData(): IDataObject {
		return this.test
			? (JSON.parse(JSON.stringify(this.testStaticData)) as IDataObject)
			: this.env.workflowStaticData(this.input.id);
	}

	private async workflow(): Promise<Workflow> {
		return await this.env.createWorkflow(this.input, this.test ? this.testStaticData : undefined);
	}

	private save(workflow: Workflow) {
		if (this.test)
			Object.assign(this.testStaticData, workflow.staticData, { __dataChanged: false });
		else this.env.saveStaticData(workflow);
	}

	/** Runs one hook on every webhook of the trigger nodes. */
	async hook(
		method: Method,
		mode = this.test ? 'manual' : 'trigger',
	): Promise<boolean | undefined> {
		const workflow = await this.workflow();
		let result: boolean | undefined;
		for (const webhook of this.webhooks(workflow)) {
			const node = workflow.getNode(webhook.node)!;
			const data = additionalData({
				credentialsHelper: this.env.credentialsHelper,
				baseUrl: this.env.baseUrl,
			});
			const activation = method === 'delete' ? 'update' : mode === 'manual' ? 'manual' : 'activate';
			const ctx = new HookContext(workflow, node, data, mode as 'manual', activation, webhook);
			const hooks = nodeTypeOf(workflow, node).webhookMethods?.[webhook.webhookDescription.name];
			result = await hooks?.[method]?.call(ctx);
		}
		this.save(workflow);
		return result;
	}

	webhooks(workflow: Workflow): IWebhookData[] {
		const data = additionalData({
			credentialsHelper: this.env.credentialsHelper,
			baseUrl: this.env.baseUrl,
		});
		return Object.values(workflow.nodes).flatMap((node) =>
			(nodeTypeOf(workflow, node).description.webhooks ?? [])
				.filter((description) => !description.restartWebhook)
				.map((description) => ({
					httpMethod: description.httpMethod as IWebhookData['httpMethod'],
					node: node.name,
					path: NodeHelpers.getNodeWebhookPath(workflow.id, node, String(description.path)),
					webhookDescription: description,
					workflowId: workflow.id,
					workflowExecuteAdditionalData: data,
					isTest: this.test,
				})),
		);
	}

	async call(
		req: IncomingMessage,
		res: import('http').ServerResponse,
		path: string,
		body: unknown,
	) {
		const call: WebhookCall = {
			method: req.method ?? 'POST',
			path,
			headers: req.headers as IDataObject,
			body,
			status: 200,
			responseBody: undefined,
			outcome: 'error',
			steps: [],
		};
		this.requests.push(call);
		const done = this.handle(req, res, call);
		this.pending.add(done);
		await done.finally(() => this.pending.delete(done));
	}

	private async handle(
		req: IncomingMessage,
		res: import('http').ServerResponse,
		call: WebhookCall,
	) {
		const workflow = await this.workflow();
		const webhook = this.webhooks(workflow).find((w) => call.path.endsWith(w.path))!;
		const node = workflow.getNode(webhook.node)!;
		const data = additionalData({
			credentialsHelper: this.env.credentialsHelper,
			baseUrl: this.env.baseUrl,
		});
		const response = Object.assign(res, {
			status: (code: number) => ((res.statusCode = code), response),
			json: (value: unknown) => {
				call.responseBody = value;
				res.setHeader('content-type', 'application/json');
				res.end(JSON.stringify(value));
				return response;
			},
		});
		data.httpRequest = Object.assign(req, {
			body: call.body,
			query: {},
			params: {},
			ip: requestIp(req, this.env.proxyHops),
		}) as never;
		data.httpResponse = response as never;
		const mode = this.test ? 'manual' : 'webhook';
		const ctx = new WebhookContext(workflow, node, data, mode, webhook, [], null);
		let result: IWebhookResponseData;
		try {
			result = await nodeTypeOf(workflow, node).webhook!.call(ctx);
		} catch (error) {
			this.env.logger.error(`webhook() failed: ${(error as Error).message}`);
			response
				.status(500)
				.json({ message: 'Workflow Webhook Error: Workflow could not be started!' });
			call.status = 500;
			return;
		}
		const answer = (body: unknown) => {
			response.status(200).json(body);
			call.status = res.statusCode;
			call.steps.push('n8n answered');
		};
		if (result.noWebhookResponse) {
			call.outcome = 'noWebhookResponse';
			call.status = res.statusCode;
			if (res.headersSent) call.steps.push('node answered');
			this.saveStep(workflow, call);
		} else if (!result.workflowData) {
			call.outcome = 'response';
			this.saveStep(workflow, call);
			answer(result.webhookResponse ?? { message: 'Webhook call received' });
		}
		if (!result.workflowData) return;
		call.outcome = 'execution';
		if (!result.noWebhookResponse) {
			// n8n 2.41's WorkflowRunner.run: a second Workflow on the same static data object
			// (establishContextForPersistence) clears its "changed" mark, then the execution is
			// created in the database (a few milliseconds).
			if (!this.test) workflow.staticData.__dataChanged = false;
			await new Promise((resolve) => setTimeout(resolve, 5));
		}
		const started = await this.env.startExecution(this.input, {
			mode,
			startNode: node.name,
			inputs: result.workflowData,
		});
		call.steps.push('execution started');
		const finished = started.finished.then((run) => void this.executions.push(run));
		this.pending.add(finished);
		void finished.finally(() => this.pending.delete(finished));
		if (!result.noWebhookResponse) {
			const crash = this.crashBeforeSave;
			if (crash) {
				this.crashBeforeSave = undefined;
				crash();
				call.steps.push('crashed');
				call.status = 0;
				req.socket.destroy();
				return;
			}
			await this.holdBeforeSave;
			this.saveStep(workflow, call);
			answer(onReceivedAnswer(workflow, node, mode, webhook, result));
		}
		if (this.test && this.active) await this.deactivate(); // a test webhook serves one event
	}

	private saveStep(workflow: Workflow, call: WebhookCall) {
		this.save(workflow);
		call.steps.push('static data saved');
	}

	/** Resolves with the finished executions once there are at least `count`. */
	async waitForExecutions(count: number, timeoutMs = 10_000): Promise<WorkflowResult[]> {
		const deadline = Date.now() + timeoutMs;
		while (this.executions.length < count) {
			if (Date.now() > deadline)
				throw new Error(`${this.executions.length} of ${count} executions finished`);
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		return this.executions;
	}

	/** Every call and execution in flight has finished. */
	async settled(): Promise<void> {
		while (this.pending.size) await Promise.allSettled([...this.pending]);
	}

	/**
	 * Deactivation: `delete`, then the routes go. The app logs a failing `delete` and deactivates
	 * anyway; here it rejects and the workflow stays active, so a test sees it and can try again.
	 */
	async deactivate(): Promise<void> {
		try {
			await this.hook('delete', 'internal');
		} catch (error) {
			const id = this.input.id ?? 'test-workflow';
			this.env.logger.error(
				`Could not remove webhooks of workflow "${id}" because of error: "${(error as Error).message}"`,
			);
			throw error;
		}
		this.close();
	}

	/** Stops routing without running any hook. */
	close(): void {
		this.active = false;
		for (const [path, active] of this.routes) if (active === this) this.routes.delete(path);
	}
}

export async function activate(
	env: TestEnvironment,
	input: TestWorkflow,
	options: ActivateOptions = {},
) {
	const { routes } = await serverOf(env);
	const active = new ActiveWorkflow(env, input, options.mode === 'manual', routes);
	const workflow = await env.createWorkflow(input, {});
	for (const webhook of active.webhooks(workflow)) {
		const path = `${options.mode === 'manual' ? 'webhook-test' : 'webhook'}/${webhook.path}`;
		routes.set(path, active);
		active.webhookUrl ||= `${env.baseUrl}${path}`;
	}
	try {
		if (!(await active.hook('checkExists'))) await active.hook('create');
	} catch (error) {
		await active.hook('delete').catch(() => undefined);
		active.close();
		throw error;
	}
	return active;
}

export async function closeServer(env: TestEnvironment): Promise<void> {
	const entry = servers.get(env);
	servers.delete(env);
	if (entry) await new Promise((resolve) => entry.server.close(resolve));
}

/** One hook, as (de)activation runs it, on the saved static data (saved again afterwards). */
export async function runWebhookMethod(env: TestEnvironment, input: TestWorkflow, method: Method) {
	await serverOf(env);
	return await new ActiveWorkflow(env, input, false, new Map()).hook(
		method,
		method === 'delete' ? 'internal' : 'trigger',
	);
}
