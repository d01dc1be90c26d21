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
		'Whether to start nothing for a delivery already received (the service delivers at least once, so the same event can arrive twice). Deliveries are recognised by metadata.message_id, or by their content. A new delivery that may have started the workflow before n8n last stopped comes with possibleDuplicate: true: check before acting on it.',
} satisfies INodeProperties;

/** The addresses noon documents its deliveries come from (noon-api-map.md). */
export const NOON_SENDER_ADDRESSES = ['34.76.219.109', '35.233.95.217', '104.155.39.2'];

/**
 * The option "Only Accept noon's Sender Addresses"; `noonSendersOnly` falls back to its default,
 * a literal here (n8n's lint wants a boolean literal).
 */
export const noonSendersOption = {
	displayName: "Only Accept Noon's Sender Addresses",
	name: 'noonSendersOnly',
	type: 'boolean',
	default: false,
	description: `Whether to refuse (403, starting nothing) deliveries that do not come from an address noon documents for its deliveries (${NOON_SENDER_ADDRESSES.join(', ')}). The address is the one n8n reports for the request: the connecting address, or behind a reverse proxy, with N8N_PROXY_HOPS set to the number of proxies, the entry of X-Forwarded-For that many hops back. Behind a proxy without N8N_PROXY_HOPS every delivery comes from the proxy and is refused; a value larger than the real number of proxies lets a caller choose its address.`,
} satisfies INodeProperties;

export const optionsProperty = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [secretGraceOption, deduplicateOption, noonSendersOption],
} satisfies INodeProperties;

/** The node's parameters, in the order it shows them. */
export const properties: INodeProperties[] = [
	takeoverNotice,
	destinationCodeProperty,
	eventsProperty,
	customEventsProperty,
	optionsProperty,
];
