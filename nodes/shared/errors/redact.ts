/**
 * The one place secrets are removed from what the user sees. The service may echo what it was
 * sent (a token, a cookie, a header value): as sent, JSON-escaped, URL-encoded (`%20` or `+`, with
 * escapes in either case), as hex (either case) or as Base64, standard or URL-safe, with or
 * without padding, alone or inside a longer Base64 text. Each form is removed wherever it occurs,
 * overlapping ones too; a text is redacted first and shortened after (`redactAndCut`), so that a
 * cut can never keep the first characters of a secret.
 *
 * A secret of any length is removed. A form shorter than WHOLE_WORD_BELOW characters is removed
 * only where it stands alone (not inside a longer word or number): a one-letter header value would
 * otherwise cut every word holding that letter into pieces, and the holes would spell it out.
 * A PEM private key block is removed always, whoever sent it and whatever the secrets, and so is
 * whatever looks like a bearer token or a JWT (`UNHELD_TOKENS`).
 */
import type { JsonObject } from 'n8n-workflow';

const MASK = '<redacted>';
/** Forms at least this long are removed wherever they occur; shorter ones only as whole words. */
export const WHOLE_WORD_BELOW = 8;

const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
/** Letters a-f in either case; everything else literally. */
const anyCase = (text: string) =>
	[...text]
		.map((c) => (/[a-f]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : escapeRegExp(c)))
		.join('');
/** Percent-escapes (`%3D`, `%3d`) in either case; the rest literally. */
const escapesAnyCase = (text: string) =>
	text
		.split(/(%[0-9A-Fa-f]{2})/)
		.map((part, i) => (i % 2 ? anyCase(part) : escapeRegExp(part)))
		.join('');

/** One form of a secret: the text as echoed, and the pattern that finds it. */
interface Form {
	text: string;
	pattern: string;
}
const literal = (text: string): Form => ({ text, pattern: escapeRegExp(text) });

