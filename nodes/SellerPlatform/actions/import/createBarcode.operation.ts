import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { allowedValues, named, shown } from '../../../shared';
import { readWaitSettings } from '../options';
import { invalidParameter, readOption, readRequiredText } from '../parameters';
import { perItem, type Planned, type Task } from '../runner';
import { describe } from '../shapes/declaration';
import { barcodeParameter, properties } from './createBarcode.description';
import { importFromInputItems } from './fromInputItems';
import {
	createImport,
	createsImport,
	isImportFileUrl,
	isImportFinal,
	mappingsDefinedBelow,
	readClientReference,
	readConfig,
} from './imports';

export const description = describe({
	show: { resource: 'import', operation: 'createBarcode' },
	properties,
	waitUntil: isImportFinal,
});

/** Every import needs its own client_reference: checked across the run before sending. */
const uniqueReference = (body: IDataObject): Task['unique'] => ({
	value: String(body.client_reference),
	parameter: named(barcodeParameter('clientReference')),
	rule: 'every import needs its own client_reference',
});

/** One import per input item, from the mappings, file or table it names. */
const importPerItem = perItem(function (this: IExecuteFunctions, itemIndex) {
	const sourceParameter = barcodeParameter('source');
	const source = this.getNodeParameter(
		sourceParameter.name,
		itemIndex,
		sourceParameter.default,
	) as unknown;
	const body: IDataObject = {};
	if (source === 'items') {
		body.items = { data: mappingsDefinedBelow(this, itemIndex) };
	} else if (source === 'fileUrl') {
		const fileUrlParameter = barcodeParameter('fileUrl');
		const fileUrl = readRequiredText(this, fileUrlParameter, itemIndex);
		if (!isImportFileUrl(fileUrl)) {
			throw invalidParameter(
				this,
				itemIndex,
				`${named(fileUrlParameter)} must be an http(s) address or a cloud storage path (gs://bucket/file, s3://bucket/file)`,
			);
		}
		body.file_url = fileUrl;
	} else if (source === 'bqTable') {
		body.bq_table = readRequiredText(this, barcodeParameter('bqTable'), itemIndex);
	} else {
		throw invalidParameter(
			this,
			itemIndex,
			`${named(sourceParameter)} must be one of ${allowedValues(sourceParameter).join(', ')}: an import needs exactly one source, got ${shown(source)}`,
		);
	}
	body.client_reference = readClientReference(this, itemIndex);
	const config = readConfig(this, itemIndex);
	if (config) body.config = config;
	const wait = readWaitSettings(this, itemIndex);
	return {
		unique: uniqueReference(body),
		creates: createsImport,
		send: async () => ({ json: await createImport(this, body, wait, itemIndex) }),
	};
});

export async function plan(this: IExecuteFunctions, itemCount: number): Promise<Planned[]> {
	const source = barcodeParameter('source');
	const fromInputItems =
		this.getNodeParameter(source.name, 0, source.default) === 'items' &&
		readOption(this, barcodeParameter('itemsInput'), 0) === 'fromInputItems';
	return fromInputItems
		? importFromInputItems(this, itemCount)
		: await importPerItem.call(this, itemCount);
}
