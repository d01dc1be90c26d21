/** Offer → Get: a SKU's product and its offers in every country (GetProductOffers). */
import type { IDataObject } from 'n8n-workflow';

import { partnerSkuProperty } from '../../../shared';
import { picked, pickedList, simplifiedReadByPath, type Simplified } from '../shapes/simplify';

const OFFER_FIELDS = [
	'offer_code',
	'country_code',
	'business_model',
	'is_active',
	'live_status',
	'active_net_stock',
] as const;

/** An offer, its price flat (`price`, `currency`: null without one), its issues' reasons. */
function simplifiedOffer(offer: IDataObject): IDataObject {
	const price = typeof offer.price === 'object' && offer.price !== null ? offer.price : {};
	const { amount, currency } = price as IDataObject;
	const issues = pickedList(offer.offer_issues, (issue) => picked(issue, ['reason'])) ?? [];
	return {
		...picked(offer, OFFER_FIELDS),
		price: typeof amount === 'number' ? amount : null,
		currency: typeof currency === 'string' ? currency : null,
		issue_reasons: issues.flatMap(({ reason }) => (typeof reason === 'string' ? [reason] : [])),
	};
}

const simplifiedProduct: Simplified = {
	fields:
		'partner_sku, sku, title, and offers, each with offer_code, country_code, business_model, is_active, live_status, active_net_stock, price and currency (null without a price) and issue_reasons (why it is not live)',
	shape(product: IDataObject): IDataObject {
		const offers = pickedList(product.offers, simplifiedOffer);
		return { ...picked(product, ['partner_sku', 'sku', 'title']), ...(offers ? { offers } : {}) };
	},
};

export const { description, plan } = simplifiedReadByPath({
	show: { resource: 'offer', operation: 'get' },
	endpoint: 'GetProductOffers',
	path: { partner_sku: 'partnerSku' },
	properties: [
		partnerSkuProperty(
			'Your SKU whose offers to read: its noon SKU, title and brand, and per country and business model the price, stock, whether it is live and why not',
		),
	],
	simplified: simplifiedProduct,
});
