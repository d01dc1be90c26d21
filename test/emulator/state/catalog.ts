/**
 * The catalog per project: its products with their offers (GetProductOffers) and the barcodes
 * mapped to its SKUs (SkuBarcodeMap). A barcode stands for one SKU; a SKU may have several
 * barcodes. Every project starts with the seeded products and one mapped barcode (seed.ts).
 */
import { invalidArgument } from '../errors';
import { SEEDED_BARCODE, SEEDED_PRODUCTS, SEEDED_PRODUCT_TABLE, type Product } from '../seed';

export interface BarcodeMapping {
	barcode: string;
	partner_sku: string;
	/** ISO 8601 time of the latest change. */
	mapped_at: string;
}

/** What mapping a barcode did: mapped (new, moved or unchanged), or why it was refused. */
export type MapOutcome =
	| { ok: true; mapping: BarcodeMapping }
	| { ok: false; code: 'NOT_FOUND' | 'ALREADY_EXISTS'; message: string };

export class CatalogStore {
	private readonly products = new Map<string, Map<string, Product>>();
	private readonly barcodes = new Map<string, Map<string, BarcodeMapping>>();

	private productsOf(projectCode: string): Map<string, Product> {
		let products = this.products.get(projectCode);
		if (!products) {
			products = new Map(SEEDED_PRODUCT_TABLE.map((p) => [p.partner_sku, structuredClone(p)]));
			this.products.set(projectCode, products);
		}
		return products;
	}

	private barcodesOf(projectCode: string): Map<string, BarcodeMapping> {
		let barcodes = this.barcodes.get(projectCode);
		if (!barcodes) {
			const seeded = { barcode: SEEDED_BARCODE, partner_sku: SEEDED_PRODUCTS.offered };
			barcodes = new Map([[SEEDED_BARCODE, { ...seeded, mapped_at: new Date(0).toISOString() }]]);
			this.barcodes.set(projectCode, barcodes);
		}
		return barcodes;
	}

	/** A product with its offers, or undefined when the SKU is not in the catalog. */
	product(projectCode: string, partnerSku: string): Product | undefined {
		const product = this.productsOf(projectCode).get(partnerSku);
		return product && structuredClone(product);
	}

	listProducts(projectCode: string): Product[] {
		return [...this.productsOf(projectCode).values()].map((p) => structuredClone(p));
	}

	/** Adds products (or replaces those with the same partner SKU). */
	addProducts(projectCode: string, products: Product[]): Product[] {
		if (!Array.isArray(products)) throw invalidArgument('products must be a list');
		for (const product of products) {
			if (!product || typeof product.partner_sku !== 'string' || !product.partner_sku) {
				throw invalidArgument('each product needs a partner_sku');
			}
			const full: Product = {
				partner_sku: product.partner_sku,
				sku: product.sku ?? '',
				title: product.title ?? '',
				brand: product.brand ?? '',
				offers: product.offers ?? [],
			};
			this.productsOf(projectCode).set(product.partner_sku, structuredClone(full));
		}
		return products.map((p) => this.product(projectCode, p.partner_sku) as Product);
	}

	/**
	 * Maps a barcode to a SKU of the catalog: refused when the SKU is not in it, or when the
	 * barcode stands for another SKU and `force` is not set (then it moves). The same mapping
	 * again changes nothing.
	 */
	map(
		projectCode: string,
		barcode: string,
		partnerSku: string,
		force: boolean,
		now: number,
	): MapOutcome {
		if (!this.productsOf(projectCode).has(partnerSku)) {
			const message = `partner_sku ${JSON.stringify(partnerSku)} is not in the catalog of project ${projectCode}`;
			return { ok: false, code: 'NOT_FOUND', message };
		}
		const barcodes = this.barcodesOf(projectCode);
		const current = barcodes.get(barcode);
		if (current && current.partner_sku !== partnerSku && !force) {
			const message = `barcode ${JSON.stringify(barcode)} is mapped to partner_sku ${JSON.stringify(current.partner_sku)}: set force_map to move it`;
			return { ok: false, code: 'ALREADY_EXISTS', message };
		}
		if (current?.partner_sku === partnerSku) return { ok: true, mapping: { ...current } };
		const mapping = { barcode, partner_sku: partnerSku, mapped_at: new Date(now).toISOString() };
		barcodes.set(barcode, mapping);
		return { ok: true, mapping: { ...mapping } };
	}

	/** The project's barcode mappings, in the order they were first made (the seeded one first). */
	listBarcodes(projectCode: string): BarcodeMapping[] {
		return [...this.barcodesOf(projectCode).values()].map((m) => ({ ...m }));
	}
}
