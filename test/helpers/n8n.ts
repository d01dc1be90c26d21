/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The glue between the tests and n8n-core: the package loaded by n8n's own loader (from dist/,
 * as n8n loads a community package), node and credential type registries, the logger nodes get,
 * and the additional data an execution runs with.
 */
import { join } from 'path';
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import {
	BinaryDataService,
	ExternalSecretsProxy,
	PackageDirectoryLoader,
	type ExecutionLifecycleHooks,
} from 'n8n-core';
import {
	NodeHelpers,
	UnexpectedError,
	type ICredentialType,
	type ICredentialsHelper,
	type IDataObject,
	type INodeType,
	type INodeTypes,
	type IVersionedNodeType,
	type IWorkflowExecuteAdditionalData,
	type LogMetadata,
} from 'n8n-workflow';

import { toolVariant } from './tools';

export const ROOT = join(__dirname, '..', '..');
export const PACKAGE_NAME = 'n8n-nodes-seller-platform';

/** The built package as n8n's PackageDirectoryLoader loads it (`npm test` builds first). */
let loaded: Promise<PackageDirectoryLoader> | undefined;
export async function loadPackage(): Promise<PackageDirectoryLoader> {
	loaded ??= (async () => {
		const loader = new PackageDirectoryLoader(ROOT);
		await loader.loadAll();
		return loader;
	})();
	return await loaded;
}

/** Node types by name, with or without the package prefix (`n8n-nodes-seller-platform.x`). */
export class NodeTypes implements INodeTypes {
	private readonly types = new Map<string, INodeType | IVersionedNodeType>();

	constructor(loader: PackageDirectoryLoader, extra: INodeType[]) {
		for (const [name, { type }] of Object.entries(loader.nodeTypes)) this.types.set(name, type);
		for (const type of extra) this.types.set(type.description.name, type);
	}

	getByName(name: string): INodeType | IVersionedNodeType {
		const short = name.replace(`${PACKAGE_NAME}.`, '');
		const type = this.types.get(short) ?? this.toolOf(short);
		if (!type) throw new UnexpectedError(`Unknown node type: ${name}`);
		return type;
	}

	/** `<name>Tool`: the AI tool n8n makes of a node with `usableAsTool` (tools.ts), kept once made. */
	private toolOf(name: string): INodeType | undefined {
		const base = name.endsWith('Tool') ? this.types.get(name.slice(0, -'Tool'.length)) : undefined;
		if (!base || !('usableAsTool' in base.description) || !base.description.usableAsTool) return;
		const tool = toolVariant(base as INodeType);
		this.types.set(name, tool);
		return tool;
	}

	getByNameAndVersion(name: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(name), version);
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

export function credentialTypeOf(loader: PackageDirectoryLoader, name: string): ICredentialType {
	const type = loader.credentialTypes[name]?.type;
	if (!type) throw new UnexpectedError(`Unknown credential type: ${name}`);
	return type;
}

export interface LogEntry {
	level: 'error' | 'warn' | 'info' | 'debug';
	message: string;
	metadata?: LogMetadata;
}

/** Records what n8n-core and the nodes log (N8N_TEST_LOG=1 prints it too). */
export class TestLogger {
	readonly entries: LogEntry[] = [];
	error = (message: string, metadata?: LogMetadata) => this.log('error', message, metadata);
	warn = (message: string, metadata?: LogMetadata) => this.log('warn', message, metadata);
	info = (message: string, metadata?: LogMetadata) => this.log('info', message, metadata);
	debug = (message: string, metadata?: LogMetadata) => this.log('debug', message, metadata);
	scoped = () => this;

	/** Makes this the logger n8n-core hands to nodes (`this.logger`). */
	install(): void {
		Container.set(Logger, this as unknown as Logger);
	}

	private log(level: LogEntry['level'], message: string, metadata?: LogMetadata) {
		this.entries.push({ level, message, metadata });
		if (process.env.N8N_TEST_LOG === '1') process.stderr.write(`[n8n ${level}] ${message}\n`);
	}
}

const notAvailable = (what: string) => async (): Promise<never> => {
	throw new UnexpectedError(`${what} is not available in the test environment`);
};

/** What the n8n app's `getBase()` builds, without database, task runners or sub-workflows. */
export function additionalData(options: {
	credentialsHelper: ICredentialsHelper;
	baseUrl: string;
	hooks?: ExecutionLifecycleHooks;
	executionId?: string;
	workflowId?: string;
}): IWorkflowExecuteAdditionalData {
	const base = options.baseUrl.replace(/\/?$/, '/');
	return {
		credentialsHelper: options.credentialsHelper,
		hooks: options.hooks,
		executionId: options.executionId,
		workflowId: options.workflowId,
		currentNodeExecutionIndex: 0,
		variables: {},
		externalSecretsProxy: new ExternalSecretsProxy(),
		instanceBaseUrl: base,
		restApiUrl: `${base}rest`,
		webhookBaseUrl: `${base}webhook`,
		webhookWaitingBaseUrl: `${base}webhook-waiting`,
		webhookTestBaseUrl: `${base}webhook-test`,
		formBaseUrl: `${base}form`,
		formWaitingBaseUrl: `${base}form-waiting`,
		formTestBaseUrl: `${base}form-test`,
		mcpBaseUrl: `${base}mcp`,
		mcpTestBaseUrl: `${base}mcp-test`,
		executeWorkflow: notAvailable('Executing a sub-workflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: notAvailable('Task runners (Code node)'),
		logAiEvent: () => {},
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
	} as IWorkflowExecuteAdditionalData;
}

/**
 * Binary data kept on disk under `storagePath`, as n8n does by default outside queue mode
 * (`N8N_DEFAULT_BINARY_DATA_MODE=filesystem`); without this, binary data stays in memory.
 * Call it before anything touches binary data in the process.
 */
export async function useFilesystemBinaryData(storagePath: string): Promise<void> {
	process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
	process.env.N8N_BINARY_DATA_STORAGE_PATH = storagePath;
	await Container.get(BinaryDataService).init();
}
