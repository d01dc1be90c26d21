/**
 * The credential "Test" button, run in-process the way the n8n app runs it: the app's
 * `CredentialsTester.testCredentials` (packages/cli/src/services/credentials-tester.service.ts
 * in n8n-io/n8n), fed by `POST /rest/credentials/test` with a saved credential.
 *
 * For a credential type with a `test` request (an `ICredentialTestRequest`), the app:
 * 1. applies the credential type's defaults and resolves `={{ }}` values (mode 'internal');
 * 2. builds a temporary node `Temp-Node` of the NoOp node type with `parameters: {}` and the
 *    credential, plus a copy of that node type whose only property `temp` (default '') has
 *    `routing.request = test.request`; building the `Workflow` fills `parameters.temp = ''`;
 * 3. runs `new RoutingNode(new ExecuteContext(...), nodeTypeCopy, credentialsDecrypted).runNode()`,
 *    which goes through `httpRequestWithAuthentication`: the credentials helper's
 *    `preAuthentication`, then `authenticate`, then the request;
 * 4. maps a thrown error: `error.cause.response` → `responseCode` rules, else any non-2xx →
 *    'Error' with the status text or `Received HTTP status code: N`; `error.cause.code` → that
 *    code; anything else → `error.message`;
 * 5. on success checks the `responseSuccessBody` rules (`get(body, key) === value` → 'Error'
 *    with the rule's message), else `{ status: 'OK', message: 'Connection successful!' }`.
 *
 * The temp node's `type` is the NoOp node type's `description.name` as the app's node registry
 * holds it. n8n's loader (n8n-core `DirectoryLoader.loadNodeFromFile`) keeps the name the class
 * declares, `noOp`, so the temp node is of type `noOp`, and the credentials helper's
 * `isTestingCredentials` check (`node.type === 'n8n-nodes-base.noOp'`) does not match: a test
 * logs in only when the expirable property is empty (or a thrown 401 asks for a refresh).
 * Older n8n loaders wrote `<package>.<name>` into `description.name`; `prefixedNodeTypeNames`
 * runs the test that way, and then every test logs in.
 *
 * Also mirrored: credential types tested by a node (`testedBy` as a request or as the name of
 * a `methods.credentialTest` function) and the OAuth2 access-token check.
 * Not mirrored: credential overwrites, external secrets (and the redaction of `$secrets` values
 * in function-test messages), sharing and permission checks, error reporting to Sentry.
 */
import { CredentialTestContext, ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunction,
	ICredentialTestRequestData,
	IDataObject,
	IExecuteData,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	ITaskDataConnections,
	IVersionedNodeType,
} from 'n8n-workflow';
import {
	createRunExecutionData,
	LoggerProxy,
	NodeConnectionTypes,
	NodeHelpers,
	UnexpectedError,
	Workflow,
} from 'n8n-workflow';

import { createAdditionalData } from './additional-data';
import type { TestEnvironment } from './environment';

/** What the app's credential test answers (`INodeCredentialTestResult`). */
export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

export interface TestCredentialOptions {
	/**
	 * Values in the credential form when "Test" is pressed (unsaved edits), merged over the
	 * stored data the way the app unredacts what the form left blank. The stored credential is
	 * not changed by this, but a login during the test persists its session to it, as in the app.
	 */
	data?: ICredentialDataDecryptedObject;
	/**
	 * Run the test as n8n versions whose node loader stored `<package>.<name>` in a node type's
	 * `description.name`: the temp node is then of type `n8n-nodes-base.noOp` and the credentials
	 * helper logs in on every test, even with a stored session. Default false (current n8n).
	 */
	prefixedNodeTypeNames?: boolean;
}

