import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../../api/request';
import { EVENT_TYPE_PATTERN } from '../../../api/constants';
import { concurrencyOption, optionsCollection } from '../descriptions';
import { keyProblem, quoted } from '../../../api/values';
import {
	checkedBoolean,
	checkedList,
	checkedText,
	collectionParameter,
	invalidParameter,
	requiredPathParameter,
} from '../parameters';
import { perItem } from '../runner';

const show = { resource: ['destination'], operation: ['update'] };

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const description: INodeProperties[] = [
	{
		displayName:
			'Headers replace ALL existing headers of the destination, and Remove All Headers removes them. A destination a Seller Platform Trigger took over carries its secret header: changing its headers or URL stops that workflow from receiving events.',
		name: 'headersNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	{
		displayName: 'Destination Code',
		name: 'destinationCode',
		type: 'string',
		required: true,
		default: '',
		description: 'The destination_code of the HTTPS destination to change',
		displayOptions: { show },
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add field',
		default: {},
		description: 'Only the fields added here change; everything else stays as it is',
		displayOptions: { show },
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
	optionsCollection(show, [concurrencyOption]),
];

export const plan = perItem(function (this: IExecuteFunctions, itemIndex) {
	const destinationCode = requiredPathParameter(
		this,
		'destinationCode',
		'Destination Code',
		itemIndex,
	);
	const fields = collectionParameter(this, 'updateFields', 'Update Fields', itemIndex);
	const body: IDataObject = {};
	const fail = (message: string) => invalidParameter(this, itemIndex, message);
	const flag = (value: unknown, what: string, fallback: boolean) =>
		checkedBoolean(this, itemIndex, value, what, fallback);

	if (fields.destinationName !== undefined) {
		const name = checkedText(
			this,
			itemIndex,
			fields.destinationName,
			'The field "Destination Name" (destinationName)',
		);
		if (name) body.destination_name = name;
	}
	if (fields.isActive !== undefined) {
		body.is_active = flag(fields.isActive, 'The field "Is Active" (isActive)', true);
	}
	const removeAllHeaders = flag(
		fields.removeAllHeaders,
		'The field "Remove All Headers" (removeAllHeaders)',
		false,
	);
	const url = checkedText(this, itemIndex, fields.url, 'The field "URL" (url)');
	if (url !== '') {
		let parsed: URL | undefined;
		try {
			parsed = new URL(url);
		} catch {
			parsed = undefined;
		}
		if (parsed?.protocol !== 'https:') {
			throw fail(`The field "URL" (url) must be an https:// address, got ${quoted(url)}`);
		}
		body.url = url;
	}

	const headers = checkedList(
		this,
		itemIndex,
		(fields.headers as IDataObject | undefined)?.header,
		'The field "Headers" (headers)',
	);
	if (headers.length && removeAllHeaders) {
		throw fail(
			'Set either "Headers" (headers) or "Remove All Headers" (removeAllHeaders), not both',
		);
	}
	if (headers.length) {
		// Header names are the user's: a map without a prototype, so no name reaches one.
		const values = Object.create(null) as IDataObject;
		for (const header of headers) {
			const name = checkedText(
				this,
				itemIndex,
				header.name,
				'A header name in "Headers" (headers)',
			);
			if (!HEADER_NAME.test(name)) {
				throw fail(
					`The header name ${quoted(name)} in "Headers" (headers) is not a valid HTTP header name`,
				);
			}
			const reserved = keyProblem(name, 'A header name in "Headers" (headers)');
			if (reserved) throw fail(reserved);
			checkedText(
				this,
				itemIndex,
				header.value,
				`The value of the header "${name}" in "Headers" (headers)`,
			);
			values[name] =
				header.value === undefined || header.value === null ? '' : String(header.value);
		}
		body.credentials = { values };
	} else if (removeAllHeaders) {
		body.credentials = { values: {} };
	}

	const eventTypes = checkedList(
		this,
		itemIndex,
		(fields.eventTypes as IDataObject | undefined)?.eventType,
		'The field "Event Types" (eventTypes)',
	);
	if (eventTypes.length) {
		body.event_types = eventTypes.map((entry) => {
			const eventType = checkedText(
				this,
				itemIndex,
				entry.eventType,
				'An event type in "Event Types" (eventTypes)',
			);
			if (!EVENT_TYPE_PATTERN.test(eventType)) {
				throw fail(
					`The event type ${quoted(eventType)} in "Event Types" (eventTypes) must have the form NAMESPACE::EVENT_NAME, e.g. FBPI::ORDER_SYNC`,
				);
			}
			const subscribed = flag(
				entry.isActive,
				`"Subscribed" (isActive) of the event type "${eventType}" in "Event Types" (eventTypes)`,
				true,
			);
			return { event_type: eventType, is_active: subscribed };
		});
	}
	return {
		send: async () => ({
			json: await apiRequest.call(this, 'UpdateDestination', {
				pathParams: { destination_code: destinationCode },
				body,
				itemIndex,
			}),
		}),
	};
});
