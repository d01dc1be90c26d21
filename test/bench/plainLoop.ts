/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/** The baseline of benchmark 2: a plain HTTP loop with a fixed number of workers. */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface PlainLoopResult {
	requests: number;
	failures: number;
	wallMs: number;
	perSecond: number;
}

/**
 * GETs every URL once with `concurrency` workers, reading and parsing each JSON body (as the
 * node does). `keepAlive: false` opens a new connection per request.
 */
export async function plainLoop(
	urls: string[],
	headers: Record<string, string>,
	concurrency: number,
	keepAlive = true,
): Promise<PlainLoopResult> {
	const agent = new http.Agent({ keepAlive, maxSockets: concurrency });
	let next = 0;
	let failures = 0;
	const get = async (url: string) =>
		await new Promise<void>((resolve, reject) => {
			const request = http.request(url, { method: 'GET', agent, headers }, (response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () => {
					try {
						JSON.parse(Buffer.concat(chunks).toString('utf8'));
						if (response.statusCode !== 200) failures++;
						resolve();
					} catch (error) {
						reject(error as Error);
					}
				});
				response.on('error', reject);
			});
			request.on('error', reject);
			request.end();
		});
	const worker = async () => {
		while (next < urls.length) await get(urls[next++]);
	};
	const started = performance.now();
	try {
		await Promise.all(Array.from({ length: Math.min(concurrency, urls.length) }, worker));
	} finally {
		agent.destroy();
	}
	const wallMs = performance.now() - started;
	return { requests: urls.length, failures, wallMs, perSecond: (urls.length * 1000) / wallMs };
}
