/**
 * Map Each Field Below with `{{ $json.field }}` (shapes/fieldExpressions.ts): the batch operations
 * read such a field from the item instead of asking n8n to evaluate it. Checked against n8n's own
 * evaluation through real runs against the emulator: the same items mapped with
 * `{{ ($json["field"]) }}` (which n8n evaluates) give the same requests, outputs and errors, for
 * values of every JSON type. (What it saves is measured by `npm run bench -- stockUpdate`.)
 */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SEEDED_WAREHOUSES } from '../emulator';
import { startFixture, workflowWithItems, type Fixture } from './fixture';

const NODE = 'Seller Platform';
const DXB = SEEDED_WAREHOUSES.dubai;

/** Stock → Update and Price → Update mapped from `Partner SKU`, `wh`, `qty`, `price`, `active`, `time`. */
const mapped = (field: (name: string) => string): INodeParameters[] => [
	{
		resource: 'stock',
		operation: 'update',
		warehouseCode: { __rl: true, mode: 'id', value: `={{ ${field('wh')} }}` },
		partnerSku: `={{ ${field('Partner SKU')} }}`,
		quantity: `={{ ${field('qty')} }}`,
		processingTime: `={{ ${field('time')} }}`,
	},
	{
		resource: 'price',
		operation: 'update',
		partnerSku: `={{ ${field('Partner SKU')} }}`,
		countryCode: 'ae',
		price: `={{ ${field('price')} }}`,
		isActive: `={{ ${field('active')} }}`,
	},
];
/** Read from the item: `$json.name` (`$json["name"]` where the name is not a plain word), and `$json['name']`. */
const DIRECT = [
	...mapped((name) => (/^\w+$/.test(name) ? `$json.${name}` : `$json["${name}"]`)),
	...mapped((name) => `$json['${name}']`),
];
/** The same fields as n8n evaluates them (in brackets: not a bare field). */
const EVALUATED = [
	...mapped((name) => `($json["${name}"])`),
	...mapped((name) => `($json["${name}"])`),
];

let f: Fixture;
beforeAll(async () => {
	f = await startFixture({ ratePlan: null });
});
afterAll(async () => await f.close());

/** The rows the emulator received, the outputs and the node's error of one run. */
async function runOnce(items: IDataObject[], parameters: INodeParameters) {
	f.emulator.clearRequests();
	const result = await f.env.runWorkflow(
		workflowWithItems(items, parameters, { continueOnFail: true }),
	);

	return {
		status: result.status,
		error: result.nodeError(NODE)?.message,
		sent: f.emulator
			.requests()
			.filter((entry) => entry.operation !== 'Login')
			.map((entry) => entry.body),
		outputs: result.status === 'success' ? result.outputs(NODE) : [],
	};
}

describe('Map Each Field Below with {{ $json.field }}', () => {
	it('property: reads every JSON value exactly as n8n’s evaluation of the same field does (requests, outputs, errors)', async () => {
		// Every JSON type: text (tricky and random), numbers (whole, fractions, huge), true/false,
		// null, objects and lists.
		const value = fc.oneof(
			fc.constantFrom('', ' 12 ', '12', '1e3', '0x10', 'true', 'False', DXB, -0, 2 ** 53 + 2, 1e21),
			fc.string({ maxLength: 8 }),
			fc.integer({ min: -5, max: 100_000 }),
			fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
			fc.boolean(),
			fc.constant(null),
			fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
			fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 3 })), { maxLength: 2 }),
		);
		const item = fc.record(
			{
				wh: fc.oneof(fc.constant(DXB), value),
				'Partner SKU': fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), value),
				qty: value,
				time: value,
				price: value,
				active: value,
			},
			{ requiredKeys: [] },
		);
		await fc.assert(
			fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 8 }), async (items) => {
				for (let i = 0; i < DIRECT.length; i++) {
					const direct = await runOnce(items, DIRECT[i]);
					const evaluated = await runOnce(items, EVALUATED[i]);
					expect(direct).toEqual(evaluated);
				}
			}),
			{ numRuns: 20, seed: 2026 },
		);
	}, 180_000);

	it('a field n8n refuses to read (`$json.caller`, `$json["the constructor"]`) is left to n8n, as is a quoted name with a line break', async () => {
		const items = [{ caller: 'SKU-1', 'the constructor': 'SKU-2', 'a\nb': 'SKU-3', price: 1 }];
		for (const name of ['caller', 'the constructor', 'a\nb']) {
			const direct = JSON.stringify(name).slice(1, -1);
			const parameters = (expression: string): INodeParameters => ({
				...DIRECT[1],
				partnerSku: `={{ ${expression} }}`,
			});
			const read = await runOnce(
				items,
				parameters(/^\w+$/.test(name) ? `$json.${name}` : `$json["${direct}"]`),
			);
			const evaluated = await runOnce(items, parameters(`($json["${direct}"])`));
			expect([name, read]).toEqual([name, evaluated]);
		}
	});
});
