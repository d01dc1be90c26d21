/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The built package as n8n loads it: n8n-core's PackageDirectoryLoader reads package.json's n8n
 * section and requires the compiled files from dist/ (`npm test` builds first).
 */
import { existsSync, readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { PackageDirectoryLoader } from 'n8n-core';
import type { INodeTypeDescription } from 'n8n-workflow';

import contract from '../../package.json';
import { nodeOperationNames } from '../helpers/nodeOperations';

const root = join(__dirname, '..', '..');
/** Where the build puts the node's output schemas, one folder per node version. */
const SCHEMAS = join(root, 'dist', 'nodes', 'SellerPlatform', '__schema__');

/** The `<resource>/<operation>.json` files of a schema folder (none when it is missing). */
function schemaFiles(folder: string): string[] {
	if (!existsSync(folder)) return [];
	return readdirSync(folder, { withFileTypes: true })
		.flatMap((entry) =>
			entry.isDirectory()
				? readdirSync(join(folder, entry.name)).map((file) => `${entry.name}/${file}`)
				: [entry.name],
		)
		.sort();
}

/**
 * The resources and operations the package's contract fixes (public names: saved workflows store
 * them), by resource. The node may offer more; it never drops or renames one of these. Not the
 * list of the node's operations: the tests read that from the node (helpers/nodeOperations.ts).
 */
const CONTRACT_OPERATIONS = [
	'apiCredential/create',
	'apiCredential/remove',
	'barcode/map',
	'crossBorderProduct/update',
	'customerReturn/get',
	'destination/update',
	'eventSchema/get',
	'eventWebhook/assignDeveloper',
	'eventWebhook/create',
	'eventWebhook/subscribe',
	'export/create',
	'export/getCategories',
	'export/getStatus',
	'fbnCatalogItem/getMany',
	'fbnShipment/create',
	'fbnShipment/get',
	'fbnShipment/getMany',
	'fbnShipment/getSlots',
	'fbnShipment/schedule',
	'fbnShipment/update',
	'fbnShipment/updateStatus',
	'fbnShipmentItem/delete',
	'fbnShipmentItem/getMany',
	'fbnShipmentItem/upsert',
	'fbpiOrder/createSandbox',
	'fbpiOrder/get',
	'fbpiOrder/getCustomerData',
	'fbpiOrder/getMany',
	'fbpiOrder/update',
	'fbpiShipment/addCourierAwbs',
	'fbpiShipment/cancel',
	'fbpiShipment/create',
	'fbpiShipment/generateAwbs',
	'fbpiShipment/get',
	'globalPrice/update',
	'import/createBarcode',
	'import/getStatus',
	'localPrice/update',
	'oauth/createToken',
	'oauth/exchangeToken',
	'offer/get',
	'price/get',
	'price/update',
	'purchaseOrder/get',
	'session/login',
	'session/whoAmI',
	'stock/get',
	'stock/update',
	'transferPrice/get',
	'transferPrice/update',
	'warehouse/getMany',
];

describe('the package as n8n loads it', () => {
	let loader: PackageDirectoryLoader;
	beforeAll(async () => {
		loader = new PackageDirectoryLoader(root);
		await loader.loadAll();
	});

	it('declares itself a community node package with the contract names and files', () => {
		expect(contract.name).toBe('n8n-nodes-seller-platform');
		expect(contract.keywords).toContain('n8n-community-node-package');
		expect(contract.files).toEqual([
			'dist',
			'!dist/tsconfig.tsbuildinfo',
			'README.md',
			'LICENSE',
			'CHANGELOG.md',
		]);
		expect(contract.n8n.n8nNodesApiVersion).toBe(1);
		expect(contract.n8n.credentials).toEqual(['dist/credentials/SellerPlatformApi.credentials.js']);
		expect(contract.n8n.nodes).toEqual([
			'dist/nodes/SellerPlatform/SellerPlatform.node.js',
			'dist/nodes/SellerPlatformTrigger/SellerPlatformTrigger.node.js',
			'dist/nodes/SellerPlatformPollTrigger/SellerPlatformPollTrigger.node.js',
		]);
		// n8n Cloud and verified community nodes accept no runtime dependency.
		expect((contract as { dependencies?: object }).dependencies).toBeUndefined();
		expect(contract.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(Object.keys(contract.scripts)).not.toEqual(
			expect.arrayContaining([
				expect.stringMatching(/^(pre|post)?(install|prepare|pack|publish|prepublishOnly)$/),
			]),
		);
		expect((contract as { overrides?: object }).overrides).toBeUndefined();
	});

	it('loads the nodes and the credential from dist/', () => {
		expect(Object.keys(loader.known.nodes).sort()).toEqual([
			'sellerPlatform',
			'sellerPlatformPollTrigger',
			'sellerPlatformTrigger',
		]);
		const poll = loader.nodeTypes.sellerPlatformPollTrigger.type as {
			description: INodeTypeDescription;
		};
		expect(poll.description.displayName).toBe('Seller Platform Poll Trigger');
		expect(poll.description.polling).toBe(true);
		expect(poll.description.usableAsTool).toBeUndefined();
		expect(poll.description.properties.map((p) => p.name)).toEqual(
			expect.arrayContaining(['event', 'warehouseCode', 'pollTimes']),
		);
		const trigger = loader.nodeTypes.sellerPlatformTrigger.type as {
			description: INodeTypeDescription;
		};
		expect(trigger.description.displayName).toBe('Seller Platform Trigger');
		expect(trigger.description.usableAsTool).toBeUndefined();
		expect(trigger.description.properties.map((p) => p.name)).toEqual(
			expect.arrayContaining(['destinationCode', 'events', 'customEvents']),
		);
		expect(trigger.description.webhooks).toHaveLength(1);
		expect(Object.keys(loader.known.credentials)).toEqual(['sellerPlatformApi']);
		expect(loader.known.credentials.sellerPlatformApi.supportedNodes).toContain('sellerPlatform');

		const node = loader.nodeTypes.sellerPlatform.type as { description: INodeTypeDescription };
		expect(node.description.displayName).toBe('Seller Platform');
		expect(node.description.usableAsTool).toBe(true);
		expect(node.description.credentials).toEqual([{ name: 'sellerPlatformApi', required: true }]);
		const credential = loader.credentialTypes.sellerPlatformApi.type;
		expect(credential.displayName).toBe('Seller Platform API');
		expect(credential.properties.map((p) => p.name)).toEqual(
			expect.arrayContaining(['baseUrl', 'keyId', 'privateKey', 'projectCode', 'sessionCookie']),
		);
		// The gateway choice: its default keeps the Base URL field (saved credentials).
		const gateway = credential.properties.find((p) => p.name === 'gateway');
		expect(gateway?.default).toBe('custom');
		expect(gateway?.options?.map((o) => (o as { value: string }).value).sort()).toEqual([
			'custom',
			'namshi',
			'noon',
			'noonSandbox',
		]);
		expect(typeof credential.preAuthentication).toBe('function');
		// The stored session is a password field: n8n blanks it before the editor sees it.
		expect(credential.properties.find((p) => p.name === 'sessionCookie')?.typeOptions).toEqual({
			expirable: true,
			password: true,
		});
		// The private key too (n8n's credential-password-field lint rule cannot see the fields:
		// they are declared in nodes/shared/credential/fields.ts).
		expect(credential.properties.find((p) => p.name === 'privateKey')?.typeOptions).toMatchObject({
			password: true,
		});
	});

	it("gives the node picker's grouped entry the action node's description, and codex for both nodes", () => {
		const node = loader.nodeTypes.sellerPlatform.type as { description: INodeTypeDescription };
		const trigger = loader.nodeTypes.sellerPlatformTrigger.type as {
			description: INodeTypeDescription;
		};
		// n8n's node creator merges a trigger into the node of the same name without "Trigger" and
		// shows the trigger's description on that entry.
		expect(node.description.description).toMatch(/^Fulfil FBPI orders/);
		expect(trigger.description.description).toBe(node.description.description);
		for (const type of [node, trigger]) {
			const codex = type.description.codex;
			expect(codex?.categories).toEqual(['Sales', 'Productivity']);
			expect(codex?.alias).toEqual(expect.arrayContaining(['noon', 'marketplace']));
			expect(codex?.resources?.primaryDocumentation?.[0].url).toMatch(
				/^https:\/\/github\.com\/.+#/,
			);
			expect(codex?.resources?.credentialDocumentation?.[0].url).toMatch(/#credentials$/);
		}
	});

	it('ships the light and dark icons the node and credential point at', () => {
		const node = loader.nodeTypes.sellerPlatform.type as { description: INodeTypeDescription };
		// The loader turns `icon: { light: 'file:…', dark: 'file:…' }` into URLs of files under the package.
		const urls = [
			node.description.iconUrl,
			loader.credentialTypes.sellerPlatformApi.type.iconUrl,
		] as Array<{
			light: string;
			dark: string;
		}>;
		for (const url of urls) {
			expect(url.light).not.toBe(url.dark);
			for (const variant of [url.light, url.dark]) {
				const file = join(root, variant.replace(/^icons\/n8n-nodes-seller-platform\//, ''));
				expect(existsSync(file)).toBe(true);
				expect(readFileSync(file, 'utf8')).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
			}
		}
	});

	it('keeps the contract parameter names of the node', () => {
		const node = loader.nodeTypes.sellerPlatform.type as { description: INodeTypeDescription };
		const names = node.description.properties.map((p) => p.name);
		expect(names).toEqual(
			expect.arrayContaining([
				'resource',
				'operation',
				'poNr',
				'accessToken',
				'exportCode',
				'fbpiOrderNr',
				'warehouseCode',
				'items',
				'idempotencyKey',
				'countryCode',
				'source',
				'itemsInput',
				'mappings',
				'partnerSkuField',
				'barcodeField',
				'fileUrl',
				'bqTable',
				'clientReference',
				'config',
				'reference',
				'userCode',
				'channelIdentifier',
				'whitelistedIps',
				'expiresAt',
				'destinationCode',
				'updateFields',
				'options',
				'returnAll',
				'limit',
				'filters',
				'outOfStockItems',
				'integrationShipmentNr',
				'mpItemNrs',
				'awbs',
				'quantity',
				'partnerSku',
				'processingTime',
				'price',
				'msrp',
				'isActive',
				// --- Catalog, offers, event webhooks and schemas ---
				'barcode',
				'forceMap',
				'url',
				'headers',
				'webhookCode',
				'eventType',
				'devCode',
				// Customer returns, Namshi and cross-border prices.
				'orderNr',
				'sourceCountryCode',
				'destinationCountryCode',
				'dimensionsCm',
				'vmWeightCm',
				'actualWeightKg',
				'hsCode',
				'transferPriceUsd',
				'msrpUsd',
				// Exports and identity.
				'exportCategoryCode',
				'params',
				'keyId',
				'grantType',
				'code',
				'clientId',
				'clientSecret',
				// FBN inbound
				'asnNr',
				'shipmentType',
				'exrefNr',
				'misc',
				'statusAction',
				'dstWarehouseCode',
				'scheduleDate',
				'slotStart',
				'slotEnd',
				'storageType',
			]),
		);
		// The client secret of OAuth → Create Token is a password field.
		expect(
			node.description.properties.find((p) => p.name === 'clientSecret')?.typeOptions,
		).toMatchObject({ password: true });
		// The resources and operations of the contract: never dropped nor renamed (an operation added
		// later passes without a change here).
		expect(nodeOperationNames(node.description.properties)).toEqual(
			expect.arrayContaining(CONTRACT_OPERATIONS),
		);
	});

	it('ships, beside the node n8n loads, an output schema for every operation of its Resource and Operation lists in every node version, and none for anything else', () => {
		const node = loader.nodeTypes.sellerPlatform.type as { description: INodeTypeDescription };
		const operations = nodeOperationNames(node.description.properties);
		expect(new Set(operations).size).toBe(operations.length);
		const versions = [node.description.version].flat();
		// n8n reads `__schema__/v<major.minor.patch>/<resource>/<operation>.json` (typeVersion 1.1 → v1.1.0).
		const folderOf = (version: number) => {
			const [major, minor = '0', patch = '0'] = String(version).split('.');
			return `v${major}.${minor}.${patch}`;
		};
		expect(readdirSync(SCHEMAS).sort()).toEqual(versions.map(folderOf).sort());
		for (const version of versions) {
			expect([version, schemaFiles(join(SCHEMAS, folderOf(version)))]).toEqual([
				version,
				operations.map((name) => `${name}.json`).sort(),
			]);
		}
	});
});
