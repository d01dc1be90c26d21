/**
 * The trigger's memory of deliveries (deliveries.ts `firstDelivery`, `recentDeliveries`,
 * `pendingRecords`): its bounds, and how it merges the keys saved in static data. The integration
 * tests (test/integration/triggerState.test.ts) run the same code through n8n's webhook calls.
 */
import {
	firstDelivery,
	forgetDeliveries,
	MAX_PENDING_RECORDS,
	MAX_REMEMBERED_REGISTRATIONS,
	pendingRecords,
	recentDeliveries,
} from '../../dist/nodes/SellerPlatformTrigger/deliveries';
import {
	MAX_REMEMBERED_DELIVERIES,
	type Registration,
} from '../../dist/nodes/SellerPlatformTrigger/record';

/** A registration record as n8n hands one to a delivery: read from the database, `seen` as saved. */
const record = (seen: string[] = []): Registration => ({
	destinationCode: 'DST-1',
	webhookUrl: 'https://n8n.example.com/webhook/w/webhook',
	events: ['FBPI::ORDER_SYNC'],
	secret: 's',
	seen,
});

afterEach(() => {
	recentDeliveries.clear();
	pendingRecords.clear();
});

describe('firstDelivery', () => {
	it('keeps at most MAX_REMEMBERED_REGISTRATIONS registrations, dropping the one used least recently', () => {
		const total = MAX_REMEMBERED_REGISTRATIONS + 50;
		for (let i = 0; i < total; i++) expect(firstDelivery(`reg-${i}`, 'id:1', record())).toBe(true);
		firstDelivery('reg-60', 'id:2', record()); // used again: now the most recent
		firstDelivery('reg-new', 'id:1', record());
		expect(recentDeliveries.size).toBe(MAX_REMEMBERED_REGISTRATIONS);
		expect(pendingRecords.size).toBe(MAX_REMEMBERED_REGISTRATIONS);
		expect(recentDeliveries.has('reg-60')).toBe(true);
		expect(recentDeliveries.has('reg-new')).toBe(true);
		expect(recentDeliveries.has(`reg-${total - 1}`)).toBe(true);
		// reg-0 … reg-49 went as reg-100 … reg-149 came; reg-50, the least recent then, for reg-new.
		expect(recentDeliveries.has('reg-0')).toBe(false);
		expect(recentDeliveries.has('reg-50')).toBe(false);
		expect(pendingRecords.has('reg-50')).toBe(false);
		expect(recentDeliveries.has('reg-51')).toBe(true);
	});

	it('keeps the newest keys, one list shared by the latest MAX_PENDING_RECORDS records', () => {
		const records = Array.from({ length: MAX_REMEMBERED_DELIVERIES + 100 }, (_, i) => {
			const r = record();
			expect(firstDelivery('reg', `id:${i}`, r)).toBe(true);
			return r;
		});
		const pending = pendingRecords.get('reg')!;
		expect(pending).toEqual(records.slice(-MAX_PENDING_RECORDS));
		expect(new Set(pending.map((r) => r.seen)).size).toBe(1);
		expect(pending[0].seen).toBe(recentDeliveries.get('reg')!.list);
		expect(pending[0].seen).toHaveLength(MAX_REMEMBERED_DELIVERIES);
		expect(pending[0].seen![0]).toBe('id:100');
		expect(recentDeliveries.get('reg')!.keys.size).toBe(MAX_REMEMBERED_DELIVERIES);
		expect(firstDelivery('reg', 'id:100', record())).toBe(false);
		expect(firstDelivery('reg', 'id:99', record())).toBe(true); // forgotten: beyond the bound
	});

	it('takes the saved keys it does not know as older than its own, as many as there is room for', () => {
		const own = MAX_REMEMBERED_DELIVERIES - 11;
		for (let i = 0; i < own; i++) firstDelivery('reg', `id:own-${i}`, record());
		const saved = ['id:other-1', 'id:other-2', 'id:own-5', 'id:other-3', 'id:other-2'];
		const fromDatabase = record([...Array.from({ length: 20 }, (_, i) => `id:x-${i}`), ...saved]);
		expect(firstDelivery('reg', 'id:new', fromDatabase)).toBe(true);
		const list = recentDeliveries.get('reg')!.list;
		expect(list).toHaveLength(MAX_REMEMBERED_DELIVERIES);
		// 11 places were free: the newest 11 unknown saved keys (each once) went in before its own,
		// then the new key took the place of the oldest of them.
		expect(list.slice(0, 12)).toEqual([
			...[13, 14, 15, 16, 17, 18, 19].map((i) => `id:x-${i}`),
			'id:other-1',
			'id:other-2',
			'id:other-3',
			'id:own-0',
			'id:own-1',
		]);
		expect(list[list.length - 1]).toBe('id:new');
		expect(fromDatabase.seen).toBe(list);
	});

	it('finds a key saved only in static data (another process received it), even when its memory is full', () => {
		for (let i = 0; i < MAX_REMEMBERED_DELIVERIES; i++) firstDelivery('reg', `id:${i}`, record());
		expect(firstDelivery('reg', 'id:elsewhere', record(['id:elsewhere']))).toBe(false);
	});

	it('forgets a registration with its pending records', () => {
		firstDelivery('reg', 'id:1', record());
		firstDelivery('other', 'id:1', record());
		forgetDeliveries('reg');
		expect([...recentDeliveries.keys()]).toEqual(['other']);
		expect([...pendingRecords.keys()]).toEqual(['other']);
		expect(firstDelivery('reg', 'id:1', record())).toBe(true);
	});
});
