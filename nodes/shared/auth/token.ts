/**
 * The login token: an RS256 JWT signed with the credential's private key (header alg/typ, claims
 * sub, iat, jti), and the login body that carries it. Nothing here ever puts the private key or
 * the token into an error message.
 */
import { createPrivateKey, randomUUID, sign, type KeyObject } from 'crypto';
import type { ICredentialDataDecryptedObject, IDataObject, INodeProperties } from 'n8n-workflow';

import { credentialField } from '../common/properties';
import { keyIdField, privateKeyField } from '../credential/fields';
import { SellerPlatformLoginError } from '../errors/errors';

const PEM_HINT =
	'paste the whole PEM block, including the "-----BEGIN PRIVATE KEY-----" (PKCS#8) or "-----BEGIN RSA PRIVATE KEY-----" (PKCS#1) line';

/**
 * Reads the credential's private key. Accepts PKCS#8 and PKCS#1 PEM, keys pasted with literal
 * `\n` sequences (as they appear inside the credentials JSON file), surrounding quotes and
 * Windows line ends. Throws a message that names the field and never echoes the key.
 */
export function parsePrivateKey(raw: unknown): KeyObject {
	if (typeof raw !== 'string' || raw.trim() === '') {
		throw new SellerPlatformLoginError(`${credentialField(privateKeyField)} is empty`, {
			description: `Copy private_key from the credentials file the seller portal gave you: ${PEM_HINT}.`,
		});
	}
	let pem = raw.trim();
	if (/^["'].*["']$/s.test(pem)) pem = pem.slice(1, -1);
	pem = pem.replace(/\\r/g, '').replace(/\\n/g, '\n').replace(/\r\n?/g, '\n').trim();

	const key = tryCreatePrivateKey(pem);
	if (!key) {
		throw new SellerPlatformLoginError(
			`${credentialField(privateKeyField)} is not a valid PEM private key`,
			{ description: `The key could not be read: ${PEM_HINT}.` },
		);
	}
	if (key.asymmetricKeyType !== 'rsa') {
		throw new SellerPlatformLoginError(
			`${credentialField(privateKeyField)} holds a ${key.asymmetricKeyType ?? 'non-RSA'} key, but the login needs an RSA key`,
			{ description: `The service signs logins with RS256: ${PEM_HINT}.` },
		);
	}
	return key;
}

function tryCreatePrivateKey(pem: string): KeyObject | undefined {
	try {
		return createPrivateKey({ key: pem, format: 'pem' });
	} catch {
		// Deliberately dropped: OpenSSL's message says nothing useful and must not echo the key.
		return undefined;
	}
}

/** Base64url without padding (RFC 7515), as a JWS needs. */
function base64url(data: string | Buffer): string {
	return Buffer.from(data).toString('base64url');
}

/**
 * Builds the login JWT exactly as the spec says: header alg/typ, claims sub, iat, jti, signed
 * RS256 (RSASSA-PKCS1-v1_5 with SHA-256) by node:crypto, an import n8n allows in community nodes.
 */
export async function signLoginToken(
	keyId: string,
	privateKey: KeyObject,
	nowMs: number = Date.now(),
): Promise<string> {
	const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
	const claims = base64url(
		JSON.stringify({ jti: randomUUID(), sub: keyId, iat: Math.floor(nowMs / 1000) }),
	);
	const signingInput = `${header}.${claims}`;
	const signature = sign('sha256', Buffer.from(signingInput), privateKey);
	return `${signingInput}.${base64url(signature)}`;
}

/** The credential's value of `field`, trimmed; an empty one fails the login, naming the field. */
export function requireField(credentials: ICredentialDataDecryptedObject, field: INodeProperties) {
	const value = credentials[field.name];
	if (typeof value !== 'string' || value.trim() === '') {
		throw new SellerPlatformLoginError(`${credentialField(field)} is empty`);
	}
	return value.trim();
}

/** The login request's body: a fresh token and, when set, the project code. */
export async function loginBody(credentials: ICredentialDataDecryptedObject): Promise<IDataObject> {
	const keyId = requireField(credentials, keyIdField);
	const token = await signLoginToken(keyId, parsePrivateKey(credentials.privateKey));
	const projectCode =
		typeof credentials.projectCode === 'string' ? credentials.projectCode.trim() : '';
	return projectCode ? { token, default_project_code: projectCode } : { token };
}
