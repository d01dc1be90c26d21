/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * redact.ts: every form a secret can be echoed in, overlaps, short secrets, and the order
 * "redact, then cut" (with the cuts of errors.ts: 1,000 characters of the service's text, 500
 * of a failure inside n8n).
 */
import { NodeApiError, type INode } from 'n8n-workflow';

import { parseErrorBody } from '../../dist/nodes/shared/errors/errorBody';
import { apiError } from '../../dist/nodes/shared/errors/errors';
import {
	cookieSecrets,
	redact,
	redactAndCut,
	redactValue,
	secretsIn,
	WHOLE_WORD_BELOW,
} from '../../dist/nodes/shared/errors/redact';

const SECRET = 'Sésame "ouvre"-toi=42+/?\\';
const MASK = '<redacted>';

describe('the forms of a secret', () => {
	const bytes = Buffer.from(SECRET, 'utf8');
	it.each([
		['as sent', SECRET],
		['JSON-escaped', JSON.stringify(SECRET).slice(1, -1)],
		['percent-encoded', encodeURIComponent(SECRET)],
		[
			'percent-encoded, lowercase escapes',
			encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
		],
		[
			'form-encoded (+ for a space, %3D for =)',
			new URLSearchParams([['', SECRET]]).toString().slice(1),
		],
		['lowercase hex', bytes.toString('hex')],
		['uppercase hex', bytes.toString('hex').toUpperCase()],
		['Base64', bytes.toString('base64')],
		['Base64 without padding', bytes.toString('base64').replace(/=+$/, '')],
		['Base64url', bytes.toString('base64url')],
	])('removes it %s', (_, form) => {
		expect(redact(`bad value [${form}] in request`, [SECRET])).toBe(
			`bad value [${MASK}] in request`,
		);
	});

	it('removes it inside a longer Base64 text, whatever its offset there', () => {
		for (let before = 0; before < 6; before++) {
			for (let after = 0; after < 3; after++) {
				const blob = Buffer.concat([Buffer.alloc(before, 0x41), bytes, Buffer.alloc(after, 0x42)]);
				for (const encoded of [blob.toString('base64'), blob.toString('base64url')]) {
					const clean = redact(`payload=${encoded};`, [SECRET]);
					expect(clean).toContain(MASK);
					// Left: the characters of the bytes around it, and at most two at each edge.
					const kept = clean.length - MASK.length - 'payload=;'.length;
					expect(kept).toBeLessThanOrEqual(Math.ceil(((before + after) * 4) / 3) + 4);
				}
			}
		}
	});

	it('removes secrets that overlap, and one that contains another, whole', () => {
		const a = 'abcdef123456';
		const b = '123456ghijkl';
		expect(redact('x abcdef123456ghijkl y', [a, b])).toBe(`x ${MASK} y`);
		expect(redact('x abcdef123456 y', [a, 'cdef12'])).toBe(`x ${MASK} y`);
		expect(redact('aaaaaaaaaaa', ['aaaaaaaa'])).toBe(MASK);
	});

	it('gives each caller its own mask', () => {
		expect(redact('token abcdefghij', ['abcdefghij'], '<jwt>')).toBe('token <jwt>');
	});
});

describe('secrets of any length', () => {
	it(`removes a secret of ${WHOLE_WORD_BELOW} characters or more wherever it stands`, () => {
		expect(redact('id=x12345678y', ['12345678'])).toBe(`id=x${MASK}y`);
	});

	it('removes a shorter one, down to one character, where it stands alone', () => {
		expect(redact('header value ab was refused', ['ab'])).toBe(`header value ${MASK} was refused`);
		expect(redact('{"X-Key":"q"}', ['q'])).toBe(`{"X-Key":"${MASK}"}`);
		expect(redact('key%3Dab%26x=1', ['ab'])).toBe(`key%3D${MASK}%26x=1`);
		expect(redact('value 6162 (hex)', ['ab'])).toBe(`value ${MASK} (hex)`);
	});

	it('leaves ordinary words that merely contain a short secret alone', () => {
		// Removing "a" everywhere would shred the text and, by its holes, spell out the secret.
		const text = 'Invalid argument: a value is missing';
		expect(redact(text, ['a'])).toBe(`Invalid argument: ${MASK} value is missing`);
		expect(redact('tabular cab', ['ab'])).toBe('tabular cab');
	});

	it('takes secrets of any length from a request body and a cookie', () => {
		expect(secretsIn({ credentials: { values: { 'X-A': 'k', 'X-B': '', 'X-C': 7 } } })).toEqual([
			'k',
		]);
		expect(secretsIn({ access_token: 'tok' })).toEqual(['tok']);
		expect(cookieSecrets('a=1; b=; c=xyz')).toEqual(['a=1; b=; c=xyz', '1', 'xyz']);
	});
});

describe('JSON values', () => {
	it('redacts keys, strings and numbers that are secrets', () => {
		const value = { '12345678': 'x', nested: [{ n: 12345678, s: 'id 12345678' }], other: 5 };
		expect(redactValue(value, ['12345678'])).toEqual({
			[MASK]: 'x',
			nested: [{ n: MASK, s: `id ${MASK}` }],
			other: 5,
		});
	});
});

