/** URL building and error-body parsing shared by the login and every API request. */

export function trimTrailingSlashes(value: string): string {
	return value.replace(/\/+$/, '');
}

/** Joins a base URL and path pieces with exactly one slash between them. */
export function joinUrl(baseUrl: string, ...paths: string[]): string {
	let url = trimTrailingSlashes(baseUrl.trim());
	for (const piece of paths) {
		const trimmed = piece.trim().replace(/^\/+|\/+$/g, '');
		if (trimmed) url += `/${trimmed}`;
	}
	return url;
}

/**
 * Fills `{name}` placeholders of a path template. Every value is URL-encoded as one segment, so
 * a value such as `../x` or `a/b` can never change the path.
 */
export function fillPath(template: string, params: Record<string, string> = {}): string {
	return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
		const value = params[name];
		if (value === undefined) throw new Error(`Missing path parameter "${name}"`);
		// URL parsers resolve "." and ".." (even as %2E) as dot segments: such a value would
		// change the path, so it is refused rather than sent.
		if (isDotSegment(value)) throw new Error(`Path parameter "${name}" cannot be "${value}"`);
		return encodeURIComponent(value);
	});
}

/** True for values a URL parser would treat as a relative path step. */
export function isDotSegment(value: string): boolean {
	return value === '.' || value === '..';
}

/** The spec's error body: `{ status_id, status_code, message, details }`, every field optional. */
export interface ServiceErrorBody {
	status_id?: number;
	status_code?: string;
	message?: string;
	details?: unknown[];
}

/** Reads an error body whatever form it arrives in; falls back to the raw text as message. */
export function parseErrorBody(body: unknown): ServiceErrorBody {
	let value = body;
	if (Buffer.isBuffer(value)) value = value.toString('utf8');
	if (typeof value === 'string') {
		const text = value.trim();
		try {
			value = JSON.parse(text);
		} catch {
			return text ? { message: text.slice(0, 1000) } : {};
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
	return result;
}
