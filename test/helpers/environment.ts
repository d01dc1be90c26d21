/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * One simulated n8n instance: the package as n8n loads it, a credential store shared by its
 * executions, workflows' static data, and executions run by n8n-core's own `WorkflowExecute`.
 *
 * ```ts
 * const env = createTestEnvironment();
 * env.addCredential('cred-1', 'sellerPlatformApi', { baseUrl, keyId, privateKey, projectCode });
 * const result = await env.runWorkflow({ nodes, connections: chain('Items', 'Seller Platform') });
 * result.outputs('Seller Platform'); // INodeExecutionData[] of main output 0
 * ```
 */
import { randomUUID } from 'crypto';
import { readFileSync } from 'fs';
import { ExecutionLifecycleHooks, WorkflowExecute, type PackageDirectoryLoader } from 'n8n-core';
import {
	createRunExecutionData,
	LoggerProxy,
	Workflow,
	type ExecutionError,
	type ICredentialDataDecryptedObject,
	type IConnections,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeType,
	type IRun,
	type IWorkflowBase,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { CredentialsHelper, testCredential, type CredentialTestResult } from './credentials';
import { additionalData, credentialTypeOf, loadPackage, NodeTypes, TestLogger } from './n8n';
import { TestFiles, TestHttpRequest, TestItems, TestNoOp, TestSet } from './nodes';
import { TestToolCaller } from './tools';
import { activatePolling, type ActivePoller, type PollingOptions } from './polls';
import {
	activate,
	closeServer,
	runWebhookMethod,
	type ActivateOptions,
	type ActiveWorkflow,
} from './webhooks';

/** A workflow node; `id`, `typeVersion`, `position`, `parameters` may be left out, a credential given by id. */
export type TestNode = Omit<
	INode,
	'id' | 'typeVersion' | 'position' | 'parameters' | 'credentials'
> &
	Partial<Pick<INode, 'id' | 'typeVersion' | 'position' | 'parameters'>> & {
		credentials?: Record<string, string>;
	};

export interface TestWorkflow {
	/** Default 'test-workflow'; static data is kept per id. */
	id?: string;
	nodes: TestNode[];
	connections: IConnections;
}

/** A workflow saved as JSON (the n8n export format), e.g. `test/integration/workflows/*.json`. */
export function workflowFromFile(path: string): TestWorkflow {
	return JSON.parse(readFileSync(path, 'utf8')) as TestWorkflow;
}

export interface RunOptions {
	/** Default 'manual'; 'webhook' / 'trigger' for production runs. */
	mode?: WorkflowExecuteMode;
	/** Default the first node without incoming connections. */
	startNode?: string;
	/** Items the start node receives (default one empty item). */
	input?: INodeExecutionData[];
	/** Every main input of the start node at once (a webhook's `workflowData`). */
	inputs?: INodeExecutionData[][];
}

/** What one execution produced. */
export class WorkflowResult {
	constructor(
		readonly run: IRun,
		readonly executedNodes: string[],
	) {}

	get status() {
		return this.run.status;
	}

	get error(): ExecutionError | undefined {
		return this.run.data.resultData.error;
	}

	/** Items on one output of a node's first run (1 = the error output). Throws if it did not run. */
	outputs(nodeName: string, outputIndex = 0): INodeExecutionData[] {
		const task = this.run.data.resultData.runData[nodeName]?.[0];
		if (!task) throw new Error(`Node "${nodeName}" did not run: ${this.error?.message ?? ''}`);
		return task.data?.main?.[outputIndex] ?? [];
	}

	json(nodeName: string, outputIndex = 0): IDataObject[] {
		return this.outputs(nodeName, outputIndex).map((item) => item.json);
	}

	/** The error a node's first run ended with, if any. */
	nodeError(nodeName: string): ExecutionError | undefined {
		return this.run.data.resultData.runData[nodeName]?.[0]?.error;
	}
}

/**
 * A check of every finished execution (e.g. the output schemas, outputSchemas.ts): it throws to
 * fail the execution's `finished` (so `runWorkflow`) with its message.
 */
export type RunCheck = (result: WorkflowResult, workflow: Workflow) => void | Promise<void>;

const runChecks: RunCheck[] = [];

/**
 * Runs `check` on every execution that finishes from now on, in this test file only (Jest gives
 * each test file its own modules).
 */
export function checkEveryRun(check: RunCheck): void {
	if (!runChecks.includes(check)) runChecks.push(check);
}

export interface StartedExecution {
	/** Stops the execution, as the editor's stop button does (n8n-core aborts its cancel signal). */
	cancel(): void;
	finished: Promise<WorkflowResult>;
}

const DEFAULT_WORKFLOW_ID = 'test-workflow';

/** The `webhookId` the editor gives a node, once per workflow and node name. */
const webhookIds = new Map<string, string>();
const webhookIdOf = (workflowId: string, nodeName: string) => {
	const key = `${workflowId}\u0000${nodeName}`;
	if (!webhookIds.has(key)) webhookIds.set(key, randomUUID());
	return webhookIds.get(key)!;
};

export class TestEnvironment {
	readonly logger = new TestLogger();
	readonly baseUrl = 'http://localhost:5678/';
	/** N8N_PROXY_HOPS of this n8n (0, its default: the webhook sees the connecting address). */
	proxyHops = 0;
	private loader?: PackageDirectoryLoader;
	private types?: NodeTypes;
	readonly credentialsHelper = new CredentialsHelper((name) =>
		credentialTypeOf(this.loader!, name),
	);
	private readonly staticData = new Map<string, IDataObject>();

	/** `extraTypes`: node types of a test's own beside the kit's (test/live/node.ts). */
	constructor(private readonly extraTypes: INodeType[] = []) {}

	/** Loads the package (once) and installs this environment's logger. */
	async ready(): Promise<NodeTypes> {
		this.loader ??= await loadPackage();
		this.types ??= new NodeTypes(this.loader, [
			new TestItems(),
			new TestFiles(),
			new TestNoOp(),
			new TestHttpRequest(),
			new TestSet(),
			new TestToolCaller(),
			...this.extraTypes,
		]);
		this.logger.install();
		LoggerProxy.init(this.logger);
		return this.types;
	}

	addCredential(id: string, type: string, data: ICredentialDataDecryptedObject, name = id): void {
		this.credentialsHelper.store.set(id, { name, type, data: { sessionCookie: '', ...data } });
	}

	/** The credential's data as stored now. */
	credentialData(id: string): ICredentialDataDecryptedObject {
		return this.credentialsHelper.store.get(id)!.data;
	}

	/** Every run of a credential's `preAuthentication`, with its reason and outcome. */
	get logins() {
		return this.credentialsHelper.logins;
	}

	/** Runs of `preAuthentication` that returned a session. */
	get loginCount(): number {
		return this.logins.filter((login) => login.succeeded).length;
	}

	/** Presses "Test" in the credential's form (with unsaved edits in `data`). */
	async testCredential(
		id: string,
		options: { data?: ICredentialDataDecryptedObject } = {},
	): Promise<CredentialTestResult> {
		await this.ready();
		const typeOf = (name: string) => credentialTypeOf(this.loader!, name);
		return await testCredential(this.credentialsHelper, this.baseUrl, typeOf, id, options.data);
	}

	/** Static data saved for a workflow. */
	workflowStaticData(workflowId = DEFAULT_WORKFLOW_ID): IDataObject {
		return JSON.parse(JSON.stringify(this.staticData.get(workflowId) ?? {})) as IDataObject;
	}

	/** Puts back a workflow's saved static data (a save n8n lost, a database restored). */
	restoreStaticData(workflowId: string, data: IDataObject): void {
		this.staticData.set(workflowId, JSON.parse(JSON.stringify(data)) as IDataObject);
	}

	/** Saves a workflow's static data if it changed, as the app does after hooks and webhook calls. */
	saveStaticData(workflow: Workflow): void {
		if (workflow.staticData.__dataChanged !== true) return;
		const { __dataChanged: _flag, ...data } = JSON.parse(
			JSON.stringify(workflow.staticData),
		) as IDataObject;
		this.staticData.set(workflow.id, data);
		workflow.staticData.__dataChanged = false;
	}

	/** The `Workflow` an execution, a hook or a webhook call runs on, with its saved static data. */
	async createWorkflow(input: TestWorkflow, staticData?: IDataObject): Promise<Workflow> {
		const id = input.id ?? DEFAULT_WORKFLOW_ID;
		return new Workflow({
			id,
			name: id,
			nodes: input.nodes.map(({ credentials, ...node }, index) => ({
				id: `node-${index + 1}`,
				typeVersion: 1,
				position: [index * 200, 0],
				parameters: {},
				webhookId: webhookIdOf(id, node.name),
				...node,
				credentials: credentials
					? Object.fromEntries(
							Object.entries(credentials).map(([type, ref]) => [type, { id: ref, name: ref }]),
						)
					: undefined,
			})),
			connections: input.connections,
			active: false,
			nodeTypes: await this.ready(),
			staticData: staticData ?? this.workflowStaticData(id),
			settings: { executionOrder: 'v1' },
		});
	}

	async runWorkflow(input: TestWorkflow, options: RunOptions = {}): Promise<WorkflowResult> {
		return await (
			await this.startExecution(input, options)
		).finished;
	}

	/** Starts one execution through a fresh `WorkflowExecute`, with lifecycle hooks. */
	async startExecution(input: TestWorkflow, options: RunOptions = {}): Promise<StartedExecution> {
		const mode = options.mode ?? 'manual';
		const workflow = await this.createWorkflow(input);
		const hasParent = new Set(Object.keys(workflow.connectionsByDestinationNode));
		const startName = options.startNode ?? input.nodes.find((n) => !hasParent.has(n.name))!.name;
		const executedNodes: string[] = [];
		const hooks = new ExecutionLifecycleHooks(mode, 'execution', {
			id: workflow.id,
			name: workflow.name,
			nodes: Object.values(workflow.nodes),
			connections: workflow.connectionsBySourceNode,
		} as IWorkflowBase);
		hooks.addHandler('nodeExecuteAfter', (name) => void executedNodes.push(name));
		hooks.addHandler('workflowExecuteAfter', (_run, newStaticData) => {
			// As the app: static data persists after production runs only.
			if (mode !== 'manual' && newStaticData) this.saveStaticData(workflow);
		});
		const data = additionalData({
			credentialsHelper: this.credentialsHelper,
			baseUrl: this.baseUrl,
			hooks,
			workflowId: workflow.id,
		});
		const runData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [
					{
						node: workflow.getNode(startName)!,
						data: { main: options.inputs ?? [options.input ?? [{ json: {} }]] },
						source: null,
					},
				],
			},
		});
		const running = new WorkflowExecute(data, mode, runData).processRunExecutionData(workflow);
		return {
			cancel: () => running.cancel(),
			finished: (async () => {
				const result = new WorkflowResult(await running, executedNodes);
				for (const check of runChecks) await check(result, workflow);
				return result;
			})(),
		};
	}

	/** Activates a webhook-triggered workflow as the app does; see webhooks.ts. */
	async activateWorkflow(input: TestWorkflow, options?: ActivateOptions): Promise<ActiveWorkflow> {
		return await activate(this, input, options);
	}

	/** Activates a poll-triggered workflow as the app does (first poll at once); see polls.ts. */
	async activatePolling(input: TestWorkflow, options?: PollingOptions): Promise<ActivePoller> {
		return await activatePolling(this, input, options);
	}

	/** Stops the webhook listener (active workflows' hooks are not run). */
	async close(): Promise<void> {
		await closeServer(this);
	}

	/** Runs one of the trigger's `webhookMethods` as activation or deactivation would. */
	async runWebhookMethod(input: TestWorkflow, method: 'checkExists' | 'create' | 'delete') {
		return await runWebhookMethod(this, input, method);
	}
}

export function createTestEnvironment(extraTypes: INodeType[] = []): TestEnvironment {
	return new TestEnvironment(extraTypes);
}

/** Connections for a line of nodes: main output 0 of each into the next. */
export function chain(...names: string[]): IConnections {
	const connections: IConnections = {};
	for (let i = 0; i < names.length - 1; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}

export type { INodeType };
