/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Value formats the endpoint table's checks and the control API share: IP addresses, ISO 8601
 * date-times with an offset. (Field rules themselves are in schema.ts.)
 */
import { isIP } from 'node:net';

/**
 * An IPv4 or IPv6 address in canonical form (IPv6 compressed and lower-cased, as Node reports a
 * peer's address), or undefined when it is not an address.
 */
export function canonicalIp(text: string): string | undefined {
	const version = isIP(text);
	if (version === 4) return text;
	if (version === 6) {
		try {
			return new URL(`http://[${text}]/`).hostname.slice(1, -1);
		} catch {
			return undefined;
		}
	}
	return undefined;
}

const ISO_WITH_OFFSET =
	/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)$/;

/**
 * Milliseconds since the epoch of an ISO 8601 date-time that carries a UTC offset (`Z`, `+04:00`,
 * `+0400`, `+04`), or undefined when the text is not one (no offset, impossible date, ...).
 */
export function parseIsoWithOffset(text: string): number | undefined {
	const m = ISO_WITH_OFFSET.exec(text);
	if (!m) return undefined;
	const [year, month, day, hour, minute, second] = m.slice(1, 7).map((part) => Number(part ?? 0));
	const millis = m[7] ? Number(`0.${m[7]}`) * 1000 : 0;
	if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59)
		return undefined;
	const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
	if (day > daysInMonth) return undefined;
	let offsetMinutes = 0;
	const offset = m[8];
	if (offset !== 'Z' && offset !== 'z') {
		const digits = offset.slice(1).replace(':', '');
		const hours = Number(digits.slice(0, 2));
		const minutes = Number(digits.slice(2) || 0);
		if (hours > 23 || minutes > 59) return undefined;
		offsetMinutes = (offset[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
	}
	const utc = new Date(0);
	utc.setUTCFullYear(year, month - 1, day);
	utc.setUTCHours(hour, minute, second, 0);
	return utc.getTime() + Math.floor(millis) - offsetMinutes * 60_000;
}
