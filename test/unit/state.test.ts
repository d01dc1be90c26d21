/**
 * pacing/limiters.ts: the registry of the rate plan's limiters, shared by the process.
 */
import { RateLimiterRegistry } from '../../dist/nodes/shared/pacing/limiters';
import { FakeClock } from '../helpers/fakeClock';

describe('RateLimiterRegistry', () => {
	it('shares one limiter per scope and operation, and a new one when the plan changes', () => {
		const registry = new RateLimiterRegistry(new FakeClock());
		const a = registry.get('gw|PRJ1', 'GetPurchaseOrder', 1500);
		expect(registry.get('gw|PRJ1', 'GetPurchaseOrder', 1500)).toBe(a);
		expect(registry.get('gw|PRJ1', 'GetImportStatus', 1500)).not.toBe(a);
		expect(registry.get('gw|PRJ2', 'GetPurchaseOrder', 1500)).not.toBe(a);
		const slower = registry.get('gw|PRJ1', 'GetPurchaseOrder', 600);
		expect(slower).not.toBe(a);
		expect(slower.plan).toBe(600);
		expect(a.windowMs).toBe(60_600);
	});
});
