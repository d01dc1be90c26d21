/**
 * The service's error body, read whatever form it arrives in: `{ status_id, status_code, message,
 * details }`. Every field is redacted (redact.ts) where it is read, and only then shortened: a cut
 * never keeps the first characters of a secret.
 */
import { redact, redactAndCut, redactValue } from './redact';

/** The spec's error body: `{ status_id, status_code, message, details }`, every field optional. */
export interface ServiceErrorBody {
	status_id?: number;
	status_code?: string;
	message?: string;
	details?: unknown[];
}

/** Longest text of the service (message, status_code) kept. */
const MAX_SERVICE_TEXT = 1000;

/** Every field of an error body without `secrets`, its texts then shortened. */
export function cleanErrorBody(
	body: ServiceErrorBody,
	secrets: string[],
	mask?: string,
): ServiceErrorBody {
	const text = (value?: string) =>
		value === undefined ? undefined : redactAndCut(value, secrets, MAX_SERVICE_TEXT, mask);
	const id = body.status_id;
	const clean: ServiceErrorBody = {};
	if (id !== undefined && redact(String(id), secrets) === String(id)) clean.status_id = id;
	if (body.status_code !== undefined) clean.status_code = text(body.status_code);
	if (body.message !== undefined) clean.message = text(body.message);
	if (body.details !== undefined) clean.details = redactValue(body.details, secrets, mask);
	return clean;
}

/** Reads an error body whatever form it arrives in (raw text: the message), without `secrets`. */
export function parseErrorBody(
	body: unknown,
	secrets: string[] = [],
	mask?: string,
): ServiceErrorBody {
	let value = body;
	if (Buffer.isBuffer(value)) value = value.toString('utf8');
	if (typeof value === 'string') {
		const text = value.trim();
		try {
			value = JSON.parse(text);
		} catch {
			return text ? cleanErrorBody({ message: text }, secrets, mask) : {};
		}
	}
	if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
	const raw = value as Record<string, unknown>;
	const result: ServiceErrorBody = {};
	if (typeof raw.status_id === 'number') result.status_id = raw.status_id;
	if (typeof raw.status_code === 'string') result.status_code = raw.status_code;
	if (typeof raw.message === 'string' && raw.message) result.message = raw.message;
	if (Array.isArray(raw.details)) result.details = raw.details;
	// grpc-gateway style bodies use `code` for the numeric status.
	if (result.status_id === undefined && typeof raw.code === 'number') result.status_id = raw.code;
	return cleanErrorBody(result, secrets, mask);
}
