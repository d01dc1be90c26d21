import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './common';
import * as purchaseOrder from './purchaseOrder';
import * as session from './session';
import type { ResourceOperations } from './types';

const resources: Record<string, ResourceOperations> = {
	session: session.operations,
	purchaseOrder: purchaseOrder.operations,
};

type Prepared = { ok: true; value: unknown } | { ok: false; error: Error };

/**
 * Runs the chosen operation over the input items: validates every item first (no request leaves
 * while any item is invalid, unless "continue on fail" is on), then sends them with bounded
 * concurrency. Output keeps input order, one result per item, each with `pairedItem`.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = resources[resource]?.[operationName];
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of resource "${resource}" is not supported`,
		);
	}
	const continueOnFail = this.continueOnFail();

	const prepared: Prepared[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			prepared.push({ ok: true, value: await operation.prepare.call(this, i) });
		} catch (error) {
			if (!continueOnFail) throw asNodeError(this, error, i);
			prepared.push({ ok: false, error: asNodeError(this, error, i) });
		}
	}

	const concurrency = readConcurrency(this);
	const results: INodeExecutionData[][] = new Array(items.length);
	// The failure with the lowest item index stops the run when "continue on fail" is off.
	const stop: { index: number; error?: Error } = { index: Infinity };

	await runPool(items.length, concurrency, async (i) => {
		if (stop.error) return;
		const item = prepared[i];
		if (!item.ok) {
			results[i] = [errorItem(item.error, i)];
			return;
		}
		try {
			const output = await operation.send.call(this, item.value, i);
			results[i] = this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(output), {
				itemData: { item: i },
			});
		} catch (error) {
			const nodeError = asNodeError(this, error, i);
			if (continueOnFail) results[i] = [errorItem(nodeError, i)];
			else if (i < stop.index) Object.assign(stop, { index: i, error: nodeError });
		}
	});
	if (stop.error) throw stop.error;
	return [results.flat()];
}

function readConcurrency(ctx: IExecuteFunctions): number {
	const value = Number(ctx.getNodeParameter('options.concurrency', 0, DEFAULT_CONCURRENCY));
	if (!Number.isFinite(value)) return DEFAULT_CONCURRENCY;
	return Math.min(MAX_CONCURRENCY, Math.max(1, Math.floor(value)));
}

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

function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/**
 * The output item of a failed input under "continue on fail": `{ error, details }`, where
 * `error` is the message (the service's own, for API errors) and `details` holds the HTTP code,
 * the service's status_code, status_id and details. No secrets. n8n's "continue (using error
 * output)" recognises items whose only keys are error/message/details, so none are added.
 */
function errorItem(error: Error, itemIndex: number): INodeExecutionData {
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
