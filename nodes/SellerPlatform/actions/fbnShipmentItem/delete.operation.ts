/**
 * FBN Shipment Item → Delete: takes SKUs off a draft ASN (AsnService_DeleteShipmentItems). One
 * row per input item, rows of one ASN packed into requests of at most 1000 SKUs; the same ASN
 * and SKU twice in a run is sent once and answers both items.
 */
import { partnerSkuProperty } from '../../../shared';
import { batchOperation } from '../shapes/batch';
import { asn, ITEM_KEY, MAX_ASN_ITEMS, pathOf, readItemKey, withShipment } from './row';

const fields = { asn_nr: asn, partner_sku: partnerSkuProperty('Your SKU to take off the ASN') };

export const { description, plan } = batchOperation({
	show: { resource: 'fbnShipmentItem', operation: 'delete' },
	fields,
	rowIs: 'an ASN and a SKU',
	endpoint: 'AsnService_DeleteShipmentItems',
	maxRows: MAX_ASN_ITEMS,
	key: ITEM_KEY,
	repeatedKey: 'share',
	row: readItemKey,
	leftOutAdvice: 'Read the ASN’s items back with FBN Shipment Item → Get Many.',
	pathOf,
	bodyOf: (rows) => ({ partner_skus: rows.map((row) => row.partner_sku) }),
	wholeAnswer: withShipment({ deleted: true }),
});
