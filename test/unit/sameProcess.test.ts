/**
 * The poll trigger's memory of what its polls emitted in this process (sameProcess.ts): random
 * sequences of polls of a few nodes and streams, time passing, against a simple model; then its
 * bounds. The monotonic clock is `performance.now()`, moved by hand.
 */
import fc from 'fast-check';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import {
	alone,
	markRepeats,
	MAX_RECENT_ORDERS,
	RECENT_MS,
} from '../../dist/nodes/SellerPlatformPollTrigger/sameProcess';

let now = 0;
let run = 0;
beforeEach(() => {
	jest.spyOn(performance, 'now').mockImplementation(() => now);
	// Each test (and each fast-check run) its own workflow: the memory is the module's.
	run++;
});
afterEach(() => jest.restoreAllMocks());

const ctxOf = (workflow: string, node: string) =>
	({
		getWorkflow: () => ({ id: workflow, name: workflow, active: true }),
		getNode: () => ({ id: node, name: node }),
	}) as unknown as IPollFunctions;

/** Emits `keys` from a poll of `node`, `stream`; gives the keys that came marked. */
function emit(node: string, stream: string, keys: readonly string[]): string[] {
	const orders = keys.map((key) => ({ key, createdAt: 0, order: { key } as IDataObject }));
	markRepeats(ctxOf(`w${run}`, node), stream, orders);
	return orders.filter(({ order }) => order.possibleDuplicate === true).map(({ key }) => key);
}

describe('Seller Platform Poll Trigger: what its polls emitted in this process', () => {
	it('marks exactly the orders the same node emitted from the same stream within RECENT_MS (model)', () => {
		const step = fc.record({
			node: fc.constantFrom('a', 'b'),
			stream: fc.constantFrom('s1', 's2'),
			keys: fc.uniqueArray(fc.constantFrom('1', '2', '3', '4', '5'), { maxLength: 4 }),
			passMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2 * RECENT_MS })),
		});
		fc.assert(
			fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
				run++;
				const model = new Map<string, number>();
				for (const { node, stream, keys, passMs } of steps) {
					now += passMs;
					const expected = keys.filter((key) => {
						const at = model.get(`${node}/${stream}/${key}`);
						return at !== undefined && now - at <= RECENT_MS;
					});
					expect(emit(node, stream, keys)).toEqual(expected);
					for (const key of keys) model.set(`${node}/${stream}/${key}`, now);
				}
			}),
			{ seed: 20261129, numRuns: 200 },
		);
	});

	it(`keeps the ${MAX_RECENT_ORDERS} orders emitted last, across nodes (the oldest forgotten)`, () => {
		const keys = Array.from({ length: MAX_RECENT_ORDERS }, (_, i) => `k${i}`);
		emit('a', 's', ['mine']);
		emit('b', 's', keys.slice(1));
		// Many other nodes (other users' workflows) emitting meanwhile do not push it out...
		for (let i = 0; i < 500; i++) emit(`co-tenant-${i}`, 's', []);
		expect(emit('a', 's', ['mine'])).toEqual(['mine']);
		// ...only as many orders as the bound emitted after it.
		emit('b', 's', [...keys, 'one-more']);
		expect(emit('a', 's', ['mine'])).toEqual([]);
	});

	it('runs one poll of a node at a time within its poll budget: a second one meanwhile gives null without running', async () => {
		const ctx = ctxOf(`w${run}`, 'a');
		let release!: () => void;
		const first = alone(ctx, async () => {
			await new Promise<void>((resolve) => (release = resolve));
			return 'first';
		});
		let ran = false;
		const second = await alone(ctx, async () => {
			ran = true;
			return 'second';
		});
		// Another node of the same workflow is not held up.
		expect(await alone(ctxOf(`w${run}`, 'b'), async () => 'other')).toBe('other');
		release();
		expect([await first, second, ran]).toEqual(['first', null, false]);
		expect(await alone(ctx, async () => 'after')).toBe('after');
	});

	it("a poll past n8n's poll budget no longer holds the node (n8n has given up on it)", async () => {
		const ctx = { ...ctxOf(`w${run}`, 'a'), getPollBudgetMs: () => 36_000 } as IPollFunctions;
		let release!: () => void;
		const hung = alone(
			ctx,
			async () => await new Promise<string>((resolve) => (release = () => resolve('hung'))),
		);
		now += 35_999;
		expect(await alone(ctx, async () => 'too soon')).toBeNull();
		now += 1;
		let releaseNext!: () => void;
		const next = alone(
			ctx,
			async () => await new Promise<string>((resolve) => (releaseNext = () => resolve('next'))),
		);
		// The hung poll ending does not free the node the next one holds.
		release();
		expect(await hung).toBe('hung');
		expect(await alone(ctx, async () => 'third')).toBeNull();
		releaseNext();
		expect(await next).toBe('next');
	});

	it('a poll that fails lets the next one run', async () => {
		const ctx = ctxOf(`w${run}`, 'a');
		await expect(
			alone(ctx, async () => {
				throw new Error('listing failed');
			}),
		).rejects.toThrow('listing failed');
		expect(await alone(ctx, async () => 'next')).toBe('next');
	});
});
