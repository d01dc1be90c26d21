/**
 * The `IWorkflowExecuteAdditionalData` an execution runs with: what the n8n app's `getBase()`
 * (packages/cli/src/workflow-execute-additional-data.ts) builds, without database, task
 * runners, sub-workflows or AI agents. The parts a node can reach through its context
 * (credentials, URLs, variables, hooks) are real; the rest fails loudly if a node asks for it.
 */
import type { ExecutionLifecycleHooks } from 'n8n-core';
import { ExternalSecretsProxy } from 'n8n-core';
import type {
	IDataObject,
	ICredentialsHelper,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
} from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

export interface AdditionalDataOptions {
	credentialsHelper: ICredentialsHelper;
	/** Absent outside an execution (a credential test, like the app's `getBase()` there). */
	hooks?: ExecutionLifecycleHooks;
	executionId?: string;
	workflowId?: string;
	workflowSettings?: IWorkflowSettings;
	/** Base URL of the simulated n8n instance, with a trailing slash. */
	instanceBaseUrl: string;
	/** `$vars` */
	variables?: IDataObject;
	/** Absolute time (ms) after which WorkflowExecute cancels the run. */
	executionTimeoutTimestamp?: number;
}

const notAvailable = (what: string) => async (): Promise<never> => {
	throw new UnexpectedError(`${what} is not available in the test environment`);
};

export function createAdditionalData(options: AdditionalDataOptions): IWorkflowExecuteAdditionalData {
	const base = options.instanceBaseUrl.replace(/\/?$/, '/');
	return {
		credentialsHelper: options.credentialsHelper,
		hooks: options.hooks,
		executionId: options.executionId,
		workflowId: options.workflowId,
		workflowSettings: options.workflowSettings,
		executionTimeoutTimestamp: options.executionTimeoutTimestamp,
		currentNodeExecutionIndex: 0,
		currentNodeParameters: undefined,
		variables: options.variables ?? {},
		externalSecretsProxy: new ExternalSecretsProxy(),

		// Same endpoint layout as a default n8n instance (N8N_ENDPOINT_* defaults).
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
	};
}
