/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * A minimal client of the emulator for its own tests and for scripts: logs in with a credential
 * (RS256 JWT, every cookie kept) and calls operations, returning status, headers and parsed body.
 * The package's real client lives in `nodes/`; this one only exists to exercise the emulator.
 */
import { createPrivateKey, randomUUID } from 'node:crypto';

import { SignJWT } from 'jose';

import { LOGIN_PATH } from './auth';
import type { AddFbpiOrdersOptions, FbpiOrderQuirks } from './state/fbpiOrders';
import type { CredentialFile } from './types';

export const TEST_USER_AGENT = 'n8n-nodes-seller-platform-emulator-test';

export interface CallResult<T = any> {
	status: number;
	headers: Headers;
	body: T;
}

export function signLoginToken(
	credential: Pick<CredentialFile, 'key_id' | 'private_key'>,
): Promise<string> {
	return new SignJWT({ jti: randomUUID() })
		.setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
		.setSubject(credential.key_id)
		.setIssuedAt(Math.floor(Date.now() / 1000))
		.sign(createPrivateKey(credential.private_key));
}

export class EmulatorClient {
	private cookie = '';

	constructor(
		readonly baseUrl: string,
		readonly credential: CredentialFile,
	) {}

	/** Logs in; returns the login's status (the session is kept on 200). */
	async login(): Promise<CallResult> {
		const res = await this.raw('POST', LOGIN_PATH, {
			token: await signLoginToken(this.credential),
			default_project_code: this.credential.project_code,
		});
		if (res.status === 200) {
			this.cookie = res.headers
				.getSetCookie()
				.map((cookie) => cookie.split(';')[0])
				.join('; ');
		}
		return res;
	}

	/** Calls an operation with the session's cookies (and any other headers). */
	call<T = any>(
		method: 'GET' | 'POST' | 'PUT',
		path: string,
		body?: unknown,
		headers: Record<string, string> = {},
	): Promise<CallResult<T>> {
		return this.raw(method, path, body, { cookie: this.cookie, ...headers });
	}

	async raw<T = any>(
		method: string,
		path: string,
		body?: unknown,
		headers: Record<string, string> = {},
	): Promise<CallResult<T>> {
		const res = await fetch(`${this.baseUrl}${path}`, {
			method,
			headers: {
				'user-agent': TEST_USER_AGENT,
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
				...headers,
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		let parsed: unknown = text;
		if ((res.headers.get('content-type') ?? '').startsWith('application/json'))
			parsed = text ? JSON.parse(text) : null;
		return { status: res.status, headers: res.headers, body: parsed as T };
	}
}

/**
 * The control API over HTTP (`controlUrl`, e.g. `emulator.controlUrl`), for a test or script that
 * drives an emulator in another process. Each call answers as `EmulatorClient.call` does (a
 * refused input: 400 with the error body).
 */
export class ControlClient {
	constructor(readonly controlUrl: string) {}

	async call<T = any>(method: string, path: string, body?: unknown): Promise<CallResult<T>> {
		const res = await fetch(`${this.controlUrl}${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		return {
			status: res.status,
			headers: res.headers,
			body: (text ? JSON.parse(text) : null) as T,
		};
	}

	/** `POST /fbpi-orders`: adds orders (`listedFrom`: listed late); answers them. */
	addFbpiOrders(options: AddFbpiOrdersOptions = {}): Promise<CallResult> {
		return this.call('POST', '/fbpi-orders', options);
	}

	/** `POST /fbpi-orders/quirks`: the project's quirks from now on (`null`: none). */
	setFbpiOrderQuirks(quirks: FbpiOrderQuirks | null): Promise<CallResult> {
		return this.call('POST', '/fbpi-orders/quirks', quirks);
	}

	/** `POST /fbpi-orders/tokens/expire`: every ListFbpiOrders token issued so far is refused. */
	expireFbpiOrderTokens(projectCode?: string): Promise<CallResult> {
		return this.call(
			'POST',
			'/fbpi-orders/tokens/expire',
			projectCode === undefined ? {} : { projectCode },
		);
	}
}

/** Starts a client and logs it in; throws when the login fails. */
export async function loggedInClient(
	baseUrl: string,
	credential: CredentialFile,
): Promise<EmulatorClient> {
	const client = new EmulatorClient(baseUrl, credential);
	const res = await client.login();
	if (res.status !== 200)
		throw new Error(`login failed: HTTP ${res.status} ${JSON.stringify(res.body)}`);
	return client;
}
