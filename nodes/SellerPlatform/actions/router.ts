/** Picks the operation the node is set to and hands it to the runner. */
import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { quoted, shown } from '../../shared';
import * as apiCredential from './apiCredential';
import * as destination from './destination';
import * as exportResource from './export';
import * as fbpiOrder from './fbpiOrder';
// FBN inbound (issue 29)
import * as fbnCatalogItem from './fbnCatalogItem';
import * as fbnShipment from './fbnShipment';
import * as fbnShipmentItem from './fbnShipmentItem';
import * as fbpiShipment from './fbpiShipment';
import * as importResource from './import';
import * as oauth from './oauth';
import * as price from './price';
import * as purchaseOrder from './purchaseOrder';
import * as session from './session';
import * as stock from './stock';
import * as warehouse from './warehouse';
import type { Resource } from './resource';
import { runOperation } from './runner';

/** The resources of the node, each with its operations (names per the package's contract). */
export const resources: Record<string, Resource> = {
	apiCredential,
	destination,
	export: exportResource,
	fbpiOrder,
	fbpiShipment,
	// FBN inbound (issue 29)
	fbnShipment,
	fbnShipmentItem,
	fbnCatalogItem,
	import: importResource,
	oauth,
	price,
	purchaseOrder,
	session,
	stock,
	warehouse,
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as unknown;
	const operationName = this.getNodeParameter('operation', 0) as unknown;
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
