/**
 * What the two import operations share: the rules of an import's body, sending an import, and
 * reading its status (waiting for a final one when asked).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, named, optionLabel, propertyIn, quotedName, rowsOf } from '../../../shared';
import {
	readBooleanField,
	checkBoolean,
	checkText,
	readCollection,
	invalidParameter,
	readRows,
} from '../parameters';
import type { Task } from '../runner';
import type { WaitSettings } from '../options';
import { readKey } from '../shapes/createWithKey';
import { fetchUntil } from '../shapes/request';
import { normaliseStatus } from '../wait';
import { barcodeParameter, MAX_CLIENT_REFERENCE_LENGTH } from './createBarcode.description';
import { findReplayedImport } from './reuse';
import { rememberRequest } from './sentRequests';

/** The spec's limit of mappings per import. */
export const MAX_MAPPINGS_PER_IMPORT = 10_000;
export { MAX_CLIENT_REFERENCE_LENGTH };

export const FINAL_IMPORT_STATUSES = ['COMPLETED', 'FAILED', 'PARTIAL'];

/** COMPLETED, FAILED and PARTIAL are final (with or without the IMPORT_STATUS_ prefix). */
export function isImportFinal(record: IDataObject): boolean {
	return FINAL_IMPORT_STATUSES.includes(normaliseStatus(record.import_status, 'IMPORT_STATUS_'));
}

/** Reads an import's status, waiting for a final one when asked. */
export async function fetchImportStatus(
	ctx: IExecuteFunctions,
	reference: string,
	wait: WaitSettings,
	itemIndex: number,
): Promise<IDataObject> {
	const request = { pathParams: { reference } };
	const until = { settings: wait, isFinal: isImportFinal };
	return await fetchUntil(ctx, 'GetImportStatus', request, itemIndex, until);
}

export function readConfig(ctx: IExecuteFunctions, itemIndex: number): IDataObject | undefined {
	const configParameter = barcodeParameter('config');
	const config = readCollection(ctx, configParameter, itemIndex);
	const setting = (name: string) =>
		config[name] === undefined
			? undefined
			: readBooleanField(
					ctx,
					itemIndex,
					config,
					propertyIn(configParameter.options, name),
					'setting',
				);
	const result: IDataObject = {};
	const notify = setting('isNotificationRequired');
	if (notify !== undefined) result.is_notification_required = notify;
	const forceSync = setting('forceSync');
	if (forceSync !== undefined) result.force_sync = forceSync;
	return Object.keys(result).length ? result : undefined;
}

/** The client reference (the import's idempotency key), room left for a split's suffix. */
export function readClientReference(
	ctx: IExecuteFunctions,
	itemIndex: number,
	suffixLength = 0,
): string {
	const parameter = barcodeParameter('clientReference');
	return readKey(ctx, itemIndex, parameter, MAX_CLIENT_REFERENCE_LENGTH, suffixLength);
}

/** http(s) addresses, and cloud storage paths such as gs://bucket/file.csv or s3://bucket/file.csv. */
export function isImportFileUrl(value: string): boolean {
	if (/^(gs|s3):\/\/[^/\s]+\/\S+$/i.test(value)) return true;
	try {
		const url = new URL(value);
		return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
	} catch {
		return false;
	}
}

export function mappingsDefinedBelow(ctx: IExecuteFunctions, itemIndex: number): IDataObject[] {
	const parameter = barcodeParameter('mappings');
	const raw = readRows(ctx, parameter, itemIndex, {
		needs: 'at least one mapping: an import needs exactly one source',
	});
	if (raw.length > MAX_MAPPINGS_PER_IMPORT) {
		throw invalidParameter(
			ctx,
			itemIndex,
			`${named(parameter)} holds ${raw.length} mappings, at most ${MAX_MAPPINGS_PER_IMPORT} fit in one import`,
			`Use "${optionLabel(barcodeParameter('itemsInput'), 'fromInputItems')}", which splits large sets into several imports.`,
		);
	}
	return raw.map((mapping, position) => {
		const where = `Mapping ${position + 1} of ${quotedName(parameter)}`;
		return readMapping(ctx, itemIndex, mapping, where);
	});
}

