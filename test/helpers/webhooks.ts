/**
 * Webhook triggers in-process, run the way the n8n app (packages/cli, checked against n8n 2.41.3)
 * runs them, with n8n-core's real `HookContext` and `WebhookContext`:
 *
 * - `WebhookServer`: a loopback HTTP listener that plays n8n's webhook server. Production
 *   webhooks live under `/webhook/<path>`, test webhooks (the editor's "listen for test event")
 *   under `/webhook-test/<path>`; `<path>` is what `NodeHelpers.getNodeWebhookPath` gives
 *   (`<webhookId>/<description path>` for a node the editor gave a webhookId), so the URL a hook
 *   sees through `getNodeWebhookUrl()` is exactly the one the listener serves. Requests get an
 *   express-like `req` / `res` built from the real Node objects (`req.body` parsed like n8n's
 *   body parser, `res.status().json()`...). Unknown paths answer 404 as n8n does.
 *
 * - Activation (`ActiveWorkflowManager.add` → `addWebhooks`): the webhooks of every enabled
 *   webhook node are registered with the listener first, then each runs `checkExists` and, when
 *   that is false, `create` (`WebhookService.createWebhookIfNotExists`, mode 'trigger'); static
 *   data changed by the hooks is saved. When a hook throws, the app runs `delete` for the
 *   workflow's webhooks (with the static data as saved before) and the activation fails.
 *
 * - A request (`LiveWebhooks.executeWebhook` → `WebhookHelpers.executeWebhook`, mode 'webhook'):
 *   a fresh `Workflow` with the saved static data, `webhook()` through a `WebhookContext`, then
 *     - it throws: 500 `Workflow Webhook Error: Workflow could not be started!` (the app also
 *       records a failed execution; here the error is in `errors`), static data not saved;
 *     - `{ noWebhookResponse: true }`: the response stays as the node wrote it, static data saved;
 *     - no `workflowData`: `responseCode` (default 200) with `webhookResponse`, or
 *       `{ message: 'Webhook call received' }`; static data saved;
 *     - `workflowData`: a real execution of the workflow starting at the trigger with that data
 *       (WorkflowExecute: a webhook node passes its input on as its outputs); for responseMode
 *       'onReceived' the answer comes once it has started: `webhookResponse` or
 *       `{ message: 'Workflow was started' }`.
 *   Static data: n8n saves the changes `webhook()` made in the response callback
 *   (`WorkflowStaticDataService.saveStaticData`, only if `__dataChanged`). When `webhook()`
 *   returned `workflowData`, `WorkflowRunner.run` first wraps the same static-data object in a
 *   new `Workflow` (`establishContextForPersistence`), which resets `__dataChanged`, and loads the
 *   execution's static data from the database: those changes are neither saved nor seen by the
 *   execution, unless the node answered itself (`noWebhookResponse: true`), whose callback saves
 *   before the run starts. This module does the same.
 *
 * - Deactivation (`ActiveWorkflowManager.remove` → `clearWebhooks`): `delete` for every webhook
 *   (mode 'internal', activation 'update') on the saved static data, saved afterwards. The app
 *   logs a failing `delete` ("Could not remove webhooks of workflow ...") and deactivates anyway;
 *   here `deactivate()` rejects with that error and the workflow stays active (routes and saved
 *   static data untouched), so a test sees it and can try again (`close()` drops it without hooks).
 *
 * - Test webhooks (`TestWebhooks.needsWebhook`, mode 'manual'): `isTest` webhook data (test URL),
 *   `checkExists`/`create` with mode and activation 'manual'; the static data the hooks leave is
 *   kept with the registration only (never saved to the workflow; like n8n's in-memory cache,
 *   `webhook()`'s changes stay in it). Requests run with that static data as test static data and
 *   start 'manual' executions; as soon as one request has started an execution, or after the
 *   timeout (n8n: 2 minutes), the test webhooks are removed: `delete` (mode 'internal',
 *   activation 'update') on the registration's static data.
 *
 * Not modelled: response modes other than 'onReceived', dynamic paths (`:param`), binary and
 * multipart bodies, CORS, queue mode, pin data of production runs.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import { HookContext, WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	IHttpRequestMethods,
	INode,
	INodeExecutionData,
	INodeType,
	IWebhookData,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	deepCopy,
	isNodeClassInstance,
	jsonParse,
	LoggerProxy,
	NodeHelpers,
	resolveWebhookDescriptionField,
	UnexpectedError,
	UserError,
	WorkflowActivationError,
} from 'n8n-workflow';

import { createAdditionalData } from './additional-data';
import type { TestEnvironment, TestWorkflow, WorkflowResult } from './environment';
import type { TestLogger } from './logger';

/** 'trigger': the workflow is activated (production URL); 'manual': "listen for test event". */
export type ActivationMode = 'trigger' | 'manual';

