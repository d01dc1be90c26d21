/**
 * credential/: the credential's form (its fields, labels and defaults), the gateways it may name
 * and the address it talks to, and the documented rate plans its Requests per Minute stands for.
 */
export { GATEWAY_BASE_URL_EXPRESSION, gatewayBaseUrl } from './baseUrl';
export { credentialProperties, keyIdField, privateKeyField, projectCodeField } from './fields';
