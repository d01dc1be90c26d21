/**
 * errors/: the service's errors as the user reads them, error bodies, redaction of secrets, and the
 * credential's fields that messages name.
 */
export {
	credentialProperties,
	GATEWAY_BASE_URL_EXPRESSION,
	gatewayBaseUrl,
	keyIdField,
	privateKeyField,
	projectCodeField,
} from './credentialFields';
export { PEM_PRIVATE_KEY, redactSent, redactValue, secretsIn } from './redact';
