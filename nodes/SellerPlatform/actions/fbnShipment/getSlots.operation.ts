/**
 * FBN Shipment → Get Slots: the noon warehouses a sealed ASN may go to, each with its days and
 * time slots still free (AsnService_GetSlotAvailability). The output is the answer, plus
 * `earliest_slot`: the first free slot of all (by date, then start, then warehouse), in the form
 * Schedule takes it, or null when there is none.
 */
import type { IDataObject } from 'n8n-workflow';

import { asnNrProperty } from '../../../shared';
import { readByPath } from '../shapes/readByPath';
import { slotsOf, type Slot } from './slots';

/** The first free slot of all (slots.ts orders them), or null when there is none. */
const earliest = (answer: IDataObject): Slot | null => slotsOf(answer)[0] ?? null;

export const { description, plan } = readByPath({
	show: { resource: 'fbnShipment', operation: 'getSlots' },
	endpoint: 'AsnService_GetSlotAvailability',
	path: { asn_nr: 'asnNr' },
	properties: [asnNrProperty('The number of the sealed ASN to find delivery slots for (asn_nr)')],
	output: (_ctx, answer) => ({
		json: { ...answer, earliest_slot: earliest(answer) as unknown as IDataObject },
	}),
});