/** The fields of a mapping defined below, as the "Mappings" parameter declares them. */
const mappingField = (name: string) =>
	propertyIn(rowsOf(barcodeParameter('mappings')).fields, name);

/** The fields every mapping needs: the body's name, the parameter's. */
const REQUIRED_MAPPING_FIELDS = [
	['partner_sku', 'partnerSku'],
	['barcode', 'barcode'],
] as const;

/** One mapping defined below: partner_sku and barcode, both required; force_sync when on. */
function readMapping(
	ctx: IExecuteFunctions,
	itemIndex: number,
	mapping: IDataObject,
	where: string,
): IDataObject {
	const result: IDataObject = {};
	for (const [key, name] of REQUIRED_MAPPING_FIELDS) {
		const field = mappingField(name);
		const value = checkText(ctx, itemIndex, mapping[name], `The ${field.displayName} of ${where}`);
		result[key] = value;
	}
	for (const [key, name] of REQUIRED_MAPPING_FIELDS) {
		if (!result[key]) {
			throw invalidParameter(
				ctx,
				itemIndex,
				`${where} has no ${mappingField(name).displayName} (${key}): every mapping needs partner_sku and barcode`,
			);
		}
	}
	const forceSync = mappingField('forceSync');
	const what = `The ${forceSync.displayName} (${forceSync.name}) of ${where}`;
	const fallback = forceSync.default as boolean;
	if (checkBoolean(ctx, itemIndex, mapping.forceSync, what, fallback)) result.force_sync = true;
	return result;
}

/**
 * Sends the import; once the service accepted it, remembers what was sent under its client
 * reference (sentRequests.ts), the proof a later re-run needs to find it instead.
 */
async function sendImport(
	ctx: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	let created: IDataObject | undefined;
	try {
		created = await apiRequest.call(ctx, 'CreateBarcodeImport', { body, itemIndex });
	} catch (error) {
		return await findReplayedImport(ctx, body, error, itemIndex);
	}
	// Outside the try: the import exists, whatever happens while remembering it.
	await rememberRequest(ctx, body, itemIndex);
	const count = (body.items as { data?: unknown[] } | undefined)?.data?.length;
	return count === undefined ? { ...created } : { ...created, mappings_count: count };
}

/**
 * Creates an import, or finds the one that already has its client_reference when it is provably
 * this very request (the reference is an idempotency key: a re-run after a failure completes the
 * job without a duplicate; reuse.ts). A found import is returned with `alreadyExisted: true`.
 */
export async function createImport(
	ctx: IExecuteFunctions,
	body: IDataObject,
	wait: WaitSettings,
	itemIndex: number,
): Promise<IDataObject> {
	const result = await sendImport(ctx, body, itemIndex);
	if (!wait.enabled) return result;
	const reference = String(
		result.import_reference ?? result.client_reference ?? body.client_reference,
	);
	try {
		return { ...result, ...(await fetchImportStatus(ctx, reference, wait, itemIndex)) };
	} catch (error) {
		// The import exists: failing the item would lose its reference, and repeating it would be
		// refused (client_reference must be unique). Return it with what went wrong while waiting.
		return { ...result, waitError: (error as Error).message };
	}
}

/** Reads `path` (dots reach into nested objects) from an item's JSON. */
export function readField(json: IDataObject, path: string): unknown {
	if (path in json) return json[path];
	let value: unknown = json;
	for (const key of path.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as IDataObject)[key];
	}
	return value;
}

/**
 * An input item's field as the text of a mapping, after `textProblem` accepted it: a text
 * trimmed, a number or bigint written out; anything else (true, null, unset) is no value ('').
 */
export function inputFieldText(value: unknown): string {
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'bigint') return value.toString();
	return '';
}

/** What a created import is called in the error of a later failure. */
export const createsImport: Task['creates'] = {
	describe: (json: IDataObject) =>
		`import ${String(json.import_reference ?? '(reference not returned)')} (client reference ${String(json.client_reference)})`,
	advice:
		'Running the workflow again finds these imports by their client references instead of creating them again.',
};
