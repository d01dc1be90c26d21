/**
 * The poll trigger's state (nodes/SellerPlatformPollTrigger/state.ts): what `seen` keeps is
 * chosen by creation time only, never by the order orders were listed in, and its size.
 */
import {
	LOOKBACK_MS,
	MAX_SEEN,
	recordRead,
	type PollState,
} from '../../dist/nodes/SellerPlatformPollTrigger/state';

const DAY = 24 * 3600_000;
const NOW = Date.UTC(2026, 10, 28, 12);

/** A state at `NOW` covering a day of lateness, with `seen` as given (insertion order kept). */
function stateWith(seen: Array<[string, number]>, lateMs = DAY): PollState {
	return {
		stream: 'sha256:' + '0'.repeat(64),
		warehouseCode: 'WH-DXB-01',
		readUpTo: NOW,
		floor: 0,
		lateMs,
		sweptAt: NOW,
		seen: Object.fromEntries(seen),
		pending: {},
	};
}

/** `count` orders of a warehouse with `perDay` orders a day, up to NOW, newest first. */
const newestFirst = (count: number, perDay: number): Array<[string, number]> =>
	Array.from({ length: count }, (_, i) => [
		`NAEORD${String(10_000_000 + count - i).padStart(8, '0')}`,
		NOW - Math.round((i * DAY) / perDay / 1000) * 1000,
	]);

describe('poll trigger state: seen', () => {
	it('keeps every order created within the lateness covered and drops the older ones, whatever the order they came in', () => {
		const orders: Array<[string, number]> = [
			['NEW', NOW - 60_000],
			['OLD', NOW - DAY - 60_000],
			['EDGE', NOW - DAY],
		];
		const state = stateWith(orders);
		expect(recordRead(state, { readUpTo: NOW }, DAY)).toBe(0);
		expect(Object.keys(state.seen).sort()).toEqual(['EDGE', 'NEW']);
		expect(state.floor).toBe(NOW - DAY - 1);
		// The lateness lowered afterwards: the floor rises; raised again: it never goes down.
		recordRead(state, { readUpTo: NOW }, 0);
		expect(state.floor).toBe(NOW - LOOKBACK_MS - 1);
		recordRead(state, { readUpTo: NOW }, DAY);
		expect(state.floor).toBe(NOW - LOOKBACK_MS - 1);
	});

	it(`past MAX_SEEN (${MAX_SEEN}), drops the oldest by creation time even when they were remembered last (a list newest first)`, () => {
		// One a second, over a week of lateness covered.
		const orders = newestFirst(MAX_SEEN + 10, 86_400);
		const state = stateWith(orders, 7 * DAY);
		expect(recordRead(state, { readUpTo: NOW }, 7 * DAY)).toBe(10);
		const kept = Object.keys(state.seen);
		expect(kept).toHaveLength(MAX_SEEN);
		// The ten remembered last are the ten created first: those are dropped, the newest kept.
		const dropped = orders.slice(-10);
		for (const [nr] of dropped) expect(state.seen[nr]).toBeUndefined();
		expect(state.seen[orders[0][0]]).toBe(orders[0][1]);
		expect(state.floor).toBe(Math.max(...dropped.map(([, at]) => at)));
	});

	it('its size: 50,000 orders a day over a day of lateness (and the sweep under way), and full', () => {
		const day = stateWith(newestFirst(52_100, 50_000));
		recordRead(day, { readUpTo: NOW }, DAY);
		const daySize = JSON.stringify(day).length;
		const full = stateWith(newestFirst(MAX_SEEN, 4 * MAX_SEEN));
		recordRead(full, { readUpTo: NOW }, DAY);
		const fullSize = JSON.stringify(full).length;
		// Measured: 1,550,254 and 6,200,223 characters of static data (about 31 an entry).
		expect(Object.keys(day.seen).length).toBeGreaterThan(50_000);
		expect(daySize).toBeLessThan(1_700_000);
		expect(fullSize).toBeLessThan(6_500_000);
	});
});
