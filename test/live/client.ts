/**
 * The live suite's client: a simulated n8n (test/helpers) holding the credential of the
 * variables, and `call`, one request through the live node (node.ts).
 */
import { createTestEnvironment } from '../helpers';
import { LIVE_NODE_TYPE, SellerPlatformLive, type LiveAnswer, type LiveRequest } from './node';
import type { LiveVariables } from './variables';

/** One request; the client sets its deadline. */
export type CallRequest = Omit<LiveRequest, 'timeoutMs'>;
export type Call = (request: CallRequest) => Promise<LiveAnswer>;

/** The deadline of each request's whole answer, unless the client is given another. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** A request that ended without an answer: the operation, and the reason as n8n gave it. */
export class CallFailed extends Error {
	constructor(
		readonly operation: string,
		readonly reason: string,
	) {
		super(`${operation}: ${reason}`);
		this.name = 'CallFailed';
	}
}

export interface LiveClient {
	call: Call;
	/** The credential's values (key id, private key, project code) and the session cookie's. */
	secrets(): string[];
}

const CREDENTIAL_ID = 'live';

export function liveClient(vars: LiveVariables, timeoutMs = REQUEST_TIMEOUT_MS): LiveClient {
	const env = createTestEnvironment([new SellerPlatformLive()]);
	const { baseUrl, keyId, privateKey, projectCode } = vars;
	env.addCredential(CREDENTIAL_ID, 'sellerPlatformApi', {
		baseUrl,
		keyId,
		privateKey,
		projectCode,
	});
	const node = {
		name: 'Live',
		type: LIVE_NODE_TYPE,
		credentials: { sellerPlatformApi: CREDENTIAL_ID },
	};
	return {
		async call(request) {
			const parameters = { request: JSON.stringify({ ...request, timeoutMs }) };
			const result = await env.runWorkflow({ nodes: [{ ...node, parameters }], connections: {} });
			const error = result.nodeError('Live');
			if (error) throw new CallFailed(request.endpoint, error.message);
			return result.json('Live')[0] as unknown as LiveAnswer;
		},
		secrets() {
			const cookie = String(env.credentialData(CREDENTIAL_ID).sessionCookie ?? '');
			const values = cookie.split(';').map((pair) => pair.slice(pair.indexOf('=') + 1).trim());
			return [keyId, projectCode, ...privateKey.split(/\\n|\n/), cookie, ...values].filter(
				(s) => s.length >= 4,
			);
		},
	};
}
