/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * A hostile "gateway" on 127.0.0.1, run by a co-tenant of a shared n8n: any credential can point
 * its Base URL at it (a loopback host counts as local). It logs anyone in (the signed login token
 * is never checked) and misbehaves by the first step of the Base URL's path:
 *
 * - `/throttle`: a small session; every other request is answered 429 with `Retry-After: 3600`;
 * - `/cookie`: every login sets a new session cookie of `HUGE_COOKIE_BYTES`; every other request
 *   is answered 401, so the node logs in again;
 * - `/endless`: a small session; Export → Get Status answers a finished export whose download
 *   link is here, and the file behind it never ends (a CSV row every 500 ms until the client goes).
 *
 * It records the logins and requests of each mode and the downloads open now. Bounded: the log
 * keeps the last 1,000 requests.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The Set-Cookie of each login of `/cookie`: about 15 KB, under Node's 16 KB header limit. */
export const HUGE_COOKIE_BYTES = 15_000;
export const HOSTILE_RETRY_AFTER_SECONDS = 3600;

export type HostileMode = 'throttle' | 'cookie' | 'endless';

export interface HostileRequest {
	mode: string;
	method: string;
	path: string;
	status: number;
	cookieBytes: number;
}

export interface HostileGateway {
	/** The Base URL of a credential that gets `mode`. */
	baseUrl(mode: HostileMode): string;
	/** Logins of a mode so far. */
	logins(mode: HostileMode): number;
	/** Requests but logins of a mode so far (the last 1,000 of all are kept). */
	requests(mode: HostileMode): HostileRequest[];
	/** Endless downloads open now, and opened in all. */
	downloads(): { open: number; opened: number };
	close(): Promise<void>;
}

const LOGIN_PATH = '/identity/public/v1/api/login';
const EXPORT_STATUS_PATH = '/impex/v1/export/status';
const FILES_PATH = '/files/';

function json(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string | string[]> = {},
) {
	res.writeHead(status, { 'content-type': 'application/json', ...headers });
	res.end(JSON.stringify(body));
}

/** The gateway's error body (gRPC status), as the real one answers. */
const errorBody = (statusId: number, statusCode: string, message: string) => ({
	status_id: statusId,
	status_code: statusCode,
	message,
	details: [],
});

export async function startHostileGateway(): Promise<HostileGateway> {
	const log: HostileRequest[] = [];
	const loginCount = new Map<string, number>();
	let open = 0;
	let opened = 0;
	let origin = '';

	const server = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
		const url = new URL(req.url ?? '/', 'http://hostile');
		const [, mode = '', ...rest] = url.pathname.split('/');
		const path = `/${rest.join('/')}`;
		const cookieBytes = Buffer.byteLength(String(req.headers.cookie ?? ''));
		let body = '';
		req.on('data', (chunk: Buffer) => {
			if (body.length < 100_000) body += chunk.toString();
		});
		req.on('end', () => {
			const record = (status: number) => {
				log.push({ mode, method: req.method ?? '', path, status, cookieBytes });
				if (log.length > 1000) log.shift();
			};
			if (req.method === 'POST' && path === LOGIN_PATH) {
				loginCount.set(mode, (loginCount.get(mode) ?? 0) + 1);
				const value = randomBytes(mode === 'cookie' ? HUGE_COOKIE_BYTES : 24)
					.toString('base64url')
					.slice(0, mode === 'cookie' ? HUGE_COOKIE_BYTES : 32);
				json(res, 200, {}, { 'set-cookie': [`hostile_session=${value}; Path=/; HttpOnly`] });
				return;
			}
			if (mode === 'throttle') {
				record(429);
				json(res, 429, errorBody(8, 'RESOURCE_EXHAUSTED', 'rate plan exceeded'), {
					'retry-after': String(HOSTILE_RETRY_AFTER_SECONDS),
				});
				return;
			}
			if (mode === 'cookie') {
				record(401);
				json(res, 401, errorBody(16, 'UNAUTHENTICATED', 'session expired'));
				return;
			}
			if (mode === 'endless' && req.method === 'POST' && path === EXPORT_STATUS_PATH) {
				record(200);
				let exportCode = 'EXP-0';
				try {
					exportCode = String((JSON.parse(body) as { export_code?: unknown }).export_code);
				} catch {
					// keep the default
				}
				json(res, 200, {
					export_code: exportCode,
					export_category_code: 'ORDERS',
					export_status: 'COMPLETE',
					download_url: `${origin}/endless${FILES_PATH}${encodeURIComponent(exportCode)}.csv`,
					created_at: new Date().toISOString(),
					updated_at: new Date().toISOString(),
				});
				return;
			}
			if (mode === 'endless' && req.method === 'GET' && path.startsWith(FILES_PATH)) {
				record(200);
				open++;
				opened++;
				res.writeHead(200, { 'content-type': 'text/csv' });
				res.write('order_nr,status\n');
				let row = 0;
				const timer = setInterval(() => res.write(`NAE${++row},SHIPPED\n`), 500);
				res.on('close', () => {
					clearInterval(timer);
					open--;
				});
				return;
			}
			record(404);
			json(res, 404, errorBody(5, 'NOT_FOUND', 'not found'));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		baseUrl: (mode) => `${origin}/${mode}`,
		logins: (mode) => loginCount.get(mode) ?? 0,
		requests: (mode) => log.filter((entry) => entry.mode === mode),
		downloads: () => ({ open, opened }),
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
