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

/** Every variable the suite reads: any of them set means the run was meant to run. */
export const OPTIONAL = ['SELLER_PLATFORM_BASE_URL', 'SELLER_PLATFORM_TEST_SKU'] as const;

/**
 * The variables; or, when none of the suite's variables is set, `skip` (a line, the run passes);
 * or, when some are set but not all the required ones, `fail` naming those missing: a half-set
 * environment is a mistake to fix, not a run to pass.
 */
export function readVariables(
	env: NodeJS.ProcessEnv,
): LiveVariables | { skip: string } | { fail: string } {
	const isSet = (name: string) => !!env[name]?.trim();
	const missing = REQUIRED.filter((name) => !isSet(name));
	if (missing.length === REQUIRED.length && !OPTIONAL.some(isSet)) {
		return {
			skip: `test:live skipped: no sandbox credential (${missing.join(', ')} not set; all of ${REQUIRED.length} needed, see test/live/README.md)`,
		};
	}
	if (missing.length) {
		return {
			fail: `test:live failed: ${missing.join(', ')} not set (the other Seller Platform variables are: all of ${REQUIRED.join(', ')} are needed, see test/live/README.md)`,
		};
	}
	return {
		baseUrl: env.SELLER_PLATFORM_BASE_URL?.trim() || SANDBOX_URL,
		keyId: env.SELLER_PLATFORM_KEY_ID!.trim(),
		privateKey: env.SELLER_PLATFORM_PRIVATE_KEY!,
		projectCode: env.SELLER_PLATFORM_PROJECT_CODE!.trim(),
		warehouseCode: env.SELLER_PLATFORM_WAREHOUSE_CODE!.trim(),
		testSku: env.SELLER_PLATFORM_TEST_SKU?.trim() || undefined,
	};
}

/** The gateway's host name as a line may show it (no user, path, query), or `an invalid URL`. */
export function hostOf(baseUrl: string): string {
	try {
		return new URL(baseUrl).hostname.toLowerCase().replace(/^\[|\]$/g, '');
	} catch {
		return 'an invalid URL';
	}
}

const LOCAL_HOST = /^(localhost|127(\.\d{1,3}){3}|::1)$/;

/**
 * Why the writes (`--writes`) or the 429 probe (`--rate-limit`) must not run against this
 * gateway, if they must not: they are for the sandbox (no side effects) and a local emulator. Any
 * other host (production, a proxy in front of it, a host unknown) is refused unless
 * `--allow-writes-to=HOST` names that very host.
 */
export function writesRefusal(
	baseUrl: string,
	wanted: { writes: boolean; rateLimit: boolean },
	allowedHost: string | undefined,
): string | undefined {
	if (!wanted.writes && !wanted.rateLimit) return undefined;
	const host = hostOf(baseUrl);
	if (host === hostOf(SANDBOX_URL) || LOCAL_HOST.test(host)) return undefined;
	if (allowedHost && allowedHost.trim().toLowerCase() === host) return undefined;
	const flags = [wanted.writes && '--writes', wanted.rateLimit && '--rate-limit'].filter(Boolean);
	return `test:live refused: ${flags.join(' and ')} against ${host}, which is not the sandbox (${hostOf(SANDBOX_URL)}): writes and the 429 probe there act on a real project; run read-only, or add --allow-writes-to=${host} if you mean it`;
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
