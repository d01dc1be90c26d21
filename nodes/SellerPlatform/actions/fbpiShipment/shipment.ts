/**
 * What the shipment operations share: a shipment is known by its warehouse and the seller's
 * Integration Shipment Number; its AWBs are rows of a courier and a number.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { propertyIn, quoted, quotedName, rowsOf, warehouseCodeProperty } from '../../../shared';
import {
	checkText,
	invalidParameter,
	readWarehouseCode,
	readRequiredText,
	readRows,
} from '../parameters';

export const shipmentNrProperty: INodeProperties = {
	displayName: 'Integration Shipment Number',
	name: 'integrationShipmentNr',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. =SHP-{{ $json.fbpi_order_nr }}',
	description:
		'Your own unique number of the shipment (integration_shipment_nr), chosen when it is created',
};

/** The Warehouse Code and Integration Shipment Number of an operation on one shipment. */
export function shipmentKeyProperties(warehouseDescription: string): INodeProperties[] {
	return [warehouseCodeProperty(warehouseDescription), shipmentNrProperty];
}

export interface ShipmentKey {
	warehouse_code: string;
	integration_shipment_nr: string;
}

/** The item's shipment: its warehouse and number, both required. */
export function readShipmentKey(
	ctx: IExecuteFunctions,
	properties: INodeProperties[],
	itemIndex: number,
): ShipmentKey {
	return {
		warehouse_code: readWarehouseCode(ctx, propertyIn(properties, 'warehouseCode'), itemIndex),
		integration_shipment_nr: readRequiredText(ctx, shipmentNrProperty, itemIndex),
	};
}

export function awbsProperty(description: string): INodeProperties {
	return {
		displayName: 'AWBs',
		name: 'awbs',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		required: true,
		default: { awb: [{ courier: 'noon', awbNr: '' }] },
		placeholder: 'Add AWB',
		description,
		options: [
			{
				displayName: 'AWB',
				name: 'awb',
				values: [
					{
						displayName: 'Courier',
						name: 'courier',
						type: 'string',
						default: 'noon',
						description:
							'Who carries the parcel: noon (for numbers from Generate AWBs) or the name of your own courier',
					},
					{
						displayName: 'AWB Number',
						name: 'awbNr',
						type: 'string',
						default: '',
						placeholder: 'e.g. {{ $json.awb_nrs[0] }}',
						description: 'The air waybill number: from Generate AWBs, or your courier’s own',
					},
				],
			},
		],
	};
}

export interface CourierAwb extends IDataObject {
	courier: string;
	awb_nr: string;
}

/** The AWB rows: at least one, each with a courier and a number, none twice. */
export function readAwbs(
	ctx: IExecuteFunctions,
	property: INodeProperties,
	itemIndex: number,
): CourierAwb[] {
	const rows = readRows(ctx, property, itemIndex, {
		needs: 'at least one AWB',
		description: 'Add an AWB with its courier and number (Generate AWBs hands out noon numbers).',
	});
	const fields = rowsOf(property).fields;
	const seen = new Set<string>();
	return rows.map((row, position) => {
		const where = `AWB ${position + 1} of ${quotedName(property)}`;
		const value = (name: string) => {
			const field = propertyIn(fields, name);
			const text = checkText(ctx, itemIndex, row[name], `The ${field.displayName} of ${where}`);
			if (text === '') {
				throw invalidParameter(ctx, itemIndex, `The ${field.displayName} of ${where} is empty`);
			}
			return text;
		};
		const awb = { courier: value('courier'), awb_nr: value('awbNr') };
		const key = JSON.stringify([awb.courier, awb.awb_nr]);
		if (seen.has(key)) {
			const message = `${where} repeats the AWB ${quoted(awb.awb_nr)} of ${quoted(awb.courier)}`;
			throw invalidParameter(ctx, itemIndex, message);
		}
		seen.add(key);
		return awb;
	});
}
