import {
	NodeOperationError,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './common';
import { asNodeError, errorItem, runPool } from './execution';
import * as apiCredential from './apiCredential';
import * as destination from './destination';
import * as exportResource from './export';
import * as fbpiOrder from './fbpiOrder';
import * as importResource from './import';
import * as oauth from './oauth';
import * as purchaseOrder from './purchaseOrder';
import * as session from './session';
import { OutputWithBinary, type ResourceOperations } from './types';

/** The resources of the node, each with its operations (names per the package's contract). */
export const resources: Record<string, { operations: ResourceOperations; description: INodeProperties[] }> = {
	apiCredential,
	destination,
	export: exportResource,
	fbpiOrder,
	import: importResource,
	oauth,
	purchaseOrder,
	session,
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
	const operation = resources[resource]?.operations[operationName];
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of resource "${resource}" is not supported`,
		);
	}
	const continueOnFail = this.continueOnFail();

	const whole = await operation.executeAll?.call(this);
	if (whole) return [whole];

	const prepared: Prepared[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			prepared.push({ ok: true, value: await operation.prepare.call(this, i) });
		} catch (error) {
			if (!continueOnFail) throw asNodeError(this, error, i);
			prepared.push({ ok: false, error: asNodeError(this, error, i) });
		}
	}

	if (operation.uniqueValue) {
		const firstItemOf = new Map<string, number>();
		for (let i = 0; i < prepared.length; i++) {
			const item = prepared[i];
			if (!item.ok) continue;
			const { value, parameter, rule } = operation.uniqueValue(item.value);
			const first = firstItemOf.get(value);
			if (first === undefined) {
				firstItemOf.set(value, i);
				continue;
			}
			const error = new NodeOperationError(
				this.getNode(),
				`${parameter} of item ${i} repeats the value "${value}" of item ${first}: ${rule}`,
				{ itemIndex: i },
			);
			if (!continueOnFail) throw error;
			prepared[i] = { ok: false, error };
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
			results[i] =
				output instanceof OutputWithBinary
					? [{ json: output.json, binary: output.binary, pairedItem: { item: i } }]
					: this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(output), {
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

