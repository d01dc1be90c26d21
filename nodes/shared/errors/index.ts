/** errors/: the service's errors as the user reads them, error bodies, and redaction of secrets. */
export { PEM_PRIVATE_KEY, redactValue } from './redact';
