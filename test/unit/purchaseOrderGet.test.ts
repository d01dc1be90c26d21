/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * purchaseOrder/get.operation.ts: releaseDateToIso, the spec's date object (year, month, day) of a
 * purchase order as the ISO date the node adds to its output (po_release_date_iso).
 */
import { Settings } from 'luxon';

import { releaseDateToIso } from '../../dist/nodes/SellerPlatform/actions/purchaseOrder/get.operation';

describe('releaseDateToIso', () => {
	it.each([
		[{ year: 2024, month: 3, day: 15 }, '2024-03-15'],
		[{ year: 2024, month: 12, day: 31 }, '2024-12-31'],
		[{ year: 2024, month: 2, day: 29 }, '2024-02-29'],
		[{ year: 1, month: 1, day: 1 }, '0001-01-01'],
	])('gives %j as %s', (date, iso) => {
		expect(releaseDateToIso(date)).toBe(iso);
	});

	it('reads numbers sent as strings', () => {
		expect(releaseDateToIso({ year: '2024', month: '3', day: '15' })).toBe('2024-03-15');
	});

	it.each([
		['year 0', { year: 0, month: 3, day: 15 }],
		['month 0', { year: 2024, month: 0, day: 15 }],
		['day 0', { year: 2024, month: 3, day: 0 }],
		['a missing day', { year: 2024, month: 3 }],
		['no field at all', {}],
	])('gives null for %s (the spec: not set)', (_, date) => {
		expect(releaseDateToIso(date)).toBeNull();
	});

	it.each([
		['29 February of a common year', { year: 2023, month: 2, day: 29 }],
		['31 April', { year: 2024, month: 4, day: 31 }],
		['month 13', { year: 2024, month: 13, day: 1 }],
		['a negative day', { year: 2024, month: 1, day: -1 }],
		['a fractional year', { year: 2024.5, month: 1, day: 1 }],
	])('gives null for an invalid date: %s', (_, date) => {
		expect(releaseDateToIso(date)).toBeNull();
	});

	it.each([null, undefined, '2024-03-15', 20240315, true])(
		'gives null for %j, not a date object',
		(date) => {
			expect(releaseDateToIso(date)).toBeNull();
		},
	);

	describe('in any time zone of the process', () => {
		// Both the process's zone (JavaScript's Date) and Luxon's default zone.
		const zone = Settings.defaultZone;
		const tz = process.env.TZ;
		afterEach(() => {
			Settings.defaultZone = zone;
			if (tz === undefined) delete process.env.TZ;
			else process.env.TZ = tz;
		});

		it.each(['Pacific/Kiritimati', 'Etc/GMT+12', 'America/St_Johns', 'Asia/Kathmandu'])(
			'keeps the calendar day in %s (no shift to the day before or after)',
			(name) => {
				process.env.TZ = name;
				Settings.defaultZone = name;
				expect(releaseDateToIso({ year: 2024, month: 1, day: 1 })).toBe('2024-01-01');
				expect(releaseDateToIso({ year: 2024, month: 12, day: 31 })).toBe('2024-12-31');
				expect(releaseDateToIso({ year: 2024, month: 3, day: 31 })).toBe('2024-03-31');
			},
		);
	});
});
