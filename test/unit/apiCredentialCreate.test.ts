/**
 * apiCredential/create.operation.ts: isIpAddress, which tells a plain IP address (v4 or v6) from a
 * host name in the addresses a new API credential may be limited to.
 */
import { isIpAddress } from '../../dist/nodes/SellerPlatform/actions/apiCredential/create.operation';

describe('isIpAddress', () => {
	it.each(['127.0.0.1', '0.0.0.0', '255.255.255.255', '192.168.10.254', '10.0.0.9'])(
		'takes the IPv4 address %s',
		(address) => {
			expect(isIpAddress(address)).toBe(true);
		},
	);

	it.each(['::1', '::', '2001:db8::1', '2001:DB8::1', '1:2:3:4:5:6:7:8', '::ffff:192.0.2.1'])(
		'takes the IPv6 address %s',
		(address) => {
			expect(isIpAddress(address)).toBe(true);
		},
	);

	it.each([
		['an octet over 255', '256.1.1.1'],
		['three octets', '1.2.3'],
		['five octets', '1.2.3.4.5'],
		['a leading zero', '01.2.3.4'],
		['a port', '1.2.3.4:80'],
		['a space before it', ' 1.2.3.4'],
	])('refuses an IPv4 address with %s (%s)', (_, address) => {
		expect(isIpAddress(address)).toBe(false);
	});

	it.each([
		['a zone', 'fe80::1%eth0'],
		['a prefix length', '2001:db8::/32'],
		['nine groups', '1:2:3:4:5:6:7:8:9'],
		['two ::', '1::2::3'],
		['a group of five digits', '12345::'],
		['brackets', '[::1]'],
		['only colons', ':::'],
		['letters that are not hex digits', 'gw:example'],
	])('refuses an IPv6 address with %s (%s)', (_, address) => {
		expect(isIpAddress(address)).toBe(false);
	});

	it.each(['gw.example', 'localhost', 'abcd', 'seller.example.com', ''])(
		'refuses the host name %j',
		(name) => {
			expect(isIpAddress(name)).toBe(false);
		},
	);
});
