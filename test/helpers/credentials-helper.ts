/**
 * A credentials helper for in-process workflow runs that follows the rules of the n8n app's
 * `CredentialsHelper` (packages/cli/src/credentials-helper.ts in n8n-io/n8n), minus the
 * database, encryption, overwrites, external secrets and dynamic credentials:
 *
 * - credentials live in a {@link CredentialStore} shared by every execution of an environment
 *   (n8n's `credentials_entity` table); values go through JSON on the way in and out, as they
 *   would through the database;
 * - `getDecrypted` returns the stored data with the credential type's property defaults
 *   applied, and `={{ }}` values resolved when the engine passes expression context;
 * - `preAuthentication` calls the credential type's `preAuthentication` when its hidden
 *   `typeOptions.expirable` property is empty or the engine says the credentials expired
 *   (after a 401), keeps the result only if it carries the expirable key, and persists it;
 * - `authenticate` applies the credential type's `authenticate`, generic or function form.
 */
import { getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsEncrypted,
	ICredentialsExpressionResolveValues,
	ICredentialType,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRequestOptionsSimplified,
	IWorkflowDataProxyAdditionalKeys,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	getCredentialOwnRequestAllowedDomains,
	ICredentials,
	ICredentialsHelper,
	isExpression,
	NodeHelpers,
	UnexpectedError,
	UserError,
	Workflow,
} from 'n8n-workflow';

import type { TestCredentialTypes } from './registry';

/** One stored credential, as n8n's database row holds it (but unencrypted). */
export interface StoredCredential {
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

/** Why the helper ran a credential type's `preAuthentication`. */
export type LoginReason = 'empty' | 'expired' | 'test';

export interface LoginRecord {
	credentialId: string;
	type: string;
	reason: LoginReason;
	/** True when it returned the expirable property (the result was kept and persisted). */
	succeeded: boolean;
	/** Set when `preAuthentication` threw. */
	error?: Error;
}

/** JSON round trip: what survives n8n's database. */
const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Stands in for n8n's credentials table: `{ [id]: { name, type, data } }`. */
export class CredentialStore {
	private readonly rows = new Map<string, { name: string; type: string; json: string }>();

	set(id: string, credential: StoredCredential): void {
		this.rows.set(id, {
			name: credential.name,
			type: credential.type,
			json: JSON.stringify(credential.data),
		});
	}

	/** A fresh copy of the stored credential, or undefined. */
	get(id: string): StoredCredential | undefined {
		const row = this.rows.get(id);
		if (!row) return undefined;
		return { name: row.name, type: row.type, data: JSON.parse(row.json) as ICredentialDataDecryptedObject };
	}

	has(id: string): boolean {
		return this.rows.has(id);
	}

	/** Replaces the data of an existing credential. */
	updateData(id: string, data: ICredentialDataDecryptedObject): void {
		const row = this.rows.get(id);
		if (!row) throw new UnexpectedError(`Credential "${id}" is not in the store`);
		row.json = JSON.stringify(data);
	}
}

/** `ICredentials` over the store (n8n's `Credentials` class without the cipher). */
export class StoredCredentials extends ICredentials {
	constructor(store: CredentialStore, nodeCredentials: INodeCredentialsDetails, type: string) {
		super(nodeCredentials, type);
		this.data = JSON.stringify(store.get(nodeCredentials.id ?? '')?.data ?? {});
	}

	async getData(): Promise<ICredentialDataDecryptedObject> {
		return JSON.parse(this.data ?? '{}') as ICredentialDataDecryptedObject;
	}

	getDataToSave(): ICredentialsEncrypted {
		return { id: this.id, name: this.name, type: this.type, data: this.data };
	}

	async setData(data: ICredentialDataDecryptedObject): Promise<void> {
		this.data = JSON.stringify(data);
	}

	async updateData(
		toUpdate: Partial<ICredentialDataDecryptedObject>,
		toDelete: string[] = [],
	): Promise<void> {
		const data = { ...(await this.getData()), ...toUpdate } as ICredentialDataDecryptedObject;
		for (const key of toDelete) delete data[key];
		await this.setData(data);
	}
}

/** The app's mock node and node types for resolving credential expressions outside a workflow. */
const MOCK_NODE = {
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
} as unknown as INode;

const MOCK_NODE_TYPES: INodeTypes = {
	getKnownTypes: () => ({}),
	getByName: (nodeType: string) => MOCK_NODE_TYPES.getByNameAndVersion(nodeType),
	getByNameAndVersion: (nodeType: string) => {
		if (nodeType !== 'mock') throw new UnexpectedError('Unknown node type', { tags: { nodeType } });
		return { description: { properties: [] as INodeProperties[] } } as unknown as INodeType;
	},
};

/**
 * The node type n8n's `preAuthentication` compares the credential test's temp node with. The
 * app builds that node with the NoOp type's `description.name`, which current loaders leave
 * as `noOp`, so this check only matches on n8n versions whose loader prefixed names (see
 * credential-test.ts, `prefixedNodeTypeNames`). Kept exactly as the app has it.
 */
const CREDENTIAL_TEST_NODE_TYPE = 'n8n-nodes-base.noOp';

export class TestCredentialsHelper extends ICredentialsHelper {
	/** Every run of a credential type's `preAuthentication`, in order. */
	readonly logins: LoginRecord[] = [];

