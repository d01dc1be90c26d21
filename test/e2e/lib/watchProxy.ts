/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * A loopback proxy in front of both ends of the soak (soak.e2e.ts): n8n's API requests to the
 * emulator, and the emulator's event deliveries to n8n's webhooks. It forwards each request as it
 * came and each answer as it came, and tells its listener when a request arrives and when its
 * answer has been sent: the moments at which the soak kills n8n (a listing, just after a listing's
 * answer, just after a delivery's answer). n8n's credential points at it (`baseUrl`) and so does
 * its webhook address (`N8N_WEBHOOK_URL`), so the trigger registers the destination at it.
 *
 * Paths under `/webhook/` and `/webhook-test/` go to n8n, everything else to the emulator. When n8n
 * is down, a delivery is answered 502 (what a reverse proxy answers), which the emulator retries.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Exchange {
	/** `api`: n8n to the emulator; `webhook`: a delivery from the emulator to n8n. */
	kind: 'api' | 'webhook';
	method: string;
	path: string;
	/** The emulator's operation for the API paths the soak watches; undefined for the others. */
	operation?: 'ListFbpiOrders' | 'GetFbpiOrder';
	requestBody: string;
	/** Set once answered: the status and body sent back (502 when the target did not answer). */
	status?: number;
	answerBody?: string;
	receivedAt: number;
	answeredAt?: number;
}

export interface WatchProxy {
	url: string;
	close(): Promise<void>;
}

export interface WatchProxyOptions {
	emulatorUrl: string;
	/** n8n's address (its port stays the same across restarts). */
	n8nUrl: string;
	/** A request arrived (before it is forwarded). */
	onRequest?: (exchange: Exchange) => void;
	/** Its answer was handed to the caller's socket. */
	onAnswered?: (exchange: Exchange) => void;
}

const TO_N8N = /^\/webhook(-test)?\//;

function operationOf(method: string, path: string): Exchange['operation'] {
	if (method === 'POST' && path.startsWith('/fbpi/v1/fbpi-orders/list')) return 'ListFbpiOrders';
	if (method === 'GET' && /^\/fbpi\/v1\/fbpi-order\/[^/]+\/get/.test(path)) return 'GetFbpiOrder';
	return undefined;
}

function readBody(stream: NodeJS.ReadableStream): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		stream.on('data', (chunk: Buffer) => chunks.push(chunk));
		stream.on('end', () => resolve(Buffer.concat(chunks)));
		stream.on('error', reject);
	});
}

/** One forwarded request: the target's status, headers and body (502 when it did not answer). */
function forward(
	target: URL,
	method: string,
	headers: IncomingHttpHeaders,
	body: Buffer,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
	return new Promise((resolve) => {
		const outgoing = request(
			target,
			{ method, headers: { ...headers, host: target.host }, agent: false },
			(answer) => {
				readBody(answer)
					.then((answerBody) =>
						resolve({
							status: answer.statusCode ?? 502,
							headers: answer.headers,
							body: answerBody,
						}),
					)
					.catch((error: Error) => resolve(badGateway(error)));
			},
		);
		outgoing.on('error', (error) => resolve(badGateway(error)));
		outgoing.end(body);
	});
}

const badGateway = (error: Error) => ({
	status: 502,
	headers: { 'content-type': 'text/plain' },
	body: Buffer.from(`proxy: ${error.message}`),
});

export async function startWatchProxy(options: WatchProxyOptions): Promise<WatchProxy> {
	const server: Server = createServer((req, res) => {
		const method = req.method ?? 'GET';
		// In origin form: n8n writes an absolute target (`GET http://host/path`) to an http:// Base URL.
		const target = new URL(req.url ?? '/', 'http://watch-proxy');
		const path = `${target.pathname}${target.search}`;
		const kind = TO_N8N.test(path) ? 'webhook' : 'api';
		void readBody(req).then(async (body) => {
			const exchange: Exchange = {
				kind,
				method,
				path,
				operation: kind === 'api' ? operationOf(method, path) : undefined,
				requestBody: body.toString(),
				receivedAt: Date.now(),
			};
			options.onRequest?.(exchange);
			const base = kind === 'webhook' ? options.n8nUrl : options.emulatorUrl;
			const answer = await forward(new URL(path, base), method, req.headers, body);
			exchange.status = answer.status;
			exchange.answerBody = answer.body.toString();
			const headers = { ...answer.headers };
			delete headers['transfer-encoding'];
			delete headers.connection;
			headers['content-length'] = String(answer.body.length);
			res.on('finish', () => {
				exchange.answeredAt = Date.now();
				options.onAnswered?.(exchange);
			});
			// The caller may be gone (n8n killed meanwhile): nothing to answer then.
			res.on('error', () => undefined);
			res.writeHead(answer.status, headers);
			res.end(answer.body);
		});
	});
	server.keepAliveTimeout = 1000;
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
