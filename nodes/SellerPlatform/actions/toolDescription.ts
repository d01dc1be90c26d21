/**
 * What an AI model reads about an operation used as a tool (the AI Agent's tools, the MCP Server
 * Trigger's): the tool's Description, one per operation, shown only on the tool (`@tool`).
 *
 * n8n gives the model a tool's `toolDescription` parameter when it is set, else "<action> in
 * Seller Platform" (n8n-workflow's `getToolDescriptionForNode`). The action also names the tool
 * node, and so the tool (at most 64 characters), so it stays short; this parameter carries the
 * rest. Declaring it keeps n8n from adding its own "Tool Description" pair; a user may edit it.
 */
import type { INodeProperties } from 'n8n-workflow';

/** The parts of an operation's entry (resource.ts) that its tool description is made of. */
export interface ToolText {
	description: string;
	/** What it returns, the values it takes, which tool gives them; else `description`. */
	tool?: string;
}

/**
 * Operations that only read: a `get…` operation, or Session → Who Am I (the contract's names,
 * which never change). Every other operation changes data at noon, and its tool says so.
 */
export const isRead = (operation: string) => /^get/.test(operation) || operation === 'whoAmI';

const READ_NOTE = 'It only reads: it changes nothing at noon.';
const WRITE_NOTE =
	'It changes data at noon (the Seller Platform): call it only for a change the user asked for.';

/** The text the model reads: the operation's own words, then whether it changes anything. */
export function toolText(operation: string, entry: ToolText): string {
	const what = entry.tool ?? `${entry.description}.`;
	return `${what} ${isRead(operation) ? READ_NOTE : WRITE_NOTE}`;
}

/** The tool's Description parameter for one operation (only on the tool variant of the node). */
export function toolDescriptionProperty(
	resource: string,
	operation: string,
	entry: ToolText,
): INodeProperties {
	return {
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: toolText(operation, entry),
		description:
			'What the AI model reads about this tool: what it returns, the values it takes and which tool gives them',
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
	};
}

/** How the tools that take a warehouse code name the tool that gives it. */
export const WAREHOUSES = 'Warehouse → Get Many (the tool that gets many warehouses)';
