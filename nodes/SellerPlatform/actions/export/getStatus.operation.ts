import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	apiRequest,
	DEFAULT_DOWNLOAD_TIMEOUT_SECONDS,
	DEFAULT_MAX_DOWNLOAD_MB,
	downloadFile,
	MAX_TIMER_MS,
	parseNumber,
} from '../../../shared';
import { concurrencyOption, optionsCollection, readWaitSettings, waitOptions } from '../options';
import {
	binaryFieldOption,
	checkedBoolean,
	collectionParameter,
	invalidParameter,
	requiredTextParameter,
} from '../parameters';
import { perItem } from '../runner';
import { normaliseStatus, pollUntilFinal } from '../wait';

const show = { resource: ['export'], operation: ['getStatus'] };

/** Export statuses that will never produce a download link. */
export const FAILED_EXPORT_STATUSES = ['ERROR', 'FAILED', 'CANCELLED', 'CANCELED'];

export const description: INodeProperties[] = [
	{
		displayName: 'Export Code',
		name: 'exportCode',
		type: 'string',
		required: true,
		default: '',
		description: 'The export_code of the export to look at',
		displayOptions: { show },
	},
	optionsCollection(show, [
		concurrencyOption,
		...waitOptions,
		{
			displayName: 'Download File',
			name: 'download',
			type: 'boolean',
			default: false,
			description:
				'Whether to download the finished export into a binary property of the output item (the link is fetched without your session)',
		},
		{
			displayName: 'Max File Size (MB)',
			name: 'maxFileSizeMb',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_MAX_DOWNLOAD_MB,
			description:
				"Largest file to download; a larger one fails the item with a message saying so. The file streams into n8n's binary data (on disk where n8n keeps binary data in filesystem mode).",
			displayOptions: { show: { download: [true] } },
		},
		{
			displayName: 'Download Timeout (Seconds)',
			name: 'downloadTimeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_DOWNLOAD_TIMEOUT_SECONDS,
			description:
				'Time for the whole download, from the first request to the last byte; a download still running then fails the item',
			displayOptions: { show: { download: [true] } },
		},
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			hint: 'The name of the output binary field to put the file in',
			displayOptions: { show: { download: [true] } },
		},
	]),
];

/** Statuses after which nothing changes any more: done, or failed. */
export const FINAL_EXPORT_STATUSES = ['COMPLETE', 'COMPLETED', ...FAILED_EXPORT_STATUSES];

/** Final: a download link is there, or the export is done or failed. */
export function isExportFinal(record: IDataObject): boolean {
	return (
		Boolean(record.download_url) ||
		FINAL_EXPORT_STATUSES.includes(normaliseStatus(record.export_status, 'EXPORT_STATUS_'))
	);
}

export const plan = perItem(function (this: IExecuteFunctions, itemIndex) {
	const options = collectionParameter(this, 'options', 'Options', itemIndex);
	const wanted = checkedBoolean(
		this,
		itemIndex,
		options.download,
		'The option "Download File" (download)',
		false,
	);
	const download = wanted
		? binaryFieldOption(this, itemIndex, options, 'Put Output File in Field', 'data')
		: undefined;
	const maxMegabytes = parseNumber(options.maxFileSizeMb) ?? DEFAULT_MAX_DOWNLOAD_MB;
	if (!(maxMegabytes > 0) || !Number.isFinite(maxMegabytes)) {
		throw invalidParameter(
			this,
			itemIndex,
			'The option "Max File Size (MB)" (maxFileSizeMb) must be a positive number',
		);
	}
	const timeoutSeconds =
		parseNumber(options.downloadTimeoutSeconds) ?? DEFAULT_DOWNLOAD_TIMEOUT_SECONDS;
	if (!(timeoutSeconds > 0) || timeoutSeconds * 1000 > MAX_TIMER_MS) {
		throw invalidParameter(
			this,
			itemIndex,
			`The option "Download Timeout (Seconds)" (downloadTimeoutSeconds) must be a positive number of at most ${Math.floor(MAX_TIMER_MS / 1000)}`,
		);
	}
	const exportCode = requiredTextParameter(this, 'exportCode', 'Export Code', itemIndex);
	const wait = readWaitSettings(this, itemIndex);
	return {
		send: async () => {
			const fetchStatus = async () =>
				await apiRequest.call(this, 'GetExportStatus', {
					body: { export_code: exportCode },
					itemIndex,
				});
			const record = await pollUntilFinal(fetchStatus, isExportFinal, wait);
			if (!download || typeof record.download_url !== 'string' || !record.download_url)
				return { json: record };

			const binary = await downloadFile.call(this, record.download_url, itemIndex, {
				maxBytes: maxMegabytes * 1024 * 1024,
				timeoutMs: timeoutSeconds * 1000,
				fallbackName: `${exportCode}.csv`,
			});
			return { json: record, binary: { [download]: binary } };
		},
	};
});
