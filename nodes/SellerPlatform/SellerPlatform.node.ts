import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import * as purchaseOrder from './actions/purchaseOrder';
import { router } from './actions/router';
import * as session from './actions/session';

export class SellerPlatform implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Seller Platform',
		name: 'sellerPlatform',
		icon: { light: 'file:../../icons/sellerPlatform.svg', dark: 'file:../../icons/sellerPlatform.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Read purchase orders and FBPI orders, run barcode imports and exports, and manage API credentials and event destinations of the marketplace Seller Platform',
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
				options: [
					{ name: 'Purchase Order', value: 'purchaseOrder' },
					{ name: 'Session', value: 'session' },
				],
				default: 'purchaseOrder',
			},
			...purchaseOrder.description,
			...session.description,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
