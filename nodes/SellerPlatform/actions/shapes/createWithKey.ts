/**
 * A create with an idempotency key: a request whose body comes from fields (bodyFromFields.ts),
 * one of which is the key. The user's key, or, where the parameter is optional, a fresh one when
 * it is left empty; the output and the error of a later failure name it, so that a re-run with
 * the same keys creates nothing twice. Example: FBPI Order → Create Sandbox Order.
 */
import { randomBytes } from 'crypto';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { named, propertyIn } from '../../../shared';
import { invalidParameter, readText } from '../parameters';
import type { Operation, Task } from '../runner';
import { bodyFromFields, type FieldsDeclaration } from './bodyFromFields';

export interface IdempotencyKey {
	/** The body field that carries the key (in `body`, with the name of its parameter). */
	field: string;
	maxLength: number;
}

/**
 * The key of an item: at most `maxLength` characters (`suffixLength` of them kept free for a
 * suffix the operation adds); a fresh random one when an optional key is left empty.
 */
export function readKey(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: INodeProperties,
	maxLength: number,
	suffixLength = 0,
): string {
	const key = readText(ctx, property, itemIndex);
	if (key === undefined) return randomBytes(8).toString('base64url').slice(0, maxLength);
	if (key.length + suffixLength > maxLength) {
		throw invalidParameter(
			ctx,
			itemIndex,
			suffixLength
				? `${named(property)} must leave room for the suffix of split imports: at most ${maxLength - suffixLength} characters, got ${key.length}`
				: `${named(property)} must be at most ${maxLength} characters, got ${key.length}`,
		);
	}
	return key;
}

export interface CreateDeclaration extends Omit<FieldsDeclaration<string>, 'task' | 'body'> {
	body: Record<string, string | ((ctx: IExecuteFunctions, itemIndex: number) => unknown)>;
	key: IdempotencyKey;
	/** How a created thing is named in the error of a later failure, and what the user can do. */
	creates: { describe(json: IDataObject, key: string): string; advice: string };
}

export function createWithKey(declaration: CreateDeclaration): Operation {
	const { key, creates, properties } = declaration;
	const parameter = propertyIn(properties, declaration.body[key.field] as string);
	const readItemKey = (ctx: IExecuteFunctions, itemIndex: number) =>
		readKey(ctx, itemIndex, parameter, key.maxLength);
	return bodyFromFields({
		...declaration,
		body: { ...declaration.body, [key.field]: readItemKey },
		task: (request): Pick<Task, 'creates'> => {
			const itemKey = String(request.body?.[key.field]);
			const describe = (json: IDataObject) => creates.describe(json, itemKey);
			return { creates: { describe, advice: creates.advice } };
		},
		output: (_ctx, answer, request) => ({
			json: { ...answer, [key.field]: request.body?.[key.field] },
		}),
	});
}