/** Base64 of `bytes` however it may stand in a text: alone, or at any offset of a longer one. */
function base64Forms(bytes: Buffer): string[] {
	const whole = bytes.toString('base64');
	const forms = [whole, whole.replace(/=+$/, '')];
	for (const shift of [0, 1, 2]) {
		// The characters that depend on the secret's bytes only, whatever stands before and after.
		const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
		const first = Math.ceil((shift * 8) / 6);
		const core = encoded.slice(first, Math.floor(((shift + bytes.length) * 8) / 6));
		if (core.length >= WHOLE_WORD_BELOW) forms.push(core);
	}
	return forms.flatMap((form) => [form, form.replace(/\+/g, '-').replace(/\//g, '_')]);
}

/** Every form of one secret. */
function forms(secret: string): Form[] {
	const bytes = Buffer.from(secret, 'utf8');
	const percent = encodeURIComponent(secret);
	const form = new URLSearchParams([['', secret]]).toString().slice(1);
	const hex = bytes.toString('hex');
	return [
		literal(secret),
		literal(JSON.stringify(secret).slice(1, -1)),
		{ text: percent, pattern: escapesAnyCase(percent) },
		{ text: form, pattern: escapesAnyCase(form) },
		{ text: hex, pattern: anyCase(hex) },
		...base64Forms(bytes).map(literal),
	];
}

const WORD = /^[\p{L}\p{N}]$/u;
/** Not after a letter or digit, unless that ends a percent-escape (`key%3Dvalue`). */
const NOT_AFTER_WORD = '(?<!(?<!%[0-9A-Fa-f])[\\p{L}\\p{N}])';
const NOT_BEFORE_WORD = '(?![\\p{L}\\p{N}])';

/** One expression per form; a short form must stand alone. */
function matchers(secrets: string[]): RegExp[] {
	const all = secrets.filter((s) => typeof s === 'string' && s !== '').flatMap(forms);
	const unique = new Map(all.filter((f) => f.text).map((f) => [f.pattern, f.text]));
	return [...unique].map(([pattern, text]) => {
		if (text.length >= WHOLE_WORD_BELOW) return new RegExp(pattern, 'gu');
		const chars = [...text];
		const before = WORD.test(chars[0]) ? NOT_AFTER_WORD : '';
		const after = WORD.test(chars[chars.length - 1]) ? NOT_BEFORE_WORD : '';
		return new RegExp(before + pattern + after, 'gu');
	});
}

/**
 * A PEM private key block (PKCS#8, `RSA`, `EC`, `ENCRYPTED`…), as sent or JSON-escaped; without
 * its END line (a cut text), up to the end. Always a secret, whoever sent it.
 */
export const PEM_PRIVATE_KEY =
	/-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----(?:[\s\S]*?-----END \1PRIVATE KEY-----|[\s\S]*$)/g;

/**
 * Tokens the package may never have held, masked wherever they stand (the service may echo one it
 * issued, such as the access token of a CreateToken that then failed): a JWT (`eyJ…`, three
 * Base64url parts), the value after `Bearer`, and the value of a field named `…_token`
 * (`access_token`, `refresh_token`, `id_token`), each with a digit in it (so no word is taken).
 */
export const UNHELD_TOKENS = [
	/eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]*/g,
	/(?<=\bbearer\s+)(?=[\w.~+/-]*\d)[\w.~+/-]{8,}=*/giu,
	/(?<=\b(?:access|refresh|id)_token["']?\s*[:=]\s*["']?)(?=[\w.~+/-]*\d)[\w.~+/-]{8,}=*/giu,
];

/**
 * A function that replaces every form of every secret, every PEM private key and every token
 * that looks like one (`UNHELD_TOKENS`) by `mask`.
 */
function redactor(secrets: string[], mask: string): (text: string) => string {
	const expressions = [...matchers(secrets), PEM_PRIVATE_KEY, ...UNHELD_TOKENS];
	return (text) => {
		if (!text) return text;
		const spans: Array<[number, number]> = [];
		for (const expression of expressions) {
			expression.lastIndex = 0;
			for (let found = expression.exec(text); found; found = expression.exec(text)) {
				spans.push([found.index, found.index + found[0].length]);
				// Overlapping occurrences too: go on from the next character.
				expression.lastIndex = found.index + 1;
			}
		}
		if (!spans.length) return text;
		spans.sort((a, b) => a[0] - b[0]);
		let result = '';
		let from = 0;
		for (const [start, end] of spans) {
			if (end <= from) continue;
			if (start >= from) result += text.slice(from, start) + mask;
			from = end;
		}
		return result + text.slice(from);
	};
}

/** Replaces every secret in `text` (the service may echo what it was sent). */
export function redact(text: string, secrets: string[], mask = MASK): string {
	return redactor(secrets, mask)(text);
}

/** Redacts, then shortens to `max` characters: a cut never keeps the first characters of a secret. */
export function redactAndCut(text: string, secrets: string[], max: number, mask = MASK): string {
	return redact(text, secrets, mask).slice(0, max);
}

/**
 * `redact` for every string inside any JSON value (keys included; PEM private keys and tokens
 * always); a number that is a secret
 * (a header value `12345678` echoed as a number) becomes the mask.
 */
export function redactValue<T>(value: T, secrets: string[], mask = MASK): T {
	const clean = redactor(secrets, mask);
	const walk = (node: unknown): unknown => {
		if (typeof node === 'string') return clean(node);
		if (typeof node === 'number') return clean(String(node)) === String(node) ? node : mask;
		if (Array.isArray(node)) return node.map(walk);
		if (node && typeof node === 'object') {
			return Object.fromEntries(
				Object.entries(node).map(([key, inner]) => [clean(key), walk(inner)]),
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
	return [cookie, ...values].filter(Boolean);
}

/**
 * The header values of a body's `credentials`: a destination's (`credentials.values`, the header
 * map) or an event webhook's (`credentials` is the header map itself).
 */
function headerValues(credentials: unknown): unknown[] {
	if (!credentials || typeof credentials !== 'object') return [];
	const map = credentials as JsonObject;
	const nested = map.values && typeof map.values === 'object' ? (map.values as JsonObject) : {};
	return [...Object.values(map), ...Object.values(nested)];
}

/**
 * Secret values a request carries in its body: an OAuth access token, header values, an OAuth
 * client secret and the one-time authorization code that goes with it (CreateToken).
 */
export function secretsIn(body: unknown): string[] {
	if (!body || typeof body !== 'object') return [];
	const {
		access_token: accessToken,
		client_secret: clientSecret,
		credentials,
	} = body as JsonObject;
	const code = clientSecret === undefined ? undefined : (body as JsonObject).code;
	return [accessToken, clientSecret, code, ...headerValues(credentials)].filter(
		(value): value is string => typeof value === 'string' && value !== '',
	);
}
