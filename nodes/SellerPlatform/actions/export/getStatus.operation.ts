import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	downloadFile,
	downloadTimeoutOption,
	MAX_DOWNLOAD_TIMEOUT_SECONDS,
	maxFileSizeOption,
	named,
	parseNumber,
	propertyIn,
} from '../../../shared';
import { readOptions } from '../options';
import { readBinaryPropertyField, readBooleanField, invalidParameter } from '../parameters';
import type { TaskOutput } from '../runner';
import { bodyFromFields } from '../shapes/bodyFromFields';
import { normaliseStatus } from '../wait';

/** Export statuses that will never produce a download link. */
export const FAILED_EXPORT_STATUSES = ['ERROR', 'FAILED', 'CANCELLED', 'CANCELED'];

/** Statuses after which nothing changes any more: done, or failed. */
export const FINAL_EXPORT_STATUSES = ['COMPLETE', 'COMPLETED', ...FAILED_EXPORT_STATUSES];

/** Final: a download link is there, or the export is done or failed. */
export function isExportFinal(record: IDataObject): boolean {
	return (
		Boolean(record.download_url) ||
		FINAL_EXPORT_STATUSES.includes(normaliseStatus(record.export_status, 'EXPORT_STATUS_'))
	);
}

/**
 * The options of the download of a finished export (the size cap and deadline: the shared layer's);
 * Export → Create offers them too, for its wait.
 */
export const downloadOptions: INodeProperties[] = [
	{
		displayName: 'Download File',
		name: 'download',
		type: 'boolean',
		default: false,
		description:
			'Whether to download the finished export into a binary property of the output item (the link is fetched without your session)',
	},
	{ ...maxFileSizeOption, displayOptions: { show: { download: [true] } } },
	{ ...downloadTimeoutOption, displayOptions: { show: { download: [true] } } },
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		hint: 'The name of the output binary field to put the file in',
		displayOptions: { show: { download: [true] } },
	},
];

export interface Download {
	/** The binary field the file goes into; undefined when no file is asked for. */
	field?: string;
	maxMegabytes: number;
	timeoutSeconds: number;
}

/** A positive number option (its default when unset) that passes `fits`; else the item fails. */
function positiveOption(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	name: string,
	rule: { fits: (value: number) => boolean; says: string; why?: string },
): number {
	const property = propertyIn(downloadOptions, name);
	const value = parseNumber(options[name]) ?? (property.default as number);
	if (!(value > 0) || !rule.fits(value)) {
		throw invalidParameter(ctx, itemIndex, `${named(property, 'option')} ${rule.says}`, rule.why);
	}
	return value;
}

/** The download options of an item, checked before anything is sent. */
export function readDownload(ctx: IExecuteFunctions, itemIndex: number): Download {
	const options = readOptions(ctx, itemIndex);
	const option = (name: string) => propertyIn(downloadOptions, name);
	const wanted = readBooleanField(ctx, itemIndex, options, option('download'), 'option');
	const field = wanted
		? readBinaryPropertyField(ctx, itemIndex, options, option('binaryPropertyName'))
		: undefined;
	const maxMegabytes = positiveOption(ctx, itemIndex, options, 'maxFileSizeMb', {
		fits: Number.isFinite,
		says: 'must be a positive number',
	});
	const timeoutSeconds = positiveOption(ctx, itemIndex, options, 'downloadTimeoutSeconds', {
		fits: (seconds) => seconds <= MAX_DOWNLOAD_TIMEOUT_SECONDS,
		says: `must be a positive number of at most ${MAX_DOWNLOAD_TIMEOUT_SECONDS} (one hour)`,
		why: `The maximum holds also for a value an expression gives: a download keeps one of this n8n's download places, shared with other users' credentials, while it runs. For a file that needs longer, download the link (download_url) with another node.`,
	});
	return { field, maxMegabytes, timeoutSeconds };
}

/** The status, with the file in its binary field when one is asked for and there is a link. */
export async function withFile(
	ctx: IExecuteFunctions,
	record: IDataObject,
	exportCode: string,
	download: Download,
	itemIndex: number,
): Promise<TaskOutput> {
	const { field, maxMegabytes, timeoutSeconds } = download;
	if (!field || typeof record.download_url !== 'string' || !record.download_url) {
		return { json: record };
	}
	const binary = await downloadFile.call(ctx, record.download_url, itemIndex, {
		maxBytes: maxMegabytes * 1024 * 1024,
		timeoutMs: timeoutSeconds * 1000,
		fallbackName: `${exportCode}.csv`,
	});
	return { json: record, binary: { [field]: binary } };
}

export const { description, plan } = bodyFromFields<Download>({
	show: { resource: 'export', operation: 'getStatus' },
	endpoint: 'GetExportStatus',
	before: readDownload,
	body: { export_code: 'exportCode' },
	waitUntil: isExportFinal,
	options: downloadOptions,
	properties: [
		{
			displayName: 'Export Code',
			name: 'exportCode',
			type: 'string',
			required: true,
			default: '',
			description: 'The export_code of the export to look at',
		},
	],
	output: async (ctx, record, { body, extra }, itemIndex) =>
		await withFile(ctx, record, String(body?.export_code), extra as Download, itemIndex),
});
