/**
 * What the price operations share: the batch cap, the row's key (partner SKU + country) and the
 * parameters that name a row, read for each input item.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { countryCodeProperty, labelOf, PARTNER_SKU_KEY } from '../../../shared';
import { type ParameterSource, readCountryCode, readRequiredText } from '../parameters';
import type { KeyField } from '../shapes/batch';

/**
 * Rows per request. The reference states no cap for the pricing endpoints; 100 is the package's
 * conservative choice, as for stock (1,500 requests a minute still move 150,000 rows).
 */
export const MAX_PRICE_ROWS = 100;

export const PRICE_KEY: KeyField[] = [
	PARTNER_SKU_KEY,
	{
		field: 'country_code',
		label: 'country',
		parameter: labelOf(countryCodeProperty),
		anyCase: true,
	},
];

/** The row's key fields: the SKU and the country (lower case, one of ae, sa, eg). */
export function readPriceKey(
	ctx: ParameterSource,
	fields: { partner_sku: INodeProperties; country_code: INodeProperties },
	itemIndex: number,
): IDataObject {
	const partnerSku = readRequiredText(ctx, fields.partner_sku, itemIndex);
	const country = readCountryCode(ctx, fields.country_code, itemIndex);
	return { partner_sku: partnerSku, country_code: country };
}
