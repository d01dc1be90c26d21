/**
 * Execution hints: what n8n shows in the output panel after a run (`taskData.hints`, saved with
 * the execution). One sentence per fact, with its numbers; none when nothing happened. Real runs
 * through n8n-core against the emulator.
 */
import type { INodeParameters, NodeExecutionHint } from 'n8n-workflow';

import { SEEDED_API_USER, SEEDED_EXPORTS } from '../emulator';
import type { WorkflowResult } from '../helpers';
import { bulkPoItems, GET_PO, startFixture, workflowWithItems, type Fixture } from './fixture';

let f: Fixture;
beforeEach(async () => {
	f = await startFixture({ ratePlan: null, importStepMs: 20, exportStepMs: 20 });
});
afterEach(async () => await f.close());

const hintsOf = (result: WorkflowResult): NodeExecutionHint[] =>
	result.run.data.resultData.runData['Seller Platform'][0].hints ?? [];

async function run(items: object[], parameters: INodeParameters, continueOnFail = false) {
	return await f.env.runWorkflow(workflowWithItems(items, parameters, { continueOnFail }));
}

describe('execution hints', () => {
	it('a plain run with a stored session shows none', async () => {
		await run(bulkPoItems(1), GET_PO); // logs in: the session is stored
		const result = await run(bulkPoItems(3, 10), GET_PO);
		expect(result.status).toBe('success');
		expect(hintsOf(result)).toEqual([]);
	});

	it('says how often the credential logged in during the run', async () => {
		const result = await run(bulkPoItems(2), GET_PO);
		expect(hintsOf(result)).toEqual([
			{
				type: 'info',
				location: 'outputPane',
				message: 'The credential logged in 1 time during this run',
			},
		]);
	});

	it('says how many 429 answers the run met and how long it waited for them', async () => {
		await run(bulkPoItems(1), GET_PO);
		f.emulator.injectFaults({
			count: 3,
			status: 429,
			retryAfter: 0,
			operation: 'GetPurchaseOrder',
		});
		// One item (two before the pacing took the whole window): the three 429s are its own; a second item would only wait
		// for the limiter's pace after them.
		const result = await run(bulkPoItems(1, 20), GET_PO);
		expect(result.status).toBe('success');
		const [throttled, ...others] = hintsOf(result);
		expect(throttled.type).toBe('info');
		expect(throttled.message).toMatch(
			/^The Seller Platform API answered 3 429s \(too many requests\); the run waited \d+(\.\d)? s in all and repeated the requests$/,
		);
		// One episode is a hiccup, not others sharing the plan: no word about sharing.
		expect(others).toEqual([]);
	});

	it('says the run was paced below the plan, with the share, when throttling episodes recur', async () => {
		await run(bulkPoItems(1), GET_PO);
		const fault = { count: 1, status: 429, retryAfter: 0, operation: 'GetPurchaseOrder' };
		f.emulator.injectFaults(fault);
		expect(hintsOf(await run(bulkPoItems(1, 30), GET_PO))).toHaveLength(1);
		// A second episode right after the first: others use the plan.
		f.emulator.injectFaults(fault);
		const result = await run(bulkPoItems(1, 40), GET_PO);
		expect(result.status).toBe('success');
		expect(hintsOf(result).map((hint) => hint.message)).toEqual([
			expect.stringMatching(/^The Seller Platform API answered 1 429 \(too many requests\)/),
			expect.stringMatching(
				/^The run was paced at down to \d+ % of the rate plan, as others \(other n8n processes or integrations\) use the same plan$/,
			),
		]);
	});

	it('counts failed items with "continue on fail" and gives the first error', async () => {
		await run(bulkPoItems(1), GET_PO);
		const result = await run(
			[{ po: 'PO-BULK-7' }, { po: 'PO-NOPE-1' }, { po: 'PO-NOPE-2' }],
			GET_PO,
			true,
		);
		const [failed] = hintsOf(result);
		expect(failed.type).toBe('warning');
		expect(failed.message).toBe(
			`2 items of 3 failed and are in the output as error items; the first: ${String(result.json('Seller Platform')[1].error)}`,
		);
	});

	it('names what was created before the first failure', async () => {
		await run(bulkPoItems(1), GET_PO);
		const result = await run(
			[{ user: SEEDED_API_USER.userCode }, { user: 'NO-SUCH-USER' }],
			{ resource: 'apiCredential', operation: 'create', userCode: '={{ $json.user }}' },
			true,
		);
		const keyId = String(
			(result.json('Seller Platform')[0].credential as { key_id: string }).key_id,
		);
		const messages = hintsOf(result).map((hint) => hint.message);
		expect(messages).toContainEqual(expect.stringMatching(/^1 item of 2 failed/));
		expect(messages).toContainEqual(
			expect.stringMatching(
				new RegExp(
					`^1 object was created before the first failure, and is in the output: .*${keyId}`,
				),
			),
		);
		expect(JSON.stringify(hintsOf(result))).not.toContain('PRIVATE KEY');
	});

	it('says when a wait ended at its timeout', async () => {
		await run(bulkPoItems(1), GET_PO);
		const result = await run([{}], {
			resource: 'export',
			operation: 'getStatus',
			exportCode: SEEDED_EXPORTS.pending,
			options: { waitForCompletion: true, pollIntervalSeconds: 0.2, timeoutSeconds: 0.5 },
		});
		expect(hintsOf(result)).toEqual([
			expect.objectContaining({
				type: 'warning',
				message: expect.stringMatching(
					/^The wait for completion ended at its timeout for 1 item \(waitTimedOut: true\)/,
				),
			}),
		]);
	});

	it('says when an import was found instead of created', async () => {
		await run(bulkPoItems(1), GET_PO);
		const parameters = {
			resource: 'import',
			operation: 'createBarcode',
			source: 'bqTable',
			bqTable: 'p.d.hints',
			clientReference: 'hints-found-1',
		};
		expect(hintsOf(await run([{}], parameters))).toEqual([]);
		const again = await run([{}], parameters);
		expect(again.json('Seller Platform')[0].alreadyExisted).toBe(true);
		expect(hintsOf(again)).toEqual([
			expect.objectContaining({
				type: 'info',
				message:
					'1 import was found instead of created (alreadyExisted: true): the same request (same source, settings and mappings) was accepted under its client reference before',
			}),
		]);
	});
});
