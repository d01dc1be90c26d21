import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { NODE_DESCRIPTION, searchWarehouses } from '../shared';
import { searchUserCodes } from './actions/apiCredential/userCode';
import { searchExportCategories } from './actions/export/category';
import { searchAsns } from './actions/fbnShipment/asn';
import {
	searchScheduleDates,
	searchScheduleWarehouses,
	searchSlotEnds,
	searchSlotStarts,
} from './actions/fbnShipment/slotPickers';
import { resources, router } from './actions/router';
import { SIMPLIFY_DEFAULT_SINCE } from './actions/shapes/simplify';

export class SellerPlatform implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Seller Platform',
		name: 'sellerPlatform',
		icon: {
			light: 'file:../../icons/sellerPlatform.svg',
			dark: 'file:../../icons/sellerPlatform.dark.svg',
		},
		group: ['transform'],
		// 1.1: Simplify on by default (actions/shapes/simplify.ts); saved nodes stay on 1. New nodes
		// get the last version listed. No `defaultVersion`: n8n adds "Custom API Call" to the lists
		// only of a node without one (or whose one equals its version).
		version: [1, SIMPLIFY_DEFAULT_SINCE],
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: NODE_DESCRIPTION,
		defaults: { name: 'Seller Platform' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: [{ name: 'sellerPlatformApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				// By name, as n8n lists options.
				options: Object.values(resources)
					.map((resource) => resource.option)
					.sort((a, b) => a.name.localeCompare(b.name)),
				default: 'purchaseOrder',
			},
			...Object.values(resources).flatMap((resource) => resource.description),
		],
	};

	methods = {
		// The list of every Warehouse Code (nodes/shared/parameters/warehouseCode.ts).
		// The export categories of Export → Create (actions/export/category.ts) and the session's user
		// for API Credential → Create and Remove (actions/apiCredential/userCode.ts), the ASNs of the
		// FBN operations (actions/fbnShipment/asn.ts), and what Get Slots offers for FBN Shipment →
		// Schedule (actions/fbnShipment/slotPickers.ts).
		listSearch: {
			searchWarehouses,
			searchExportCategories,
			searchUserCodes,
			searchAsns,
			searchScheduleWarehouses,
			searchScheduleDates,
			searchSlotStarts,
			searchSlotEnds,
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
