/**
 * Simplify, as n8n's own nodes offer it for big answers: a short, stable set of fields instead of
 * the whole answer (FBPI Order → Get / Get Many, Offer → Get, FBN Shipment → Get / Get Many).
 *
 * On by default for new nodes only. n8n fills a parameter a saved workflow lacks with its default,
 * so the default cannot change under saved nodes: the node's version 1.1 (the version new nodes
 * get) shows Simplify on by default, version 1 (every workflow saved before) shows it off by
 * default, so a saved node without the parameter keeps the whole answer. The simplified output of
 * each operation is described by its schema of version 1.1 (`__schema__/v1.1.0/`), the whole answer
 * by the one of version 1 (`__schema__/v1.0.0/`).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { named } from '../../../shared';
import { checkBoolean } from '../parameters';
import type { Operation } from '../runner';
import { readPath, type ReadByPathDeclaration } from './readByPath';
import { requestOperation } from './request';

/** The node version from which Simplify is on by default (SellerPlatform.node.ts `version`). */
export const SIMPLIFY_DEFAULT_SINCE = 1.1;

/** An operation's simplified output: the fields it keeps (for the description) and how. */
export interface Simplified {
	/** The kept fields, as the parameter's description lists them. */
	fields: string;
	shape(answer: IDataObject): IDataObject;
}

/** The Simplify parameter: off by default on version 1, on from SIMPLIFY_DEFAULT_SINCE. */
export function simplifyProperties(simplified: Simplified): INodeProperties[] {
	const base = {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean' as const,
		description: `Whether to return a short, stable set of fields instead of the whole answer: ${simplified.fields}`,
	};
	return [
		{ ...base, default: false, displayOptions: { show: { '@version': [1] } } },
		{
			...base,
			default: true,
			displayOptions: { show: { '@version': [{ _cnd: { gte: SIMPLIFY_DEFAULT_SINCE } }] } },
		},
	];
}

/** Whether the item's output is simplified (unset: the whole answer). */
export function readSimplify(
	ctx: IExecuteFunctions,
	properties: INodeProperties[],
	itemIndex: number,
): boolean {
	const property = properties.find((entry) => entry.name === 'simplify');
	if (!property) return false;
	const value = ctx.getNodeParameter(property.name, itemIndex, false) as unknown;
	return checkBoolean(ctx, itemIndex, value, named(property), false);
}

/** The fields of `entry` named in `keys`, in that order; absent ones left out. */
export function picked(entry: unknown, keys: readonly string[]): IDataObject {
	const source = typeof entry === 'object' && entry !== null ? (entry as IDataObject) : {};
	return Object.fromEntries(
		keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]),
	);
}

/** The entries of a list field, each through `shape`; absent when the answer has no list. */
export function pickedList(
	value: unknown,
	shape: (entry: IDataObject) => IDataObject,
): IDataObject[] | undefined {
	return Array.isArray(value) ? (value as IDataObject[]).map(shape) : undefined;
}

/** A read by path parameter (shapes/readByPath.ts) with Simplify. */
export function simplifiedReadByPath(
	declaration: Pick<ReadByPathDeclaration, 'show' | 'endpoint' | 'path' | 'properties'> & {
		simplified: Simplified;
	},
): Operation {
	const { simplified, ...read } = declaration;
	const properties = [...read.properties, ...simplifyProperties(simplified)];
	return requestOperation<boolean>({
		...read,
		properties,
		read: (ctx, itemIndex) => ({
			pathParams: readPath(ctx, itemIndex, read),
			extra: readSimplify(ctx, properties, itemIndex),
		}),
		output: (_ctx, answer, request) => ({
			json: request.extra ? simplified.shape(answer) : answer,
		}),
	});
}
