import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { isDotSegment } from '../transport/url';

export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 50;

/** Options every operation offers: how many items are in flight at once. */
export const concurrencyOption: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
	default: DEFAULT_CONCURRENCY,
	description:
		'How many items are sent to the service at the same time. Output keeps the input order; the credential\'s rate plan still applies.',
};

/** Reads a required string parameter and rejects empty or blank values before any request. */
export function requiredString(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	const text = typeof value === 'number' ? String(value) : value;
	if (typeof text !== 'string' || text.trim() === '') {
		throw new NodeOperationError(ctx.getNode(), `The parameter "${label}" (${name}) must not be empty`, {
			itemIndex,
			description: `Set "${label}" to a non-blank value, or map it from the input data with an expression.`,
		});
	}
	return text.trim();
}

/**
 * Reads a parameter that becomes one segment of the request path: not blank, and not "." or ".."
 * (URL parsers would resolve those into another path). Any other character is URL-encoded.
 */
export function requiredPathParameter(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const value = requiredString(ctx, name, label, itemIndex);
	if (isDotSegment(value)) {
		throw new NodeOperationError(ctx.getNode(), `The parameter "${label}" (${name}) cannot be "${value}"`, {
			itemIndex,
			description: `"${label}" becomes part of the request path, where "." and ".." are not allowed.`,
		});
	}
	return value;
}
