/**
 * The node options of an export download (download.ts), each with its default: the size cap and
 * the deadline of the whole file. The action node lists them among its download options; the
 * messages that name them read their labels here.
 */
import type { INodeProperties } from 'n8n-workflow';

export const maxFileSizeOption = {
	displayName: 'Max File Size (MB)',
	name: 'maxFileSizeMb',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 512,
	description:
		"Largest file to download; a larger one fails the item with a message saying so. The file streams into n8n's binary data (on disk where n8n keeps binary data in filesystem mode).",
} satisfies INodeProperties;

/**
 * The longest Download Timeout: a download holds one of the process's download places (download.ts)
 * at most this long, however slowly its server sends.
 */
export const MAX_DOWNLOAD_TIMEOUT_SECONDS = 3600;

/** The whole file within this. */
export const downloadTimeoutOption = {
	displayName: 'Download Timeout (Seconds)',
	name: 'downloadTimeoutSeconds',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_DOWNLOAD_TIMEOUT_SECONDS },
	default: 600,
	description: `Time for the whole download, from the first request to the last byte; a download still running then fails the item. At most ${MAX_DOWNLOAD_TIMEOUT_SECONDS} (one hour), also from an expression.`,
} satisfies INodeProperties;
