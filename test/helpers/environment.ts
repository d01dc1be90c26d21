/**
 * Runs real n8n workflows in-process, the way the n8n app runs an execution: a `Workflow`
 * (n8n-workflow) executed by a fresh `WorkflowExecute` (n8n-core) with lifecycle hooks, an
 * `IWorkflowExecuteAdditionalData` and a credentials helper that follows the app's rules.
 *
 * One environment = one simulated n8n instance: its credential store and workflows' static
 * data persist across executions, like n8n's database.
 *
 * ```ts
 * const env = createTestEnvironment({ nodeTypes: [new MyNode()], credentialTypes: [new MyApi()] });
 * env.addCredential('cred-1', 'myApi', { baseUrl, token: '' });
 * const result = await env.runWorkflow({
 *   nodes: [
 *     { name: 'Items', type: 'testItems', parameters: { items: '[{"id":1}]' } },
 *     { name: 'Call', type: 'myNode', parameters: { id: '={{ $json.id }}' }, credentials: { myApi: 'cred-1' } },
 *   ],
 *   connections: chain('Items', 'Call'),
 * });
 * result.json('Call'); // [{ ... }]
 * ```
 */
import { randomUUID } from 'crypto';
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionError,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	IDataObject,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IPinData,
	IRun,
	ITaskData,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, deepCopy, LoggerProxy, UserError, Workflow } from 'n8n-workflow';

import { createAdditionalData } from './additional-data';
import type { CredentialTestResult, TestCredentialOptions } from './credential-test';
import { testCredential } from './credential-test';
import type { LoginRecord } from './credentials-helper';
import { CredentialStore, TestCredentialsHelper } from './credentials-helper';
import { TestLogger } from './logger';
import { TestItems, TestNoOp } from './nodes';
import { PACKAGE_NAME, TestCredentialTypes, TestNodeTypes } from './registry';
import type { ActivateWorkflowOptions, RunWebhookMethodOptions, WebhookMethodName } from './webhooks';
import { ActiveWorkflow, runWebhookMethod, WebhookServer } from './webhooks';

export interface TestEnvironmentOptions {
	/** Node types to register; `TestItems` and `TestNoOp` are always added. */
	nodeTypes?: Array<INodeType | IVersionedNodeType>;
	credentialTypes?: ICredentialType[];
	/** Prefix n8n gives our node types (`<packageName>.<name>`); default this package's name. */
	packageName?: string;
	/** Base URL of the simulated n8n instance (webhook URLs etc.); default http://localhost:5678/ */
	instanceBaseUrl?: string;
	/** `$vars` available to expressions. */
	variables?: IDataObject;
}

/**
 * A workflow node with conveniences: `id`, `typeVersion` (1), `position` and `parameters`
 * may be left out, and a credential may be given by its id alone (`{ myApi: 'cred-1' }`).
 */
export interface TestNode
	extends Omit<INode, 'id' | 'typeVersion' | 'position' | 'parameters' | 'credentials'> {
	id?: string;
	typeVersion?: number;
	position?: [number, number];
	parameters?: INodeParameters;
	credentials?: Record<string, string | INodeCredentialsDetails>;
}

export interface TestWorkflow {
	/** Default 'test-workflow'. Static data is kept per id. */
	id?: string;
	name?: string;
	nodes: TestNode[];
	connections: IConnections;
	/** Merged over `{ executionOrder: 'v1' }`. */
	settings?: IWorkflowSettings;
	/** Replaces the static data stored for this workflow id for this run. */
	staticData?: IDataObject;
	pinData?: IPinData;
}