export type WebhookMethodName = 'checkExists' | 'create' | 'delete';

export interface ActivateWorkflowOptions {
	/** Default 'trigger'. */
	mode?: ActivationMode;
	/** The `WorkflowActivateMode` hooks see (`getActivationMode()`); default 'activate' ('manual' for test webhooks). */
	activation?: WorkflowActivateMode;
	/** Test webhooks only: removed after this long without a call that starts an execution; default 120000 (n8n's). */
	testWebhookTimeoutMs?: number;
	/** Cancel executions started by a webhook after this many milliseconds. */
	executionTimeoutMs?: number;
}

export interface RunWebhookMethodOptions {
	/** Default 'trigger'. 'manual' runs it for the test URL (static data is then not saved). */
	mode?: ActivationMode;
	/** The webhook node; default the first enabled node with webhooks. */
	nodeName?: string;
	/** Default 'default'. */
	webhookName?: string;
	/** Default 'activate' (checkExists/create) or 'update' (delete), as the app passes them. */
	activation?: WorkflowActivateMode;
}

/** What happened to one request the listener routed to this workflow. */
export interface WebhookCall {
	method: string;
	/** Path after `/webhook/` or `/webhook-test/`. */
	path: string;
	headers: IncomingMessage['headers'];
	/** The parsed body `webhook()` saw. */
	body: unknown;
	/** HTTP status answered (set when the response has been sent). */
	status?: number;
	/** Body answered: parsed JSON when it was JSON. */
	responseBody?: unknown;
	/**
	 * 'execution': `webhook()` returned `workflowData` and an execution started;
	 * 'response': answered without starting (`webhookResponse` or the default message);
	 * 'noWebhookResponse': the node answered itself; 'error': `webhook()` or the start failed.
	 */
	outcome: 'pending' | 'execution' | 'response' | 'noWebhookResponse' | 'error';
	executionId?: string;
	error?: Error;
}

/** The request a `WebhookContext` sees (`getRequestObject()`): Node's request plus express's fields. */
export type WebhookRequest = IncomingMessage & {
	body: unknown;
	rawBody: Buffer;
	params: Record<string, string>;
	query: Record<string, string | string[]>;
	path: string;
	contentType?: string;
};

/** The response a `WebhookContext` gives (`getResponseObject()`): Node's response plus express's helpers. */
export type WebhookResponse = ServerResponse & {
	status(code: number): WebhookResponse;
	json(body?: unknown): WebhookResponse;
	send(body?: unknown): WebhookResponse;
	set(field: string | Record<string, string>, value?: string): WebhookResponse;
	header(field: string | Record<string, string>, value?: string): WebhookResponse;
	type(contentType: string): WebhookResponse;
	sendStatus(code: number): WebhookResponse;
	/** What was sent, for the record. */
	readonly sentBody?: unknown;
};

type RoutePrefix = 'webhook' | 'webhook-test';

interface WebhookRoute {
	prefix: RoutePrefix;
	httpMethod: string;
	path: string;
	handle(req: WebhookRequest, res: WebhookResponse): Promise<void>;
}

const routeKey = (prefix: RoutePrefix, method: string, path: string) =>
	`${prefix} ${method.toUpperCase()} ${path}`;

/** n8n's `TEST_WEBHOOK_TIMEOUT`. */
export const TEST_WEBHOOK_TIMEOUT_MS = 2 * 60_000;

// --- The listener ------------------------------------------------------------------------------

/** Loopback HTTP listener standing in for n8n's webhook server. */
export class WebhookServer {
	private server?: Server;
	private port = 0;
	private listening?: Promise<void>;
	private readonly routes = new Map<string, WebhookRoute>();

	constructor(private readonly logger: TestLogger) {}

	/** `http://127.0.0.1:<port>/` (the instance base URL webhook URLs are built on). */
	get baseUrl(): string {
		if (!this.server || !this.port) throw new UnexpectedError('The webhook server is not listening');
		return `http://127.0.0.1:${this.port}/`;
	}

