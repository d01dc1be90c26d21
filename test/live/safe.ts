/**
 * What the live suite may write into a shape file or print, from an answer of a real gateway
 * (production's too, if pointed there): never a value. The gateway's own text (an error message,
 * a crash's reason) may repeat what it was sent (a login token, a cookie) or hold data (an order
 * number, an e-mail, a phone number); an object's keys may be data too (a map keyed by order
 * number or e-mail). So:
 *
 * - a key is written as it is only when it reads as a field name (`fieldName`): letters and `_`,
 *   at most 2 digits at its end, at most 64 characters; any other key is written `<key>` (header
 *   and cookie names and error codes likewise, each by its own rule below);
 * - text keeps only its plain words (`plainText`): words of letters (`-`, `_`, `'` inside),
 *   numbers of up to 5 digits standing alone (not beside another number or a cut word) and dotted
 *   lower-case names (host names); any other word (digits among letters, `@`, `+`, `/`, `=`:
 *   tokens, ids, e-mails, phone numbers) becomes `…`; the run's secrets are cut first, and only
 *   the first line is kept, at most 300 characters.
 *
 * What still passes: a key or a word that is a plain word (a customer's name written as a key or
 * in an error message). No gateway is known to do that; check the printout before sending it.
 */

/** A key that reads as a field name, else `DATA_KEY`. */
export const DATA_KEY = '<key>';
const FIELD_NAME = /^[A-Za-z_][A-Za-z_]{0,61}\d{0,2}$/;

export function fieldName(key: string): string {
	return FIELD_NAME.test(key) ? key : DATA_KEY;
}

/** A header's name as written in a shape: lower-case letters and `-`, else `DATA_KEY`. */
export function headerName(name: string): string {
	const lower = name.toLowerCase();
	return /^[a-z][a-z-]{0,63}$/.test(lower) ? lower : DATA_KEY;
}

/** A cookie's name: a field name that may also hold `-` (`__Host-session`), else `DATA_KEY`. */
export function cookieName(name: string): string {
	return /^[A-Za-z_][A-Za-z_-]{0,61}\d{0,2}$/.test(name) ? name : DATA_KEY;
}

/** A service's error code (`INVALID_ARGUMENT`), else `DATA_KEY`. */
export function errorCode(code: unknown): string {
	return typeof code === 'string' && /^[A-Z][A-Z_]{0,63}$/.test(code) ? code : DATA_KEY;
}

const PLAIN_WORD =
	/^[(["']?([A-Za-z][A-Za-z'_-]{0,31}|\d{1,5}|[a-z-]+(\.[a-z-]+)+|[-–—])[)\]"',.:;!?]*$/;
const MAX_LINE = 300;

/** `text` without the secrets, its first line's plain words only (see above). */
export function plainText(text: string, secrets: string[] = []): string {
	const cut = secrets
		.filter((secret) => secret.length >= 4)
		.reduce((all, secret) => all.split(secret).join(' … '), text);
	const line = cut.split(/\r?\n/, 1)[0] ?? '';
	const words = line.split(/\s+/).filter(Boolean);
	const kept = words.map((word) => (PLAIN_WORD.test(word) ? word : '…'));
	// A number beside another number or a cut word is a piece of one value (`+971 50 123 4567`).
	const isNumber = (word: string | undefined) => word !== undefined && /\d/.test(word);
	const near = (i: number) => [kept[i - 1], kept[i + 1]].some((w) => w === '…' || isNumber(w));
	const plain = kept.map((word, i) => (isNumber(word) && near(i) ? '…' : word));
	const joined = plain.join(' ').replace(/…( …)+/g, '…');
	return joined.length > MAX_LINE ? `${joined.slice(0, MAX_LINE)}…` : joined;
}