export interface RunWorkflowOptions {
	/** Default 'manual' (the editor's "Execute workflow"); 'trigger' / 'webhook' for production runs. */
	mode?: WorkflowExecuteMode;
	/** Node the execution starts at; default the first node without incoming connections. */
	startNode?: string;
	/** Items the start node receives (a trigger's output in production runs); default `[{ json: {} }]`. */
	input?: INodeExecutionData[];
	/**
	 * Every main input of the start node at once, as a webhook's `workflowData` (one array per
	 * output of the trigger: a webhook node passes them on as its outputs). Overrides `input`.
	 */
	inputs?: INodeExecutionData[][];
	/** Cancel the execution after this many milliseconds (workflow `executionTimeout` style). */
	timeoutMs?: number;
}

/** What one execution produced. */
export class WorkflowResult {
	constructor(
		/** The raw `IRun` WorkflowExecute returned. */
		readonly run: IRun,
		/** Names of the nodes in the order they finished (one entry per node run). */
		readonly executedNodes: string[],
		readonly executionId: string,
	) {}

	get status(): IRun['status'] {
		return this.run.status;
	}

	/** The execution-level error (a node failed without continue-on-fail), if any. */
	get error(): ExecutionError | undefined {
		return this.run.data.resultData.error;
	}

	/** Every run of a node (more than one in loops); [] if it did not run. */
	runs(nodeName: string): ITaskData[] {
		return this.run.data.resultData.runData[nodeName] ?? [];
	}

	/**
	 * Items on one output of one run of a node: main output 0 of the first run by default;
	 * `outputs(name, 1)` is the error output of a node with `onError: 'continueErrorOutput'`.
	 * Throws (with the errors of the execution) if the node did not run.
	 */
	outputs(nodeName: string, outputIndex = 0, runIndex = 0): INodeExecutionData[] {
		const task = this.runs(nodeName)[runIndex];
		if (!task) {
			throw new Error(
				`Node "${nodeName}" has no run ${runIndex}. ${this.describeErrors()}`.trim(),
			);
		}
		return task.data?.main?.[outputIndex] ?? [];
	}

	/** The `json` of {@link outputs}. */
	json(nodeName: string, outputIndex = 0, runIndex = 0): IDataObject[] {
		return this.outputs(nodeName, outputIndex, runIndex).map((item) => item.json);
	}

	/** The error a node run ended with, if any. */
	nodeError(nodeName: string, runIndex = 0): ExecutionError | undefined {
		return this.runs(nodeName)[runIndex]?.error;
	}

	private describeErrors(): string {
		const parts: string[] = [`Executed: [${this.executedNodes.join(', ')}].`];
		if (this.error) parts.push(`Execution error: ${this.error.message}`);
		for (const [name, tasks] of Object.entries(this.run.data.resultData.runData)) {
			tasks.forEach((task, i) => {
				if (task.error) parts.push(`Node "${name}" run ${i} error: ${task.error.message}`);
			});
		}
		return parts.join(' ');
	}
}

const DEFAULT_WORKFLOW_ID = 'test-workflow';

/** An execution that has started: its id now, its result when it has finished. */
export interface StartedExecution {
	executionId: string;
	finished: Promise<WorkflowResult>;
}

/** What n8n keeps out of the saved static data. */
function withoutChangeFlag(data: IDataObject): IDataObject {
	const { __dataChanged: _changed, ...rest } = deepCopy(data);
	return rest;
}

export class TestEnvironment {
	readonly nodeTypes: TestNodeTypes;
	readonly credentialTypes: TestCredentialTypes;
	readonly store = new CredentialStore();
	readonly credentialsHelper: TestCredentialsHelper;
	/** Everything n8n-core and the nodes logged, across executions. */
	readonly logger = new TestLogger();

	private executionCount = 0;
	private readonly staticData = new Map<string, IDataObject>();
	/** `webhookId` the editor gave each webhook node, per workflow id and node name (saved with the workflow). */
	private readonly webhookIds = new Map<string, string>();
	private webhookServer?: WebhookServer;
	private readonly activeWorkflows = new Map<string, ActiveWorkflow>();

