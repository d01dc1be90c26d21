/**
 * A read by path parameter: each placeholder of the endpoint's path is filled from a parameter
 * of the operation (named in `path`), read as one path segment (parameters/text.ts
 * `readPathSegment`). Example: Purchase Order → Get.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { propertyIn } from '../../../shared';
import { readPathSegment } from '../parameters';
import type { Operation } from '../runner';
import { requestOperation, type RequestDeclaration } from './request';

export interface ReadByPathDeclaration<Extra = undefined> extends Omit<
	RequestDeclaration<Extra>,
	'read'
> {
	/** The path's placeholders, each with the name of the parameter that fills it. */
	path: Record<string, string>;
}

/** An item's path values, each from its parameter (a placeholder per `path` entry). */
export function readPath(
	ctx: IExecuteFunctions,
	itemIndex: number,
	declaration: Pick<ReadByPathDeclaration<unknown>, 'path' | 'properties'>,
): Record<string, string> {
	const values: Record<string, string> = {};
	for (const [placeholder, name] of Object.entries(declaration.path)) {
		const property = propertyIn(declaration.properties, name);
		values[placeholder] = readPathSegment(ctx, property, itemIndex);
	}
	return values;
}

export function readByPath<Extra = undefined>(
	declaration: ReadByPathDeclaration<Extra>,
): Operation {
	return requestOperation({
		...declaration,
		read: (ctx, itemIndex) => ({ pathParams: readPath(ctx, itemIndex, declaration) }),
	});
}
