/**
 * A node's list search (`methods.listSearch`) called as the editor has n8n call it: n8n's
 * `DynamicNodeParametersService.getResourceLocatorResults` builds a workflow of one node named
 * "Temp-Node" with the node's current parameters and credentials, and calls the method on n8n-core's
 * `LoadOptionsContext` (additional data without an execution, `currentNodeParameters` set), with
 * the search text and the pagination token. The credential's login runs as in any request
 * (n8n's credentials helper, environment.ts).
 */
import { LoadOptionsContext } from 'n8n-core';
import {
	Workflow,
	type INodeListSearchResult,
	type INodeParameters,
	type INodeType,
} from 'n8n-workflow';

import type { TestEnvironment } from './environment';
import { additionalData } from './n8n';

export interface ListSearchCall {
	/** Default `sellerPlatform`. */
	nodeType?: string;
	method: string;
	/** Credential ids by credential type, e.g. `{ sellerPlatformApi: 'cred-1' }`. */
	credentials: Record<string, string>;
	/** The node's current parameters (what the editor sends). */
	parameters?: INodeParameters;
	/** The parameter's path, e.g. `parameters.warehouseCode`. */
	path?: string;
	filter?: string;
	paginationToken?: string;
}

/** Calls a list-search method as the editor's request to n8n does. */
export async function listSearch(
	env: TestEnvironment,
	call: ListSearchCall,
): Promise<INodeListSearchResult> {
	const nodeTypes = await env.ready();
	const type = call.nodeType ?? 'sellerPlatform';
	const nodeType = nodeTypes.getByNameAndVersion(type, 1) as INodeType;
	const method = nodeType.methods?.listSearch?.[call.method];
	if (!method) throw new Error(`Node ${type} has no list search "${call.method}"`);
	const parameters = call.parameters ?? {};
	const workflow = new Workflow({
		nodes: [
			{
				id: 'temp-node',
				name: 'Temp-Node',
				type,
				typeVersion: 1,
				position: [0, 0],
				parameters,
				credentials: Object.fromEntries(
					Object.entries(call.credentials).map(([kind, id]) => [kind, { id, name: id }]),
				),
			},
		],
		connections: {},
		active: false,
		nodeTypes,
	});
	const data = additionalData({ credentialsHelper: env.credentialsHelper, baseUrl: env.baseUrl });
	data.currentNodeParameters = parameters;
	const node = workflow.getNode('Temp-Node')!;
	const context = new LoadOptionsContext(
		workflow,
		node,
		data,
		call.path ?? 'parameters.warehouseCode',
	);
	return await method.call(context, call.filter, call.paginationToken);
}
