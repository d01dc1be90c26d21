/**
 * Where a delivery comes from, as n8n reports it, and whether that is one of noon's documented
 * sender addresses (the option "Only Accept Noon's Sender Addresses").
 *
 * n8n's web server (Express) gives the webhook the request's `ip`: the connecting address when
 * N8N_PROXY_HOPS is 0 (the default), else the address that many hops back along
 * X-Forwarded-For (1: the entry the nearest proxy appended). n8n listens on "::" by default, so an
 * IPv4 caller shows as `::ffff:a.b.c.d`: compared here as the IPv4 address it carries.
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import { NOON_SENDER_ADDRESSES } from './description';

const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** The delivery's address as n8n reports it ('' when it reports none), IPv4-mapped ones as IPv4. */
export function senderAddress(ctx: IWebhookFunctions): string {
	const ip = (ctx.getRequestObject() as { ip?: unknown }).ip;
	const address = typeof ip === 'string' ? ip.trim() : '';
	return IPV4_MAPPED.exec(address)?.[1] ?? address;
}

/** Whether the delivery comes from one of noon's documented sender addresses. */
export function fromNoon(ctx: IWebhookFunctions): boolean {
	return NOON_SENDER_ADDRESSES.includes(senderAddress(ctx));
}
