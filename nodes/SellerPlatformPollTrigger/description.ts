/**
 * The poll trigger's parameters, each declared once: the node lists them and the readers
 * (parameters.ts) take their labels, names and defaults from them.
 */
import type { INodeProperties } from 'n8n-workflow';

import { warehouseCodeProperty } from '../shared';

export const NEW_FBPI_ORDER = 'newFbpiOrder';

export const eventProperty = {
	displayName: 'Event',
	name: 'event',
	type: 'options',
	required: true,
	options: [
		{
			name: 'New FBPI Order',
			value: NEW_FBPI_ORDER,
			description: 'An order created in the warehouse since the last poll',
		},
	],
	default: NEW_FBPI_ORDER,
	description: 'What starts the workflow',
} satisfies INodeProperties;

export const warehouseProperty: INodeProperties = warehouseCodeProperty(
	'The warehouse whose new orders start the workflow. Changing it, or the project or gateway of the credential, starts afresh: orders already there are not replayed.',
);

const pollingNotice = {
	displayName:
		'For n8n that the marketplace cannot reach. Each poll lists the orders created since the previous one and starts the workflow once per new order, one item each. The first activation starts nothing for the orders already there; a workflow reactivated later catches up on the orders created while it was off. An order whose details cannot be read is tried again on the next polls for at least 15 minutes, then starts the workflow as listed, with a detailsUnavailable field.',
	name: 'pollingNotice',
	type: 'notice',
	default: '',
} satisfies INodeProperties;

/** Hours of lateness covered by default (saved workflows without the option: this). */
export const DEFAULT_LATE_LISTING_HOURS = 24;
/** The longest lateness the option takes, in hours (a week). */
export const MAX_LATE_LISTING_HOURS = 168;

export const lateListingOption = {
	displayName: 'Catch Orders Listed Late Up To (Hours)',
	name: 'lateListingHours',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: MAX_LATE_LISTING_HOURS, numberPrecision: 2 },
	default: DEFAULT_LATE_LISTING_HOURS,
	description:
		'An order that first shows in the list up to this many hours after its creation time is still started, once. Every 30 minutes a sweep lists the orders of the last this-many hours again: ceil(those orders / 50) ListFbpiOrders requests per sweep, at most 40 per poll (50,000 orders a day, 24 hours: about 2,000 requests an hour). 0: only the 15 minutes each poll looks back.',
} satisfies INodeProperties;

export const optionsProperty = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [lateListingOption],
} satisfies INodeProperties;

/** The node's parameters, in the order it shows them (n8n adds "Poll Times" itself). */
export const properties: INodeProperties[] = [
	pollingNotice,
	eventProperty,
	warehouseProperty,
	optionsProperty,
];
