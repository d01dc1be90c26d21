/** Facts about the package and the Seller Platform gateway that every request needs. */
import { name as PACKAGE_NAME, version as PACKAGE_VERSION } from '../../../package.json';

export { PACKAGE_NAME, PACKAGE_VERSION };

/** Sent with every request (the gateway may refuse requests without one). */
export const USER_AGENT = `${PACKAGE_NAME}/${PACKAGE_VERSION} (+n8n)`;

/**
 * The description of both nodes. n8n's node picker shows the action node and its trigger as one
 * entry, "Seller Platform", and gives that entry the trigger's description: so the trigger carries
 * the action node's description, which says what the whole integration does.
 */
export const NODE_DESCRIPTION =
	'Fulfil FBPI orders, keep stock and prices in sync, read purchase orders, run barcode imports and exports, manage API credentials and event destinations, and start workflows from the events of the marketplace Seller Platform';

/** The credential type both nodes use. */
export const CREDENTIAL_TYPE = 'sellerPlatformApi';

export const LOGIN_PATH = '/identity/public/v1/api/login';
/** Who the session belongs to (user code and name): the credential's Test asks it after the login. */
export const WHOAMI_PATH = '/identity/v1/whoami';

/** An event type: `NAMESPACE::EVENT_NAME`, as FBPI::ORDER_SYNC or FBPO::PO_SYNC. */
export const EVENT_TYPE_PATTERN = /^[A-Z][A-Z0-9_]*::[A-Z][A-Z0-9_]*$/;
/** An HTTP header name (an RFC 9110 token): the headers of destinations and event webhooks. */
export const HEADER_NAME_PATTERN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