	constructor(private readonly options: TestEnvironmentOptions = {}) {
		this.nodeTypes = new TestNodeTypes(
			[new TestItems(), new TestNoOp(), ...(options.nodeTypes ?? [])],
			options.packageName ?? PACKAGE_NAME,
		);
		this.credentialTypes = new TestCredentialTypes(options.credentialTypes ?? [], this.nodeTypes);
		this.credentialsHelper = new TestCredentialsHelper(this.credentialTypes, this.store);
	}

	/** Saves a credential, as creating it in n8n's UI would (`name` defaults to the id). */
	addCredential(id: string, type: string, data: ICredentialDataDecryptedObject, name = id): void {
		this.credentialTypes.getByName(type);
		this.store.set(id, { name, type, data });
	}

	/** The credential's data as persisted now (without defaults). */
	credentialData(id: string): ICredentialDataDecryptedObject {
		const stored = this.store.get(id);
		if (!stored) throw new Error(`No credential "${id}" in the test environment`);
		return stored.data;
	}

	/**
	 * Presses "Test" in the credential's form, as the n8n app runs it (see credential-test.ts):
	 * `{ status: 'OK', message: 'Connection successful!' }` or `{ status: 'Error', message }`.
	 * A login during the test persists its session to the stored credential, as in the app.
	 */
	async testCredential(id: string, options?: TestCredentialOptions): Promise<CredentialTestResult> {
		return await testCredential(this, id, options);
	}

	/** The prefix n8n gives this environment's node types. */
	get packageName(): string {
		return this.options.packageName ?? PACKAGE_NAME;
	}

	/** Base URL of the simulated n8n instance. */
	get instanceBaseUrl(): string {
		return this.options.instanceBaseUrl ?? 'http://localhost:5678/';
	}

	/** `$vars` of the simulated instance. */
	get variables(): IDataObject | undefined {
		return this.options.variables;
	}

	/** How many times a credential's `preAuthentication` ran and returned the expirable property. */
	get loginCount(): number {
		return this.credentialsHelper.loginCount;
	}

	/** Every `preAuthentication` run, with its reason and outcome. */
	get logins(): readonly LoginRecord[] {
		return this.credentialsHelper.logins;
	}

	/** Static data persisted for a workflow (saved after non-manual executions, as n8n does). */
	workflowStaticData(workflowId = DEFAULT_WORKFLOW_ID): IDataObject {
		return deepCopy(this.staticData.get(workflowId) ?? {});
	}

	/**
	 * Saves a workflow's static data if it changed (`__dataChanged`), as the app's
	 * `WorkflowStaticDataService.saveStaticData` does after activation, deactivation and each
	 * production webhook call; clears the flag afterwards.
	 */
	saveStaticData(workflow: Workflow): void {
		if (workflow.staticData.__dataChanged !== true) return;
		this.staticData.set(workflow.id, withoutChangeFlag(workflow.staticData));
		workflow.staticData.__dataChanged = false;
	}

	/** Replaces the persisted static data of a workflow (the workflow's `staticData` column). */
	setWorkflowStaticData(workflowId: string, data: IDataObject): void {
		this.staticData.set(workflowId, withoutChangeFlag(data));
	}

	/**
	 * Builds the `Workflow` instance an execution, a hook (`webhookMethods`) or a webhook call
	 * runs on, with the static data persisted for its id. Webhook nodes without a `webhookId`
	 * get one, kept per workflow id and node name, as the editor assigns and saves it.
	 */
	createWorkflow(workflow: TestWorkflow): Workflow {
		const id = workflow.id ?? DEFAULT_WORKFLOW_ID;
		return new Workflow({
			id,
			name: workflow.name ?? id,
			nodes: this.toNodes(workflow.nodes, id),
			connections: workflow.connections,
			active: false,
			nodeTypes: this.nodeTypes,
			staticData: deepCopy(workflow.staticData ?? this.staticData.get(id) ?? {}),
			settings: { executionOrder: 'v1', ...workflow.settings },
		});
	}

