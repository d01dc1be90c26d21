/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * purchaseOrder/releaseDate.ts: releaseDateToIso, the spec's date object (year, month, day) of a
 * purchase order as the ISO date the node adds to its output (po_release_date_iso).
 */
import fc from 'fast-check';
import { DateTime, Settings } from 'luxon';

import {
	readReleaseDate,
	releaseDateToIso,
} from '../../dist/nodes/SellerPlatform/actions/purchaseOrder/releaseDate';

/** Any value a part of the date may have: every JSON type, and numbers JSON cannot write. */
const anyPart = fc.oneof(
	fc.jsonValue(),
	fc.integer({ min: -40, max: 10_050 }),
	fc.stringMatching(/^\s?[+-]?\d{1,5}\s?$/),
	fc.double(),
	fc.constantFrom(
		undefined,
		null,
		NaN,
		Infinity,
		-Infinity,
		-0,
		1e20,
		2 ** 53,
		true,
		false,
		{},
		[],
	),
);

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

	it.each([
		['a year "x"', { year: 'x', month: 3, day: 15 }],
		['a month true', { year: 2024, month: true, day: 15 }],
		['a day {}', { year: 2024, month: 3, day: {} }],
		['a day [15]', { year: 2024, month: 3, day: [15] }],
		['a month NaN', { year: 2024, month: NaN, day: 15 }],
		['a year Infinity', { year: Infinity, month: 1, day: 1 }],
		['a year 1e20', { year: 1e20, month: 1, day: 1 }],
		['a year 10000', { year: 10_000, month: 1, day: 1 }],
		['a day "15th"', { year: 2024, month: 3, day: '15th' }],
		['a text', '2024-03-15'],
		['an array', [2024, 3, 15]],
	])('gives null, never throws, and says it could not be read, for %s', (_, date) => {
		expect(releaseDateToIso(date)).toBeNull();
		expect(readReleaseDate(date)).toEqual({ iso: null, unreadable: true });
	});

	it.each([
		['no date', undefined],
		['null', null],
		['all zeros', { year: 0, month: 0, day: 0 }],
		['parts left out (proto3 zeros)', { year: 2024 }],
		['a part null', { year: 2024, month: null, day: 1 }],
	])('%s is a date not set, not an unreadable one', (_, date) => {
		expect(readReleaseDate(date)).toEqual({ iso: null, unreadable: false });
	});

	it('never throws for any JSON value (or odd number) in any part, and gives only real dates', () => {
		fc.assert(
			fc.property(
				fc.record({ year: anyPart, month: anyPart, day: anyPart }, { requiredKeys: [] }),
				(date) => {
					const iso = releaseDateToIso(date);
					if (iso === null) return;
					// A date only from whole numbers (or texts of digits) that make that very day.
					const parsed = DateTime.fromISO(iso, { zone: 'utc' });
					expect(parsed.isValid).toBe(true);
					expect([parsed.year, parsed.month, parsed.day]).toEqual(
						[date.year, date.month, date.day].map(Number),
					);
				},
			),
			{ seed: 26, numRuns: 5000 },
		);
	});

	it('reads every part the same, whatever JSON type the others have', () => {
		fc.assert(
			fc.property(anyPart, fc.constantFrom('year', 'month', 'day'), (odd, part) => {
				const date: Record<string, unknown> = { year: 2024, month: 3, day: 15, [part]: odd };
				const read = readReleaseDate(date);
				expect(
					read.iso === null || read.iso.startsWith('2024-03-') || read.iso.endsWith('-15'),
				).toBe(true);
				// 15 March exists in every year and the 15th in every month: null is a 0 or unreadable.
				const zero =
					odd == null || odd === 0 || (typeof odd === 'string' && /^\s*[+-]?0+\s*$/.test(odd));
				expect(read.unreadable).toBe(read.iso === null && !zero);
			}),
			{ seed: 26, numRuns: 3000 },
		);
	});

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
