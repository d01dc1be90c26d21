import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { pollRun, searchWarehouses } from '../shared';
import { properties } from './description';
import { pollWaitingBudgetMs } from './listing';
import { eventParameter, lateListingMs, warehouseParameter } from './parameters';
import { mostRecentOrder, newOrders } from './polling';

export class SellerPlatformPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Seller Platform Poll Trigger',
		name: 'sellerPlatformPollTrigger',
		icon: {
			light: 'file:../../icons/sellerPlatform.svg',
			dark: 'file:../../icons/sellerPlatform.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: 'New FBPI Order',
		description:
			'Starts the workflow for each new FBPI order of a warehouse, by polling the marketplace Seller Platform (for n8n that the marketplace cannot reach)',
		defaults: { name: 'Seller Platform Poll Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'sellerPlatformApi', required: true }],
		// Declared once in description.ts; parameters.ts reads their labels, names and defaults.
		properties,
	};

	methods = {
		// The list of its Warehouse Code, as the action node's (nodes/shared/parameters/warehouseCode.ts).
		listSearch: { searchWarehouses },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		// Each poll is one run of the request layer (its own credential read, limits, logins).
		const run = pollRun(this, pollWaitingBudgetMs(this));
		eventParameter(run);
		const warehouseCode = warehouseParameter(run);
		const lateMs = lateListingMs(run);
		if (run.getMode() === 'manual') return await mostRecentOrder(run, warehouseCode);
		return await newOrders(run, warehouseCode, lateMs);
	}
}