	/** Runs one execution with a fresh `WorkflowExecute`; resolves when it has finished. */
	async runWorkflow(workflowInput: TestWorkflow, options: RunWorkflowOptions = {}): Promise<WorkflowResult> {
		return await this.startExecution(workflowInput, options).finished;
	}

	/**
	 * Starts one execution and returns at once with its id (like the app's
	 * `WorkflowRunner.run`); `finished` resolves when it has finished. Throws if n8n would refuse
	 * to start it.
	 */
	startExecution(workflowInput: TestWorkflow, options: RunWorkflowOptions = {}): StartedExecution {
		const mode = options.mode ?? 'manual';
		const executionId = this.nextExecutionId();
		const workflow = this.createWorkflow(workflowInput);
		const workflowId = workflow.id;
		const startNode = this.findStartNode(workflow, workflowInput, options.startNode);

		this.logger.install();
		LoggerProxy.init(this.logger);

		const workflowData: IWorkflowBase = {
			id: workflowId,
			name: workflow.name ?? workflowId,
			active: false,
			isArchived: false,
			activeVersionId: null,
			createdAt: new Date(),
			updatedAt: new Date(),
			nodes: Object.values(workflow.nodes),
			connections: workflow.connectionsBySourceNode,
			settings: workflow.settings,
			staticData: workflow.staticData,
			pinData: workflowInput.pinData,
		};

		const executedNodes: string[] = [];
		const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
		hooks.addHandler('nodeExecuteAfter', (nodeName) => {
			executedNodes.push(nodeName);
		});
		hooks.addHandler('workflowExecuteAfter', (_run, newStaticData) => {
			// Like the app's save hook: static data changes persist, except for manual runs.
			if (mode !== 'manual' && newStaticData) {
				this.staticData.set(workflowId, withoutChangeFlag(newStaticData));
			}
		});

		const additionalData = createAdditionalData({
			credentialsHelper: this.credentialsHelper,
			hooks,
			executionId,
			workflowId,
			workflowSettings: workflow.settings,
			instanceBaseUrl: this.instanceBaseUrl,
			variables: this.variables,
			executionTimeoutTimestamp:
				options.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs,
		});

		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [
					{
						node: startNode,
						data: { main: options.inputs ?? [options.input ?? [{ json: {} }]] },
						source: null,
					},
				],
			},
			resultData: { pinData: workflowInput.pinData },
		});

		const finished = (async () => {
			const run = await new WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(
				workflow,
			);
			return new WorkflowResult(run, executedNodes, executionId);
		})();
		return { executionId, finished };
	}

	// --- Webhook triggers -----------------------------------------------------------------------

	/**
	 * Activates a workflow whose trigger is a webhook node (`webhook()` plus optional
	 * `webhookMethods`), the way the n8n app does: a loopback listener plays n8n's webhook
	 * server, `checkExists` then `create` run through n8n-core's `HookContext`, and every request
	 * on the webhook URL goes to `webhook()` through a real `WebhookContext`. See webhooks.ts.
	 *
	 * `mode: 'trigger'` (default): production URL `<listener>/webhook/<path>`, static data
	 * persisted as the app does. `mode: 'manual'`: the editor's "listen for test event", test URL
	 * `<listener>/webhook-test/<path>`; like the app, the test webhook is removed (`delete`)
	 * as soon as one request has started an execution.
	 */
	async activateWorkflow(workflow: TestWorkflow, options: ActivateWorkflowOptions = {}): Promise<ActiveWorkflow> {
		const id = workflow.id ?? DEFAULT_WORKFLOW_ID;
		const key = `${options.mode === 'manual' ? 'manual' : 'trigger'}:${id}`;
		if (this.activeWorkflows.get(key)?.active) {
			throw new UserError(`Workflow "${id}" is already active (${key.split(':')[0]}): deactivate it first`);
		}
		const activeWorkflow = await ActiveWorkflow.activate(this, await this.startWebhookServer(), workflow, options);
		this.activeWorkflows.set(key, activeWorkflow);
		return activeWorkflow;
	}

	/**
	 * Runs one of a webhook node's `webhookMethods` (`checkExists`, `create`, `delete`) through a
	 * `HookContext`, as activation or deactivation would, and returns its result; for `mode:
	 * 'trigger'` changed static data is saved, as the app does after activation/deactivation.
	 */
	async runWebhookMethod(
		workflow: TestWorkflow,
		method: WebhookMethodName,
		options: RunWebhookMethodOptions = {},
	): Promise<boolean | undefined> {
		return await runWebhookMethod(this, await this.startWebhookServer(), workflow, method, options);
	}

	/**
	 * The loopback listener that plays n8n's webhook server (started on first use, then on the
	 * same port for this environment's life; it never keeps the process alive).
	 */
	async startWebhookServer(): Promise<WebhookServer> {
		this.webhookServer ??= new WebhookServer(this.logger);
		await this.webhookServer.listen();
		return this.webhookServer;
	}

	/** Stops the webhook listener. Active workflows stay registered (their hooks are not run). */
	async close(): Promise<void> {
		await this.webhookServer?.close();
	}

	/** Fresh execution id of this instance. */
	nextExecutionId(): string {
		return String(++this.executionCount);
	}

	private toNodes(nodes: TestNode[], workflowId: string): INode[] {
		return nodes.map(({ credentials, ...node }, index) => {
			const resolved: INode = {
				...node,
				id: node.id ?? `node-${index + 1}`,
				typeVersion: node.typeVersion ?? 1,
				position: node.position ?? [index * 200, 0],
				parameters: node.parameters ?? {},
			};
			if (resolved.webhookId === undefined && this.hasWebhooks(resolved)) {
				const key = `${workflowId}\u0000${resolved.name}`;
				if (!this.webhookIds.has(key)) this.webhookIds.set(key, randomUUID());
				resolved.webhookId = this.webhookIds.get(key);
			}
			if (credentials) {
				resolved.credentials = Object.fromEntries(
					Object.entries(credentials).map(([type, ref]) => [
						type,
						typeof ref === 'string' ? { id: ref, name: this.store.get(ref)?.name ?? ref } : ref,
					]),
				);
			}
			return resolved;
		});
	}

	private hasWebhooks(node: INode): boolean {
		try {
			return !!this.nodeTypes.getByNameAndVersion(node.type, node.typeVersion).description.webhooks?.length;
		} catch {
			return false; // unknown type: the Workflow refuses it later with n8n's error
		}
	}

	private findStartNode(workflow: Workflow, input: TestWorkflow, name?: string): INode {
		if (name !== undefined) {
			const node = workflow.getNode(name);
			if (!node) throw new UserError(`Start node "${name}" is not in the workflow`);
			return node;
		}
		const withParents = new Set(Object.keys(workflow.connectionsByDestinationNode));
		const start = input.nodes.find((node) => !withParents.has(node.name) && !node.disabled);
		if (!start) throw new UserError('No start node: every node has incoming connections');
		return workflow.getNode(start.name)!;
	}
}

export function createTestEnvironment(options: TestEnvironmentOptions = {}): TestEnvironment {
	return new TestEnvironment(options);
}

/** Connections for a straight line of nodes: main output 0 of each into input 0 of the next. */
export function chain(...nodeNames: string[]): IConnections {
	const connections: IConnections = {};
	for (let i = 0; i < nodeNames.length - 1; i++) {
		connect(connections, nodeNames[i], nodeNames[i + 1]);
	}
	return connections;
}

/** Adds a main connection `from`[outputIndex] → `to`[inputIndex] to `connections` and returns it. */
export function connect(
	connections: IConnections,
	from: string,
	to: string,
	outputIndex = 0,
	inputIndex = 0,
): IConnections {
	const outputs = ((connections[from] ??= {}).main ??= []);
	while (outputs.length <= outputIndex) outputs.push([]);
	(outputs[outputIndex] ??= []).push({ node: to, type: 'main', index: inputIndex });
	return connections;
}
