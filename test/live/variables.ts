/**
 * What the live suite runs with: the gateway and credential from the environment, or a local
 * emulator prepared to stand in for the sandbox (`emulatorVariables`: CI, `--emulator`). Nothing
 * here loads the package, so a run without a credential skips before building or loading it.
 */
import type { Emulator } from '../emulator';

/** The sandbox gateway (nodes/shared/credential/gateways.ts `noonSandbox`). */
export const SANDBOX_URL = 'https://noon-sandbox-api-gateway.noon.partners';

export const REQUIRED = [
	'SELLER_PLATFORM_KEY_ID',
	'SELLER_PLATFORM_PRIVATE_KEY',
	'SELLER_PLATFORM_PROJECT_CODE',
	'SELLER_PLATFORM_WAREHOUSE_CODE',
] as const;

export interface LiveVariables {
	baseUrl: string;
	keyId: string;
	privateKey: string;
	projectCode: string;
	warehouseCode: string;
	/** A SKU of that warehouse the suite may read, and with `--writes` set and set back. */
	testSku?: string;
}

/** The variables, or the names of the required ones that are not set. */
export function readVariables(env: NodeJS.ProcessEnv): LiveVariables | { missing: string[] } {
	const missing = REQUIRED.filter((name) => !env[name]?.trim());
	if (missing.length) return { missing };
	return {
		baseUrl: env.SELLER_PLATFORM_BASE_URL?.trim() || SANDBOX_URL,
		keyId: env.SELLER_PLATFORM_KEY_ID!.trim(),
		privateKey: env.SELLER_PLATFORM_PRIVATE_KEY!,
		projectCode: env.SELLER_PLATFORM_PROJECT_CODE!.trim(),
		warehouseCode: env.SELLER_PLATFORM_WAREHOUSE_CODE!.trim(),
		testSku: env.SELLER_PLATFORM_TEST_SKU?.trim() || undefined,
	};
}

/** The test SKU and warehouse the emulator run uses, and how many orders it lists (2 pages). */
export const EMULATOR_WAREHOUSE = 'WH-DXB-01';
export const EMULATOR_SKU = 'SKU-LIVE-TEST';
const EMULATOR_ORDERS = 60;

/** Seeds `emulator` as a sandbox project would look (orders of two pages, a test SKU's stock). */
export function emulatorVariables(emulator: Emulator): LiveVariables {
	emulator.addFbpiOrders({
		count: EMULATOR_ORDERS,
		warehouseCode: EMULATOR_WAREHOUSE,
		createdAt: Date.now() - EMULATOR_ORDERS * 60_000,
		intervalMs: 60_000,
	});
	emulator.seedStock([{ warehouse_code: EMULATOR_WAREHOUSE, partner_sku: EMULATOR_SKU, qty: 7 }]);
	return {
		baseUrl: emulator.baseUrl,
		keyId: emulator.credential.key_id,
		privateKey: emulator.credential.private_key,
		projectCode: emulator.credential.project_code,
		warehouseCode: EMULATOR_WAREHOUSE,
		testSku: EMULATOR_SKU,
	};
}
