/** The address a credential talks to, from its Gateway and Base URL fields. */
import { baseUrlField, gatewayField } from './fields';
import { GATEWAYS } from './gateways';

/**
 * The address a credential talks to: the chosen gateway's, or, for a custom address (and for a
 * credential saved without a Gateway), its Base URL as it is (trimmed).
 */
export function gatewayBaseUrl(credentials: Record<string, unknown>): string {
	const gateway = credentials[gatewayField.name];
	if (typeof gateway === 'string' && Object.hasOwn(GATEWAYS, gateway)) {
		return GATEWAYS[gateway as keyof typeof GATEWAYS];
	}
	return String(credentials[baseUrlField.name] ?? '').trim();
}

/**
 * The same rule as an n8n expression on `$credentials`, for the credential's Test request (n8n
 * evaluates its `baseURL`; the trailing slashes are cut there).
 */
export const GATEWAY_BASE_URL_EXPRESSION = `={{ ${Object.entries(GATEWAYS)
	.map(([name, url]) => `$credentials.${gatewayField.name} === "${name}" ? "${url}" : `)
	.join('')}String($credentials.${baseUrlField.name} ?? "").trim().replace(/\\/+$/, "") }}`;
