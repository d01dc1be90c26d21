/**
 * The parameters of Import → Create Barcode Import, which the operation and the readers of
 * imports.ts and fromInputItems.ts read their labels, defaults and allowed values from.
 */
import type { INodeProperties } from 'n8n-workflow';

import { propertyIn } from '../../../shared';

/** The spec's limit of characters of client_reference. */
export const MAX_CLIENT_REFERENCE_LENGTH = 100;

export const properties: INodeProperties[] = [
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
		displayOptions: { show: { source: ['items'] } },
	},
	{
		displayName: 'Partner SKU Field',
		name: 'partnerSkuField',
		type: 'string',
		default: 'partner_sku',
		required: true,
		description:
			'Name of the input item field holding the partner SKU (dots reach into nested fields)',
		displayOptions: { show: { source: ['items'], itemsInput: ['fromInputItems'] } },
	},
	{
		displayName: 'Barcode Field',
		name: 'barcodeField',
		type: 'string',
		default: 'barcode',
		required: true,
		description:
			'Name of the input item field holding the barcode, UPC or ISBN (dots reach into nested fields)',
		displayOptions: { show: { source: ['items'], itemsInput: ['fromInputItems'] } },
	},
	{
		displayName: 'Force Sync Field',
		name: 'forceSyncField',
		type: 'string',
		default: '',
		placeholder: 'e.g. force_sync',
		description:
			'Name of the input item field saying whether to override an existing mapping between the same barcode and partner SKU (force_sync of that mapping): true or false, or the text "true" / "false" (a blank or missing value: not forced); any other value fails the item. Leave empty to send no force_sync (dots reach into nested fields).',
		displayOptions: { show: { source: ['items'], itemsInput: ['fromInputItems'] } },
	},
	{
		displayName: 'Mappings',
		name: 'mappings',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add mapping',
		displayOptions: { show: { source: ['items'], itemsInput: ['defineBelow'] } },
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
		displayOptions: { show: { source: ['fileUrl'] } },
	},
	{
		displayName: 'Data Warehouse Table',
		name: 'bqTable',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. project.dataset.barcodes',
		description: 'Reference to the data-warehouse table holding the mappings',
		displayOptions: { show: { source: ['bqTable'] } },
	},
	{
		displayName: 'Client Reference',
		name: 'clientReference',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. barcodes-{{ $now.toFormat("yyyyMMdd-HHmm") }}',
		description: `Your own unique reference of the import, at most ${MAX_CLIENT_REFERENCE_LENGTH} characters. When From Input Items needs several imports, they get -1, -2, … appended. Running exactly the same import again (same source, settings and mappings, in the same order) finds the one made before; a reference already used for other data, or for mappings this n8n has no record of sending, is refused.`,
	},
	{
		displayName: 'Import Settings',
		name: 'config',
		type: 'collection',
		placeholder: 'Add setting',
		default: {},
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
];

/** A parameter of Create Barcode Import by its name. */
export const barcodeParameter = (name: string) => propertyIn(properties, name);
