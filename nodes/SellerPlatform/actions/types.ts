import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/**
 * One operation of the node. The router runs it item by item in two phases:
 * `prepare` reads and validates the item's parameters without touching the network (so bad input
 * never reaches the service), then `send` makes the request(s) for the prepared item.
 */
export interface ItemOperation<Prepared = unknown> {
	description: INodeProperties[];
	prepare(this: IExecuteFunctions, itemIndex: number): Prepared | Promise<Prepared>;
	send(this: IExecuteFunctions, prepared: Prepared, itemIndex: number): Promise<IDataObject | IDataObject[]>;
}

export type ResourceOperations = Record<string, ItemOperation<any>>;
