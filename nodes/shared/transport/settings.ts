/**
 * The connection settings of a node run: the credential read and decrypted once per run and
 * handed to every request of the run, with the Base URL checked and the rate plan's scope.
 */
import {
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type ICredentialsDecrypted,
	type INodeProperties,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../common/constants';
import { gatewayBaseUrl } from '../credential/baseUrl';
import {
	eventNotificationsPathPrefixField,
	importPrefixField,
	requestsPerMinuteField,
	sandboxOrderPrefixField,
} from '../credential/fields';
import type { PrefixSetting } from '../gateway/endpoints';
import {
	baseUrlProblem,
	gatewayScope,
	localNamesAllowed,
	pathPrefixProblem,
	rateScope,
} from '../gateway/url';
import type { RequestContext } from './run';

export interface ConnectionSettings {
	baseUrl: string;
	/** The gateway and project (`gatewayScope`): the key of what is kept per gateway. */
	scope: string;
	/** Whose rate plan the request counts against (`rateScope`), per endpoint. */
	rateScope: string;
	requestsPerMinute: number;
	prefixes: Record<PrefixSetting, string>;
	/**
	 * The decrypted credential, read once per node run and handed to every request of the run,
	 * so n8n does not read and decrypt it again per request. n8n writes a new session into this
	 * same object when it logs in again (and stores it), so later requests of the run use it.
	 */
	credential: ICredentialsDecrypted;
	/** `credential.data`. */
	data: ICredentialDataDecryptedObject;
}

/**
 * The connection settings of each node run, read once (`connectionSettings`), keyed by the run's
 * context; a failed read is dropped, so the next item reads again. Bound: weak, gone with the
 * run's context.
 */
const settingsOfRun = new WeakMap<object, Promise<ConnectionSettings>>();

/** The credential's service prefixes (unset: the field's default), each a path below the Base URL. */
function readPrefixes(
	ctx: RequestContext,
	credentials: ICredentialDataDecryptedObject,
): Record<PrefixSetting, string> {
	const fields = {
		sandboxOrderPrefix: sandboxOrderPrefixField,
		importPrefix: importPrefixField,
		eventNotificationsPathPrefix: eventNotificationsPathPrefixField,
	} satisfies Record<PrefixSetting, INodeProperties>;
	const prefixes = {} as Record<PrefixSetting, string>;
	for (const [name, field] of Object.entries(fields) as Array<[PrefixSetting, INodeProperties]>) {
		const value = String(credentials[name] ?? field.default);
		const problem = pathPrefixProblem(value, field);
		if (problem) throw new NodeOperationError(ctx.getNode(), problem);
		prefixes[name] = value;
	}
	return prefixes;
}

async function readSettings(ctx: RequestContext, itemIndex: number): Promise<ConnectionSettings> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	const reference = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
	const baseUrl = gatewayBaseUrl(credentials);
	const problem = baseUrlProblem(baseUrl, localNamesAllowed(credentials));
	if (problem) throw new NodeOperationError(ctx.getNode(), problem);
	const rpm = Number(credentials.requestsPerMinute);
	return {
		baseUrl,
		scope: gatewayScope(credentials),
		rateScope: rateScope(credentials),
		requestsPerMinute: Number.isFinite(rpm) && rpm >= 1 ? rpm : requestsPerMinuteField.default,
		prefixes: readPrefixes(ctx, credentials),
		credential: {
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type: CREDENTIAL_TYPE,
			data: credentials,
		},
		data: credentials,
	};
}

/** The connection settings of this node run, read once. */
export async function connectionSettings(
	ctx: RequestContext,
	itemIndex: number,
): Promise<ConnectionSettings> {
	let pending = settingsOfRun.get(ctx);
	if (!pending) {
		pending = readSettings(ctx, itemIndex);
		settingsOfRun.set(ctx, pending);
		pending.catch(() => settingsOfRun.delete(ctx));
	}
	return await pending;
}
