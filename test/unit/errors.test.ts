/**
 * errors.ts: failures mapped to NodeApiError (the service's message, codes, details; no secret).
 */
import { NodeApiError, type INode } from 'n8n-workflow';

import {
	apiError,
	classify,
	SellerPlatformLoginError,
} from '../../dist/nodes/shared/errors/errors';
import { secretsIn } from '../../dist/nodes/shared/errors/redact';
import { parseRetryAfter } from '../../dist/nodes/shared/pacing/waits';

const node: INode = {
	id: '1',
	name: 'Seller Platform',
	type: 'n8n-nodes-seller-platform.sellerPlatform',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** The shape of the HTTP client's error as n8n wraps it (a NodeApiError whose cause has the response). */
function httpError(status: number, data: unknown, headers: Record<string, string> = {}) {
	const axiosLike = Object.assign(new Error(`Request failed with status code ${status}`), {
		response: { status, headers, data },
		config: { headers: { Cookie: '_npsid=SECRET-COOKIE' } },
	});
	return new NodeApiError(node, axiosLike as never);
}

describe('mapping failures to NodeApiError', () => {
	it('carries the service message, status_code, status_id, details and HTTP code', () => {
		const body = {
			status_id: 5,
			status_code: 'NOT_FOUND',
			message: 'purchase order PO-9 not found',
			details: [{ field: 'po_nr' }],
		};
		const failure = classify(httpError(404, body));
		expect(failure).toMatchObject({ httpStatus: 404, body });

		const error = apiError(httpError(404, body), {
			node,
			endpoint: 'GetPurchaseOrder',
			itemIndex: 3,
		});
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('purchase order PO-9 not found');
		expect(error.httpCode).toBe('404');
		expect(error.description).toContain('status_code NOT_FOUND');
		expect(error.description).toContain('status_id 5');
		expect(error.description).toContain('"field":"po_nr"');
		expect(error.context).toMatchObject({ statusCode: 'NOT_FOUND', statusId: 5, itemIndex: 3 });
		expect(JSON.stringify(error)).not.toContain('SECRET-COOKIE');
	});

	it('reads Retry-After of a 429', () => {
		const failure = classify(httpError(429, { message: 'slow down' }, { 'retry-after': '2' }));
		expect(failure.httpStatus).toBe(429);
		expect(parseRetryAfter(failure.retryAfter)).toBe(2000);
	});

	it('falls back to the raw text of a non-JSON error body', () => {
		const error = apiError(httpError(502, '<h1>Bad gateway</h1>'), {
			node,
			endpoint: 'GetPurchaseOrder',
			itemIndex: 0,
		});
		expect(error.message).toBe('<h1>Bad gateway</h1>');
		expect(error.httpCode).toBe('502');
	});

	it('names a connection failure by its code', () => {
		const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		const failure = classify(new NodeApiError(node, reset as never));
		expect(failure.code).toBe('ECONNRESET');
		const error = apiError(new NodeApiError(node, reset as never), {
			node,
			endpoint: 'GetPurchaseOrder',
			itemIndex: 0,
		});
		// n8n replaces messages naming a well-known socket error with its own explanation.
		expect(error.message).toMatch(/closed unexpectedly/);
		expect(error.description).toContain('connection error ECONNRESET');
	});

	it('reports a failed login with the service message and no secret', () => {
		const login = new SellerPlatformLoginError(
			'Seller Platform login failed: invalid token signature',
			{
				httpCode: 401,
				statusCode: 'UNAUTHENTICATED',
				statusId: 16,
			},
		);
		const error = apiError(new NodeApiError(node, login as never), {
			node,
			endpoint: 'GetPurchaseOrder',
			itemIndex: 0,
		});
		expect(error.message).toBe('Seller Platform login failed: invalid token signature');
		expect(error.httpCode).toBe('401');
		expect(error.context).toMatchObject({ statusCode: 'UNAUTHENTICATED', statusId: 16 });
	});
});

describe('secrets the request carried', () => {
	it('are removed from the message and details the service echoes', () => {
		const body = {
			credentials: { values: { 'X-Secret': 'hunter2-secret' } },
			access_token: 'eyJ.token.sig',
		};
		expect(secretsIn(body)).toEqual(['eyJ.token.sig', 'hunter2-secret']);
		const failed = httpError(400, {
			message: 'bad header value hunter2-secret',
			details: [{ token: 'eyJ.token.sig' }],
		});
		const error = apiError(failed, {
			node,
			endpoint: 'UpdateDestination',
			itemIndex: 0,
			secrets: secretsIn(body),
		});
		expect(error.message).toBe('bad header value <redacted>');
		expect(JSON.stringify(error.context.details)).toBe('[{"token":"<redacted>"}]');
		expect(JSON.stringify(error)).not.toContain('hunter2-secret');
	});

	it('keep the message of a failure that is neither an answer nor a socket error', () => {
		const failed = new NodeApiError(node, new Error('Credential could not be decrypted') as never);
		expect(apiError(failed, { node, endpoint: 'GetPurchaseOrder', itemIndex: 0 }).message).toBe(
			'Credential could not be decrypted',
		);
	});
});
