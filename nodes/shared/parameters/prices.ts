/**
 * The amounts of the price operations (noon's prices and transfer prices, Namshi's global and
 * local prices), and what Namshi's two price updates share (BatchUpsertGlobalPricing,
 * BatchUpsertLocalPricing): their batch cap and how their amounts are written.
 */
import type { INodeProperties } from 'n8n-workflow';

/**
 * An optional amount (price, MSRP): a number from 0, empty to leave it as it is. `decimals` where
 * every currency of the endpoint has that many (noon's AED, SAR, EGP: 2); none where a currency
 * has more (Namshi's KWD, BHD, OMR: 3), so the editor never rounds a typed amount. The reader
 * never rounds.
 */
export const amountProperty = (
	name: string,
	displayName: string,
	description: string,
	decimals?: number,
): INodeProperties => ({
	displayName,
	name,
	type: 'number',
	typeOptions:
		decimals === undefined ? { minValue: 0 } : { minValue: 0, numberPrecision: decimals },
	default: '',
	description: `${description}, not negative. Leave empty to keep the current one.`,
});

/** The MSRP of a price row: the same field in Price, Global Price and Local Price updates. */
export const msrpProperty = (decimals?: number) =>
	amountProperty(
		'msrp',
		'MSRP',
		'The recommended retail price shown crossed out beside the price',
		decimals,
	);

/** Namshi's amounts are in the country's currency, as many decimals as it has. */
export const NAMSHI_AMOUNT_NOTE = 'as many decimals as the currency has (3 for KWD, BHD, OMR)';

/**
 * Rows per request of Namshi's price updates. The reference states no cap for Namshi's pricing
 * endpoints; 100 is the package's conservative choice, as for noon's stock and prices.
 */
export const MAX_NAMSHI_PRICE_ROWS = 100;
