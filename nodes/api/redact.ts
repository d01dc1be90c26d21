/**
 * The one place secrets are removed from what the user sees: the service may echo what it was
 * sent (a token, a cookie, a header value), raw, JSON-escaped or URL-encoded.
 */
import type { JsonObject } from 'n8n-workflow';

/** The forms a secret can take when echoed: as sent, JSON-escaped, URL-encoded. */
function forms(secrets: string[]): string[] {
	const all = secrets
		.filter((secret) => typeof secret === 'string' && secret.length >= 4)
		.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]);
	// Longest first, so a secret that contains another is replaced whole.
	return [...new Set(all)].sort((a, b) => b.length - a.length);
}

/** Replaces every secret in `text` (the service may echo what it was sent). */
export function redact(text: string, secrets: string[], mask = '<redacted>'): string {
	return forms(secrets).reduce((result, secret) => result.split(secret).join(mask), text);
}

/** `redact` for every string inside any JSON value (keys included). */
export function redactValue<T>(value: T, secrets: string[], mask = '<redacted>'): T {
	if (!secrets.length) return value;
	const walk = (node: unknown): unknown => {
		if (typeof node === 'string') return redact(node, secrets, mask);
		if (Array.isArray(node)) return node.map(walk);
		if (node && typeof node === 'object') {
			return Object.fromEntries(
				Object.entries(node).map(([key, inner]) => [redact(key, secrets, mask), walk(inner)]),
			);
		}
		return node;
	};
	return walk(value) as T;
}

/** The values of a `Cookie` header, and the header itself: what a session looks like echoed. */
export function cookieSecrets(cookie: unknown): string[] {
	if (typeof cookie !== 'string' || !cookie) return [];
	const values = cookie.split(';').map((pair) => pair.slice(pair.indexOf('=') + 1).trim());
	return [cookie, ...values];
}

/** Secret values a request carries in its body: an OAuth access token, destination header values. */
export function secretsIn(body: unknown): string[] {
	if (!body || typeof body !== 'object') return [];
	const { access_token: accessToken, credentials } = body as JsonObject;
	const values = ((credentials as JsonObject | undefined)?.values ?? {}) as JsonObject;
	return [accessToken, ...Object.values(values)].filter(
		(value): value is string => typeof value === 'string' && value.length >= 4,
	);
}