/** The NoOp node type of n8n-nodes-base, as its class declares it (and the app's registry keeps it). */
function noOpNodeType(prefixed: boolean): INodeType {
	return {
		description: {
			displayName: 'No Operation, do nothing',
			name: prefixed ? 'n8n-nodes-base.noOp' : 'noOp',
			group: ['organization'],
			version: 1,
			description: 'No Operation',
			defaults: { name: 'No Operation, do nothing' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute() {
			return [this.getInputData()];
		},
	};
}

/** The app's `mockNodeTypes`: knows only the temp node type of the running test. */
class SingleNodeTypes implements INodeTypes {
	constructor(private readonly nodeType: INodeType) {}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(nodeType);
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		if (nodeType !== this.nodeType.description.name) {
			throw new UnexpectedError('Unknown node type', { tags: { nodeType } });
		}
		return NodeHelpers.getVersionedNodeType(this.nodeType, version);
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

const OAUTH2_CREDENTIAL_TEST_SUCCEEDED = 'Connection Successful!';
const OAUTH2_CREDENTIAL_TEST_FAILED = 'This OAuth2 credential was not connected to an account.';

type TestFunctionOrRequest = ICredentialTestFunction | ICredentialTestRequestData | undefined;

/** The app's `getCredentialTestFunction`: the type's own `test`, else a supporting node's `testedBy`. */
function findCredentialTest(env: TestEnvironment, credentialType: string, prefixed: boolean): TestFunctionOrRequest {
	const type = env.credentialTypes.getByName(credentialType);
	if (type.test) return { testRequest: type.test };

	for (const nodeName of env.credentialTypes.getSupportedNodes(credentialType)) {
		const node = env.nodeTypes.getByName(nodeName);
		const versions: INodeType[] =
			'nodeVersions' in node ? Object.values(node.nodeVersions) : [node];
		for (const nodeType of versions) {
			for (const { name, testedBy } of nodeType.description.credentials ?? []) {
				if (
					name === credentialType &&
					(name === 'oAuth2Api' || env.credentialTypes.getParentTypes(name).includes('oAuth2Api'))
				) {
					return async function oauth2CredTest(this: unknown, cred: ICredentialsDecrypted) {
						const token = cred?.data?.oauthTokenData;
						const connected = typeof token === 'object' && token !== null && 'access_token' in token;
						return connected
							? { status: 'OK', message: OAUTH2_CREDENTIAL_TEST_SUCCEEDED }
							: { status: 'Error', message: OAUTH2_CREDENTIAL_TEST_FAILED };
					} as unknown as ICredentialTestFunction;
				}
				if (name !== credentialType || !testedBy) continue;
				if (typeof testedBy === 'string') {
					if ('nodeVersions' in node) {
						const latestFirst = Object.keys(node.nodeVersions).sort().reverse();
						for (const version of latestFirst) {
							const credentialTest = node.nodeVersions[parseInt(version, 10)].methods?.credentialTest;
							if (credentialTest && testedBy in credentialTest) return credentialTest[testedBy];
						}
					}
					return (node as INodeType).methods?.credentialTest?.[testedBy];
				}
				return { nodeType: withLoaderName(env, nodeType, prefixed), testRequest: testedBy };
			}
		}
	}
	return undefined;
}

/** A node type as the app's registry hands it out: its declared name, or `<package>.<name>`. */
function withLoaderName(env: TestEnvironment, nodeType: INodeType, prefixed: boolean): INodeType {
	const { name } = nodeType.description;
	if (!prefixed || name.includes('.')) return nodeType;
	return { ...nodeType, description: { ...nodeType.description, name: `${env.packageName}.${name}` } };
}

/**
 * Presses "Test" on a saved credential of the environment: see the file comment for what runs.
 * Never throws for a failing test: like the app, it answers `{ status: 'Error', message }`.
 */
export async function testCredential(
	env: TestEnvironment,
	credentialId: string,
	options: TestCredentialOptions = {},
): Promise<CredentialTestResult> {
	const stored = env.store.get(credentialId);
	if (!stored) {
		// The app answers 403 Forbidden: there is nothing to test.
		throw new Error(`No credential "${credentialId}" in the test environment`);
	}
	const prefixed = options.prefixedNodeTypeNames === true;
	const credentialType = stored.type;

	env.logger.install();
	LoggerProxy.init(env.logger);

	const credentialTest = findCredentialTest(env, credentialType, prefixed);
	if (credentialTest === undefined) {
		return { status: 'Error', message: 'No testing function found for this credential.' };
	}

	const credentialsDecrypted: ICredentialsDecrypted = {
		id: credentialId,
		name: stored.name,
		type: credentialType,
		data: { ...stored.data, ...options.data },
	};

	const baseAdditionalData = () =>
		createAdditionalData({
			credentialsHelper: env.credentialsHelper,
			instanceBaseUrl: env.instanceBaseUrl,
			variables: env.variables,
		});

	try {
		credentialsDecrypted.data = await env.credentialsHelper.applyDefaultsAndOverwrites(
			baseAdditionalData(),
			credentialsDecrypted.data!,
			credentialType,
			'internal',
		);
	} catch (error) {
		env.logger.debug('Credential test failed', { error });
		return { status: 'Error', message: String((error as Error).message) };
	}

	if (typeof credentialTest === 'function') {
		const result = await (credentialTest as ICredentialTestFunction).call(
			new CredentialTestContext(),
			credentialsDecrypted,
		);
		return toResult(result);
	}

	const nodeType = credentialTest.nodeType ?? noOpNodeType(prefixed);
	const { version } = nodeType.description;
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: nodeType.description.name,
		typeVersion: Array.isArray(version) ? version.slice(-1)[0] : version,
		position: [0, 0],
		credentials: { [credentialType]: { id: credentialId, name: stored.name } },
	};
	const nodeTypeCopy: INodeType = {
		description: {
			...nodeType.description,
			credentials: [{ name: credentialType, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: credentialTest.testRequest.request },
					default: '',
				},
			],
		},
	};

	// Building the workflow applies the copy's defaults: node.parameters becomes { temp: '' }.
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new SingleNodeTypes(nodeTypeCopy),
	});

	const additionalData = baseAdditionalData();
	additionalData.currentNodeParameters = node.parameters;
	const inputData: ITaskDataConnections = { main: [[{ json: {} }]] };
	const executeData: IExecuteData = { node, data: {}, source: null };
	const executeFunctions = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData({ resultData: { runData: {} } }),
		0,
		[],
		inputData,
		executeData,
		[],
	);
	const routingNode = new RoutingNode(executeFunctions, nodeTypeCopy, credentialsDecrypted);

	let response: INodeExecutionData[][] | null | undefined;
	const { rules } = credentialTest.testRequest;
	try {
		response = await routingNode.runNode();
	} catch (caught) {
		const error = caught as Error & {
			cause?: { response?: { status: number; statusText?: string }; code?: string };
		};
		if (error.cause?.response) {
			const statusCode = error.cause.response.status;
			const statusMessage = error.cause.response.statusText;
			for (const rule of rules ?? []) {
				if (rule.type === 'responseCode' && statusCode === rule.properties.value) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (statusCode < 199 || statusCode > 299) {
				return {
					status: 'Error',
					message: statusMessage || `Received HTTP status code: ${statusCode}`,
				};
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		env.logger.debug('Credential test failed', { error });
		return { status: 'Error', message: String(error.message) };
	}

	if (Array.isArray(rules)) {
		for (const rule of rules) {
			if (rule.type !== 'responseSuccessBody') continue;
			const responseData = response![0][0].json;
			if (getPath(responseData, rule.properties.key) === rule.properties.value) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

function toResult(result: INodeCredentialTestResult): CredentialTestResult {
	return { status: result.status, message: result.message };
}

/** lodash `get` for the dotted / bracketed keys test rules use. */
function getPath(object: unknown, path: string): unknown {
	const keys = path.replace(/\[(\w+)\]/g, '.$1').split('.').filter((key) => key !== '');
	let value: unknown = object;
	for (const key of keys) {
		if (value === null || value === undefined) return undefined;
		value = (value as Record<string, unknown>)[key];
	}
	return value;
}
