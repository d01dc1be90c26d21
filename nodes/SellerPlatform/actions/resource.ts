/**
 * A resource of the node, from one declaration: its label, its operations (each with the label,
 * action and description the Operation list shows, and what an AI model reads of it as a tool)
 * and the operation picked by default. Builds what the router runs (`operations`) and what the
 * editor shows (the Operation list, the tool's Description, then each operation's parameters).
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Operation } from './runner';
import { toolDescriptionProperty } from './toolDescription';

export interface OperationEntry {
	name: string;
	/** The Operation list's action; n8n also names a new tool node after it ("… in Seller Platform"). */
	action: string;
	description: string;
	/**
	 * What an AI model reads about the operation used as a tool, if more than `description`: what
	 * it returns, the values it takes, and which tool gives them (toolDescription.ts).
	 */
	tool?: string;
	operation: Operation;
}

export interface ResourceDeclaration {
	value: string;
	/** The resource's label in the Resource list. */
	name: string;
	/** The operations by their value (the contract's name), in the order the list shows them. */
	operations: Record<string, OperationEntry>;
	/** The operation picked when the resource is chosen; the first one when absent. */
	default?: string;
}

export interface Resource {
	option: INodePropertyOptions;
	operations: Record<string, Operation>;
	description: INodeProperties[];
}

export function resource(declaration: ResourceDeclaration): Resource {
	const entries = Object.entries(declaration.operations);
	const picked = declaration.default ?? entries[0][0];
	const operationList: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		default: picked,
		displayOptions: { show: { resource: [declaration.value] } },
		// By name, as n8n lists options (the default above stays the declared one).
		options: entries
			.map(([value, { name, action, description }]) => ({ name, value, action, description }))
			.sort((a, b) => a.name.localeCompare(b.name)),
	};
	return {
		option: { name: declaration.name, value: declaration.value },
		operations: Object.fromEntries(entries.map(([value, entry]) => [value, entry.operation])),
		description: [
			operationList,
			...entries.map(([value, entry]) => toolDescriptionProperty(declaration.value, value, entry)),
			...entries.flatMap(([, entry]) => entry.operation.description),
		],
	};
}
