/** Picks the operation the node is set to and hands it to the runner. */
import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { quoted, shown } from '../../shared';
import * as apiCredential from './apiCredential';
import * as barcode from './barcode';
import * as crossBorderProduct from './crossBorderProduct';
import * as customerReturn from './customerReturn';
import * as destination from './destination';
import * as eventSchema from './eventSchema';
import * as eventWebhook from './eventWebhook';
import * as exportResource from './export';
import * as fbnCatalogItem from './fbnCatalogItem';
import * as fbnShipment from './fbnShipment';
import * as fbnShipmentItem from './fbnShipmentItem';
import * as fbpiOrder from './fbpiOrder';
import * as fbpiShipment from './fbpiShipment';
import * as globalPrice from './globalPrice';
import * as importResource from './import';
import * as localPrice from './localPrice';
import * as oauth from './oauth';
import * as offer from './offer';
import * as price from './price';
import * as purchaseOrder from './purchaseOrder';
import type { Resource } from './resource';
import { runOperation } from './runner';
import * as session from './session';
import * as stock from './stock';
import * as transferPrice from './transferPrice';
import * as warehouse from './warehouse';

/** The resources of the node, each with its operations (names per the package's contract). */
export const resources: Record<string, Resource> = {
	// Access and setup: API credentials, webhook destinations, exports.
	apiCredential,
	destination,
	export: exportResource,
	// Fulfilled by partner (FBPI): orders and their shipments.
	fbpiOrder,
	fbpiShipment,
	// Fulfilled by noon (FBN) inbound: ASNs, their items, the catalog items that may be sent.
	fbnShipment,
	fbnShipmentItem,
	fbnCatalogItem,
	// Barcode imports, tokens, noon prices, purchase orders, the session, stock, warehouses.
	import: importResource,
	oauth,
	price,
	purchaseOrder,
	session,
	stock,
	warehouse,
	// Catalog (barcodes, offers) and events (their schemas, webhooks).
	barcode,
	eventSchema,
	eventWebhook,
	offer,
	// Customer returns; Namshi's global and local prices; cross-border products and prices.
	crossBorderProduct,
	customerReturn,
	globalPrice,
	localPrice,
	transferPrice,
};

/**
 * The value n8n gives the "Custom API Call" entry it adds to the Resource and Operation lists of a
 * node whose credential has `authenticate`: the node cannot run it, the HTTP Request node can.
 */
export const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

/** What a run of "Custom API Call" says: where such a call is made, and what it does without. */
function customApiCallError(ctx: IExecuteFunctions): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		'"Custom API Call" runs in the HTTP Request node, not in the Seller Platform node',
		{
			description:
				'Add an HTTP Request node, set Authentication to "Predefined Credential Type", pick "Seller Platform API" as the Credential Type and this credential, and write the full URL of the endpoint on the gateway of the credential (for example https://noon-api-gateway.noon.partners/identity/v1/whoami). n8n logs in and sends the session for you there, but the pacing of this package (its rate plan, waits and repeats) does not apply to those requests.',
		},
	);
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as unknown;
	// Chosen as the resource, it has no operation n8n would show (nor give): ask for none.
	if (resource === CUSTOM_API_CALL) throw customApiCallError(this);
	const operationName = this.getNodeParameter('operation', 0) as unknown;
	if (operationName === CUSTOM_API_CALL) throw customApiCallError(this);
	// Own entries only: names such as "constructor" or "toString" must not reach a prototype.
	const operations =
		typeof resource === 'string' && Object.hasOwn(resources, resource)
			? resources[resource].operations
			: undefined;
	const operation =
		operations && typeof operationName === 'string' && Object.hasOwn(operations, operationName)
			? operations[operationName]
			: undefined;
	if (!operation) {
		const named = (value: unknown) => (typeof value === 'string' ? quoted(value) : shown(value));
		throw new NodeOperationError(
			this.getNode(),
			`The operation ${named(operationName)} of resource ${named(resource)} is not supported`,
		);
	}
	return [await runOperation.call(this, operation)];
}
