/**
 * The shape under the others: one request per input item to one endpoint. The declaration says
 * how an item's parameters become the request (`read`, which checks them all before anything is
 * sent), and, where the answer is not the output as it is, how it becomes the output.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, redactSent, secretsIn, sessionSecrets, type Endpoint } from '../../../shared';
import { readWaitSettings, type WaitSettings } from '../options';
import { perItem, type Operation, type Task, type TaskOutput } from '../runner';
import { pollUntilFinal } from '../wait';
import { failureOf, statusError } from './answerStatus';
import { describe, type Declaration } from './declaration';

/** An item's request: its path values, its body, and what else the output needs. */
export interface ItemRequest<Extra = undefined> {
	pathParams?: Record<string, string>;
	body?: IDataObject;
	extra?: Extra;
}

export interface RequestDeclaration<Extra = undefined> extends Declaration {
	endpoint: Endpoint;
	/** Reads and checks an item's parameters; throws (naming the parameter) to refuse the item. */
	read(ctx: IExecuteFunctions, itemIndex: number): ItemRequest<Extra>;
	/**
	 * The output of an answer; without it, the answer as it is, less the secrets the request
	 * carried (header values a service echoes: Destination → Update); tokens the answer itself
	 * holds stay (ExchangeToken's workflow result is the output asked for).
	 */
	output?(
		ctx: IExecuteFunctions,
		answer: IDataObject,
		request: ItemRequest<Extra>,
		itemIndex: number,
	): TaskOutput | Promise<TaskOutput>;
	/**
	 * The answer's field that holds its status (the reference's rpcStatus), where a successful
	 * answer can still say the request failed: a failing status is the item's error
	 * (answerStatus.ts), the service's words without the request's secrets.
	 */
	answerStatus?: string;
	/** For operations that create something (see runner.ts `Task`). */
	task?: (request: ItemRequest<Extra>) => Pick<Task, 'sequential' | 'creates' | 'unique'>;
}

/** Sends `request` once, or, with waiting on, until its answer is final (wait.ts). */
export async function fetchUntil(
	ctx: IExecuteFunctions,
	endpoint: Endpoint,
	request: ItemRequest<unknown>,
	itemIndex: number,
	wait?: { settings: WaitSettings; isFinal: (status: IDataObject) => boolean },
): Promise<IDataObject> {
	const { pathParams, body } = request;
	const fetch = async () => await apiRequest.call(ctx, endpoint, { pathParams, body, itemIndex });
	return wait ? await pollUntilFinal(fetch, wait.isFinal, wait.settings) : await fetch();
}

/** An operation of one request per item, from its declaration. */
export function requestOperation<Extra = undefined>(
	declaration: RequestDeclaration<Extra>,
): Operation {
	const { endpoint, read, output, task, waitUntil, answerStatus } = declaration;
	return {
		description: describe(declaration),
		plan: perItem(function (this: IExecuteFunctions, itemIndex) {
			const request = read(this, itemIndex);
			const wait = waitUntil
				? { settings: readWaitSettings(this, itemIndex), isFinal: waitUntil }
				: undefined;
			return {
				...task?.(request),
				send: async () => {
					const answer = await fetchUntil(this, endpoint, request, itemIndex, wait);
					const sent = secretsIn(request.body);
					// A status that speaks of a failure may echo the session too: mask both.
					const secrets = answerStatus
						? [...sent, ...(await sessionSecrets(this, itemIndex))]
						: sent;
					const failure = answerStatus ? failureOf(answer[answerStatus], secrets) : undefined;
					if (failure) throw statusError(this, endpoint, itemIndex, failure, secrets);
					if (output) return await output(this, answer, request, itemIndex);
					return { json: sent.length ? redactSent(answer, sent) : answer };
				},
			};
		}),
	};
}
