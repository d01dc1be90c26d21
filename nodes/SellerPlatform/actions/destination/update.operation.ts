import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	EVENT_TYPE_PATTERN,
	HEADER_NAME_PATTERN,
	keyProblem,
	named,
	propertyIn,
	quoted,
	quotedName,
	rowsOf,
} from '../../../shared';
import {
	readBooleanField,
	checkBoolean,
	checkText,
	readCollection,
	invalidParameter,
	readRowsField,
} from '../parameters';
import { bodyFromFields } from '../shapes/bodyFromFields';

const properties: INodeProperties[] = [
	{
		displayName:
			'Headers replace ALL existing headers of the destination, and Remove All Headers removes them. A destination a Seller Platform Trigger took over carries its secret header: changing its headers or URL stops that workflow from receiving events.',
		name: 'headersNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Destination Code',
		name: 'destinationCode',
		type: 'string',
		required: true,
		default: '',
		description: 'The destination_code of the HTTPS destination to change',
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add field',
		default: {},
		description: 'Only the fields added here change; everything else stays as it is',
		options: [
			{
				displayName: 'Destination Name',
				name: 'destinationName',
				type: 'string',
				default: '',
				description: 'Label for reference only',
			},
			{
				displayName: 'Event Types',
				name: 'eventTypes',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add event type',
				description:
					'Subscriptions to create, re-activate or switch off. Event types not listed here stay as they are.',
				options: [
					{
						displayName: 'Event Type',
						name: 'eventType',
						values: [
							{
								displayName: 'Event Type',
								name: 'eventType',
								type: 'string',
								default: '',
								placeholder: 'e.g. FBPI::ORDER_SYNC',
								description: 'Name of the event type, NAMESPACE::EVENT_NAME',
							},
							{
								displayName: 'Subscribed',
								name: 'isActive',
								type: 'boolean',
								default: true,
								description: 'Whether to subscribe (true) or unsubscribe (false)',
							},
						],
					},
				],
			},
			{
				displayName: 'Headers',
				name: 'headers',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add header',
				description:
					'HTTP headers sent with every event delivery, for example a secret your server checks. Setting headers REPLACES all existing headers of the destination.',
				options: [
					{
						displayName: 'Header',
						name: 'header',
						values: [
							{ displayName: 'Name', name: 'name', type: 'string', default: '' },
							{
								displayName: 'Value',
								name: 'value',
								type: 'string',
								typeOptions: { password: true },
								default: '',
							},
						],
					},
				],
			},
			{
				displayName: 'Is Active',
				name: 'isActive',
				type: 'boolean',
				default: true,
				description:
					'Whether the destination receives events. Inactive destinations keep their subscriptions but receive nothing.',
			},
			{
				displayName: 'Remove All Headers',
				name: 'removeAllHeaders',
				type: 'boolean',
				default: false,
				description: 'Whether to remove every header of the destination',
			},
			{
				displayName: 'URL',
				name: 'url',
				type: 'string',
				default: '',
				placeholder: 'https://example.com/webhooks/seller-platform',
				description: 'HTTPS address of your server that receives the events',
			},
		],
	},
];

const updateFields = propertyIn(properties, 'updateFields');
/** A field of "Update Fields" by its name. */
const field = (name: string) => propertyIn(updateFields.options, name);
const headersField = quotedName(field('headers'));
const eventTypesField = field('eventTypes');
const eventTypeValues = rowsOf(eventTypesField).fields;

