/**
 * Which route a request that carries the login token or the session takes to the Base URL.
 *
 * n8n's HTTP client picks a proxy from its environment for every request (HTTP_PROXY,
 * HTTPS_PROXY, ALL_PROXY, NO_PROXY, read when it connects, in n8n 1.x and 2.x alike) unless the
 * request names a proxy of its own; `proxy: false` changes nothing, and a node may neither read
 * the environment nor hand n8n an agent. An https:// request goes through that proxy in a tunnel
 * (CONNECT): the proxy sees only TLS. An http:// request would be sent to the proxy in clear text,
 * login token and session included. So such a request names its own Base URL's host and port as
 * its proxy: n8n then connects straight to that host, and sends the request line in the absolute
 * form (`POST http://host:port/path`) that every HTTP/1.1 server accepts (RFC 9112, 3.2.2).
 * The credential's `allowProxyField` lets a proxy carry them to a local Base URL instead.
 */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { allowProxyField } from '../credential/fields';
import { isLocalHost, localNamesAllowed } from '../gateway/url';

/** Whether the credential lets a proxy carry its secrets to `baseUrl` (a local one only). */
export function proxyAllowed(
	credentials: ICredentialDataDecryptedObject,
	baseUrl: string,
): boolean {
	if (credentials[allowProxyField.name] !== true) return false;
	return isLocalHost(new URL(baseUrl).hostname, localNamesAllowed(credentials));
}

/** A request's `proxy` option as n8n reads it: a URL, or `{ protocol, host, port }`. */
type ProxyOption = IHttpRequestOptions['proxy'] | string | false;

/** The origin a `proxy` option names, or undefined. */
function proxyOrigin(proxy: ProxyOption): string | undefined {
	if (!proxy) return undefined;
	try {
		if (typeof proxy === 'string') return new URL(proxy).origin;
		const protocol = (proxy.protocol ?? 'http').replace(/:$/, '');
		const url = new URL(`${protocol}://${proxy.host}`);
		if (proxy.port !== undefined) url.port = String(proxy.port);
		return url.origin;
	} catch {
		return undefined;
	}
}

/**
 * The `proxy` option that sends a request to `target` straight to its host (see the top of this
 * file), for an http: target; undefined for https: (a proxy only tunnels it).
 */
export function straightRoute(target: URL): IHttpRequestOptions['proxy'] | undefined {
	if (target.protocol !== 'http:') return undefined;
	return { protocol: 'http', host: target.hostname, port: Number(target.port || 80) };
}

/** Whether `proxy` is the straight route to `target` (as `straightRoute` names it). */
export function isStraightRoute(proxy: ProxyOption, target: URL): boolean {
	return target.protocol === 'http:' && proxyOrigin(proxy) === target.origin;
}
