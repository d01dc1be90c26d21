/** Price → Get: the price, MSRP and active state of each input item's SKU in a country (BatchGetPricing). */
import { countryCodeProperty, partnerSkuProperty } from '../../../shared';
import { batchOperation } from '../shapes/batch';
import { MAX_PRICE_ROWS, PRICE_KEY, readPriceKey } from './row';

const fields = {
	partner_sku: partnerSkuProperty('Your SKU whose price to read'),
	country_code: countryCodeProperty('The marketplace country of the price'),
};

export const { description, plan } = batchOperation({
	show: { resource: 'price', operation: 'get' },
	fields,
	rowIs: 'a SKU and a country',
	endpoint: 'BatchGetPricing',
	maxRows: MAX_PRICE_ROWS,
	key: PRICE_KEY,
	repeatedKey: 'share',
	row: readPriceKey,
	leftOutAdvice: 'Nothing was read for this row: run it again.',
});
