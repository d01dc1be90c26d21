import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { countryCodeProperty, named, propertyIn } from '../../../shared';
import { checkNumber, invalidParameter, readCountryCode } from '../parameters';
import { bodyFromFields } from '../shapes/bodyFromFields';

/** The most AWB numbers one request may ask for (the reference's cap). */
export const MAX_AWBS_PER_REQUEST = 1000;

const properties: INodeProperties[] = [
	countryCodeProperty('Country of the warehouse the parcels leave from'),
	{
		displayName: 'Quantity',
		name: 'quantity',
		type: 'number',
		required: true,
		typeOptions: { minValue: 1, maxValue: MAX_AWBS_PER_REQUEST, numberPrecision: 0 },
		default: 1,
		description: `How many AWB numbers to generate: 1 to ${MAX_AWBS_PER_REQUEST}. Keep spare ones for later shipments.`,
	},
];
const countryProperty = propertyIn(properties, 'countryCode');
const quantityProperty = propertyIn(properties, 'quantity');
/** A whole number from 1 to the cap; unset is refused (the service needs one). */
function readQuantity(ctx: IExecuteFunctions, itemIndex: number): number {
	const value = ctx.getNodeParameter(quantityProperty.name, itemIndex, undefined) as unknown;
	const what = named(quantityProperty);
	const rule = { whole: true, min: 1 };
	const quantity = checkNumber(ctx, itemIndex, value, what, rule, NaN);
	if (Number.isNaN(quantity)) throw invalidParameter(ctx, itemIndex, `${what} must be set`);
	if (quantity > MAX_AWBS_PER_REQUEST) {
		const message = `${what} must be at most ${MAX_AWBS_PER_REQUEST} (the service's cap per request), got ${quantity}`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	return quantity;
}

export const { description, plan } = bodyFromFields({
	show: { resource: 'fbpiShipment', operation: 'generateAwbs' },
	endpoint: 'GetNoonLogisticsAWBs',
	properties,
	body: {
		country_code: (ctx, itemIndex) => readCountryCode(ctx, countryProperty, itemIndex),
		qty: readQuantity,
	},
	output: (_ctx, answer, { body }) => ({ json: { country_code: body?.country_code, ...answer } }),
});