	constructor(
		private readonly credentialTypes: TestCredentialTypes,
		readonly store: CredentialStore,
	) {
		super();
	}

	/** Runs of `preAuthentication` that returned the expirable property. */
	get loginCount(): number {
		return this.logins.filter((login) => login.succeeded).length;
	}

	getParentTypes(name: string): string[] {
		return this.credentialTypes.getParentTypes(name);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		if (!this.credentialTypes.recognizes(credentialType)) return true;
		const typeDef = this.credentialTypes.getByName(credentialType);
		if (!typeDef.restrictToSupportedNodes) return true;
		return this.credentialTypes.getSupportedNodes(credentialType).includes(nodeType);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions as IHttpRequestOptions;
		const { authenticate } = this.credentialTypes.getByName(typeName);
		if (authenticate === undefined) return requestOptions;

		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions);
		}

		if (!workflow || !node) {
			throw new UnexpectedError('Workflow and node are required for declarative credential authentication');
		}
		requestOptions.headers ??= {};
		if (authenticate.type !== 'generic') return requestOptions;

		const additionalKeys = { $credentials: credentials } as IWorkflowDataProxyAdditionalKeys;
		const target = requestOptions as unknown as Record<string, Record<string, unknown> | undefined>;
		for (const [section, entries] of Object.entries(authenticate.properties)) {
			for (const [key, value] of Object.entries(entries as Record<string, unknown>)) {
				const resolvedKey = this.resolveValue(key, additionalKeys, workflow, node);
				const resolvedValue = this.resolveValue(value as string, additionalKeys, workflow, node);
				const sectionObject = (target[section] ??= {});
				sectionObject[resolvedKey] = resolvedValue;
			}
		}
		return requestOptions;
	}

	/** Like n8n: non-expressions pass through, expressions resolve to a string ('' when empty). */
	private resolveValue(
		value: string,
		additionalKeys: IWorkflowDataProxyAdditionalKeys,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(value)) return value;
		const resolved = workflow.expression.getSimpleParameterValue(
			node,
			value,
			'internal',
			additionalKeys,
			undefined,
			'',
		);
		return resolved ? resolved.toString() : '';
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirable = findExpirableProperty(credentialType);
		if (expirable === undefined || typeof credentialType.preAuthentication !== 'function') {
			return undefined;
		}

		const isTestingCredentials =
			node?.parameters?.temp === '' && node?.type === CREDENTIAL_TEST_NODE_TYPE;
		// Same condition as n8n: empty expirable property, expired credentials, or a credential test.
		let reason: LoginReason;
		if (credentialsExpired) reason = 'expired';
		else if (credentials[expirable] === '') reason = 'empty';
		else if (isTestingCredentials) reason = 'test';
		else return undefined;

		const nodeCredentials = node.credentials?.[credentialType.name];
		const record: LoginRecord = {
			credentialId: nodeCredentials?.id ?? '',
			type: typeName,
			reason,
			succeeded: false,
		};
		this.logins.push(record);

		let output: ICredentialDataDecryptedObject;
		try {
			output = (await credentialType.preAuthentication.call(
				restrictToCredentialDomains(helpers, credentials),
				credentials,
			)) as ICredentialDataDecryptedObject;
		} catch (error) {
			record.error = error as Error;
			throw error;
		}

		// Without the expirable key the result is thrown away (n8n would not update its database).
		if (output?.[expirable] === undefined) return undefined;
		record.succeeded = true;

		if (!nodeCredentials) return undefined;

		// Persist onto the raw stored data; never overwrite a field the user stored as an
		// expression with this run's resolved value (the expirable key always wins).
		const stored = await (await this.getCredentials(nodeCredentials, credentialType.name)).getData();
		const toPersist: ICredentialDataDecryptedObject = { ...stored };
		for (const [key, value] of Object.entries(output)) {
			if (key === expirable || !isExpression(stored[key])) toPersist[key] = value;
		}
		await this.updateCredentials(nodeCredentials, credentialType.name, toPersist);
		return Object.assign(credentials, output);
	}

	/** In-memory `preAuthentication` without the expirable guard or persistence (used by OAuth2). */
	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		if (typeof credentialType.preAuthentication !== 'function') return undefined;
		const output = await credentialType.preAuthentication.call(
			restrictToCredentialDomains(helpers, credentials),
			credentials,
		);
		return (output as ICredentialDataDecryptedObject) ?? undefined;
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		this.getStored(nodeCredentials, type);
		return new StoredCredentials(this.store, nodeCredentials, type);
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = this.getStored(nodeCredentials, type);
		if (raw === true) return stored.data;
		return await this.applyDefaultsAndOverwrites(
			additionalData,
			stored.data,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	/**
	 * The type's property defaults, then `={{ }}` values resolved: in the running workflow when
	 * the engine passes its context, else against an empty mock workflow (the credential test,
	 * which calls this with mode 'internal'). n8n's overwrites and external secrets are not modelled.
	 */
	async applyDefaultsAndOverwrites(
		additionalData: IWorkflowExecuteAdditionalData,
		dataOriginal: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const properties = this.getCredentialsProperties(type);
		let data = NodeHelpers.getNodeParameters(
			properties,
			dataOriginal as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		// Kept although no property declares them, as in n8n.
		for (const key of ['oauthTokenData', 'allowedHttpRequestDomains', 'allowedDomains']) {
			if (data[key] === undefined && dataOriginal[key] !== undefined) data[key] = dataOriginal[key];
		}

		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
		if (expressionResolveValues) {
			const { workflow, runExecutionData, runIndex, itemIndex, node, connectionInputData } =
				expressionResolveValues;
			try {
				data = workflow.expression.getParameterValue(
					data as INodeParameters,
					runExecutionData,
					runIndex,
					itemIndex,
					node.name,
					connectionInputData,
					mode,
					additionalKeys,
					executeData,
					false,
					data,
				) as ICredentialDataDecryptedObject;
			} catch (error) {
				(error as Error).message += ' [Error resolving credentials]';
				throw error;
			}
			return data;
		}

		const workflow = new Workflow({
			nodes: [MOCK_NODE],
			connections: {},
			active: false,
			nodeTypes: MOCK_NODE_TYPES,
		});
		try {
			return workflow.expression.getComplexParameterValue(
				MOCK_NODE,
				data as INodeParameters,
				mode,
				additionalKeys,
				undefined,
				undefined,
				data,
			) as ICredentialDataDecryptedObject;
		} catch (originalError) {
			// Like n8n: resolve field by field, dropping only fields that opt out of the error.
			const resolved: ICredentialDataDecryptedObject = {};
			for (const [name, value] of Object.entries(data)) {
				try {
					const one = workflow.expression.getComplexParameterValue(
						MOCK_NODE,
						{ [name]: value } as INodeParameters,
						mode,
						additionalKeys,
						undefined,
						undefined,
						data,
					) as ICredentialDataDecryptedObject;
					if (Object.prototype.hasOwnProperty.call(one, name)) resolved[name] = one[name];
				} catch {
					const property = properties.find((p) => p.name === name);
					if (property?.typeOptions?.ignoreCredentialExpressionResolveError === true) continue;
					throw originalError;
				}
			}
			return resolved;
		}
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.getStored(nodeCredentials, type);
		this.store.updateData(nodeCredentials.id!, viaJson(data));
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const stored = this.getStored(nodeCredentials, type);
		this.store.updateData(nodeCredentials.id!, { ...stored.data, oauthTokenData: viaJson(data.oauthTokenData) });
	}

	/** The type's properties, merged with those of the types it extends (parents first). */
	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.credentialTypes.getByName(type);
		if (credentialType.extends === undefined) return credentialType.properties;
		const combined: INodeProperties[] = [];
		for (const parent of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}

	/** Looks a credential up by id and type, with n8n's errors for a missing id or row. */
	private getStored(nodeCredentials: INodeCredentialsDetails, type: string): StoredCredential {
		if (!nodeCredentials.id) {
			throw new UserError(`Credential "${nodeCredentials.name}" of type "${type}" has no id`);
		}
		const stored = this.store.get(nodeCredentials.id);
		if (!stored || stored.type !== type) {
			throw new UserError(`Credential with ID "${nodeCredentials.id}" does not exist for type "${type}".`);
		}
		return stored;
	}
}

/** The name of the credential type's hidden property marked `typeOptions.expirable: true`. */
export function findExpirableProperty(credentialType: ICredentialType): string | undefined {
	return credentialType.properties.find(
		(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
	)?.name;
}

/**
 * `preAuthentication` only gets `helpers.httpRequest`, limited to the credential's own
 * allowed domains when it has them (as in the n8n app).
 */
function restrictToCredentialDomains(
	helpers: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): IHttpRequestHelper {
	return {
		helpers: {
			httpRequest: async (requestOptions: IHttpRequestOptions) => {
				const allowedDomains = getCredentialOwnRequestAllowedDomains(credentials);
				if (allowedDomains === undefined) return await helpers.helpers.httpRequest(requestOptions);
				if (requestOptions.allowedDomains !== undefined) {
					throw new UserError(
						'preAuthentication may not set allowedDomains on a credential that limits its own domains',
					);
				}
				return await helpers.helpers.httpRequest({ ...requestOptions, allowedDomains });
			},
		},
	} as IHttpRequestHelper;
}
