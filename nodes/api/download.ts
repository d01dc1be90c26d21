/**
 * Downloads a file the service links to (an export's download_url) straight into n8n's binary
 * data, as a stream: where n8n keeps binary data on disk (filesystem mode) the file never sits in
 * memory. A size cap ends it with a clear error. The link is a signed address, often on another
 * host, so the session cookie is NOT sent with it.
 */
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { abortable } from './abort';
import { USER_AGENT } from './constants';
import { apiError, PolicyStop } from './errors';
import { RETRY_POLICY, withRetries } from './policy';
import { runPolicy } from './request';

/** Default of the "Max File Size (MB)" option. */
export const DEFAULT_MAX_DOWNLOAD_MB = 512;

type Body = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0] & {
	push(chunk: unknown, encoding?: BufferEncoding): boolean;
	destroy(error?: Error): unknown;
};

interface Response {
	body: Body;
	headers: Record<string, string | undefined>;
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

function tooLarge(maxBytes: number, seen: string) {
	return new PolicyStop(
		`The export file is larger than the maximum of ${megabytes(maxBytes)} (${seen})`,
		'Raise the option "Max File Size (MB)" to download it, or download the link (download_url) elsewhere.',
	);
}

export async function downloadFile(
	this: IExecuteFunctions,
	url: string,
	itemIndex: number,
	options: { maxBytes?: number; fallbackName: string },
): Promise<IBinaryData> {
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_DOWNLOAD_MB * 1024 * 1024;
	const policy = runPolicy(this);
	const signal = policy.signal;
	const context = { node: this.getNode(), operation: 'DownloadExport', itemIndex };
	let response: Response;
	try {
		response = (await withRetries(
			true,
			async () =>
				await this.helpers.httpRequest({
					method: 'GET',
					url,
					encoding: 'stream',
					returnFullResponse: true,
					headers: { 'User-Agent': USER_AGENT },
					timeout: RETRY_POLICY.requestTimeoutMs,
					abortSignal: signal,
				}),
			policy,
		)) as Response;
	} catch (error) {
		throw apiError(error, context);
	}
	const { body, headers } = response;
	const declared = Number(headers['content-length']);
	if (Number.isFinite(declared) && declared > maxBytes) {
		body.destroy();
		throw apiError(tooLarge(maxBytes, `${megabytes(declared)} announced`), context);
	}
	// Count the bytes as they arrive, without changing how the stream flows: n8n reads it later.
	let received = 0;
	let overflow: PolicyStop | undefined;
	const push = body.push.bind(body);
	body.push = (chunk: unknown, encoding?: BufferEncoding) => {
		received += chunk instanceof Buffer || typeof chunk === 'string' ? chunk.length : 0;
		if (received > maxBytes) {
			overflow ??= tooLarge(maxBytes, `more than ${megabytes(maxBytes)} received`);
			body.destroy(overflow);
			return false;
		}
		return push(chunk, encoding);
	};

	const disposition = String(headers['content-disposition'] ?? '');
	const named = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
	const fromPath = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
	const mimeType = headers['content-type']?.split(';')[0].trim();
	try {
		return await abortable(
			this.helpers.prepareBinaryData(body, named ?? (fromPath || options.fallbackName), mimeType),
			signal,
		);
	} catch (error) {
		body.destroy();
		throw apiError(overflow ?? error, context);
	}
}
