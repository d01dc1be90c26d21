/** errors/: the service's errors as the user reads them, error bodies, redaction of secrets. */
export { PEM_PRIVATE_KEY, redactSent, redactValue, secretsIn } from './redact';
