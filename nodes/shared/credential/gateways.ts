/**
 * The documented gateways (api-field-notes.md, noon-api-map.md): the same paths and bodies on
 * each. The credential's Gateway field offers them by these names; `custom` is its Base URL field.
 */
export const GATEWAYS = {
	noon: 'https://noon-api-gateway.noon.partners',
	noonSandbox: 'https://noon-sandbox-api-gateway.noon.partners',
	namshi: 'https://namshi-api-gateway.noon.partners',
} as const;

/**
 * The gateways' own domain: a custom Base URL may name any host under it (any port). The login
 * token names no audience, so it logs in at the real gateway wherever it is sent; it goes only to
 * this domain or to a local host (gateway/url.ts `baseUrlProblem`).
 */
export const GATEWAY_DOMAIN = 'noon.partners';

/** The Gateway value that uses the Base URL field. */
export const CUSTOM_GATEWAY = 'custom';
