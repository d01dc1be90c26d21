/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * SellerPlatformPollTrigger/listing.ts `creationTime`: how an order's `order_created_at` is read,
 * in a time zone other than UTC (the Node process's TZ; Jest's `process.env` is a copy).
 */
import { creationTime } from '../../dist/nodes/SellerPlatformPollTrigger/listing';

const processEnv = () => (require('vm').runInThisContext('process') as NodeJS.Process).env;

describe('order_created_at', () => {
	it('without a zone is UTC (fractions too); Z and offsets as written', () => {
		const real = processEnv();
		const zone = real.TZ;
		real.TZ = 'Asia/Dubai';
		try {
			expect(new Date(Date.UTC(2026, 0, 1)).getTimezoneOffset()).toBe(-240);
			const at = Date.UTC(2026, 10, 27, 22, 43, 47);
			expect(creationTime('2026-11-27T22:43:47')).toBe(at);
			expect(creationTime('2026-11-27 22:43:47')).toBe(at);
			expect(creationTime('2026-11-27T22:43:47.5')).toBe(at + 500);
			expect(creationTime('2026-11-27T22:43:47.123456789')).toBe(at + 123);
			expect(creationTime('2026-11-27T22:43:47Z')).toBe(at);
			expect(creationTime('2026-11-27T22:43:47.250z')).toBe(at + 250);
			expect(creationTime('2026-11-27T22:43:47+04:00')).toBe(at - 4 * 3600_000);
			expect(creationTime('2026-11-27T22:43:47-0130')).toBe(at + 90 * 60_000);
			expect(creationTime('not a time')).toBeNaN();
		} finally {
			if (zone === undefined) delete real.TZ;
			else real.TZ = zone;
		}
	});
});
