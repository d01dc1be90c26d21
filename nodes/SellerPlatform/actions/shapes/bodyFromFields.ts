/**
 * A request whose body comes from fields: each body field is named with the parameter it is
 * read from (by its description: parameters/text.ts `readParameter`), or read by a function of its
 * own where a rule of the service needs more. Unset fields are not sent. Path placeholders, if
 * the endpoint has some, are filled as in readByPath.ts. Example: OAuth → Exchange Token.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { propertyIn } from '../../../shared';
import { readParameter } from '../parameters';
import type { Operation } from '../runner';
import { readPath } from './readByPath';
import { requestOperation, type ItemRequest, type RequestDeclaration } from './request';

/** A body field: the name of its parameter, or a reader (undefined: not sent). */
export type BodyField = string | ((ctx: IExecuteFunctions, itemIndex: number) => unknown);

type Reader<T> = (ctx: IExecuteFunctions, itemIndex: number) => T;

export interface FieldsDeclaration<Extra = undefined> extends Omit<
	RequestDeclaration<Extra>,
	'read'
> {
	path?: Record<string, string>;
	/** The body's fields in the order they are read, or a reader of the whole body. */
	body: Record<string, BodyField> | Reader<IDataObject>;
	/** What else the output needs, read before the path and body (`before`) or after them. */
	before?: Reader<Extra>;
	after?: Reader<Extra>;
}

/** An item's body: each field read in turn; those that are unset are left out. */
function readBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	declaration: FieldsDeclaration<unknown>,
): IDataObject {
	const { body, properties } = declaration;
	if (typeof body === 'function') return body(ctx, itemIndex);
	const values: IDataObject = {};
	for (const [key, field] of Object.entries(body)) {
		const value =
			typeof field === 'string'
				? readParameter(ctx, propertyIn(properties, field), itemIndex)
				: field(ctx, itemIndex);
		if (value !== undefined) values[key] = value as IDataObject[string];
	}
	return values;
}

export function bodyFromFields<Extra = undefined>(
	declaration: FieldsDeclaration<Extra>,
): Operation {
	const { path, before, after } = declaration;
	return requestOperation({
		...declaration,
		read(ctx, itemIndex) {
			const first = before?.(ctx, itemIndex);
			const request: ItemRequest<Extra> = {};
			if (path) request.pathParams = readPath(ctx, itemIndex, { ...declaration, path });
			request.body = readBody(ctx, itemIndex, declaration as FieldsDeclaration<unknown>);
			request.extra = after ? after(ctx, itemIndex) : first;
			return request;
		},
	});
}
