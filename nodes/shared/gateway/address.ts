/**
 * Where a download may go. The kind of a URL's host is judged from the host as written: IP
 * literals (the URL parser turns every IPv4 notation, such as `2130706433` or `0x7f.1`, into
 * dotted decimal) and the names `localhost` and `*.localhost`. Any other name counts as public:
 * n8n's rules for community nodes allow no DNS lookup (no `dns` or `net` import), and n8n 2.x
 * refuses a node's own `lookup` in `agentOptions`; n8n's SSRF protection
 * (`N8N_SSRF_PROTECTION_ENABLED=true`) checks the address a name resolves to when it connects.
 */
import { baseUrlField } from '../credential/fields';

/** What an address is, for the rules below. */
export type AddressKind = 'public' | 'loopback' | 'private' | 'shared' | 'link-local' | 'reserved';

const KIND_NAMES: Record<Exclude<AddressKind, 'public'>, string> = {
	loopback: 'a loopback address',
	private: 'a private address',
	shared: 'a carrier-NAT address',
	'link-local': 'a link-local address',
	reserved: 'a reserved address',
};

/** The four numbers of a dotted decimal IPv4 address, or undefined. */
function ipv4Octets(host: string): number[] | undefined {
	const parts = host.split('.');
	if (parts.length !== 4 || parts.some((part) => !/^\d{1,3}$/.test(part))) return undefined;
	const octets = parts.map(Number);
	return octets.every((octet) => octet <= 255) ? octets : undefined;
}

/** The eight 16-bit groups of an IPv6 address (brackets allowed), or undefined. */
function ipv6Groups(host: string): number[] | undefined {
	const text = host.replace(/^\[|\]$/g, '').toLowerCase();
	if (!text.includes(':') || !/^[0-9a-f:.]+$/.test(text)) return undefined;
	const [head, tail, ...more] = text.split('::');
	if (more.length) return undefined;
	const groupsOf = (part: string | undefined): number[] | undefined => {
		if (!part) return [];
		const groups: number[] = [];
		for (const piece of part.split(':')) {
			const octets = piece.includes('.') ? ipv4Octets(piece) : undefined;
			if (octets) groups.push((octets[0] << 8) | octets[1], (octets[2] << 8) | octets[3]);
			else if (/^[0-9a-f]{1,4}$/.test(piece)) groups.push(parseInt(piece, 16));
			else return undefined;
		}
		return groups;
	};
	const first = groupsOf(head);
	const last = groupsOf(tail);
	if (!first || !last) return undefined;
	const missing = 8 - first.length - last.length;
	if (tail === undefined) return missing === 0 ? first : undefined;
	return missing >= 1 ? [...first, ...new Array<number>(missing).fill(0), ...last] : undefined;
}

function ipv4Kind([a, b, c]: number[]): AddressKind {
	if (a === 0 || a === 127) return 'loopback'; // 0.0.0.0 reaches this host too
	if (a === 10 || (a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168)) return 'private';
	// Shared address space (RFC 6598): carrier NAT, also used by other customers of a provider.
	if (a === 100 && b >= 64 && b < 128) return 'shared';
	if (a === 169 && b === 254) return 'link-local';
	if ((a === 192 && b === 0 && c === 0) || (a === 198 && (b === 18 || b === 19)) || a >= 224)
		return 'reserved'; // protocol assignments, benchmarking, multicast and class E
	return 'public';
}

/** The IPv4 address that two 16-bit groups of an IPv6 address carry. */
const ipv4Of = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255];

const isNat64 = (groups: number[]) =>
	groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0);

function ipv6Kind(groups: number[]): AddressKind {
	const zeroUpTo = (count: number) => groups.slice(0, count).every((group) => group === 0);
	if (zeroUpTo(7) && groups[7] <= 1) return 'loopback'; // :: and ::1
	// IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d).
	if ((zeroUpTo(5) && (groups[5] === 0xffff || groups[5] === 0)) || isNat64(groups))
		return ipv4Kind(ipv4Of(groups[6], groups[7]));
	if (groups[0] === 0x2002) return ipv4Kind(ipv4Of(groups[1], groups[2])); // 6to4
	if (groups[0] === 0x64 && groups[1] === 0xff9b && groups[2] === 1) return 'private';
	if ((groups[0] & 0xfe00) === 0xfc00 || (groups[0] & 0xffc0) === 0xfec0) return 'private';
	if ((groups[0] & 0xffc0) === 0xfe80) return 'link-local';
	if ((groups[0] & 0xff00) === 0xff00 || (groups[0] === 0x100 && zeroUpTo(4))) return 'reserved';
	return 'public';
}

/** The kind of a URL's host name (`URL.hostname`): see the top of this file. */
export function addressKind(hostname: string): AddressKind {
	const host = hostname.toLowerCase().replace(/\.$/, '');
	if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
	const octets = ipv4Octets(host);
	if (octets) return ipv4Kind(octets);
	const groups = ipv6Groups(host);
	return groups ? ipv6Kind(groups) : 'public';
}

/** How the rules below read in an error's description. */
export const DOWNLOAD_RULES = `Export files are downloaded over https: only (or from the ${baseUrlField.displayName}'s own host), never from a loopback, private or link-local address unless the ${baseUrlField.displayName} is an address of that kind, and through at most 3 redirects, each checked the same way; a path with a malformed percent-escape is not followed.`;

/** What is wrong with the percent-escapes of a path (a file name is read from it), if anything. */
function escapeProblem(path: string): string | undefined {
	try {
		decodeURIComponent(path);
		return undefined;
	} catch {
		const escape = /%(?![0-9a-f]{2}).{0,2}/i.exec(path)?.[0];
		return `its path has a malformed percent-escape (${escape ? `"${escape}"` : 'escapes that are not UTF-8 text'})`;
	}
}

/**
 * Why `target` may not be fetched for the gateway at `base`, or undefined when it may:
 * - https: only, or the Base URL's own scheme and host (the emulator on plain http);
 * - a loopback, private, link-local or reserved address only when the Base URL's host is an
 *   address of the same kind (a local emulator may link to loopback, never to 169.254.169.254);
 * - a path whose percent-escapes decode (the file is named after it).
 * Names the host or the bad escape, never the rest of the address (a signed link carries its
 * signature).
 */
export function downloadTargetProblem(target: URL, base: URL): string | undefined {
	const ownHost = target.protocol === base.protocol && target.hostname === base.hostname;
	if (target.protocol !== 'https:' && !ownHost) {
		return `it uses ${target.protocol}${target.hostname ? ` (${target.hostname})` : ''}, and only https: addresses (or the ${baseUrlField.displayName}'s own host) are downloaded`;
	}
	const kind = addressKind(target.hostname);
	if (kind !== 'public' && kind !== addressKind(base.hostname)) {
		return `it points at ${KIND_NAMES[kind]} (${target.hostname}), and the ${baseUrlField.displayName} is not one`;
	}
	return escapeProblem(target.pathname);
}
