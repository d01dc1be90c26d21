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

/** A rejected parameter: names it and the rule, before anything is sent. */
export function invalidParameter(
	ctx: ParameterSource,
	itemIndex: number,
	message: string,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}
