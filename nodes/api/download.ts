/**
 * Downloads a file the service links to (an export's download_url). The link is a signed address,
 * often on another host, so the session cookie is NOT sent with it.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { USER_AGENT } from './constants';
import { apiError } from './errors';
import { RETRY_POLICY, withRetries } from './policy';

export interface DownloadedFile {
	data: Buffer;
	mimeType?: string;
	fileName?: string;
}

export async function downloadFile(
	this: IExecuteFunctions,
	url: string,
	itemIndex: number,
): Promise<DownloadedFile> {
	const response = (await withRetries(
		true,
		async () =>
			await this.helpers.httpRequest({
				method: 'GET',
				url,
				encoding: 'arraybuffer',
				returnFullResponse: true,
				headers: { 'User-Agent': USER_AGENT },
				timeout: RETRY_POLICY.requestTimeoutMs,
			}),
	).catch((error: unknown) => {
		throw apiError(error, { node: this.getNode(), operation: 'DownloadExport', itemIndex });
	})) as { body: ArrayBuffer | Buffer; headers: Record<string, string | undefined> };
	const headers = response.headers ?? {};
	const disposition = String(headers['content-disposition'] ?? '');
	const named = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
	const fromPath = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
	return {
		data: Buffer.from(response.body as ArrayBuffer),
		mimeType: headers['content-type']?.split(';')[0].trim(),
		fileName: named ?? (fromPath || undefined),
	};
}
