/** FBN Shipment → Get: an ASN's header (status, schedule, quantities) by its number. */
import { readByPath } from '../shapes/readByPath';
import { asnNrProperty } from './asn';

export const { description, plan } = readByPath({
	show: { resource: 'fbnShipment', operation: 'get' },
	endpoint: 'AsnService_GetShipment',
	path: { asn_nr: 'asnNr' },
	properties: [asnNrProperty('The number of the ASN to read (asn_nr)')],
});
