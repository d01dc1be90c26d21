/** Offer → Get: a SKU's product and its offers in every country (GetProductOffers). */
import { readByPath } from '../shapes/readByPath';
import { partnerSkuProperty } from '../stock/row';

export const { description, plan } = readByPath({
	show: { resource: 'offer', operation: 'get' },
	endpoint: 'GetProductOffers',
	path: { partner_sku: 'partnerSku' },
	properties: [
		partnerSkuProperty(
			'Your SKU whose offers to read: its noon SKU, title and brand, and per country and business model the price, stock, whether it is live and why not',
		),
	],
});
