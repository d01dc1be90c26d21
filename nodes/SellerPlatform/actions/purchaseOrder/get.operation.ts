import { readByPath } from '../shapes/readByPath';
import { withReleaseDate } from './releaseDate';

export const { description, plan } = readByPath({
	show: { resource: 'purchaseOrder', operation: 'get' },
	endpoint: 'GetPurchaseOrder',
	path: { po_nr: 'poNr' },
	properties: [
		{
			displayName: 'PO Number',
			name: 'poNr',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. PO-1001',
			description:
				'Number of the purchase order to fetch (po_nr), for example from a FBPO::PO_SYNC event',
		},
	],
	output: (_ctx, record) => withReleaseDate(record),
});
