/**
 * Local emulator of the Seller Platform API, for the package's tests, benchmarks and offline
 * experiments. `startEmulator()` provisions a project, an API user and a credential, and serves
 * the API on loopback.
 */
import { EmulatorServer } from './server';
import type { Emulator, EmulatorOptions } from './types';

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
	return EmulatorServer.start(options);
}

export * from './types';
export { DEFAULT_RATE_PLAN } from './ratePlan';
export { ApiError, GRPC_CODES, type ErrorBody, type GrpcCode } from './errors';
export { GATEWAY_COOKIE, IAT_WINDOW_SECONDS, LOGIN_PATH, SESSION_COOKIE } from './auth';
export { CONTROL_PREFIX } from './control';
export { LOGIN_OPERATION } from './requestLog';
export {
	BULK_PO_PATTERN,
	SEEDED_PO,
	SEEDED_PO_NUMBERS,
	SEEDED_PURCHASE_ORDERS,
	type PoDate,
	type PoStatus,
	type PurchaseOrder,
	type PurchaseOrderLine,
} from './state';
