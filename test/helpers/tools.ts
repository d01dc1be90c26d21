/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The package's nodes as AI tools, as n8n offers them to the AI Agent and the MCP Server Trigger:
 *
 * - `toolVariant(type)`: the `<name>Tool` node type that n8n's application makes of every node with
 *   `usableAsTool` (2.41's `tool-generation/ai-tools.ts`, `createAiTools` and
 *   `convertNodeToAiTool`, read, not copied: no inputs, one `ai_tool` output, " Tool" in its name,
 *   `usableAsTool.replacements` applied, and n8n's own Tool Description pair unless the node
 *   declares `toolDescription`); `NodeTypes` (n8n.ts) answers it for `sellerPlatformTool`.
 * - `TestToolCaller`: a node with an `ai_tool` input, as the AI Agent and the MCP Server Trigger
 *   have one. It takes its tools from n8n-core's `getInputConnectionData` (which builds each with
 *   `createNodeAsTool`: the name, the description and the `$fromAI()` schema the model gets), and
 *   calls each with the arguments of its `calls` parameter through the tool's `invoke`, as the MCP
 *   Server Trigger does (`tool.invoke(arguments)`); a failed call outputs the error's message, which
 *   is what the MCP client gets (`<name>: <message>`) and what the agent gives the model.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { deepCopy, jsonParse, NodeConnectionTypes } from 'n8n-workflow';

/** n8n's tool variant of a node that is `usableAsTool`. */
export function toolVariant(type: INodeType): INodeType {
	const base = type.description;
	const replacements = typeof base.usableAsTool === 'object' ? base.usableAsTool.replacements : {};
	const description = { ...deepCopy(base), ...replacements } as INodeTypeDescription;
	description.name += 'Tool';
	description.displayName += ' Tool';
	description.inputs = [];
	description.outputs = [NodeConnectionTypes.AiTool];
	delete description.usableAsTool;
	if (!description.properties.some((property) => property.name === 'toolDescription')) {
		description.properties = [...n8nToolDescription(base.description), ...description.properties];
	}
	const variant = Object.create(type) as INodeType;
	variant.description = description;
	return variant;
}

/** The Tool Description pair n8n adds to a node with resources that declares none of its own. */
const n8nToolDescription = (nodeDescription: string): INodeProperties[] => [
	{
		displayName: 'Tool Description',
		name: 'descriptionType',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Set Automatically', value: 'auto' },
			{ name: 'Set Manually', value: 'manual' },
		],
		default: 'auto',
	},
	{
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: nodeDescription,
		displayOptions: { show: { descriptionType: ['manual'] } },
	},
];

export const TEST_TOOL_CALLER_NODE_TYPE = 'testToolCaller';

/** A tool as n8n-core builds it (a LangChain `DynamicStructuredTool`): what the model sees, and its call. */
interface BuiltTool {
	name: string;
	description: string;
	schema: { shape?: Record<string, { description?: string; _def?: { typeName?: string } }> };
	invoke(args: IDataObject): Promise<unknown>;
}

/**
 * Outputs one item per connected tool: `{ name, description, parameters }` (each `$fromAI()`
 * parameter with its type and description), then one item per call of `calls` (a JSON array of
 * argument objects, each given to every tool): `{ tool, result }` or `{ tool, error }`.
 */
export class TestToolCaller implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Tool Caller',
		name: TEST_TOOL_CALLER_NODE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Calls its tools as an AI agent would (test only)',
		defaults: { name: 'Test Tool Caller' },
		inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, displayName: 'Tools' }],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Calls', name: 'calls', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const connected = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as
			BuiltTool | BuiltTool[];
		const tools = Array.isArray(connected) ? connected : [connected];
		const calls = jsonParse<IDataObject[]>(String(this.getNodeParameter('calls', 0)));
		const out: IDataObject[] = tools.map((tool) => ({
			name: tool.name,
			description: tool.description,
			parameters: Object.fromEntries(
				Object.entries(tool.schema.shape ?? {}).map(([key, field]) => [
					key,
					{ type: field._def?.typeName, description: field.description },
				]),
			),
		}));
		for (const args of calls) {
			for (const tool of tools) {
				try {
					out.push({ tool: tool.name, result: String(await tool.invoke(args)) });
				} catch (error) {
					out.push({ tool: tool.name, error: (error as Error).message });
				}
			}
		}
		return [out.map((json) => ({ json, pairedItem: { item: 0 } }))];
	}
}
