/**
 * Where the readers read values (the node's parameters, or an input item's fields) and how they
 * refuse one: a NodeOperationError naming the parameter and the rule, before anything is sent.
 */
import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

/**
 * Where the readers read values: the node's parameters (`IExecuteFunctions`), or, for a batch
 * operation's Map Automatically, the input item's fields (shapes/batch.ts), each property then an
 * `InputField` named as the field.
 */
export type ParameterSource = Pick<IExecuteFunctions, 'getNode' | 'getNodeParameter'>;

/**
 * The node runs as an AI tool (n8n's `<name>Tool` variant: the AI Agent's, the MCP Server
 * Trigger's). n8n hands the model a failed tool's message; the AI Agent 3.1 the message alone.
 */
const runsAsTool = (ctx: ParameterSource) => ctx.getNode().type.endsWith('Tool');

/**
 * A rejected parameter: names it and the rule, before anything is sent; `advice` says what to
 * give instead. The editor shows the advice below the message; a tool's message carries it, so
 * that a model that gave the value learns how to call again.
 */
export function invalidParameter(
	ctx: ParameterSource,
	itemIndex: number,
	message: string,
	advice?: string,
): NodeOperationError {
	if (advice && runsAsTool(ctx)) {
		return new NodeOperationError(ctx.getNode(), `${message}. ${advice}`, { itemIndex });
	}
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description: advice });
}
