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
export const runsAsTool = (ctx: ParameterSource) => ctx.getNode().type.endsWith('Tool');

/** What to give instead of a refused value; the editor's way may differ from a model's. */
export type Advice = string | { editor: string; tool: string };

/** The first argument of a `$fromAI(…)` call, such as `created_after` (n8n's own key rule). */
const FROM_AI_KEY = /\$fromAI\s*\(\s*(['"`])([\w-]{1,64})\1/gi;

/**
 * The arguments a model fills (`$fromAI` keys), by the name of the parameter that takes them: a
 * field of a collection by its own name, a resource locator's value by the locator's name; a
 * parameter may be made of several.
 */
function modelArguments(parameters: unknown, name = '', found = new Map<string, string[]>()) {
	if (typeof parameters === 'string') {
		const keys = [...parameters.matchAll(FROM_AI_KEY)].map((match) => match[2]);
		if (keys.length && name && !found.has(name)) found.set(name, [...new Set(keys)]);
	} else if (typeof parameters === 'object' && parameters !== null) {
		const locator = '__rl' in parameters;
		for (const [key, value] of Object.entries(parameters)) {
			modelArguments(value, locator ? name : key, found);
		}
	}
	return found;
}

/** `"a"`, `"a" and "b"`, `"a", "b" and "c"`. */
const listed = (keys: string[]) =>
	keys
		.map((key) => `"${key}"`)
		.join(', ')
		.replace(/, ([^,]*)$/, ' and $1');

/**
 * A tool's message names the refused parameter also by the arguments the model gave
 * (`"Created After" (createdAfter)` → `… (createdAfter, the argument "created_after")`): the
 * model knows its arguments by their keys, not by the node's parameter names.
 */
function withArguments(ctx: ParameterSource, message: string): string {
	const arguments_ = modelArguments(ctx.getNode().parameters);
	// The refused parameter is named first, as `"Display Name" (name)` (`named`): its display name
	// may hold parentheses, and a value shown later in the message too.
	return message.replace(/" \((\w+)\)/, (whole, name: string) => {
		const keys = (arguments_.get(name) ?? []).filter((key) => key !== name);
		if (!keys.length) return whole;
		const noun = keys.length === 1 ? 'the argument' : 'the arguments';
		return `" (${name}, ${noun} ${listed(keys)})`;
	});
}

/**
 * A rejected parameter: names it and the rule, before anything is sent; `advice` says what to
 * give instead. The editor shows the advice below the message; a tool's message carries it (its
 * `tool` variant), so that a model that gave the value learns how to call again.
 */
export function invalidParameter(
	ctx: ParameterSource,
	itemIndex: number,
	message: string,
	advice?: Advice,
): NodeOperationError {
	if (runsAsTool(ctx)) {
		const named = withArguments(ctx, message);
		const said = typeof advice === 'object' ? advice.tool : advice;
		const text = said ? `${named}. ${said}` : named;
		return new NodeOperationError(ctx.getNode(), text, { itemIndex });
	}
	const description = typeof advice === 'object' ? advice.editor : advice;
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}
