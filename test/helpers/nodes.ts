/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/** Node types only the tests use: fixed items, and a pass-through start node. */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { jsonParse, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

export const TEST_ITEMS_NODE_TYPE = 'testItems';
export const TEST_NO_OP_NODE_TYPE = 'testNoOp';

/**
 * A start node: ignores its (empty) input and outputs the items of its `items` parameter, a
 * JSON array of objects (or an array set directly in the parameters). Each item gets
 * `pairedItem: { item: 0 }`, as a trigger's output would.
 */
export class TestItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Items',
		name: TEST_ITEMS_NODE_TYPE,
		group: ['input'],
		version: 1,
		description: 'Outputs fixed items (test only)',
		defaults: { name: 'Test Items' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{
				displayName: 'Items',
				name: 'items',
				type: 'json',
				default: '[{}]',
				description: 'JSON array of objects: the json of each output item',
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as unknown;
		let parsed: unknown = raw;
		if (typeof raw === 'string') {
			try {
				parsed = jsonParse(raw);
			} catch (error) {
				throw new NodeOperationError(
					this.getNode(),
					`Parameter "items" is not valid JSON: ${(error as Error).message}`,
				);
			}
		}
		if (!Array.isArray(parsed)) {
			throw new NodeOperationError(this.getNode(), 'Parameter "items" must be a JSON array');
		}
		return [
			parsed.map((value: unknown) => ({
				json: (typeof value === 'object' && value !== null ? value : { value }) as IDataObject,
				pairedItem: { item: 0 },
			})),
		];
	}
}

/** Passes its input through unchanged: a place to collect and inspect items. */
export class TestNoOp implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test No Op',
		name: TEST_NO_OP_NODE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Passes items through (test only)',
		defaults: { name: 'Test No Op' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}
