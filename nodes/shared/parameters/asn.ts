/**
 * The ASN Number of the FBN shipment and FBN item operations: a resource locator offering the
 * ASNs of the marketplace countries (the action node's list search `searchAsns`) or taking a
 * number typed or mapped by expression. Read as one path segment; a plain string saved before it
 * was a locator is read as it is.
 */
import type { INodeProperties } from 'n8n-workflow';

import { locatorProperty } from './locator';

/** The name the action node registers the ASN list search under (`methods.listSearch`). */
const ASN_SEARCH_METHOD = 'searchAsns';

export const asnNrProperty = (description: string): INodeProperties =>
	locatorProperty({
		displayName: 'ASN Number',
		name: 'asnNr',
		description,
		searchListMethod: ASN_SEARCH_METHOD,
		searchable: true,
		example: 'ASN-AE-000123',
		typedLabel: 'By Number',
	});