/** An https:// address for the destination, or '' when the field is unset. */
function readUrl(ctx: IExecuteFunctions, itemIndex: number, fields: IDataObject): string {
	const what = named(field('url'), 'field');
	const url = checkText(ctx, itemIndex, fields.url, what);
	if (url === '') return url;
	let parsed: URL | undefined;
	try {
		parsed = new URL(url);
	} catch {
		parsed = undefined;
	}
	if (parsed?.protocol !== 'https:') {
		const message = `${what} must be an https:// address, got ${quoted(url)}`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	return url;
}

/** One header of "Headers": a valid HTTP header name, not a reserved key, and a text value. */
function readHeader(ctx: IExecuteFunctions, itemIndex: number, header: IDataObject) {
	const what = `A header name in ${headersField}`;
	const name = checkText(ctx, itemIndex, header.name, what);
	if (!HEADER_NAME_PATTERN.test(name)) {
		const message = `The header name ${quoted(name)} in ${headersField} is not a valid HTTP header name`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	const reserved = keyProblem(name, what);
	if (reserved) throw invalidParameter(ctx, itemIndex, reserved);
	const where = `The value of the header "${name}" in ${headersField}`;
	checkText(ctx, itemIndex, header.value, where);
	return {
		name,
		value: header.value === undefined || header.value === null ? '' : String(header.value),
	};
}

/** The destination's headers (`credentials.values`): the given ones, none, or unchanged. */
function readHeaders(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: IDataObject,
	removeAll: boolean,
): IDataObject | undefined {
	const headers = readRowsField(ctx, itemIndex, fields, field('headers'), 'field');
	if (headers.length && removeAll) {
		const message = `Set either ${headersField} or ${quotedName(field('removeAllHeaders'))}, not both`;
		throw invalidParameter(ctx, itemIndex, message);
	}
	if (!headers.length) return removeAll ? { values: {} } : undefined;
	// Header names are the user's: a map without a prototype, so no name reaches one.
	const values = Object.create(null) as IDataObject;
	for (const header of headers) {
		const { name, value } = readHeader(ctx, itemIndex, header);
		values[name] = value;
	}
	return { values };
}

/** The event types to subscribe or unsubscribe, each NAMESPACE::EVENT_NAME. */
function readEventTypes(ctx: IExecuteFunctions, itemIndex: number, fields: IDataObject) {
	const entries = readRowsField(ctx, itemIndex, fields, eventTypesField, 'field');
	const inField = `in ${quotedName(eventTypesField)}`;
	const subscribed = propertyIn(eventTypeValues, 'isActive');
	return entries.map((entry) => {
		const eventType = checkText(ctx, itemIndex, entry.eventType, `An event type ${inField}`);
		if (!EVENT_TYPE_PATTERN.test(eventType)) {
			const message = `The event type ${quoted(eventType)} ${inField} must have the form NAMESPACE::EVENT_NAME, e.g. FBPI::ORDER_SYNC`;
			throw invalidParameter(ctx, itemIndex, message);
		}
		const what = `${quotedName(subscribed)} of the event type "${eventType}" ${inField}`;
		const fallback = subscribed.default as boolean;
		const isActive = checkBoolean(ctx, itemIndex, entry.isActive, what, fallback);
		return { event_type: eventType, is_active: isActive };
	});
}
/** The update's body: only the fields the user set. */
function readUpdate(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const fields = readCollection(ctx, updateFields, itemIndex);
	const body: IDataObject = {};
	if (fields.destinationName !== undefined) {
		const what = named(field('destinationName'), 'field');
		const name = checkText(ctx, itemIndex, fields.destinationName, what);
		if (name) body.destination_name = name;
	}
	if (fields.isActive !== undefined) {
		body.is_active = readBooleanField(ctx, itemIndex, fields, field('isActive'), 'field');
	}
	const removeAll = readBooleanField(ctx, itemIndex, fields, field('removeAllHeaders'), 'field');
	const url = readUrl(ctx, itemIndex, fields);
	if (url) body.url = url;
	const headers = readHeaders(ctx, itemIndex, fields, removeAll);
	if (headers) body.credentials = headers;
	const eventTypes = readEventTypes(ctx, itemIndex, fields);
	if (eventTypes.length) body.event_types = eventTypes;
	return body;
}

export const { description, plan } = bodyFromFields({
	show: { resource: 'destination', operation: 'update' },
	endpoint: 'UpdateDestination',
	path: { destination_code: 'destinationCode' },
	body: readUpdate,
	properties,
});
