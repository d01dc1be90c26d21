/**
 * Secrets the service echoes never reach what the user sees (the error's message and description,
 * the item "continue on fail" makes, the logs): whatever field of the answer carries them,
 * however they are encoded, wherever the node's cut of a long text falls.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { EchoSpec } from '../emulator';
import { encodeEcho } from '../emulator/echo';
import { bulkPoItems, GET_PO, startFixture, workflowWithItems, type Fixture } from './fixture';

let f: Fixture;
afterEach(async () => await f?.close());

/** Longest text of a secret the user may see: a few characters identify nothing. */
const HARMLESS_RUN = 5;

/** Every run of more than HARMLESS_RUN characters of `secret` that `text` contains. */
function runsOf(secret: string, text: string): string[] {
	const found = new Set<string>();
	for (let start = 0; start + HARMLESS_RUN < secret.length; start++) {
		const run = secret.slice(start, start + HARMLESS_RUN + 1);
		if (text.includes(run)) found.add(run);
	}
	return [...found];
}

const sessionValues = () =>
	String(f.env.credentialData('cred-1').sessionCookie)
		.split('; ')
		.map((pair) => pair.slice(pair.indexOf('=') + 1));

/** What the user sees of a failed item: its error item, and what the logs say. */
function seen(result: { outputs(node: string): Array<{ json: IDataObject }> }): string {
	const [item] = result.outputs('Seller Platform');
	expect(typeof item.json.error).toBe('string');
	return JSON.stringify(item.json) + JSON.stringify(f.env.logger.entries);
}

function expectNothingOf(secrets: string[], text: string, encoding?: EchoSpec['encoding']) {
	for (const secret of secrets) {
		expect(runsOf(secret, text)).toEqual([]);
		expect(runsOf(encodeEcho(secret, encoding), text)).toEqual([]);
	}
}

/** Logs in with a first run, then makes the next GetPurchaseOrder answer with `echo`. */
async function echoOnGetPo(echo: EchoSpec, continueOnFail = true) {
	f = await startFixture({ ratePlan: null });
	await f.env.runWorkflow(workflowWithItems(bulkPoItems(1), GET_PO));
	f.emulator.injectFaults({ count: 1, status: 400, echo, operation: 'GetPurchaseOrder' });
	return await f.env.runWorkflow(workflowWithItems(bulkPoItems(1), GET_PO, { continueOnFail }));
}

describe('a secret across the cut of a long error text', () => {
	it.each(['text', 'message'] as const)(
		'keeps nothing of the session cookie that starts 10 characters before the 1,000-character cut (%s)',
		async (field) => {
			const result = await echoOnGetPo({ field, at: 990 });
			const [item] = result.outputs('Seller Platform');
			// Redacted first, then cut: the cut falls inside the mask, not inside the secret.
			expect(item.json.error).toHaveLength(1000);
			expect(String(item.json.error).endsWith('<redacted>')).toBe(true);
			expectNothingOf(sessionValues(), seen(result));
		},
	);

	it('keeps nothing of it in the error that stops the run (message and description)', async () => {
		const result = await echoOnGetPo({ field: 'text', at: 990 }, false);
		const error = result.nodeError('Seller Platform') as Error & { description?: string };
		expect(error.message.startsWith('injected fault: HTTP 400; request carried')).toBe(true);
		expectNothingOf(
			sessionValues(),
			JSON.stringify(error) + error.message + String(error.description),
		);
	});

	it.each(['text', 'status_code'] as const)(
		"keeps nothing of the login token's signature the login answer echoes (%s)",
		async (field) => {
			f = await startFixture({ ratePlan: null });
			await f.env.runWorkflow(workflowWithItems(bulkPoItems(1), GET_PO));
			const token = (
				f.emulator.requests().find((r) => r.operation === 'Login')!.body as { token: string }
			).token;
			const signature = token.split('.')[2];
			f.emulator.expireSessions();
			// The cut at 1,000 would fall 100 characters before the end of the signature.
			const at = field === 'text' ? 1000 - (token.length - 100) : undefined;
			f.emulator.injectFaults({ count: 1, status: 401, echo: { field, at }, operation: 'Login' });
			const result = await f.env.runWorkflow(
				workflowWithItems(bulkPoItems(1), GET_PO, { continueOnFail: true }),
			);
			const text = seen(result);
			expect(text).toContain('<jwt>');
			expect(runsOf(signature, text)).toEqual([]);
		},
	);
});

describe('a secret in any field of the error answer, in any encoding', () => {
	it.each<[EchoSpec['field'], EchoSpec['encoding']]>([
		['status_code', 'raw'],
		['message', 'hex'],
		['message', 'base64'],
		['status_code', 'base64url'],
		['details', 'base64'],
	])('never shows the session cookie echoed in %s as %s', async (field, encoding) => {
		const result = await echoOnGetPo({ field, encoding });
		const text = seen(result);
		expect(text).toContain('<redacted>');
		expectNothingOf(sessionValues(), text, encoding);
	});

	it.each<EchoSpec['encoding']>(['url', 'hex', 'base64'])(
		'never shows a destination header value with spaces, = and + echoed as %s',
		async (encoding) => {
			f = await startFixture({ ratePlan: null });
			const secret = 'open sesame=42+key';
			const parameters: INodeParameters = {
				resource: 'destination',
				operation: 'update',
				destinationCode: 'DST-1001',
				updateFields: { headers: { header: [{ name: 'X-Key', value: secret }] } },
			};
			f.emulator.injectFaults({
				count: 1,
				status: 400,
				echo: { encoding },
				operation: 'UpdateDestination',
			});
			const result = await f.env.runWorkflow(
				workflowWithItems([{}], parameters, { continueOnFail: true }),
			);
			const text = seen(result);
			expect(text).toContain('<redacted>');
			expectNothingOf([secret], text, encoding);
			if (encoding === 'url') expect(text).not.toContain('sesame%3D42%2Bkey');
		},
	);
});

describe('a secret the service echoes in a successful answer', () => {
	it('Destination → Update masks the header values it sent, as Event Webhook → Create does', async () => {
		f = await startFixture({ ratePlan: null });
		const echoedValue = 'hook-secret-7c1d9e2f';
		f.emulator.injectFaults({
			count: 1,
			operation: 'UpdateDestination',
			answer: { set: { credentials: { 'X-Key': echoedValue } } },
		});
		const result = await f.env.runWorkflow(
			workflowWithItems([{}], {
				resource: 'destination',
				operation: 'update',
				destinationCode: 'DST-1001',
				updateFields: { headers: { header: [{ name: 'X-Key', value: echoedValue }] } },
			}),
		);
		const [item] = result.outputs('Seller Platform');
		expect(item.json.credentials).toEqual({ 'X-Key': '<redacted>' });
		expect(JSON.stringify(result.run)).not.toContain(echoedValue);
		expectNothingOf(
			[echoedValue],
			JSON.stringify(item.json) + JSON.stringify(f.env.logger.entries),
		);
	});
});
