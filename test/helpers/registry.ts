/**
 * In-memory registries of node types and credential types, standing in for what the n8n app
 * builds from installed packages (its `NodeTypes` / `CredentialTypes` services).
 *
 * n8n keys community node types as `<package name>.<description.name>` (the name workflows
 * store in `node.type`); this registry accepts both that full name and the bare description name.
 */
import type {
	ICredentialType,
	ICredentialTypes,
	IDataObject,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';

/** The npm name of this package: the prefix n8n gives to our node types. */
export const PACKAGE_NAME = 'n8n-nodes-seller-platform';

export class TestNodeTypes implements INodeTypes {
	private readonly byName = new Map<string, INodeType | IVersionedNodeType>();

	constructor(
		nodeTypes: Array<INodeType | IVersionedNodeType> = [],
		private readonly packageName = PACKAGE_NAME,
	) {
		for (const nodeType of nodeTypes) this.add(nodeType);
	}

	/** Registers a node type under `description.name` and `<packageName>.<description.name>`. */
	add(nodeType: INodeType | IVersionedNodeType): void {
		const { name } = nodeType.description;
		this.byName.set(name, nodeType);
		if (!name.includes('.')) this.byName.set(`${this.packageName}.${name}`, nodeType);
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const found = this.byName.get(nodeType);
		if (!found) {
			throw new UnexpectedError(`Unknown node type "${nodeType}" (not registered in the test environment)`);
		}
		return found;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return Object.fromEntries([...this.byName.keys()].map((name) => [name, {}]));
	}
}

export class TestCredentialTypes implements ICredentialTypes {
	private readonly byName = new Map<string, ICredentialType>();

	constructor(
		credentialTypes: ICredentialType[] = [],
		private readonly nodeTypes?: TestNodeTypes,
	) {
		for (const credentialType of credentialTypes) this.add(credentialType);
	}

	add(credentialType: ICredentialType): void {
		this.byName.set(credentialType.name, credentialType);
	}

	recognizes(credentialType: string): boolean {
		return this.byName.has(credentialType);
	}

	getByName(credentialType: string): ICredentialType {
		const found = this.byName.get(credentialType);
		if (!found) {
			throw new UnexpectedError(
				`Unknown credential type "${credentialType}" (not registered in the test environment)`,
			);
		}
		return found;
	}

	/** Node types (full names) whose description lists this credential type. */
	getSupportedNodes(type: string): string[] {
		if (!this.nodeTypes) return [];
		const known = Object.keys(this.nodeTypes.getKnownTypes());
		return known.filter((name) => {
			const nodeType = this.nodeTypes!.getByNameAndVersion(name);
			return nodeType.description.credentials?.some((c) => c.name === type) ?? false;
		});
	}

	/** All ancestors through `extends`, nearest first (as n8n's CredentialTypes does). */
	getParentTypes(typeName: string): string[] {
		const extendsArr = this.byName.get(typeName)?.extends ?? [];
		return [...extendsArr, ...extendsArr.flatMap((parent) => this.getParentTypes(parent))];
	}
}
