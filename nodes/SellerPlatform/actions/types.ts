import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

/** An output that carries binary data beside its JSON. */
export class OutputWithBinary {
	constructor(
		readonly json: IDataObject,
		readonly binary: IBinaryKeyData,
	) {}
}

/**
 * One operation of the node. The router runs it item by item in two phases:
 * `prepare` reads and validates the item's parameters without touching the network (so bad input
 * never reaches the service), then `send` makes the request(s) for the prepared item.
 *
 * `uniqueValue`, when an operation has it, names a value no two items of a run may share.
 *
 * `executeAll`, when an operation has it, may take over the whole run instead (for example a
 * barcode import built from all input items): it returns the output items, or `undefined` to
 * fall back to item-by-item processing.
 */
export interface ItemOperation<Prepared = unknown> {
	description: INodeProperties[];
	prepare(this: IExecuteFunctions, itemIndex: number): Prepared | Promise<Prepared>;
	send(
		this: IExecuteFunctions,
		prepared: Prepared,
		itemIndex: number,
	): Promise<IDataObject | IDataObject[] | OutputWithBinary>;
	executeAll?(this: IExecuteFunctions): Promise<INodeExecutionData[] | undefined>;
	/** A value that must differ between the items of a run (checked before anything is sent). */
	uniqueValue?(prepared: Prepared): { value: string; parameter: string; rule: string };
}

export type ResourceOperations = Record<string, ItemOperation<any>>;
