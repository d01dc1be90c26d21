import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { shown } from '../../../shared';
import { concurrencyOption, optionsCollection, readWaitSettings, waitOptions } from '../options';
import { checkedOption, invalidParameter, requiredTextParameter } from '../parameters';
import { perItem, type Planned, type Task } from '../runner';
import { importFromInputItems } from './fromInputItems';
import {
	createImport,
	createsImport,
	isImportFileUrl,
	mappingsDefinedBelow,
	readClientReference,
	readConfig,
} from './imports';

const show = { resource: ['import'], operation: ['createBarcode'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Source',
		name: 'source',
		type: 'options',
		options: [
			{
				name: 'Mappings',
				value: 'items',
				description:
					'Barcode mappings sent with the request (defined below or taken from the input items)',
			},
			{
				name: 'File URL',
				value: 'fileUrl',
				description: 'A CSV, TSV, XLSX, JSON or Parquet file the service fetches',
			},
			{
				name: 'Data Warehouse Table',
				value: 'bqTable',
				description: 'A data-warehouse table holding the mappings',
			},
		],
		default: 'items',
		description: 'Where the mappings come from: exactly one source per import',
		displayOptions: { show },
	},
	{
		displayName: 'Mappings Input',
		name: 'itemsInput',
		type: 'options',
		options: [
			{
				name: 'From Input Items',
				value: 'fromInputItems',
				description:
					'Every input item is one mapping; all items of the run make one import (split into imports of at most 10,000)',
			},
			{
				name: 'Define Below',
				value: 'defineBelow',
				description: 'Type the mappings of each import in the node',
			},
		],
		default: 'fromInputItems',
		displayOptions: { show: { ...show, source: ['items'] } },
	},
	{
		displayName: 'Partner SKU Field',
		name: 'partnerSkuField',
		type: 'string',
		default: 'partner_sku',
		required: true,
		description:
			'Name of the input item field holding the partner SKU (dots reach into nested fields)',
		displayOptions: { show: { ...show, source: ['items'], itemsInput: ['fromInputItems'] } },
	},
	{
		displayName: 'Barcode Field',
		name: 'barcodeField',
		type: 'string',
		default: 'barcode',
		required: true,
		description:
			'Name of the input item field holding the barcode, UPC or ISBN (dots reach into nested fields)',
		displayOptions: { show: { ...show, source: ['items'], itemsInput: ['fromInputItems'] } },
	},
	{
		displayName: 'Mappings',
		name: 'mappings',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add mapping',
		displayOptions: { show: { ...show, source: ['items'], itemsInput: ['defineBelow'] } },
		options: [
			{
				displayName: 'Mapping',
				name: 'mapping',
				values: [
					{
						displayName: 'Partner SKU',
						name: 'partnerSku',
						type: 'string',
						default: '',
						description: 'A SKU that already exists in your catalog',
					},
					{
						displayName: 'Barcode',
						name: 'barcode',
						type: 'string',
						default: '',
						description: 'The barcode, UPC or ISBN of the product',
					},
					{
						displayName: 'Force Sync',
						name: 'forceSync',
						type: 'boolean',
						default: false,
						description:
							'Whether to override an existing mapping between the same barcode and partner SKU',
					},
				],
			},
		],
	},
	{
		displayName: 'File URL',
		name: 'fileUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. https://example.com/barcodes.csv or gs://bucket/barcodes.csv',
		description:
			'HTTP(S) address or cloud storage path (gs://, s3://) of a CSV, TSV, XLSX, JSON or Parquet file',
		displayOptions: { show: { ...show, source: ['fileUrl'] } },
	},
	{
		displayName: 'Data Warehouse Table',
		name: 'bqTable',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. project.dataset.barcodes',
		description: 'Reference to the data-warehouse table holding the mappings',
		displayOptions: { show: { ...show, source: ['bqTable'] } },
	},
	{
		displayName: 'Client Reference',
		name: 'clientReference',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. barcodes-{{ $now.toFormat("yyyyMMdd-HHmm") }}',
		description:
			'Your own unique reference of the import, at most 100 characters. When From Input Items needs several imports, they get -1, -2, … appended. Running exactly the same import again (same source, settings and mappings, in the same order) finds the one made before; a reference already used for other data, or for mappings this n8n has no record of sending, is refused.',
		displayOptions: { show },
	},
	{
		displayName: 'Import Settings',
		name: 'config',
		type: 'collection',
		placeholder: 'Add setting',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Notify on Completion',
				name: 'isNotificationRequired',
				type: 'boolean',
				default: false,
				description: 'Whether the service sends a notification when the import completes',
			},
			{
				displayName: 'Force Sync',
				name: 'forceSync',
				type: 'boolean',
				default: false,
				description: 'Whether to overwrite existing mappings for the whole import',
			},
		],
	},
	optionsCollection(show, [concurrencyOption, ...waitOptions]),
];

/** Every import needs its own client_reference: checked across the run before sending. */
const uniqueReference = (body: IDataObject): Task['unique'] => ({
	value: String(body.client_reference),
	parameter: 'The parameter "Client Reference" (clientReference)',
	rule: 'every import needs its own client_reference',
});

/** One import per input item, from the mappings, file or table it names. */
const importPerItem = perItem(function (this: IExecuteFunctions, itemIndex) {
	const source = this.getNodeParameter('source', itemIndex, 'items') as unknown;
	const body: IDataObject = {};
	if (source === 'items') {
		body.items = { data: mappingsDefinedBelow(this, itemIndex) };
	} else if (source === 'fileUrl') {
		const fileUrl = requiredTextParameter(this, 'fileUrl', 'File URL', itemIndex);
		if (!isImportFileUrl(fileUrl)) {
			throw invalidParameter(
				this,
				itemIndex,
				'The parameter "File URL" (fileUrl) must be an http(s) address or a cloud storage path (gs://bucket/file, s3://bucket/file)',
			);
		}
		body.file_url = fileUrl;
	} else if (source === 'bqTable') {
		body.bq_table = requiredTextParameter(this, 'bqTable', 'Data Warehouse Table', itemIndex);
	} else {
		throw invalidParameter(
			this,
			itemIndex,
			`The parameter "Source" (source) must be one of items, fileUrl, bqTable: an import needs exactly one source, got ${shown(source)}`,
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
	const fromInputItems =
		this.getNodeParameter('source', 0, 'items') === 'items' &&
		checkedOption(
			this,
			0,
			this.getNodeParameter('itemsInput', 0, 'fromInputItems'),
			'The parameter "Mappings Input" (itemsInput)',
			['fromInputItems', 'defineBelow'],
			'fromInputItems',
		) === 'fromInputItems';
	return fromInputItems
		? importFromInputItems(this, itemCount)
		: await importPerItem.call(this, itemCount);
}
