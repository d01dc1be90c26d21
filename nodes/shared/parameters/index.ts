/**
 * parameters/: the parameters several resources or both nodes declare, each once: Warehouse Code
 * (its list search is transport/warehouses.ts), Partner SKU, the country, the amounts of prices,
 * the ASN Number, and the resource locator they are made of. Descriptions only: each node reads
 * them with its own readers.
 */
export { asnNrProperty } from './asn';
export {
	COUNTRY_CODES,
	COUNTRY_OPTIONS,
	countryCodeProperty,
	countryTextProperty,
	fbnCountryProperty,
	MARKETPLACE_COUNTRIES,
} from './country';
export { labelOf, locatorProperty } from './locator';
export { PARTNER_SKU_KEY, partnerSkuProperty } from './partnerSku';
export { amountProperty, MAX_NAMSHI_PRICE_ROWS, msrpProperty, NAMSHI_AMOUNT_NOTE } from './prices';
export { warehouseCodeProperty } from './warehouseCode';
