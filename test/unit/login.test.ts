/**
 * login.ts: the session cookies a login sets, as one Cookie header.
 */
import { cookieHeaderFromSetCookie } from '../../dist/nodes/shared/auth/login';

describe('session cookies', () => {
	it('keeps every cookie the login sets, whatever its name, without attributes', () => {
		expect(
			cookieHeaderFromSetCookie([
				'_npsid=abc123; Path=/; HttpOnly; Secure',
				'region=ae; Path=/',
				'x_gw=v=1&k=2; Max-Age=3600',
			]),
		).toBe('_npsid=abc123; region=ae; x_gw=v=1&k=2');
	});

	it('accepts a single header string and keeps the last value of a repeated name', () => {
		expect(cookieHeaderFromSetCookie('a=1; Path=/')).toBe('a=1');
		expect(cookieHeaderFromSetCookie(['a=1', 'a=2'])).toBe('a=2');
	});

	it('gives an empty header when no cookie is set', () => {
		expect(cookieHeaderFromSetCookie(undefined)).toBe('');
		expect(cookieHeaderFromSetCookie(['=nameless', 'garbage'])).toBe('');
	});
});
