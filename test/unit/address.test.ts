/**
 * Where an export download may go (nodes/shared/gateway/address.ts): the kind of a URL's host, in every
 * notation the URL parser accepts, and the rules against the credential's Base URL. The
 * integration tests (download.test.ts) run a local gateway on loopback; the rules for a gateway
 * on a public address are checked here.
 */
import { addressKind, downloadTargetProblem } from '../../dist/nodes/shared/gateway/address';

/** The kind of the host of `url`, as parsed by the URL parser (as the node does). */
const kindOf = (url: string) => addressKind(new URL(url).hostname);
const problem = (target: string, base = 'https://gateway.example') =>
	downloadTargetProblem(new URL(target), new URL(base));

describe('address kinds', () => {
	it.each([
		['http://127.0.0.1/', 'loopback'],
		['http://127.1/', 'loopback'],
		['http://2130706433/', 'loopback'],
		['http://0x7f.0.0.1/', 'loopback'],
		['http://0177.0.0.1/', 'loopback'],
		['http://0.0.0.0/', 'loopback'],
		['http://[::1]/', 'loopback'],
		['http://[::]/', 'loopback'],
		['http://[0:0:0:0:0:0:0:1]/', 'loopback'],
		['http://[::ffff:127.0.0.1]/', 'loopback'],
		['http://localhost/', 'loopback'],
		['http://LOCALHOST./', 'loopback'],
		['http://files.localhost/', 'loopback'],
		['http://10.1.2.3/', 'private'],
		['http://172.16.0.1/', 'private'],
		['http://172.31.255.255/', 'private'],
		['http://192.168.0.10/', 'private'],
		// Shared address space (carrier NAT), in every form that carries it.
		['http://100.64.0.1/', 'shared'],
		['http://100.127.255.254/', 'shared'],
		['http://1681915905/', 'shared'],
		['http://[::ffff:100.64.1.2]/', 'shared'],
		['http://[64:ff9b::100.64.1.2]/', 'shared'],
		['http://[2002:6440:102::1]/', 'shared'],
		['https://100.63.255.255/', 'public'],
		['http://[fc00::1]/', 'private'],
		['http://[fd12:3456::1]/', 'private'],
		['http://[::ffff:10.0.0.1]/', 'private'],
		['http://[64:ff9b::10.0.0.1]/', 'private'],
		['http://[2002:c0a8:101::1]/', 'private'],
		['http://169.254.169.254/', 'link-local'],
		['http://2852039166/', 'link-local'],
		['http://[fe80::1]/', 'link-local'],
		['http://[febf::1]/', 'link-local'],
		['http://[::ffff:169.254.169.254]/', 'link-local'],
		['http://[::a9fe:a9fe]/', 'link-local'],
		['http://224.0.0.1/', 'reserved'],
		['http://255.255.255.255/', 'reserved'],
		['http://[ff02::1]/', 'reserved'],
		['https://8.8.8.8/', 'public'],
		['https://172.32.0.1/', 'public'],
		['https://100.128.0.1/', 'public'],
		['https://[2001:4860:4860::8888]/', 'public'],
		['https://[::ffff:8.8.8.8]/', 'public'],
		['https://storage.googleapis.com/', 'public'],
		['https://localhost.example.com/', 'public'],
	])('%s is %s', (url, kind) => {
		expect(kindOf(url)).toBe(kind);
	});
});

describe('the download rules, for a gateway on a public address', () => {
	it('downloads over https from public addresses, and over the Base URL own scheme from its host', () => {
		expect(problem('https://storage.example/exports/x.csv?sig=1')).toBeUndefined();
		expect(problem('http://gw.local:8080/files/x.csv', 'http://gw.local:9000')).toBeUndefined();
	});

	it.each([
		['http://storage.example/x.csv', 'it uses http: (storage.example), and only https: addresses'],
		['http://gateway.example/x.csv', 'it uses http: (gateway.example)'],
		['data:text/csv,a,b', 'it uses data:, and only https:'],
		['file:///etc/passwd', 'it uses file:, and only https:'],
		['ftp://storage.example/x.csv', 'it uses ftp: (storage.example)'],
	])('refuses the scheme of %s', (target, message) => {
		expect(problem(target)).toContain(message);
	});

	it.each([
		['https://127.0.0.1/x', 'a loopback address (127.0.0.1)'],
		['https://localhost:8443/x', 'a loopback address (localhost)'],
		['https://[::1]/x', 'a loopback address ([::1])'],
		['https://0.0.0.0/x', 'a loopback address (0.0.0.0)'],
		['https://10.0.0.1/x', 'a private address (10.0.0.1)'],
		['https://[fd00::1]/x', 'a private address ([fd00::1])'],
		['https://100.64.0.1/x', 'a carrier-NAT address (100.64.0.1)'],
		['https://169.254.169.254/latest/meta-data/', 'a link-local address (169.254.169.254)'],
		['https://[fe80::1]/x', 'a link-local address ([fe80::1])'],
	])('refuses %s', (target, what) => {
		expect(problem(target)).toBe(`it points at ${what}, and the Base URL is not one`);
	});

	it('allows an address of the kind of the Base URL own host, and only that kind', () => {
		const local = 'http://127.0.0.1:5001';
		expect(problem('https://[::1]:8443/x', local)).toBeUndefined();
		expect(problem('https://localhost/x', local)).toBeUndefined();
		expect(problem('https://169.254.169.254/x', local)).toContain('a link-local address');
		expect(problem('https://10.0.0.1/x', local)).toContain('a private address');
		expect(problem('https://10.0.0.2/x', 'https://10.0.0.1')).toBeUndefined();
		expect(problem('https://127.0.0.1/x', 'https://10.0.0.1')).toContain('a loopback address');
		expect(problem('https://100.64.0.1/x', 'https://10.0.0.1')).toContain('a carrier-NAT address');
		expect(problem('https://100.64.0.2/x', 'https://100.64.0.1')).toBeUndefined();
	});
});

describe('the path of a download address', () => {
	it('refuses a malformed percent-escape, naming it, and escapes that are not UTF-8 text', () => {
		expect(problem('https://storage.example/exports/report%zz.csv')).toBe(
			'its path has a malformed percent-escape ("%zz")',
		);
		expect(problem('https://storage.example/exports/report%4.csv')).toBe(
			'its path has a malformed percent-escape ("%4.")',
		);
		expect(problem('https://storage.example/exports/report%C3%28.csv')).toBe(
			'its path has a malformed percent-escape (escapes that are not UTF-8 text)',
		);
		expect(problem('https://storage.example/exports/r%C3%A9sum%C3%A9%20v2.csv')).toBeUndefined();
	});
});
