/**
 * session.ts: the credential's authenticate sends the login token and the session to the Base URL's
 * origin only.
 */
import { generateKeyPairSync } from 'crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { loginFingerprint } from '../../dist/nodes/shared/auth/login';
import { authenticateRequest } from '../../dist/nodes/shared/auth/authenticate';

const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
	.privateKey.export({ type: 'pkcs8', format: 'pem' })
	.toString();

function credentials(baseUrl: string): ICredentialDataDecryptedObject {
	const data: ICredentialDataDecryptedObject = {
		baseUrl,
		keyId: 'key-1',
		privateKey,
		projectCode: 'PRJ1',
		sessionCookie: '_npsid=s1; _nprtnetid=g1',
	};
	data.sessionFingerprint = loginFingerprint(data);
	return data;
}

describe("the credential's authenticate: only the Base URL's origin", () => {
	it.each([
		['https://gw.noon.partners', 'https://GW.Noon.Partners:443/fbpo/v1/po/PO-1/get'],
		['https://gw.noon.partners:443/', 'https://gw.noon.partners/fbpo/v1/po/PO-1/get'],
		['HTTPS://GW.NOON.PARTNERS', 'https://gw.noon.partners/x?y=1'],
		['http://127.0.0.1:80', 'http://127.0.0.1/x'],
		['https://gw.noon.partners/prefix/', 'https://gw.noon.partners/elsewhere'],
	])('Base URL %s takes %s, with the session', async (baseUrl, url) => {
		const options = await authenticateRequest(credentials(baseUrl), { url });
		expect(options.headers?.Cookie).toBe('_npsid=s1; _nprtnetid=g1');
	});

	it('takes a relative url against baseURL, and the legacy `uri` of the HTTP Request node', async () => {
		const data = credentials('https://gw.noon.partners');
		for (const options of [
			{ baseURL: 'https://gw.noon.partners/', url: '/x' },
			{ uri: 'https://gw.noon.partners/x' },
		]) {
			const result = await authenticateRequest(data, options as never);
			expect(result.headers?.Cookie).toBe('_npsid=s1; _nprtnetid=g1');
		}
	});

	it.each([
		['another host', 'https://gw.noon.partners.evil/x', 'https://gw.noon.partners.evil'],
		['a subdomain', 'https://a.gw.noon.partners/x', 'https://a.gw.noon.partners'],
		['another port', 'https://gw.noon.partners:8443/x', 'https://gw.noon.partners:8443'],
		['another scheme', 'http://gw.noon.partners/x', 'http://gw.noon.partners'],
		[
			'user info that hides another host',
			'https://gw.noon.partners@evil.example/x',
			'https://evil.example',
		],
		['an absolute url beside baseURL', 'https://evil.example/x', 'https://evil.example'],
	])('refuses %s, naming both origins', async (_what, url, origin) => {
		const data = credentials('https://gw.noon.partners');
		await expect(
			authenticateRequest(data, { url, baseURL: 'https://gw.noon.partners' }),
		).rejects.toThrow(
			`The Seller Platform API credential sends its session and login token only to its Base URL (https://gw.noon.partners): this request to ${origin} was not sent`,
		);
	});

	it('refuses what is no full http(s) address', async () => {
		for (const options of [{ url: '/x' }, { url: 'file:///etc/passwd' }, {}]) {
			await expect(
				authenticateRequest(credentials('https://gw.noon.partners'), options as never),
			).rejects.toThrow('this request to an address that is not a full http(s) URL was not sent');
		}
	});

	it("refuses the Base URL's login path in any spelling (the credential logs in by itself)", async () => {
		const data = credentials('https://gw.noon.partners/base/');
		for (const url of [
			'/identity/public/v1/api/login/',
			'/identity/public/v1/api/login?x=1',
			'/identity//public/v1//api/login',
			'/Identity/Public/V1/API/Login',
			'/identity/public/v1/api/%6Cogin',
			'/identity/public/v1/api/login;x=1',
		]) {
			await expect(
				authenticateRequest(data, {
					baseURL: 'https://GW.noon.partners:443/base',
					url,
					method: 'POST',
				}),
			).rejects.toThrow('this request to the login endpoint was not sent');
		}
		const elsewhere = await authenticateRequest(data, {
			url: 'https://gw.noon.partners/other/identity/public/v1/api/login',
			method: 'POST',
		});
		expect(elsewhere.body).toBeUndefined();
		expect(elsewhere.headers?.Cookie).toBe('_npsid=s1; _nprtnetid=g1');
	});
});

describe("the credential's authenticate: only a straight route", () => {
	const url = 'https://gw.noon.partners/fbpo/v1/po/PO-1/get';
	it.each([
		['a proxy (n8n helpers)', { proxy: { host: 'proxy.example', port: 8080, protocol: 'http' } }],
		['a proxy (HTTP Request node)', { proxy: 'http://proxy.example:8080' }],
		['Ignore SSL Issues (n8n helpers)', { skipSslCertificateValidation: true }],
		['Ignore SSL Issues (HTTP Request node)', { rejectUnauthorized: false }],
		['strictSSL off', { strictSSL: false }],
		['an agent without certificate checks', { agentOptions: { rejectUnauthorized: false } }],
		['a certificate authority of its own', { agentOptions: { ca: '-----BEGIN CERTIFICATE-----' } }],
	])('refuses a request with %s', async (_what, extra) => {
		await expect(
			authenticateRequest(credentials('https://gw.noon.partners'), { url, ...extra } as never),
		).rejects.toThrow(
			/only to requests that go straight to its Base URL: this request (through a proxy|with certificate checks turned off \(Ignore SSL Issues\)|with a certificate authority of its own \(SSL Certificates\)) was not sent$/,
		);
	});

	it('takes the same options with certificate checks on and no proxy', async () => {
		const options = await authenticateRequest(credentials('https://gw.noon.partners'), {
			url,
			proxy: '',
			rejectUnauthorized: true,
			skipSslCertificateValidation: false,
		} as never);
		expect(options.headers?.Cookie).toBe('_npsid=s1; _nprtnetid=g1');
	});

	it('a loopback emulator takes certificate checks off (nothing crosses a network), never a proxy', async () => {
		const options = await authenticateRequest(credentials('http://127.0.0.1:8080'), {
			url: 'http://127.0.0.1:8080/x',
			rejectUnauthorized: false,
			agentOptions: { ca: 'x' },
		} as never);
		expect(options.headers?.Cookie).toBe('_npsid=s1; _nprtnetid=g1');
		// A loopback Base URL may be a tunnel to the real gateway: a proxy would read its session.
		await expect(
			authenticateRequest(credentials('http://127.0.0.1:8080'), {
				url: 'http://127.0.0.1:8080/x',
				proxy: 'http://127.0.0.1:3128',
			} as never),
		).rejects.toThrow('this request through a proxy was not sent');
	});
});