	/** Starts listening (again on the same port after `close()` when it is free). */
	async listen(): Promise<void> {
		if (this.server) return await this.listening;
		const server = createServer((req, res) => {
			this.dispatch(req, res).catch((error: Error) => {
				this.logger.error(`Webhook server failed on ${req.method} ${req.url}: ${error.message}`);
				if (!res.headersSent) sendJson(res, 500, { code: 500, message: error.message });
				else res.destroy();
			});
		});
		server.unref();
		this.server = server;
		const listenOn = async (port: number) =>
			await new Promise<void>((resolve, reject) => {
				server.once('error', reject);
				server.listen(port, '127.0.0.1', () => {
					server.off('error', reject);
					resolve();
				});
			});
		this.listening = (async () => {
			try {
				await listenOn(this.port);
			} catch (error) {
				if (!this.port || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
				await listenOn(0);
			}
			this.port = (server.address() as AddressInfo).port;
		})();
		try {
			await this.listening;
		} catch (error) {
			this.server = undefined;
			throw error;
		}
	}

	async close(): Promise<void> {
		const server = this.server;
		if (!server) return;
		this.server = undefined;
		server.closeAllConnections?.();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}

	register(route: WebhookRoute): void {
		const key = routeKey(route.prefix, route.httpMethod, route.path);
		if (this.routes.has(key)) {
			throw new UserError(`The URL path that the webhook uses is already taken: ${route.httpMethod} /${route.prefix}/${route.path}`);
		}
		this.routes.set(key, route);
	}

	unregister(route: WebhookRoute): void {
		const key = routeKey(route.prefix, route.httpMethod, route.path);
		if (this.routes.get(key) === route) this.routes.delete(key);
	}

	private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const rawBody = await readBody(req);
		const method = (req.method ?? 'GET').toUpperCase();
		const match = /^\/(webhook|webhook-test)\/(.+?)\/?$/.exec(url.pathname);
		const route = match ? this.routes.get(routeKey(match[1] as RoutePrefix, method, match[2])) : undefined;
		if (!match || !route) {
			const path = match?.[2] ?? url.pathname;
			const isTest = match?.[1] === 'webhook-test';
			sendJson(res, 404, {
				code: 404,
				message: `The requested webhook "${method} ${path}" is not registered.`,
				hint: isTest
					? "Click the 'Execute workflow' button on the canvas, then try again. (In test mode, the webhook only works for one call after you click this button)"
					: 'The workflow must be active for a production URL to run successfully.',
			});
			return;
		}

		const request = req as WebhookRequest;
		const contentType = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
		Object.assign(request, {
			rawBody,
			params: {},
			query: queryObject(url.searchParams),
			path: url.pathname,
			contentType: contentType || undefined,
		});
		try {
			request.body = parseBody(contentType, rawBody);
		} catch (error) {
			// n8n's body parser answers 422 for a body it cannot parse.
			sendJson(res, 422, { code: 422, message: 'Failed to parse request body', hint: (error as Error).message });
			return;
		}
		await route.handle(request, toWebhookResponse(res));
	}
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

function queryObject(params: URLSearchParams): Record<string, string | string[]> {
	const query: Record<string, string | string[]> = {};
	for (const [key, value] of params) {
		const existing = query[key];
		query[key] = existing === undefined ? value : [...([] as string[]).concat(existing), value];
	}
	return query;
}

/** What n8n's body parser makes of a body: JSON, urlencoded form, text; `{}` when empty or other. */
function parseBody(contentType: string, rawBody: Buffer): unknown {
	if (rawBody.length === 0) return {};
	const text = rawBody.toString('utf8');
	if (contentType === 'application/json' || contentType.endsWith('+json')) return jsonParse(text);
	if (contentType === 'application/x-www-form-urlencoded') {
		return queryObject(new URLSearchParams(text));
	}
	if (contentType.startsWith('text/') || contentType.endsWith('/xml') || contentType.endsWith('+xml')) return text;
	return {};
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
	res.statusCode = status;
	res.setHeader('Content-Type', 'application/json; charset=utf-8');
	res.end(JSON.stringify(body));
}

/** Adds the express helpers nodes use (`status`, `json`, `send`, `set`...) to Node's response. */
function toWebhookResponse(res: ServerResponse): WebhookResponse {
	const response = res as WebhookResponse & { sentBody?: unknown };
	const set = (field: string | Record<string, string>, value?: string) => {
		if (typeof field === 'string') res.setHeader(field, value ?? '');
		else for (const [name, v] of Object.entries(field)) res.setHeader(name, v);
		return response;
	};
	Object.assign(response, {
		status(code: number) {
			res.statusCode = code;
			return response;
		},
		json(body?: unknown) {
			if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
			response.sentBody = body;
			res.end(body === undefined ? '' : JSON.stringify(body));
			return response;
		},
		send(body?: unknown) {
			if (body !== null && typeof body === 'object' && !Buffer.isBuffer(body)) return response.json(body);
			if (typeof body === 'string' && !res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'text/html; charset=utf-8');
			if (Buffer.isBuffer(body) && !res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/octet-stream');
			response.sentBody = body;
			res.end(body === undefined || body === null ? '' : (body as string | Buffer));
			return response;
		},
		set,
		header: set,
		type(contentType: string) {
			res.setHeader('Content-Type', contentType.includes('/') ? contentType : `application/${contentType}`);
			return response;
		},
		sendStatus(code: number) {
			res.statusCode = code;
			return response.send(STATUS_CODES[code] ?? String(code));
		},
	});
	return response;
}

// --- Webhooks of a workflow ----------------------------------------------------------------------

/** `WebhookService.evaluateDescriptionProperty`: a native resolver, else the expression in mode 'internal'. */
function descriptionProperty<T>(
	workflow: Workflow,
	node: INode,
	description: IWebhookDescription,
	property: string,
	defaultValue?: T,
): T {
	const native = resolveWebhookDescriptionField(node, description, property);
	if (native.resolved) return native.value as T;
	return workflow.expression.getSimpleParameterValue(
		node,
		description[property] as string,
		'internal',
		{},
		undefined,
		defaultValue as never,
	) as T;
}

/**
 * The webhooks of a workflow, as the app's `getWorkflowWebhooks` / `WebhookService.getNodeWebhooks`
 * list them (restart webhooks left out, disabled nodes skipped, one entry per HTTP method).
 */
export function getWorkflowWebhooks(
	workflow: Workflow,
	additionalData: IWorkflowExecuteAdditionalData,
): IWebhookData[] {
	const webhooks: IWebhookData[] = [];
	for (const node of Object.values(workflow.nodes)) {
		if (node.disabled === true) continue;
		const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		for (const description of nodeType.description.webhooks ?? []) {
			if (description.restartWebhook === true) continue;
			let webhookPath = descriptionProperty<string | undefined>(workflow, node, description, 'path');
			if (webhookPath === undefined || webhookPath === null) continue;
			webhookPath = String(webhookPath).trim().replace(/^\//, '').replace(/\/$/, '');
			const isFullPath = descriptionProperty<boolean>(workflow, node, description, 'isFullPath', false);
			const path = NodeHelpers.getNodeWebhookPath(workflow.id, node, webhookPath, isFullPath, false);
			if (path.split('/').some((segment) => segment.startsWith(':'))) {
				throw new UserError(`Webhook "${path}" of node "${node.name}": dynamic paths are not supported by the test harness`);
			}
			const methods = descriptionProperty<string>(workflow, node, description, 'httpMethod', 'GET');
			for (const method of String(methods).split(',')) {
				if (!method.trim()) continue;
				webhooks.push({
					httpMethod: method.trim() as IHttpRequestMethods,
					node: node.name,
					path,
					webhookDescription: description,
					workflowId: workflow.id,
					workflowExecuteAdditionalData: additionalData,
				});
			}
		}
	}
	return webhooks;
}

/** `WebhookService.runWebhookMethod`: the node type's hook in a `HookContext`. */
async function callWebhookMethod(
	method: WebhookMethodName,
	workflow: Workflow,
	webhookData: IWebhookData,
	mode: WorkflowExecuteMode,
	activation: WorkflowActivateMode,
): Promise<boolean | undefined> {
	const node = workflow.getNode(webhookData.node);
	if (!node) return undefined;
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const hook = nodeType.webhookMethods?.[webhookData.webhookDescription.name]?.[method];
	if (hook === undefined) return undefined;
	const context = new HookContext(workflow, node, webhookData.workflowExecuteAdditionalData, mode, activation, webhookData);
	return (await hook.call(context)) as boolean;
}

/** `WebhookService.createWebhookIfNotExists`: `checkExists`, then `create` when it is false. */
async function createWebhookIfNotExists(
	workflow: Workflow,
	webhookData: IWebhookData,
	mode: WorkflowExecuteMode,
	activation: WorkflowActivateMode,
): Promise<void> {
	const exists = await callWebhookMethod('checkExists', workflow, webhookData, mode, activation);
	if (!exists) await callWebhookMethod('create', workflow, webhookData, mode, activation);
}

/** Additional data of hooks and webhook calls: the app's `getBase()` on the listener's base URL. */
function baseAdditionalData(env: TestEnvironment, server: WebhookServer, workflowId: string): IWorkflowExecuteAdditionalData {
	return createAdditionalData({
		credentialsHelper: env.credentialsHelper,
		workflowId,
		instanceBaseUrl: server.baseUrl,
		variables: env.variables,
	});
}

function installLogger(env: TestEnvironment): void {
	env.logger.install();
	LoggerProxy.init(env.logger);
}

function stripFlag(data: IDataObject): IDataObject {
	const { __dataChanged: _changed, ...rest } = deepCopy(data);
	return rest;
}

/** `env.runWebhookMethod()`: one hook, as activation or deactivation would run it. */
export async function runWebhookMethod(
	env: TestEnvironment,
	server: WebhookServer,
	definition: TestWorkflow,
	method: WebhookMethodName,
	options: RunWebhookMethodOptions = {},
): Promise<boolean | undefined> {
	installLogger(env);
	const workflow = env.createWorkflow(definition);
	const isTest = options.mode === 'manual';
	const webhooks = getWorkflowWebhooks(workflow, baseAdditionalData(env, server, workflow.id));
	const nodeName = options.nodeName ?? webhooks[0]?.node;
	const webhookName = options.webhookName ?? 'default';
	const webhookData = webhooks.find((w) => w.node === nodeName && w.webhookDescription.name === webhookName);
	if (!webhookData) throw new UserError(`No webhook "${webhookName}" of node "${String(nodeName)}" in the workflow`);
	if (isTest) webhookData.isTest = true;
	const mode: WorkflowExecuteMode = method === 'delete' ? 'internal' : isTest ? 'manual' : 'trigger';
	const activation = options.activation ?? (method === 'delete' ? 'update' : isTest ? 'manual' : 'activate');
	const result = await callWebhookMethod(method, workflow, webhookData, mode, activation);
	if (!isTest) env.saveStaticData(workflow);
	return result;
}

// --- An active workflow --------------------------------------------------------------------------

interface RegisteredWebhook {
	data: IWebhookData;
	url: string;
	route: WebhookRoute;
}

/**
 * A workflow activated by `env.activateWorkflow()`: its webhook URL(s), what its webhooks received
 * and the executions they started.
 */
export class ActiveWorkflow {
	/** Executions started by webhook calls, in the order they finished. */
	readonly executions: WorkflowResult[] = [];
	/** Every request routed to this workflow, in arrival order. */
	readonly requests: WebhookCall[] = [];
	/** Errors of `webhook()`, of starting or running executions, of automatic test-webhook removal. */
	readonly errors: Error[] = [];

	private registered: RegisteredWebhook[] = [];
	private state: 'active' | 'inactive' = 'active';
	private readonly running = new Set<Promise<unknown>>();
	private readonly listeners = new Set<() => void>();
	/** Test webhooks: the static data kept with the registration. */
	private testStaticData: IDataObject = {};
	private removal?: Promise<void>;
	private testTimeout?: NodeJS.Timeout;

	private constructor(
		private readonly env: TestEnvironment,
		private readonly server: WebhookServer,
		private readonly definition: TestWorkflow,
		readonly mode: ActivationMode,
		private readonly options: ActivateWorkflowOptions,
	) {}

	static async activate(
		env: TestEnvironment,
		server: WebhookServer,
		definition: TestWorkflow,
		options: ActivateWorkflowOptions = {},
	): Promise<ActiveWorkflow> {
		const mode = options.mode ?? 'trigger';
		const active = new ActiveWorkflow(env, server, definition, mode, options);
		await active.register();
		return active;
	}

	get workflowId(): string {
		return this.registered[0]?.data.workflowId ?? this.definition.id ?? 'test-workflow';
	}

	/** False once deactivated (or, for test webhooks, once removed after a call or the timeout). */
	get active(): boolean {
		return this.state === 'active';
	}

	/** URL of the first webhook (the trigger's 'default'): what `getNodeWebhookUrl('default')` gave its hooks. */
	get webhookUrl(): string {
		return this.registered[0].url;
	}

	/** URL of one webhook of one node. */
	webhookUrlOf(nodeName: string, webhookName = 'default'): string {
		const found = this.registered.find((w) => w.data.node === nodeName && w.data.webhookDescription.name === webhookName);
		if (!found) throw new UserError(`No webhook "${webhookName}" of node "${nodeName}" is registered`);
		return found.url;
	}

	/**
	 * The workflow's static data now: as saved (production), or as kept with the test
	 * registration (test webhooks).
	 */
	staticData(): IDataObject {
		return this.mode === 'manual' ? stripFlag(this.testStaticData) : this.env.workflowStaticData(this.workflowId);
	}

	/** Resolves with the executions once at least `count` have finished; rejects after `timeoutMs`. */
	async waitForExecutions(count: number, timeoutMs = 10_000): Promise<WorkflowResult[]> {
		if (this.executions.length >= count) return [...this.executions];
		return await new Promise<WorkflowResult[]>((resolve, reject) => {
			const check = () => {
				if (this.executions.length < count) return;
				cleanup();
				resolve([...this.executions]);
			};
			const timer = setTimeout(() => {
				cleanup();
				reject(
					new Error(
						`Expected ${count} execution(s) within ${timeoutMs} ms, got ${this.executions.length}. ` +
							`Requests: ${JSON.stringify(this.requests.map(({ method, status, outcome, responseBody }) => ({ method, status, outcome, responseBody })))}` +
							(this.errors.length ? ` Errors: ${this.errors.map((e) => e.message).join(' | ')}` : ''),
					),
				);
			}, timeoutMs);
			const cleanup = () => {
				clearTimeout(timer);
				this.listeners.delete(check);
			};
			this.listeners.add(check);
		});
	}

	/** Waits until every request being handled and every execution started has finished. */
	async settled(): Promise<void> {
		while (this.running.size) await Promise.allSettled([...this.running]);
		await this.removal?.catch(() => undefined);
	}

	/**
	 * Deactivates: runs `delete` for every webhook (as the app's `clearWebhooks`, or its removal
	 * of test webhooks), saves the static data (production) and stops routing requests. Rejects
	 * when a `delete` fails; the workflow then stays active (call again, or `close()`).
	 */
	async deactivate(): Promise<void> {
		if (this.removal) return await this.removal;
		if (this.state === 'inactive') return;
		this.removal = this.removeWebhooks().finally(() => {
			this.removal = undefined;
		});
		await this.removal;
	}

	/** Stops routing requests without running any hook (what is left on the service stays). */
	async close(): Promise<void> {
		this.unregisterRoutes();
		this.state = 'inactive';
		clearTimeout(this.testTimeout);
		await this.settled();
	}

	// --- Activation --------------------------------------------------------------------------

	private async register(): Promise<void> {
		const { env, server } = this;
		installLogger(env);
		const workflow = env.createWorkflow(this.definition);
		this.assertCanBeActivated(workflow);
		const isTest = this.mode === 'manual';
		const additionalData = baseAdditionalData(env, server, workflow.id);
		const webhooks = getWorkflowWebhooks(workflow, additionalData);
		if (webhooks.length === 0) {
			throw new WorkflowActivationError(`Workflow "${workflow.name}" has no webhook to listen on`, { level: 'warning' });
		}
		if (isTest) {
			for (const webhook of webhooks) {
				webhook.isTest = true;
				webhook.userId = 'test-user';
			}
		}

		// The app stores the webhooks (or registers the test webhooks) before running `create`,
		// so a service that calls the URL right away reaches the workflow.
		for (const data of webhooks) {
			const route: WebhookRoute = {
				prefix: isTest ? 'webhook-test' : 'webhook',
				httpMethod: data.httpMethod,
				path: data.path,
				handle: async (req, res) => await this.track(this.handleRequest(data, req, res)),
			};
			const node = workflow.getNode(data.node)!;
			const url = new HookContext(workflow, node, additionalData, isTest ? 'manual' : 'trigger', 'activate', data).getNodeWebhookUrl(
				data.webhookDescription.name,
			);
			const expected = `${server.baseUrl}${route.prefix}/${data.path}`;
			if (url !== expected) {
				throw new UnexpectedError(`Webhook URL mismatch: hooks would see ${String(url)}, the listener serves ${expected}`);
			}
			server.register(route);
			this.registered.push({ data, url, route });
		}

		const mode: WorkflowExecuteMode = isTest ? 'manual' : 'trigger';
		const activation = this.options.activation ?? (isTest ? 'manual' : 'activate');
		try {
			for (const { data } of this.registered) {
				await createWebhookIfNotExists(workflow, data, mode, activation);
			}
		} catch (error) {
			// The app undoes the activation: `delete` for every webhook, then the error is thrown.
			try {
				if (isTest) await this.deleteWebhooks(workflow);
				else await this.deleteWebhooks(env.createWorkflow(this.definition));
			} catch (cleanupError) {
				env.logger.error(
					`Could not remove webhooks of workflow "${workflow.id}" because of error: "${(cleanupError as Error).message}"`,
				);
			}
			this.unregisterRoutes();
			this.state = 'inactive';
			const detail = (error as { detail?: string }).detail;
			if (detail) (error as Error).message = detail;
			throw error;
		}

		if (isTest) {
			this.testStaticData = stripFlag(workflow.staticData);
			const timeoutMs = this.options.testWebhookTimeoutMs ?? TEST_WEBHOOK_TIMEOUT_MS;
			this.testTimeout = setTimeout(() => this.removeTestWebhooksInBackground(), timeoutMs);
			this.testTimeout.unref();
		} else {
			env.saveStaticData(workflow);
		}
	}

	private assertCanBeActivated(workflow: Workflow): void {
		const types = Object.values(workflow.nodes)
			.filter((node) => !node.disabled)
			.map((node) => ({ node, type: workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion) }));
		const unsupported = types.find(({ type }) => type.trigger !== undefined || type.poll !== undefined);
		if (unsupported) {
			throw new UserError(
				`Node "${unsupported.node.name}" is a trigger or polling node: the test harness activates webhook nodes only`,
			);
		}
		if (!types.some(({ type }) => type.webhook !== undefined)) {
			throw new WorkflowActivationError(
				`Workflow "${workflow.name}" has no node to start the workflow - at least one trigger, poller or webhook node is required`,
				{ level: 'warning' },
			);
		}
	}

	// --- Deactivation ------------------------------------------------------------------------

	private async deleteWebhooks(workflow: Workflow): Promise<void> {
		for (const { data } of this.registered) {
			await callWebhookMethod('delete', workflow, data, 'internal', 'update');
		}
	}

	private async removeWebhooks(): Promise<void> {
		installLogger(this.env);
		clearTimeout(this.testTimeout);
		if (this.mode === 'manual') {
			// `TestWebhooks.deactivateWebhooks`: the registration's static data, never saved.
			const workflow = this.env.createWorkflow(this.definition);
			workflow.staticData = this.testStaticData as Workflow['staticData'];
			await this.deleteWebhooks(workflow);
			this.testStaticData = stripFlag(workflow.staticData);
		} else {
			// `ActiveWorkflowManager.clearWebhooks`: the saved static data, saved afterwards.
			const workflow = this.env.createWorkflow(this.definition);
			try {
				await this.deleteWebhooks(workflow);
			} catch (error) {
				this.env.logger.error(
					`Could not remove webhooks of workflow "${workflow.id}" because of error: "${(error as Error).message}"`,
				);
				throw error;
			}
			this.env.saveStaticData(workflow);
		}
		this.unregisterRoutes();
		this.state = 'inactive';
	}

	/** Test webhooks are removed after a call that started an execution, or after the timeout. */
	private removeTestWebhooksInBackground(): void {
		if (this.state !== 'active' || this.removal) return;
		this.deactivate().catch((error: Error) => {
			this.errors.push(error);
			this.env.logger.error(`Could not remove the test webhooks of workflow "${this.workflowId}": ${error.message}`);
		});
	}

	private unregisterRoutes(): void {
		for (const { route } of this.registered) this.server.unregister(route);
	}

	// --- Requests ----------------------------------------------------------------------------

	private async track<T>(promise: Promise<T>): Promise<T> {
		this.running.add(promise);
		try {
			return await promise;
		} finally {
			this.running.delete(promise);
		}
	}

	private async handleRequest(webhookData: IWebhookData, req: WebhookRequest, res: WebhookResponse): Promise<void> {
		const call: WebhookCall = {
			method: req.method ?? 'GET',
			path: webhookData.path,
			headers: req.headers,
			body: req.body,
			outcome: 'pending',
		};
		this.requests.push(call);
		res.once('finish', () => {
			call.status = res.statusCode;
			call.responseBody = res.sentBody;
		});
		const fail = (error: Error, status = 500, message = error.message) => {
			call.outcome = 'error';
			call.error = error;
			this.errors.push(error);
			this.env.logger.error(`Error in handling webhook request ${call.method} ${req.path}: ${error.message}`);
			if (!res.headersSent) res.status(status).json({ code: 0, message });
		};

		installLogger(this.env);
		const isTest = this.mode === 'manual';
		const executionMode: WorkflowExecuteMode = isTest ? 'manual' : 'webhook';
		const workflow = this.env.createWorkflow(this.definition);
		// Test webhooks run with the registration's static data (same object for every call).
		if (isTest) workflow.setTestStaticData(this.testStaticData);
		const node = workflow.getNode(webhookData.node);
		if (!node) return fail(new UnexpectedError('Could not find node to process webhook.'), 404);
		const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const description = webhookData.webhookDescription;
		const responseMode = descriptionProperty<string>(workflow, node, description, 'responseMode', 'onReceived');
		const responseCode = Number(descriptionProperty<number>(workflow, node, description, 'responseCode', 200));
		const responseData = descriptionProperty<string | undefined>(workflow, node, description, 'responseData');
		if (responseMode !== 'onReceived') {
			return fail(new UserError(`The test harness answers webhooks in responseMode 'onReceived' only, not '${responseMode}'`));
		}

		const additionalData: IWorkflowExecuteAdditionalData = {
			...baseAdditionalData(this.env, this.server, workflow.id),
			executionId: undefined,
			httpRequest: req as unknown as IWorkflowExecuteAdditionalData['httpRequest'],
			httpResponse: res as unknown as IWorkflowExecuteAdditionalData['httpResponse'],
		};
		const saveStaticData = () => {
			if (!isTest) this.env.saveStaticData(workflow);
		};

		let result: IWebhookResponseData;
		try {
			result = await runWebhook(nodeType, new WebhookContext(workflow, node, additionalData, executionMode, webhookData, [], null));
		} catch (error) {
			// The app answers 500 with this message; the node's error is only reported.
			return fail(error as Error, 500, 'Workflow Webhook Error: Workflow could not be started!');
		}

		if (result.noWebhookResponse === true) {
			call.outcome = 'noWebhookResponse';
			saveStaticData(); // the response callback runs now, before any execution starts
		}
		if (result.workflowData === undefined) {
			if (result.noWebhookResponse !== true) {
				call.outcome = 'response';
				res.status(responseCode).json(result.webhookResponse ?? { message: 'Webhook call received' });
				saveStaticData();
			}
			return;
		}

		// `WorkflowRunner.run` wraps the same static-data object in a new Workflow, which resets its
		// change flag, and runs with the static data as saved: unsaved changes are dropped.
		workflow.staticData.__dataChanged = false;
		let started;
		try {
			started = this.env.startExecution(this.definition, {
				mode: executionMode,
				startNode: node.name,
				inputs: result.workflowData as INodeExecutionData[][],
				timeoutMs: this.options.executionTimeoutMs,
			});
		} catch (error) {
			return fail(error as Error);
		}
		call.outcome = 'execution';
		call.executionId = started.executionId;
		if (!res.headersSent && result.noWebhookResponse !== true) {
			let body: unknown;
			if (responseData === 'noData') body = undefined;
			else if (responseData) body = responseData;
			else body = result.webhookResponse ?? { message: 'Workflow was started' };
			res.status(responseCode).json(body);
		}
		saveStaticData();
		void this.track(
			started.finished.then(
				(execution) => {
					this.executions.push(execution);
					for (const listener of [...this.listeners]) listener();
				},
				(error: Error) => {
					this.errors.push(error);
					this.env.logger.error(`Execution ${started.executionId} failed to run: ${error.message}`);
				},
			),
		);
		// The app removes test webhooks as soon as one call has started an execution.
		if (isTest) this.removeTestWebhooksInBackground();
	}
}

/** `WebhookService.runWebhook`: the node type's `webhook()`, class-style nodes included. */
async function runWebhook(nodeType: INodeType, context: IWebhookFunctions): Promise<IWebhookResponseData> {
	if (isNodeClassInstance(nodeType)) {
		if (!nodeType.webhook) throw new UnexpectedError('Node does not have any webhooks defined');
		return await nodeType.webhook(context);
	}
	if (nodeType.webhook === undefined) throw new UnexpectedError('Node does not have any webhooks defined');
	return (await nodeType.webhook.call(context)) as IWebhookResponseData;
}
