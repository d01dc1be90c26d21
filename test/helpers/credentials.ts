/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Credentials as the n8n app handles them: a store (its database), a credentials helper that
 * follows the app's rules, and the credential's "Test" button.
 *
 * The rules (packages/cli credentials-helper.ts): `preAuthentication` runs when the expirable
 * property is empty, after a 401, or for the credential test's temporary node; its result is
 * kept only if it holds the expirable property, then saved for later executions. `authenticate`
 * is a function, or generic with `={{$credentials.x}}` values.
 */
import { ExecuteContext, RoutingNode } from 'n8n-core';
import { additionalData } from './n8n';
import {
	createRunExecutionData,
	ICredentials,
	ICredentialsHelper,
	NodeConnectionTypes,
	NodeHelpers,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentialsExpressionResolveValues,
	type ICredentialType,
	type IHttpRequestHelper,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeParameters,
	type INodeProperties,
	type INodeType,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

export interface StoredCredential {
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

/** One run of `preAuthentication`: why, and how it ended. */
export interface LoginRecord {
	credentialId: string;
	reason: 'empty' | 'expired' | 'test';
	succeeded: boolean;
	error?: Error;
}

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * The credential test's temporary node: n8n's CredentialsTester names its type `noOp`, while the
 * credentials helper's "is testing" check looks for `n8n-nodes-base.noOp`, so a test logs in only
 * when the stored session is empty (as in n8n 2.40).
 */
const TEST_NODE_TYPE = 'noOp';
const TESTING_NODE_TYPE = 'n8n-nodes-base.noOp';

class Stored extends ICredentials {
	constructor(
		private readonly stored: StoredCredential,
		details: INodeCredentialsDetails,
		type: string,
	) {
		super(details, type);
	}
	async getData(): Promise<ICredentialDataDecryptedObject> {
		return copy(this.stored.data);
	}
	getDataToSave() {
		return { id: this.id, name: this.name, type: this.type, data: '' };
	}
	async setData(data: ICredentialDataDecryptedObject): Promise<void> {
		this.stored.data = copy(data);
	}
	async updateData(data: Partial<ICredentialDataDecryptedObject>): Promise<void> {
		this.stored.data = { ...this.stored.data, ...(copy(data) as ICredentialDataDecryptedObject) };
	}
}

export class CredentialsHelper extends ICredentialsHelper {
	readonly store = new Map<string, StoredCredential>();
	readonly logins: LoginRecord[] = [];

	constructor(private readonly typeOf: (name: string) => ICredentialType) {
		super();
	}

	getParentTypes = (name: string): string[] =>
		(this.typeOf(name).extends ?? []).flatMap((parent) => [parent, ...this.getParentTypes(parent)]);

	private stored(details: INodeCredentialsDetails, type: string): StoredCredential {
		const stored = details.id ? this.store.get(details.id) : undefined;
		if (!stored || stored.type !== type) {
			throw new Error(`Credential with ID "${details.id}" does not exist for type "${type}".`);
		}
		return stored;
	}

	async getCredentials(details: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		return new Stored(this.stored(details, type), details, type);
	}

	isCredentialUsableByNode = () => true;

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	getCredentialsProperties = (type: string): INodeProperties[] => this.typeOf(type).properties;

	/** The stored data with the type's defaults, `={{ }}` values resolved in the running workflow. */
	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		details: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		_executeData?: unknown,
		raw?: boolean,
		resolve?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = copy(this.stored(details, type).data);
		if (raw) return stored;
		const data = this.withDefaults(type, stored);
		if (!resolve) return data;
		const { workflow, runExecutionData, runIndex, itemIndex, node, connectionInputData } = resolve;
		return workflow.expression.getParameterValue(
			data as INodeParameters,
			runExecutionData,
			runIndex,
			itemIndex,
			node.name,
			connectionInputData,
			mode,
			{},
		) as ICredentialDataDecryptedObject;
	}

	withDefaults(type: string, data: ICredentialDataDecryptedObject): ICredentialDataDecryptedObject {
		const properties = this.getCredentialsProperties(type);
		const params = data as INodeParameters;
		return NodeHelpers.getNodeParameters(
			properties,
			params,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(
		details: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	) {
		this.stored(details, type).data = copy(data);
	}

	async updateCredentialsOauthTokenData(): Promise<void> {
		throw new Error('OAuth2 is not used by this package');
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.typeOf(typeName);
		if (!authenticate) return requestOptions;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
		for (const [section, entries] of Object.entries(authenticate.properties)) {
			for (const [key, value] of Object.entries(entries as Record<string, string>)) {
				(target[section] ??= {})[key] = String(
					workflow.expression.getSimpleParameterValue(node, value, 'internal', {
						$credentials: credentials,
					} as never) ?? '',
				);
			}
		}
		return requestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		expired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.typeOf(typeName);
		const expirable = type.properties.find(
			(p) => p.type === 'hidden' && p.typeOptions?.expirable,
		)?.name;
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		const testing = node?.parameters?.temp === '' && node?.type === TESTING_NODE_TYPE;
		const reason = expired
			? 'expired'
			: credentials[expirable] === ''
				? 'empty'
				: testing
					? 'test'
					: undefined;
		if (!reason) return undefined;
		const details = node.credentials?.[typeName];
		const record: LoginRecord = { credentialId: details?.id ?? '', reason, succeeded: false };
		this.logins.push(record);
		let output: ICredentialDataDecryptedObject;
		try {
			output = (await type.preAuthentication.call(
				helpers,
				credentials,
			)) as ICredentialDataDecryptedObject;
		} catch (error) {
			record.error = error as Error;
			throw error;
		}
		if (output?.[expirable] === undefined) return undefined;
		record.succeeded = true;
		if (!details?.id) return undefined;
		const stored = this.stored(details, typeName);
		stored.data = { ...stored.data, ...copy(output) };
		return Object.assign(credentials, output);
	}
}

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/**
 * Presses "Test" in the credential's form as the app's CredentialsTester does for a credential
 * with `test.request`: a temporary node routes the request through `RoutingNode` (so
 * `preAuthentication`, then `authenticate`), then the `responseCode` rules or the HTTP status.
 */
export async function testCredential(
	helper: CredentialsHelper,
	baseUrl: string,
	typeOf: (name: string) => ICredentialType,
	id: string,
	formData: ICredentialDataDecryptedObject = {},
): Promise<CredentialTestResult> {
	const stored = helper.store.get(id);
	if (!stored) throw new Error(`No credential "${id}"`);
	const type = typeOf(stored.type);
	if (!type.test)
		return { status: 'Error', message: 'No testing function found for this credential.' };
	const credentials = {
		id,
		name: stored.name,
		type: stored.type,
		data: helper.withDefaults(stored.type, { ...stored.data, ...formData }),
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: TEST_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [stored.type]: { id, name: stored.name } },
	};
	const nodeType: INodeType = {
		description: {
			displayName: 'Temp',
			name: TEST_NODE_TYPE,
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: stored.type, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					default: '',
					routing: { request: type.test.request },
				},
			],
		},
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: {
			getByName: () => nodeType,
			getByNameAndVersion: () => nodeType,
			getKnownTypes: () => ({}),
		},
	});
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData({ credentialsHelper: helper, baseUrl }),
		'internal',
		createRunExecutionData({ resultData: { runData: {} } }),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	try {
		await new RoutingNode(context, nodeType, credentials).runNode();
	} catch (caught) {
		const error = caught as Error & {
			cause?: { response?: { status: number; statusText?: string }; code?: string };
		};
		const status = error.cause?.response?.status;
		if (status !== undefined) {
			const rule = type.test.rules?.find(
				(r) => r.type === 'responseCode' && r.properties.value === status,
			);
			if (rule && 'message' in rule.properties)
				return { status: 'Error', message: String(rule.properties.message) };
			if (status < 200 || status > 299) {
				const text = error.cause?.response?.statusText;
				return { status: 'Error', message: text || `Received HTTP status code: ${status}` };
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: error.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}
