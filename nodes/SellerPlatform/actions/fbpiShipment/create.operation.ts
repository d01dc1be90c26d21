import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, named, propertyIn } from '../../../shared';
import { readRequiredText, readTextList } from '../parameters';
import { perItem, type Operation } from '../runner';
import { describe, type Declaration } from '../shapes/declaration';
import { findExistingShipment, type ShipmentRequest } from './existing';
import {
	awbsProperty,
	readAwbs,
	readShipmentKey,
	shipmentKeyProperties,
	shipmentNrProperty,
} from './shipment';

const properties: INodeProperties[] = [
	{
		displayName:
			'The Integration Shipment Number is the key of the shipment: a create is never repeated, and running again with the same number returns the shipment made before (alreadyExisted: true) when it is this very shipment and not cancelled. A cancelled shipment keeps its number: creating it again fails, and a new shipment needs a new number.',
		name: 'createNotice',
		type: 'notice',
		default: '',
	},
	...shipmentKeyProperties('The warehouse that fulfils the order'),
	{
		displayName: 'FBPI Order Number',
		name: 'fbpiOrderNr',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.fbpi_order_nr }}',
		description: 'The order the shipment belongs to (fbpi_order_nr)',
	},
	{
		displayName: 'Marketplace Item Numbers',
		name: 'mpItemNrs',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.items.map(item => item.mp_item_nr) }}',
		description:
			'The items of the order in this shipment, by marketplace item number (mp_item_nr): separated by commas, or an array from an expression',
	},
	awbsProperty('The air waybills of the shipment: at least one'),
];

const declaration: Declaration = {
	show: { resource: 'fbpiShipment', operation: 'create' },
	properties,
};
const orderProperty = propertyIn(properties, 'fbpiOrderNr');
const itemsProperty = propertyIn(properties, 'mpItemNrs');
const awbs = propertyIn(properties, 'awbs');

/** The item's request, every parameter checked. */
function readRequest(ctx: IExecuteFunctions, itemIndex: number): ShipmentRequest {
	const key = readShipmentKey(ctx, properties, itemIndex);
	const fbpi_order_nr = readRequiredText(ctx, orderProperty, itemIndex);
	const itemNrs = readTextList(ctx, itemsProperty, itemIndex, 'at least one item number');
	return {
		...key,
		fbpi_order_nr,
		awbs: readAwbs(ctx, awbs, itemIndex),
		items: itemNrs.map((mp_item_nr) => ({ mp_item_nr })),
	};
}

const describeShipment = (request: ShipmentRequest) =>
	`shipment ${request.integration_shipment_nr} of order ${request.fbpi_order_nr} (warehouse ${request.warehouse_code})`;

async function create(ctx: IExecuteFunctions, request: ShipmentRequest, itemIndex: number) {
	try {
		const answer = await apiRequest.call(ctx, 'CreateShipment', { body: request, itemIndex });
		return { json: { ...request, ...answer } };
	} catch (error) {
		const existing = await findExistingShipment(ctx, request, error, itemIndex);
		const note = `the shipment already existed with this Integration Shipment Number, order, items and AWBs (alreadyExisted: true), e.g. made by an earlier run whose answer was lost; nothing was created again`;
		return { json: existing, notes: [note] };
	}
}

export const description = describe(declaration);

export const plan: Operation['plan'] = perItem(function (this: IExecuteFunctions, itemIndex) {
	const request = readRequest(this, itemIndex);
	const { warehouse_code, integration_shipment_nr } = request;
	return {
		unique: {
			value: `${integration_shipment_nr} (warehouse ${warehouse_code})`,
			parameter: named(shipmentNrProperty),
			rule: 'a shipment number names one shipment of a warehouse, so two items of one run cannot create it',
		},
		creates: {
			describe: () => describeShipment(request),
			advice:
				'Running the workflow again with the same Integration Shipment Numbers does not create these shipments again: each is found and returned with alreadyExisted: true (unless it was cancelled since).',
		},
		send: async () => await create(this, request, itemIndex),
	};
});
