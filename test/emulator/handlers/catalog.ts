/**
 * The catalog and offer endpoints: SkuBarcodeMap, a batch of rows each answered with
 * its own status (a SKU not in the catalog: NOT_FOUND; a barcode mapped to another SKU without
 * force_map: ALREADY_EXISTS), and GetProductOffers, a read of the seeded products.
 */
import type { ApiResult, Endpoint, EndpointContext } from '../endpoint';
import { s } from '../schema';
import { OK_STATUS, rowStatus } from '../state/stockPrices';
import { MAX_BATCH_ROWS } from './stockPrices';

/** The reference's cap of a barcode and a partner SKU: 100 characters each. */
export const MAX_BARCODE_LENGTH = 100;

interface BarcodeRow {
	barcode: string;
	partner_sku: string;
	force_map?: boolean;
}

function mapBarcodes(ctx: EndpointContext<{ items: BarcodeRow[] }>): ApiResult {
	const items = ctx.body.items.map((row) => {
		const key = { barcode: row.barcode, partner_sku: row.partner_sku };
		const force = row.force_map === true;
		const outcome = ctx.state.catalog.map(
			ctx.projectCode,
			row.barcode,
			row.partner_sku,
			force,
			ctx.now,
		);
		return outcome.ok
			? {
					barcode: outcome.mapping.barcode,
					partner_sku: outcome.mapping.partner_sku,
					status: OK_STATUS,
				}
			: { ...key, status: rowStatus(outcome.code, outcome.message) };
	});
	return { body: { items } };
}

export const CATALOG_ENDPOINTS: readonly Endpoint[] = [
	{
		// The reference states no cap of rows: the emulator enforces the package's (100), as for
		// stock and prices, so a packing mistake shows up as a 400.
		operation: 'SkuBarcodeMap',
		method: 'POST',
		path: '/catplat/v1/barcode/map',
		body: {
			items: s.array(
				s.object({
					barcode: s.string({ required: true, maxLength: MAX_BARCODE_LENGTH }),
					partner_sku: s.string({ required: true, maxLength: MAX_BARCODE_LENGTH }),
					force_map: s.boolean(),
				}),
				{ required: true, minItems: 1, noun: 'row', maxItems: MAX_BATCH_ROWS },
			),
		},
		handler: mapBarcodes,
	},
	{
		operation: 'GetProductOffers',
		method: 'GET',
		path: '/offer/v1/product/{partner_sku}',
		resource: 'product',
		answer: ({ state, params, projectCode }) =>
			state.catalog.product(projectCode, params.partner_sku),
	},
];
