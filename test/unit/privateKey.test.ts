/**
 * apiCredential/privateKey.ts: the new private key found wherever an answer of CreateCredential
 * holds it (any depth, any spelling of the field, a PEM block in any text, escaped or encoded),
 * taken out of the JSON, and never in the name errors and hints give the created key.
 */
import { generateKeyPairSync } from 'crypto';

import {
	describeCreated,
	findKeyId,
	takePrivateKeys,
} from '../../dist/nodes/SellerPlatform/actions/apiCredential/privateKey';

const PEM = generateKeyPairSync('rsa', { modulusLength: 1024 })
	.privateKey.export({ type: 'pkcs8', format: 'pem' })
	.toString();
const BODY = PEM.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
const HOLE = '[removed]';

/** No line of the key, and no 24 characters of its body, anywhere in `value`. */
function expectNoKey(value: unknown) {
	const text = JSON.stringify(value);
	expect(text).not.toContain('PRIVATE KEY');
	for (let at = 0; at + 24 <= BODY.length; at += 24)
		expect(text).not.toContain(BODY.slice(at, at + 24));
}

describe('takePrivateKeys', () => {
	it.each([
		['credential.private_key', { credential: { key_id: 'k1', private_key: PEM } }],
		['privateKey, camelCase, deep', { a: [{ b: { privateKey: PEM, key_id: 'k1' } }] }],
		['PRIVATE-KEY', { 'PRIVATE-KEY': PEM, key_id: 'k1' }],
		['a PEM in another field', { key_id: 'k1', pem: `here: ${PEM}` }],
		['a PEM in a field name', { [PEM]: 'k1' }],
		['JSON text', { data: JSON.stringify({ credential: { key_id: 'k1', private_key: PEM } }) }],
		['JSON text inside JSON text', { data: JSON.stringify({ body: JSON.stringify({ pk: PEM }) }) }],
	])('takes the key given as %s, and keeps none of it', (_, answer) => {
		const { json, keys } = takePrivateKeys(answer, HOLE);
		expect(keys).toEqual([PEM]);
		expectNoKey(json);
	});

	it('takes a key field that holds no PEM block (the key all the same), of any type', () => {
		expect(takePrivateKeys({ private_key: BODY }, HOLE)).toEqual({ json: {}, keys: [BODY] });
		expect(takePrivateKeys({ private_key: { n: 1 }, x: 1 }, HOLE)).toEqual({
			json: { x: 1 },
			keys: [],
		});
	});

	it('removes the other forms of a key it found: URL-encoded, Base64, its body alone', () => {
		const answer = {
			credential: { private_key: PEM },
			url: `https://x.test/?k=${encodeURIComponent(PEM)}`,
			b64: Buffer.from(PEM).toString('base64'),
			der: BODY,
		};
		const { json, keys } = takePrivateKeys(answer, HOLE);
		expect(keys).toEqual([PEM]);
		expectNoKey(json);
		expect(JSON.stringify(json)).not.toContain(encodeURIComponent(PEM).slice(40, 80));
		expect(JSON.stringify(json)).not.toContain(Buffer.from(PEM).toString('base64').slice(40, 80));
		expect(json).toEqual({
			credential: {},
			url: `https://x.test/?k=${HOLE}`,
			b64: HOLE,
			der: HOLE,
		});
	});

	it('leaves an answer without a key as it was', () => {
		const answer = { credential: { key_id: 'k1', type: 'apijwt' }, list: [1, 'two', null] };
		expect(takePrivateKeys(answer, HOLE)).toEqual({ json: answer, keys: [] });
	});
});

describe('the name of a created key', () => {
	it.each([
		[{ credential: { key_id: 'k1' } }, 'k1'],
		[{ result: [{ credential: { keyId: 'k2' } }] }, 'k2'],
		[{ data: `)]}'\n{"credential":{"key_id":"k3"}}` }, 'k3'],
		[{ nothing: true }, undefined],
	])('is found at any depth, or in a text: %j', (answer, keyId) => {
		expect(findKeyId(answer)).toBe(keyId);
	});

	it('is never a private key, even in a key_id', () => {
		expect(describeCreated({ credential: { key_id: `x ${PEM}` } })).toBe(
			'key ID x [private key]\n',
		);
		expect(describeCreated({})).toBe('key ID unknown');
	});
});
