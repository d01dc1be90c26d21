/** Facts about the Seller Platform gateway that every request needs. */

export const PACKAGE_NAME = 'n8n-nodes-seller-platform';
/** Kept in step with package.json (a unit test checks it). */
export const PACKAGE_VERSION = '0.1.0';
export const USER_AGENT = `${PACKAGE_NAME}/${PACKAGE_VERSION} (+n8n)`;

export const DEFAULT_BASE_URL = 'https://noon-api-gateway.noon.partners';
export const SANDBOX_BASE_URL = 'https://noon-sandbox-api-gateway.noon.partners';

/** Service prefixes the spec leaves out of the `/v1/...` paths (api-field-notes.md). */
export const DEFAULT_SANDBOX_ORDER_PREFIX = '/fbpi';
export const DEFAULT_IMPORT_PREFIX = '/catplat';

/** The spec's rate plan: 1500 requests per 60 s, per operation. */
export const DEFAULT_REQUESTS_PER_MINUTE = 1500;

export const LOGIN_PATH = '/identity/public/v1/api/login';
