/** Parameter pieces and checks shared by the operations. */
import {
	NodeOperationError,
	sleep,
	type IDataObject,
	type IDisplayOptions,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { isDotSegment } from '../transport/url';

export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 50;

/** A rejected parameter: names it and the rule, before anything is sent. */
export function invalidParameter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

/** Reads a required string parameter and rejects empty or blank values before any request. */
export function requiredString(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const text = optionalString(ctx, name, itemIndex);
	if (text === undefined) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`The parameter "${label}" (${name}) must not be empty`,
			`Set "${label}" to a non-blank value, or map it from the input data with an expression.`,
		);
	}
	return text;
}

/** Reads an optional string parameter: trimmed, `undefined` when empty (so it is not sent). */
export function optionalString(ctx: IExecuteFunctions, name: string, itemIndex: number): string | undefined {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	if (value === undefined || value === null) return undefined;
	const text = typeof value === 'number' ? String(value) : value;
	if (typeof text !== 'string') return undefined;
	return text.trim() === '' ? undefined : text.trim();
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
		throw invalidParameter(
			ctx,
			itemIndex,
			`The parameter "${label}" (${name}) cannot be "${value}"`,
			`"${label}" becomes part of the request path, where "." and ".." are not allowed.`,
		);
	}
	return value;
}

/** How many items are in flight at once. */
export const concurrencyOption: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
	default: DEFAULT_CONCURRENCY,
	description:
		"How many items are sent to the service at the same time. Output keeps the input order; the credential's rate plan still applies.",
};

/** Options of the operations that can wait for a long job to finish. */
export const waitOptions: INodeProperties[] = [
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: false,
		description:
			'Whether to keep asking for the status until the job reaches a final state (or the timeout), and return the last status',
	},
	{
		displayName: 'Poll Interval (Seconds)',
		name: 'pollIntervalSeconds',
		type: 'number',
		typeOptions: { minValue: 0.1, numberPrecision: 1 },
		default: 5,
		description: 'Time between two status requests while waiting',
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeoutSeconds',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 300,
		description:
			'Longest time to wait. When it passes, the last status is returned with waitTimedOut set to true.',
	},
];

/** The `options` collection of an operation. */
export function optionsCollection(show: IDisplayOptions['show'], options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show },
		options: [...options].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

export interface WaitSettings {
	enabled: boolean;
	intervalMs: number;
	timeoutMs: number;
}

export function readWaitSettings(ctx: IExecuteFunctions, itemIndex: number): WaitSettings {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const interval = Number(options.pollIntervalSeconds ?? 5);
	const timeout = Number(options.timeoutSeconds ?? 300);
	if (!(interval > 0) || !(timeout > 0)) {
		throw invalidParameter(
			ctx,
			itemIndex,
			'The options "Poll Interval (Seconds)" and "Timeout (Seconds)" must be positive numbers',
		);
	}
	return { enabled: options.waitForCompletion === true, intervalMs: interval * 1000, timeoutMs: timeout * 1000 };
}

/**
 * Reads a status once, or, when waiting is on, until `isFinal` says so or the timeout passes;
 * then returns the last status with `waitTimedOut` added.
 */
export async function pollUntilFinal(
	fetchStatus: () => Promise<IDataObject>,
	isFinal: (status: IDataObject) => boolean,
	settings: WaitSettings,
): Promise<IDataObject> {
	if (!settings.enabled) return await fetchStatus();
	const deadline = Date.now() + settings.timeoutMs;
	let status = await fetchStatus();
	while (!isFinal(status)) {
		const left = deadline - Date.now();
		if (left <= 0) return { ...status, waitTimedOut: true };
		await sleep(Math.min(settings.intervalMs, left));
		status = await fetchStatus();
	}
	return { ...status, waitTimedOut: false };
}

/** A status value upper-cased and without its enum prefix: `IMPORT_STATUS_COMPLETED` → `COMPLETED`. */
export function normaliseStatus(value: unknown, prefix: string): string {
	const status = String(value ?? '').toUpperCase();
	return status.startsWith(prefix) ? status.slice(prefix.length) : status;
}

/**
 * Reads the `binaryPropertyName` option (the output field a file goes into) when a file is asked
 * for; it must not be blank.
 */
export function binaryFieldOption(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	label: string,
	fallback: string,
): string {
	const name = String(options.binaryPropertyName ?? fallback).trim();
	if (!name) {
		throw invalidParameter(ctx, itemIndex, `The option "${label}" (binaryPropertyName) must not be empty`);
	}
	return name;
}
