/**
 * token.ts: the login token (an RS256 JWT signed with the credential's private key) and the
 * private key formats the credential accepts.
 */
import { createPrivateKey, generateKeyPairSync } from 'crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';

import { SellerPlatformLoginError } from '../../dist/nodes/shared/errors/errors';
import { parsePrivateKey, signLoginToken } from '../../dist/nodes/shared/auth/token';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const pkcs1 = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('login token', () => {
	it('is an RS256 JWT with typ, sub, whole-second iat and a fresh UUID jti, signed with the key', async () => {
		const now = Date.UTC(2026, 10, 21, 12, 0, 0, 987);
		const token = await signLoginToken('noon-partners-key-id-abc', parsePrivateKey(pkcs8), now);

		expect(token.split('.')).toHaveLength(3);
		expect(token).not.toMatch(/=/); // base64url without padding
		expect(decodeProtectedHeader(token)).toEqual({ alg: 'RS256', typ: 'JWT' });
		const { payload } = await jwtVerify(token, publicKey, {
			algorithms: ['RS256'],
			currentDate: new Date(now),
		});
		expect(payload.sub).toBe('noon-partners-key-id-abc');
		expect(payload.iat).toBe(Math.floor(now / 1000));
		expect(Number.isInteger(payload.iat)).toBe(true);
		expect(payload.jti).toMatch(UUID);
		expect(Object.keys(payload).sort()).toEqual(['iat', 'jti', 'sub']);
	});

	it('never repeats a jti', async () => {
		const key = parsePrivateKey(pkcs8);
		const jtis = new Set<unknown>();
		for (let i = 0; i < 20; i++) {
			const token = await signLoginToken('k', key);
			jtis.add(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).jti);
		}
		expect(jtis.size).toBe(20);
	});

	it('is rejected by a verifier holding another public key', async () => {
		const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
		const token = await signLoginToken('k', parsePrivateKey(pkcs8));
		await expect(jwtVerify(token, other)).rejects.toThrow();
	});
});

describe('private key formats', () => {
	const expectSameKey = (raw: string) => {
		const parsed = parsePrivateKey(raw);
		expect(parsed.export({ type: 'pkcs8', format: 'pem' })).toBe(pkcs8);
	};

	it('reads PKCS#8', () => expectSameKey(pkcs8));
	it('reads PKCS#1', () => {
		expect(pkcs1).toContain('BEGIN RSA PRIVATE KEY');
		expectSameKey(pkcs1);
	});
	it('reads a key pasted with literal \\n sequences', () =>
		expectSameKey(pkcs8.replace(/\n/g, '\\n')));
	it('reads a PKCS#1 key pasted with literal \\n, quotes and CRLF around it', () =>
		expectSameKey(`"${pkcs1.replace(/\n/g, '\\r\\n')}"\r\n`));
	it('reads a key with Windows line ends', () => expectSameKey(pkcs8.replace(/\n/g, '\r\n')));

	it.each([
		['empty', '', 'The "Private Key" field of the credential is empty'],
		['blank', '   \n ', 'The "Private Key" field of the credential is empty'],
		[
			'not PEM',
			'hello world',
			'The "Private Key" field of the credential is not a valid PEM private key',
		],
		[
			'a truncated PEM',
			pkcs8.slice(0, 200) + '\n-----END PRIVATE KEY-----',
			'The "Private Key" field of the credential is not a valid PEM private key',
		],
	])('rejects %s with a message naming the field', (_name, raw, message) => {
		let error: unknown;
		try {
			parsePrivateKey(raw);
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(SellerPlatformLoginError);
		expect((error as Error).message).toBe(message);
		expect(
			JSON.stringify({ ...(error as object), message: (error as Error).message }),
		).not.toContain(pkcs8.slice(40, 80));
	});

	it('rejects a key that is not RSA', () => {
		const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
			.privateKey.export({ type: 'pkcs8', format: 'pem' })
			.toString();
		expect(() => parsePrivateKey(ec)).toThrow(/holds a ec key, but the login needs an RSA key/);
	});

	it('gives a key that signs like the original', () => {
		const parsed = parsePrivateKey(pkcs1);
		expect(parsed.asymmetricKeyType).toBe('rsa');
		expect(createPrivateKey(pkcs8).export({ type: 'pkcs1', format: 'pem' })).toBe(
			parsed.export({ type: 'pkcs1', format: 'pem' }),
		);
	});
});
