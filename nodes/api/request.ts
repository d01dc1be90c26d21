/**
 * The single path every request of both nodes takes: the connection settings (read once per node
 * run), the URL, the headers, n8n's authenticated request (n8n logs in again on 401 and repeats
 * once), the pacing and retries of policy.ts, and one error the user can read (errors.ts).
 */
import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import {
	CREDENTIAL_TYPE,
	DEFAULT_IMPORT_PREFIX,
	DEFAULT_REQUESTS_PER_MINUTE,
	DEFAULT_SANDBOX_ORDER_PREFIX,
	USER_AGENT,
} from './constants';
import { apiError, secretsIn } from './errors';
import { OPERATIONS, type OperationName, type PrefixSetting } from './operations';
import { paced, RETRY_POLICY, withRetries } from './policy';
import { limiters, perRun } from './state';
import { buildUrl } from './url';

export type RequestContext =
	IExecuteFunctions | IHookFunctions | ILoadOptionsFunctions | IWebhookFunctions;

export interface ApiRequestOptions {
	/** Values for the `{name}` placeholders of the operation's path. */
	pathParams?: Record<string, string>;
	body?: IDataObject;
	/** Item the request is made for: used for the credential lookup and in errors. */
	itemIndex?: number;
}

interface ConnectionSettings {
	baseUrl: string;
	/** Whose rate plan the request counts against: gateway and project. */
	scope: string;
	requestsPerMinute: number;
	prefixes: Record<PrefixSetting, string>;
	/**
	 * The decrypted credential, read once per node run and handed to every request of the run,
	 * so n8n does not read and decrypt it again per request. n8n writes a new session into this
	 * same object when it logs in again (and stores it), so later requests of the run use it.
	 */
	credential: ICredentialsDecrypted;
}

async function readSettings(ctx: RequestContext, itemIndex: number): Promise<ConnectionSettings> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	const reference = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
	const baseUrl = String(credentials.baseUrl ?? '').trim();
	const rpm = Number(credentials.requestsPerMinute);
	return {
		baseUrl,
		// The quota belongs to the project (per operation); fall back to the key without one.
		scope: `${baseUrl}|${String(credentials.projectCode || credentials.keyId || '')}`,
		requestsPerMinute: Number.isFinite(rpm) && rpm >= 1 ? rpm : DEFAULT_REQUESTS_PER_MINUTE,
		prefixes: {
			sandboxOrderPrefix: String(credentials.sandboxOrderPrefix ?? DEFAULT_SANDBOX_ORDER_PREFIX),
			importPrefix: String(credentials.importPrefix ?? DEFAULT_IMPORT_PREFIX),
		},
		credential: {
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type: CREDENTIAL_TYPE,
			data: credentials,
		},
	};
}

/** The connection settings of this node run, read once. */
async function connectionSettings(
	ctx: RequestContext,
	itemIndex: number,
): Promise<ConnectionSettings> {
	let pending = perRun.settings.get(ctx) as Promise<ConnectionSettings> | undefined;
	if (!pending) {
		pending = readSettings(ctx, itemIndex);
		perRun.settings.set(ctx, pending);
		pending.catch(() => perRun.settings.delete(ctx));
	}
	return await pending;
}

export async function apiRequest(
	this: RequestContext,
	operation: OperationName,
	options: ApiRequestOptions = {},
): Promise<IDataObject> {
	const itemIndex = options.itemIndex ?? 0;
	const spec = OPERATIONS[operation];
	const settings = await connectionSettings(this, itemIndex);
	const request: IHttpRequestOptions = {
		method: spec.method,
		url: buildUrl(settings.baseUrl, operation, options.pathParams, settings.prefixes),
		headers: { Accept: 'application/json', 'User-Agent': USER_AGENT },
		json: true,
		timeout: RETRY_POLICY.requestTimeoutMs,
	};
	if (spec.method !== 'GET') request.body = options.body ?? {};

	const limiter = limiters.get(settings.scope, operation, settings.requestsPerMinute);
	const send = async () =>
		(await this.helpers.httpRequestWithAuthentication.call(
			this,
			CREDENTIAL_TYPE,
			{ ...request, headers: { ...request.headers } },
			{ credentialsDecrypted: settings.credential },
		)) as unknown;
	try {
		return normaliseBody(
			await withRetries(spec.repeatable, async () => await paced(limiter, send)),
		);
	} catch (error) {
		throw apiError(error, {
			node: this.getNode(),
			operation,
			itemIndex,
			secrets: secretsIn(request.body),
		});
	}
}

function normaliseBody(response: unknown): IDataObject {
	if (response === undefined || response === null || response === '') return {};
	if (typeof response === 'string') {
		try {
			return normaliseBody(JSON.parse(response));
		} catch {
			return { data: response };
		}
	}
	if (typeof response !== 'object' || Array.isArray(response))
		return { data: response as IDataObject[] };
	return response as IDataObject;
}
