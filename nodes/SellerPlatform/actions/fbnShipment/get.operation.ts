/** FBN Shipment → Get: an ASN's header (status, schedule, quantities) by its number. */
import { asnNrProperty } from '../../../shared';
import { simplifiedReadByPath } from '../shapes/simplify';
import { simplifiedAsnAnswer } from './simplified';

export const { description, plan } = simplifiedReadByPath({
	show: { resource: 'fbnShipment', operation: 'get' },
	endpoint: 'AsnService_GetShipment',
	path: { asn_nr: 'asnNr' },
	properties: [asnNrProperty('The number of the ASN to read (asn_nr)')],
	simplified: simplifiedAsnAnswer,
});
