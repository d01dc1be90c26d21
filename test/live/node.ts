/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The one way the live suite reaches a gateway: a test-only node that sends one endpoint's request
 * with the package's own parts, from dist/: the credential's connection settings, the endpoint
 * table, the URL and service prefixes, the User-Agent, the login token, and n8n's authenticated
 * request, which logs in with the credential (RS256 JWT) and sends its session cookies, as the
 * Seller Platform node does. It gives the whole answer (status, headers, body) and never repeats
 * nor turns it into an error, unlike the node's request pipeline: the suite records what the
 * gateway said, 429s included. `Login` posts the login itself, so its Set-Cookie can be recorded.
 * Like the package, it gives each request a deadline for its whole answer and reads at most 16 MB.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { loginBody } from '../../dist/nodes/shared/auth/token';
import { deadline, withinDeadline, withSignal } from '../../dist/nodes/shared/common/abort';
import { CREDENTIAL_TYPE, LOGIN_PATH, USER_AGENT } from '../../dist/nodes/shared/common/constants';
import { readCapped } from '../../dist/nodes/shared/gateway/answer';
import { ENDPOINTS, type Endpoint } from '../../dist/nodes/shared/gateway/endpoints';
import { buildUrl, joinUrl } from '../../dist/nodes/shared/gateway/url';
import { connectionSettings } from '../../dist/nodes/shared/transport/settings';

export const LIVE_NODE_TYPE = 'sellerPlatformLive';

/** One request: an endpoint of the package's table (or `Login`) and what fills it. */
export interface LiveRequest {
	endpoint: Endpoint | 'Login';
	pathParams?: Record<string, string>;
	query?: Record<string, string>;
	body?: IDataObject;
	/** The deadline of the whole answer, body included (a gateway that never answers or trickles). */
	timeoutMs: number;
}

/** The whole answer, as the gateway gave it (headers by lower-case name). */
export interface LiveAnswer {
	status: number;
	headers: Record<string, unknown>;
	body: unknown;
}

/**
 * The request within its deadline (`timeoutMs` for the whole answer), its body read up to the
 * package's cap (`MAX_ANSWER_MB`, decoded) as the package reads it, then parsed when it is JSON.
 */
async function send(ctx: IExecuteFunctions, request: LiveRequest): Promise<LiveAnswer> {
	const seconds = request.timeoutMs / 1000;
	return await withinDeadline(
		deadline(request.timeoutMs),
		async (signal) => {
			const own = new AbortController();
			const answer = await sendWith(ctx, request, AbortSignal.any([signal, own.signal]));
			const text = await readCapped(answer.body, 'API', () => own.abort(), answer.statusCode);
			return { status: answer.statusCode, headers: answer.headers, body: parsed(text) };
		},
		() => new Error(`no complete answer within ${seconds} s`),
	);
}

function parsed(text: unknown): unknown {
	if (typeof text !== 'string') return text;
	try {
		return text.trim() ? JSON.parse(text) : text;
	} catch {
		return text;
	}
}

async function sendWith(ctx: IExecuteFunctions, request: LiveRequest, signal: AbortSignal) {
	const settings = await connectionSettings(ctx, 0);
	const headers: IDataObject = { Accept: 'application/json', 'User-Agent': USER_AGENT };
	const options = {
		headers,
		json: true,
		encoding: 'stream' as const,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout: request.timeoutMs,
	};
	return (
		request.endpoint === 'Login'
			? await ctx.helpers.httpRequest({
					...options,
					method: 'POST',
					url: joinUrl(settings.baseUrl, LOGIN_PATH),
					body: await loginBody(settings.data),
					abortSignal: signal,
				})
			: await ctx.helpers.httpRequestWithAuthentication.call(
					ctx,
					CREDENTIAL_TYPE,
					withSignal(
						{
							...options,
							method: ENDPOINTS[request.endpoint].method,
							url: urlOf(settings, request),
							// As the package sends it (transport/request.ts): JSON text, `{}` included.
							...(request.body && {
								body: JSON.stringify(request.body),
								headers: { ...headers, 'Content-Type': 'application/json' },
							}),
						},
						signal,
					),
				)
	) as { statusCode: number; headers: Record<string, unknown>; body: unknown };
}

function urlOf(
	settings: Awaited<ReturnType<typeof connectionSettings>>,
	request: LiveRequest,
): string {
	const endpoint = request.endpoint as Endpoint;
	const url = buildUrl(settings.baseUrl, endpoint, request.pathParams, settings.prefixes);
	const query = new URLSearchParams(request.query ?? {}).toString();
	return query ? `${url}?${query}` : url;
}

export class SellerPlatformLive implements INodeType {
	description: INodeType['description'] = {
		displayName: 'Seller Platform Live Request',
		name: LIVE_NODE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'One request of the live suite (test only)',
		defaults: { name: 'Live Request' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [{ displayName: 'Request', name: 'request', type: 'json', default: '{}' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const request = JSON.parse(this.getNodeParameter('request', 0) as string) as LiveRequest;
		return [[{ json: (await send(this, request)) as unknown as IDataObject }]];
	}
}
