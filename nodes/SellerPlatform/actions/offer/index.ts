import { resource } from '../resource';
import * as get from './get.operation';

export const { option, operations, description } = resource({
	value: 'offer',
	name: 'Offer',
	operations: {
		get: {
			name: 'Get',
			action: 'Get the offers of a SKU',
			description:
				'Get the offers of a SKU in every country: price, net stock, whether each is live and the issues that keep it offline',
			tool: "Gets a SKU and its offers in every country by the seller's partner_sku (as orders show it): sku (noon's), title, and per offer country_code, business_model, is_active, live_status, active_net_stock, price, currency and issue_reasons (why it is not live).",
			operation: get,
		},
	},
});
