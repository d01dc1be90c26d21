/**
 * The trigger's parameters, each declared once: the node lists them (SellerPlatformTrigger.node.ts)
 * and the readers (parameters.ts) take their labels, names and defaults from them.
 */
import type { INodeProperties } from 'n8n-workflow';

export const KNOWN_EVENTS = [
	{ name: 'FBPI::ORDER_SYNC (New or Changed FBPI Order)', value: 'FBPI::ORDER_SYNC' },
	{ name: 'FBPO::PO_SYNC (New or Changed Purchase Order)', value: 'FBPO::PO_SYNC' },
	{ name: 'FBPI::ORDER_CREATED (FBPI Order Created)', value: 'FBPI::ORDER_CREATED' },
];

const takeoverNotice = {
	displayName:
		"Activating this workflow takes over the destination below: its URL is replaced by this workflow's webhook address and ALL its existing headers are replaced by one secret header of this n8n. Deactivating unsubscribes the chosen events, deactivates the destination and removes that header, unless another workflow has taken the destination since. Use a destination reserved for n8n; while the workflow is active, listen for test events with another destination.",
	name: 'takeoverNotice',
	type: 'notice',
	default: '',
} satisfies INodeProperties;

export const destinationCodeProperty = {
	displayName: 'Destination Code',
	name: 'destinationCode',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. DST-1001',
	description:
		'The destination_code of an existing HTTPS destination of your project that n8n takes over',
} satisfies INodeProperties;

export const eventsProperty = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	options: KNOWN_EVENTS,
	default: ['FBPI::ORDER_SYNC'],
	description: 'Event types to subscribe the destination to; only these start the workflow',
} satisfies INodeProperties;

export const customEventsProperty = {
	displayName: 'Custom Events',
	name: 'customEvents',
	type: 'string',
	default: '',
	placeholder: 'e.g. FBPI::ORDER_CREATED, CATALOG::IMPORT_COMPLETED',
	description: 'Further event types, comma-separated, each NAMESPACE::EVENT_NAME',
} satisfies INodeProperties;

/** The option "Accept the Previous Secret For (Minutes)"; `secretGraceMs` falls back to its default. */
export const secretGraceOption = {
	displayName: 'Accept the Previous Secret For (Minutes)',
	name: 'secretGraceMinutes',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 10,
	description:
		'When the workflow is registered again (publishing a new version, re-activating), its secret header is kept if the re-registration comes within this time, and deliveries sent with the previous secret are accepted for this long',
} satisfies INodeProperties;

/**
 * The option "Drop Duplicate Deliveries"; `deduplicates` falls back to its default, which stays a
 * literal here (n8n's lint wants a boolean literal).
 */
export const deduplicateOption = {
	displayName: 'Drop Duplicate Deliveries',
	name: 'deduplicate',
	type: 'boolean',
	default: true,
	description:
		'Whether to start nothing for a delivery already received (the service delivers at least once, so the same event can arrive twice). Deliveries are recognised by metadata.message_id, or by their content.',
} satisfies INodeProperties;

export const optionsProperty = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [secretGraceOption, deduplicateOption],
} satisfies INodeProperties;

/** The node's parameters, in the order it shows them. */
export const properties: INodeProperties[] = [
	takeoverNotice,
	destinationCodeProperty,
	eventsProperty,
	customEventsProperty,
	optionsProperty,
];
