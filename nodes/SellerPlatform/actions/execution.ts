/** Pieces of running an operation over items, shared by the router and run-level operations. */
import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

/** Runs `task(0..count-1)` with at most `limit` running at once, starting them in index order. */
export async function runPool(
	count: number,
	limit: number,
	task: (index: number) => Promise<void>,
): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < count) await task(next++);
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

export function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/**
 * The output item of a failed input under "continue on fail": `{ error, details }`, where
 * `error` is the message (the service's own, for API errors) and `details` holds the HTTP code,
 * the service's status_code, status_id and details. No secrets. n8n's "continue (using error
 * output)" recognises items whose only keys are error/message/details, so none are added.
 */
export function errorItem(error: Error, itemIndex: number): INodeExecutionData {
	const details: IDataObject = {};
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		const context = error.context as IDataObject;
		if (error instanceof NodeApiError && error.httpCode) details.httpCode = error.httpCode;
		if (context.statusCode !== undefined) details.status_code = context.statusCode;
		if (context.statusId !== undefined) details.status_id = context.statusId;
		if (context.details !== undefined) details.service_details = context.details;
		if (error.description) details.description = error.description;
	}
	return { json: { error: error.message, details }, pairedItem: { item: itemIndex } };
}
