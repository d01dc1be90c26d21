/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Node types only the tests use: fixed items, a pass-through start node, and a request with the
 * credential to any URL (as n8n's HTTP Request node makes it).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	JsonObject,
} from 'n8n-workflow';
import {
	jsonParse,
	NodeConnectionTypes,
	NodeOperationError,
	removeCircularRefs,
} from 'n8n-workflow';

export const TEST_ITEMS_NODE_TYPE = 'testItems';
export const TEST_NO_OP_NODE_TYPE = 'testNoOp';
export const TEST_SET_NODE_TYPE = 'testSet';

/**
 * A start node: ignores its (empty) input and outputs the items of its `items` parameter, a
 * JSON array of objects (or an array set directly in the parameters). Each item gets
 * `pairedItem: { item: 0 }`, as a trigger's output would.
 */
export class TestItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Items',
		name: TEST_ITEMS_NODE_TYPE,
		group: ['input'],
		version: 1,
		description: 'Outputs fixed items (test only)',
		defaults: { name: 'Test Items' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{
				displayName: 'Items',
				name: 'items',
				type: 'json',
				default: '[{}]',
				description: 'JSON array of objects: the json of each output item',
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as unknown;
		let parsed: unknown = raw;
		if (typeof raw === 'string') {
			try {
				parsed = jsonParse(raw);
			} catch (error) {
				throw new NodeOperationError(
					this.getNode(),
					`Parameter "items" is not valid JSON: ${(error as Error).message}`,
				);
			}
		}
		if (!Array.isArray(parsed)) {
			throw new NodeOperationError(this.getNode(), 'Parameter "items" must be a JSON array');
		}
		return [
			parsed.map((value: unknown) => ({
				json: (typeof value === 'object' && value !== null ? value : { value }) as IDataObject,
				pairedItem: { item: 0 },
			})),
		];
	}
}

export const TEST_FILES_NODE_TYPE = 'testFiles';

/**
 * A start node that outputs files as n8n binary data (as Read/Write Files from Disk would): one
 * item per entry of its `files` parameter (an array set directly in the parameters: `{ text,
 * fileName?, field? }`, the field default `data`), made with n8n's own `prepareBinaryData`, so
 * the data is base64 in memory, or on disk where the test set filesystem mode
 * (`useFilesystemBinaryData`).
 */
export class TestFiles implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Files',
		name: TEST_FILES_NODE_TYPE,
		group: ['input'],
		version: 1,
		description: 'Outputs files as binary data (test only)',
		defaults: { name: 'Test Files' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Files', name: 'files', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const files = this.getNodeParameter('files', 0) as unknown as Array<{
			text: string;
			/** The bytes as base64, instead of `text` (a file that is not UTF-8). */
			base64?: string;
			fileName?: string;
			field?: string;
		}>;
		const items: INodeExecutionData[] = [];
		for (const [index, file] of files.entries()) {
			const data = file.base64
				? Buffer.from(file.base64, 'base64')
				: Buffer.from(file.text, 'utf8');
			const binary = await this.helpers.prepareBinaryData(
				data,
				file.fileName ?? `file-${index}.csv`,
				'text/csv',
			);
			items.push({
				json: { index },
				binary: { [file.field ?? 'data']: binary },
				pairedItem: { item: 0 },
			});
		}
		return [items];
	}
}

/** Passes its input through unchanged: a place to collect and inspect items. */
export class TestNoOp implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test No Op',
		name: TEST_NO_OP_NODE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Passes items through (test only)',
		defaults: { name: 'Test No Op' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

/**
 * Outputs `{ value }` for each input item, `value` being its parameter (an expression reads the
 * item, as in n8n's Edit Fields node).
 */
export class TestSet implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Set',
		name: TEST_SET_NODE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Outputs the value of an expression per item (test only)',
		defaults: { name: 'Test Set' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Value', name: 'value', type: 'string', default: '' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((_, i) => ({
				json: { value: this.getNodeParameter('value', i) as IDataObject[string] },
				pairedItem: { item: i },
			})),
		];
	}
}

export const TEST_HTTP_REQUEST_NODE_TYPE = 'testHttpRequest';

