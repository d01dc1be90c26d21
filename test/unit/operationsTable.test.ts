/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Every published operation is an operation of the node, and the README's operations table lists
 * each with its resource, operation and API operation: the node's operations, the table's rows and
 * the endpoint table (nodes/shared/gateway/endpoints.ts) are compared with one another and with
 * the operations the service's definitions publish, so none is missing or undocumented.
 *
 * The node's side is read from the node (its Resource and Operation lists, helpers/nodeOperations.ts).
 * Two sides stay written by hand, on purpose, because they are the facts the code is checked
 * against: the README's table (what users read) and PUBLISHED/SEED_ONLY below (what noon publishes,
 * and the seed's own): a new operation fails here until the README lists it, a new endpoint until
 * PUBLISHED or SEED_ONLY names it.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { ENDPOINTS } from '../../dist/nodes/shared/gateway/endpoints';
import { nodeOperations } from '../helpers/nodeOperations';

/**
 * The operation ids of noon's published definitions (reference/noon-openapi), the echo service
 * left out, as the endpoint table names them: the method's name, the service's too where two
 * services share a method name (the FBN inbound ASNs), and the seed's names for its own two.
 */
const PUBLISHED = [
	'ReturnOrdersService_BatchGetCustomerReturnOrders',
	'PricingService_BatchUpsertGlobalPricing',
	'PricingService_BatchUpsertLocalPricing',
	'AsnService_CreateShipment',
	'AsnService_ListEligibleItems',
	'AsnService_ListShipmentItems',
	'AsnService_UpdateShipmentItems',
	'AsnService_DeleteShipmentItems',
	'AsnService_UpdateShipmentStatus',
	'AsnService_GetSlotAvailability',
	'AsnService_ScheduleShipment',
	'AsnService_GetShipment',
	'AsnService_UpdateShipment',
	'AsnService_ListShipments',
	'FbpiService_CreateShipment',
	'FbpiService_AddShipmentCourierAwbs',
	'FbpiService_CancelShipment',
	'FbpiService_GetShipment',
	'FbpiService_GetNoonLogisticsAWBs',
	'FbpiService_GetFbpiOrder',
	'FbpiService_ListFbpiOrders',
	'FbpiService_GetFbpiOrderCustomerData',
	'FbpiService_UpdateOrder',
	'FbpoService_GetPo',
	'OfferService_GetProductOffers',
	'PricingService_BatchGetPricing',
	'PricingService_BatchUpsertPricing',
	'StockService_GetStock',
	'StockService_UpdateStock',
	'XborderPricingService_BatchUpsertProduct',
	'XborderPricingService_BatchUpsertTransferPrice',
	'XborderPricingService_BatchGetTransferPrice',
	'CatplatService_SkuBarcodeMap',
	'EventNotificationsService_CreateWebhook',
	'EventNotificationsService_CreateSubscription',
	'EventNotificationsService_AssignDeveloperToWebhook',
	'ApiUserService_CreateCredential',
	'ApiUserService_RemoveCredentials',
	'AuthService_APILogin',
	'AuthService_Whoami',
	'OAuthService_CreateToken',
	'OAuthService_ExchangeToken',
	'ImpexService_GetExportCategoryList',
	'ImpexService_CreateExport',
	'ImpexService_GetExportStatus',
	'WarehousePlatformService_ListWarehouses',
	'EventSchemaService_GetEventSchema',
];
const SEED_NAMES: Record<string, string> = {
	FbpoService_GetPo: 'GetPurchaseOrder',
	AuthService_APILogin: 'Login',
};
/** The seed's operations the definitions do not publish. */
const SEED_ONLY = [
	'CreateSandboxOrder',
	'CreateBarcodeImport',
	'GetImportStatus',
	'UpdateDestination',
];

const endpointName = (id: string) =>
	SEED_NAMES[id] ?? (id.startsWith('AsnService_') ? id : id.slice(id.indexOf('_') + 1));

/** The rows of the README's operations table: "Resource → Operation" and the API operation. */
function readmeRows(): Array<{ label: string; api: string }> {
	const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
	const start = readme.indexOf('| Resource → Operation | API operation | Required |');
	const table = readme.slice(start, readme.indexOf('\n\n', start)).split('\n').slice(2);
	return table.map((line) => {
		const [label, api] = line
			.split('|')
			.slice(1, 3)
			.map((cell) => cell.trim());
		return { label, api: api.split(/[\s(]/)[0] };
	});
}

/** The node's operations as the editor names them ("FBPI Order → Get"), read from its description. */
const nodeLabels = () =>
	nodeOperations().map(
		({ resourceLabel, operationLabel }) => `${resourceLabel} → ${operationLabel}`,
	);

const sorted = (values: string[]) => [...values].sort();

describe('the operations table', () => {
	const rows = readmeRows();

	it('lists every operation of the node, once, and nothing else', () => {
		expect(sorted(rows.map((row) => row.label))).toEqual(sorted(nodeLabels()));
		expect(new Set(rows.map((row) => row.label)).size).toBe(rows.length);
	});

	it('names for each an endpoint of the endpoint table, and every endpoint is named', () => {
		expect(sorted([...new Set(rows.map((row) => row.api))])).toEqual(
			sorted(Object.keys(ENDPOINTS)),
		);
	});

	it('the endpoint table holds every published operation but the echo service, and the seed’s own', () => {
		expect(sorted(Object.keys(ENDPOINTS))).toEqual(
			sorted([...PUBLISHED.map(endpointName), ...SEED_ONLY]),
		);
	});
});
