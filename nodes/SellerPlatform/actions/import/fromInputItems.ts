/**
 * Create Barcode Import from input items: every input item is one mapping; all items of the run
 * make one import, or several of at most 10,000 mappings, sent one after the other.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { booleanProblem, parseBoolean, textProblem } from '../../../shared';
import { invalidParameter, readOptionalText, readRequiredText } from '../parameters';
import { throwUnlessContinueOnFail, type Planned } from '../runner';
import { readWaitSettings } from '../options';
import {
	createImport,
	createsImport,
	inputFieldText,
	MAX_MAPPINGS_PER_IMPORT,
	readClientReference,
	readConfig,
	readField,
} from './imports';
import { barcodeParameter } from './createBarcode.description';

/** The mappings the input items give, with the item each came from; refused items aside. */
interface Mappings {
	mappings: IDataObject[];
	sources: number[];
	refused: Planned[];
}

/** An input item's field as messages name it: its name, and the parameter that names it. */
const inputField = (field: string, parameter: string) =>
	`"${field}" (${barcodeParameter(parameter).displayName})`;

/** The input item fields the mappings are read from (Force Sync's: none, not sent). */
interface MappingFields {
	sku: string;
	barcode: string;
	forceSync?: string;
}

/**
 * The force_sync of input item `i` (only true is sent, as Define Below sends it), or why not. A
 * blank cell (no value, or only spaces) says nothing: not forced, as a sheet leaves it.
 */
function forceSyncOf(json: IDataObject, i: number, field: string): IDataObject | string {
	const value = readField(json, field);
	if (value === undefined || value === null || (typeof value === 'string' && !value.trim())) {
		return {};
	}
	const problem = booleanProblem(
		value,
		`Input item ${i}: the field ${inputField(field, 'forceSyncField')}`,
	);
	if (problem) return problem;
	return parseBoolean(value) ? { force_sync: true } : {};
}

/** The mapping of input item `i`, or why it has none. */
function mappingOf(json: IDataObject, i: number, fields: MappingFields): IDataObject | string {
	const { sku: skuField, barcode: barcodeField } = fields;
	const rawSku = readField(json, skuField);
	const rawBarcode = readField(json, barcodeField);
	const problem =
		textProblem(rawSku, `Input item ${i}: the field ${inputField(skuField, 'partnerSkuField')}`) ??
		textProblem(
			rawBarcode,
			`Input item ${i}: the field ${inputField(barcodeField, 'barcodeField')}`,
		);
	if (problem) return problem;
	const partnerSku = inputFieldText(rawSku);
	const barcode = inputFieldText(rawBarcode);
	const missing = !partnerSku
		? inputField(skuField, 'partnerSkuField')
		: !barcode
			? inputField(barcodeField, 'barcodeField')
			: '';
	if (missing) {
		return `Input item ${i} has no value in the field ${missing}: every mapping needs partner_sku and barcode`;
	}
	const forceSync = fields.forceSync === undefined ? {} : forceSyncOf(json, i, fields.forceSync);
	if (typeof forceSync === 'string') return forceSync;
	return { partner_sku: partnerSku, barcode, ...forceSync };
}

/** Reads every input item's mapping; an item without one is refused (see the runner). */
function readMappings(ctx: IExecuteFunctions, itemCount: number): Mappings {
	const items = ctx.getInputData();
	const fields: MappingFields = {
		sku: readRequiredText(ctx, barcodeParameter('partnerSkuField'), 0),
		barcode: readRequiredText(ctx, barcodeParameter('barcodeField'), 0),
		forceSync: readOptionalText(ctx, barcodeParameter('forceSyncField'), 0),
	};
	const read: Mappings = { mappings: [], sources: [], refused: [] };
	for (let i = 0; i < itemCount; i++) {
		const mapping = mappingOf(items[i].json, i, fields);
		if (typeof mapping === 'string') {
			read.refused.push(throwUnlessContinueOnFail(ctx, invalidParameter(ctx, i, mapping), i));
			continue;
		}
		read.mappings.push(mapping);
		read.sources.push(i);
	}
	return read;
}

/**
 * All input items become mappings of one import, or of several when there are more than
 * 10,000: one task per import, paired with the items it carries, sent one after the other.
 */
export function importFromInputItems(ctx: IExecuteFunctions, itemCount: number): Planned[] {
	const { mappings, sources, refused } = readMappings(ctx, itemCount);
	const planned: Planned[] = [...refused];
	if (!mappings.length) return planned;

	const chunks = Math.ceil(mappings.length / MAX_MAPPINGS_PER_IMPORT);
	const suffixLength = chunks > 1 ? String(chunks).length + 1 : 0;
	const reference = readClientReference(ctx, 0, suffixLength);
	const config = readConfig(ctx, 0);
	const wait = readWaitSettings(ctx, 0);
	for (let chunk = 0; chunk < chunks; chunk++) {
		const from = chunk * MAX_MAPPINGS_PER_IMPORT;
		const to = Math.min(from + MAX_MAPPINGS_PER_IMPORT, mappings.length);
		const body: IDataObject = {
			items: { data: mappings.slice(from, to) },
			client_reference: chunks > 1 ? `${reference}-${chunk + 1}` : reference,
		};
		if (config) body.config = config;
		planned.push({
			items: sources.slice(from, to),
			sequential: true,
			creates: createsImport,
			send: async () => ({ json: await createImport(ctx, body, wait, sources[from]) }),
		});
	}
	return planned;
}