/**
 * A request with the Seller Platform API credential to any URL, as n8n's HTTP Request node makes
 * it with "Predefined Credential Type": by default through n8n-core's legacy
 * `requestWithAuthentication` with the options that node sets (`uri`, redirects followed, POST
 * ones too), or with `helper: 'httpRequestWithAuthentication'` through the newer helper. Outputs
 * the response body. With "On Error: Continue", a failed request's item is `{ error }`, the
 * helper's rejection itself, as n8n's HTTP Request node (V3) outputs it.
 */
export class TestHttpRequest implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test HTTP Request',
		name: TEST_HTTP_REQUEST_NODE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'A request with the credential to any URL (test only)',
		defaults: { name: 'Test HTTP Request' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'sellerPlatformApi', required: true }],
		properties: [
			{ displayName: 'URL', name: 'url', type: 'string', default: '' },
			{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
			{ displayName: 'Body', name: 'body', type: 'json', default: '' },
			{
				displayName: 'Helper',
				name: 'helper',
				type: 'string',
				default: 'requestWithAuthentication',
			},
			// The HTTP Request node's options: Proxy (http://host:port), Ignore SSL Issues, and the
			// full response (status, headers, body) as the output.
			{ displayName: 'Proxy', name: 'proxy', type: 'string', default: '' },
			{ displayName: 'Ignore SSL Issues', name: 'ignoreSsl', type: 'boolean', default: false },
			{ displayName: 'Full Response', name: 'fullResponse', type: 'boolean', default: false },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const output: INodeExecutionData[] = [];
		for (let i = 0; i < this.getInputData().length; i++) {
			let response: unknown;
			try {
				response = await sendRequest(this, i);
			} catch (error) {
				if (!this.continueOnFail()) throw error;
				// HttpRequestV3.node.js: `removeCircularRefs(reason)`, then `json: { error: reason }`.
				removeCircularRefs(error as JsonObject);
				response = { error };
			}
			output.push({ json: response as IDataObject, pairedItem: { item: i } });
		}
		return [output];
	}
}

/** One item's request, through the helper its parameters name. */
async function sendRequest(ctx: IExecuteFunctions, i: number): Promise<unknown> {
	const url = ctx.getNodeParameter('url', i) as string;
	const method = ctx.getNodeParameter('method', i) as IHttpRequestMethods;
	const raw = ctx.getNodeParameter('body', i) as string | IDataObject;
	const body = typeof raw === 'string' ? (raw ? jsonParse<IDataObject>(raw) : undefined) : raw;
	const proxy = ctx.getNodeParameter('proxy', i) as string;
	const ignoreSsl = ctx.getNodeParameter('ignoreSsl', i) as boolean;
	const fullResponse = ctx.getNodeParameter('fullResponse', i) as boolean;
	if (ctx.getNodeParameter('helper', i) === 'httpRequestWithAuthentication') {
		const proxyUrl = proxy ? new URL(proxy) : undefined;
		return await ctx.helpers.httpRequestWithAuthentication.call(ctx, 'sellerPlatformApi', {
			url,
			method,
			body,
			json: true,
			returnFullResponse: fullResponse,
			skipSslCertificateValidation: ignoreSsl,
			...(proxyUrl && {
				proxy: {
					protocol: proxyUrl.protocol.replace(':', ''),
					host: proxyUrl.hostname,
					port: Number(proxyUrl.port),
				},
			}),
		});
	} else {
		// As n8n's HTTP Request node (v3/v4) sets them: always the full response (the node
		// picks the body unless "Full Response" is on), rejectUnauthorized, proxy as a string.
		const answer = (await ctx.helpers.requestWithAuthentication.call(
			ctx,
			'sellerPlatformApi',
			{
				uri: url,
				method,
				body,
				json: true,
				followRedirect: true,
				followAllRedirects: true,
				resolveWithFullResponse: true,
				rejectUnauthorized: !ignoreSsl,
				...(proxy && { proxy }),
			},
			undefined,
			i,
		)) as { body: unknown; headers: unknown; statusCode: number };
		return fullResponse ? answer : answer.body;
	}
}
