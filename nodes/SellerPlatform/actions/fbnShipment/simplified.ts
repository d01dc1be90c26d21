/**
 * The simplified ASN of FBN Shipment → Get and Get Many (shapes/simplify.ts): the same flat
 * fields from either (Get's answer holds the ASN in `shipment`), what an inbound workflow maps:
 * the ASN's identity, status, destination, schedule and quantities.
 */
import type { IDataObject } from 'n8n-workflow';

import { picked, type Simplified } from '../shapes/simplify';

const ASN_FIELDS = [
	'asn_nr',
	'exref_nr',
	'status',
	'country_code',
	'dst_warehouse_code',
	'schedule_date',
	'schedule_slot',
	'expected_qty',
	'qty_received',
	'total_sku_count',
	'created_at',
] as const;

const fields =
	'asn_nr, exref_nr, status, country_code, dst_warehouse_code, schedule_date, schedule_slot, expected_qty, qty_received, total_sku_count and created_at';

/** Get Many: each listed ASN header (the Include Total option adds total_count to it too). */
export const simplifiedAsn: Simplified = {
	fields: `${fields} (and total_count with the Include Total option)`,
	shape: (asn: IDataObject) => picked(asn, ASN_FIELDS),
};

/** Get: the ASN of the answer's `shipment`, as flat as Get Many's. */
export const simplifiedAsnAnswer: Simplified = {
	fields,
	shape: (answer: IDataObject) => picked(answer.shipment, ASN_FIELDS),
};
