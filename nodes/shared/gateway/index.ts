/** gateway/: the service's addresses: the endpoint table, URLs, where a download may go, answers. */
export type { Endpoint } from './endpoints';
export { addressForLog, gatewayScope, isDotSegment } from './url';