describe('redact first, then cut', () => {
	const secret = 'SESSION-0123456789abcdef';
	const leaked = (text: string) => text.includes(secret.slice(0, 4));

	it('redactAndCut cuts inside the mask, never inside the secret', () => {
		const text = `${'.'.repeat(995)}${secret} and more`;
		expect(redactAndCut(text, [secret], 1000)).toBe(`${'.'.repeat(995)}<reda`);
	});

	it("keeps nothing of a secret across the 1,000-character cut of the service's text", () => {
		const parsed = parseErrorBody(Buffer.from(`${'.'.repeat(990)}${secret}`), [secret]);
		expect(parsed.message).toHaveLength(1000);
		expect(leaked(parsed.message!)).toBe(false);
		const json = parseErrorBody(
			JSON.stringify({ message: `${'.'.repeat(990)}${secret}`, status_code: `x ${secret}` }),
			[secret],
		);
		expect(json.message).toBe(`${'.'.repeat(990)}${MASK}`);
		expect(json.status_code).toBe(`x ${MASK}`);
	});

	it('drops a status_id that is a secret', () => {
		expect(parseErrorBody({ status_id: 7, message: 'm' }, ['7'])).toEqual({ message: 'm' });
		expect(parseErrorBody({ status_id: 7, message: 'm' }, ['8'])).toEqual({
			status_id: 7,
			message: 'm',
		});
	});

	it('keeps nothing of a secret across the 500-character cut of a failure inside n8n', () => {
		const node: INode = {
			id: '1',
			name: 'Seller Platform',
			type: 'n8n-nodes-seller-platform.sellerPlatform',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		const failure = new NodeApiError(node, new Error(`${'.'.repeat(490)}${secret}`) as never);
		const error = apiError(failure, {
			node,
			endpoint: 'GetPurchaseOrder',
			itemIndex: 0,
			secrets: [secret],
		});
		expect(error.message).toBe(`${'.'.repeat(490)}${MASK}`);
		expect(leaked(JSON.stringify(error) + error.messages.join())).toBe(false);
	});
});

describe('redaction', () => {
	const cookie = '_npsid=ab"c\\d; other=xyz123';

	it('removes a secret however it is echoed: raw, JSON-escaped or URL-encoded', () => {
		const secrets = cookieSecrets(cookie);
		expect(secrets).toEqual([cookie, 'ab"c\\d', 'xyz123']);
		expect(redact('got ab"c\\d', secrets)).toBe('got <redacted>');
		expect(redact(`body {"cookie":${JSON.stringify(cookie)}}`, secrets)).toBe(
			'body {"cookie":"<redacted>"}',
		);
		expect(redact(`q=${encodeURIComponent('ab"c\\d')}`, secrets)).toBe('q=<redacted>');
	});

	it('walks every string of a JSON value, keys included', () => {
		const details = [{ echoed: cookie, [cookie]: 1, nested: ['xyz123'] }];
		const clean = redactValue(details, cookieSecrets(cookie));
		expect(JSON.stringify(clean)).not.toMatch(/xyz123|ab\\"c/);
		expect(clean).toEqual([{ echoed: '<redacted>', '<redacted>': 1, nested: ['<redacted>'] }]);
	});
});

describe('a PEM private key, known or not', () => {
	const PEM = [
		'-----BEGIN PRIVATE KEY-----',
		'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKB',
		'wQIDAQAB',
		'-----END PRIVATE KEY-----',
	].join('\n');

	it.each([
		['as sent', `key: ${PEM} (end)`, 'key: <redacted> (end)'],
		['JSON-escaped', `{"k":${JSON.stringify(PEM)}}`, '{"k":"<redacted>"}'],
		['PKCS#1 (RSA)', PEM.replace(/ PRIVATE/g, ' RSA PRIVATE'), '<redacted>'],
		['cut before its END line', `key: ${PEM.slice(0, 60)}`, 'key: <redacted>'],
	])('is removed %s, with no secrets given', (_, text, clean) => {
		expect(redact(text, [])).toBe(clean);
	});

	it('is removed from every string of a JSON value and from an error body', () => {
		expect(redactValue({ details: [{ pem: PEM }] }, [])).toEqual({
			details: [{ pem: '<redacted>' }],
		});
		const body = parseErrorBody({ message: `exists: ${PEM}`, details: [PEM] });
		expect(JSON.stringify(body)).not.toMatch(/PRIVATE KEY|MIIEvQ/);
	});
});

describe('a token the package never held: a JWT, a bearer token, a token field', () => {
	const JWT = `eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from('{"sub":"k1","iat":1}').toString('base64url')}.sig-Abc_123xyz`;

	it.each([
		[
			'a JWT alone',
			`upstream timeout after issuing ${JWT}`,
			`upstream timeout after issuing ${MASK}`,
		],
		['a JWT in JSON', `{"t":"${JWT}"}`, `{"t":"${MASK}"}`],
		[
			'a bearer token',
			'Authorization: Bearer 9f8e7d6c5b4a3f2e1d0c',
			`Authorization: Bearer ${MASK}`,
		],
		[
			'an access_token field',
			'{"access_token":"opaque0token1value2"}',
			`{"access_token":"${MASK}"}`,
		],
		[
			'a refresh_token form field',
			'refresh_token=rt-0123456789abc&x=1',
			`refresh_token=${MASK}&x=1`,
		],
	])('%s is masked with no secrets given', (_, text, clean) => {
		expect(redact(text, [])).toBe(clean);
		expect(parseErrorBody({ message: text }).message).toBe(clean);
	});

	it.each([
		'access_token is not a valid OAuth access token (unknown token)',
		'access_token expired at 2026-01-01T00:00:00.000Z',
		'token_type TOKEN_TYPE_BEARER',
		'Bearer tokens are required for this endpoint',
		'eyJ alone is no token',
	])('leaves words alone: %s', (text) => {
		expect(redact(text, [])).toBe(text);
	});
});
