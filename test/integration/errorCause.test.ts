/**
 * What n8n keeps on the error of a failed request it signed with this credential (a limit of n8n
 * 2.x the package cannot lift; docs/credential.md, "The session on n8n's own errors").
 *
 * The credential's `authenticate` adds the session as a `Cookie` header; n8n's HTTP client
 * (@n8n/backend-network) copies the request's headers into the error it throws (the legacy
 * `requestWithAuthentication`: `cause.options.headers`; `httpRequestWithAuthentication`: axios's
 * `cause.config.headers`), and n8n-core wraps that error, as its `cause`, in the `NodeApiError` the
 * node gets. n8n's HTTP Request node with "On Error: Continue" puts that error itself into the
 * item (`json: { error }`, as the test node here does), so an expression in a later node of the
 * same execution reads the session; what n8n saves of the error (`toJSON`) keeps only the cause's
 * name and message. The Seller Platform node's own errors hold no request at all.
 *
 * When n8n stops keeping the headers, these tests fail: then say so in docs/credential.md.
 */
import { credentialFields, SEEDED_PO, startEmulator, type Emulator } from '../emulator';
import { chain, createTestEnvironment, type TestEnvironment } from '../helpers';

const NODE = 'HTTP Request';
const READ = 'Read';
/** An order the gateway does not know: 404. */
const MISSING_PO_PATH = '/fbpo/v1/po/PO-NO-SUCH-ORDER/get';

let emulator: Emulator;
let env: TestEnvironment;

beforeEach(async () => {
	emulator = await startEmulator();
	env = createTestEnvironment();
	env.addCredential('cred-1', 'sellerPlatformApi', credentialFields(emulator));
});
afterEach(async () => await emulator.close());

/** The session the gateway got with the last purchase-order request. */
const lastCookieSent = () =>
	emulator
		.requests()
		.filter((r) => r.operation === 'GetPurchaseOrder')
		.map((r) => r.headers.cookie)
		.at(-1);

/** Items → `node` (On Error: Continue) → Read, whose `value` is the expression `read`. */
const continuedRun = async (node: Record<string, unknown>, read: string) =>
	await env.runWorkflow({
		nodes: [
			{ name: 'Items', type: 'testItems', parameters: { items: '[{}]' } },
			{
				name: NODE,
				onError: 'continueRegularOutput',
				credentials: { sellerPlatformApi: 'cred-1' },
				...node,
			} as never,
			{ name: READ, type: 'testSet', parameters: { value: `={{ ${read} }}` } },
		],
		connections: chain('Items', NODE, READ),
	});

describe.each([
	['requestWithAuthentication', 'options'],
	['httpRequestWithAuthentication', 'config'],
])('a failed request through n8n-core %s', (helper, field) => {
	it(`keeps the session on its cause (cause.${field}.headers.Cookie): an expression in the next node reads it; n8n saves none of it`, async () => {
		const result = await continuedRun(
			{
				type: 'testHttpRequest',
				parameters: { url: `${emulator.baseUrl}${MISSING_PO_PATH}`, helper },
			},
			`$json.error.cause.${field}.headers.Cookie`,
		);

		const [failed] = result.json(NODE);
		expect((failed.error as Error).message).toBe(
			'The resource you are requesting could not be found',
		);
		const session = env.credentialData('cred-1').sessionCookie as string;
		expect(session).toMatch(/_npsid=/);
		// The session the gateway got, which is the credential's current one, is what the
		// expression read.
		expect(lastCookieSent()).toBe(session);
		expect(result.json(READ)).toEqual([{ value: session }]);
		// ... and a working session, also outside n8n.
		const outside = await fetch(`${emulator.baseUrl}/fbpo/v1/po/${SEEDED_PO.released}/get`, {
			headers: { cookie: session, 'user-agent': 'curl/8' },
		});
		expect(outside.status).toBe(200);

		// What n8n saves of the node's run (toJSON): the cause's name and message, no request.
		const saved = JSON.stringify(result.run.data.resultData.runData[NODE]);
		expect(saved).not.toContain(session);
		expect(JSON.parse(saved)[0].data.main[0][0].json.error.cause).toEqual({
			name: 'AxiosError',
			message: expect.any(String),
		});
	});

	it('with On Error: Stop Workflow (the default), the execution holds no session', async () => {
		const result = await env.runWorkflow({
			nodes: [
				{ name: 'Items', type: 'testItems', parameters: { items: '[{}]' } },
				{
					name: NODE,
					type: 'testHttpRequest',
					parameters: { url: `${emulator.baseUrl}${MISSING_PO_PATH}`, helper },
					credentials: { sellerPlatformApi: 'cred-1' },
				},
			],
			connections: chain('Items', NODE),
		});
		expect(result.nodeError(NODE)?.message).toBe(
			'The resource you are requesting could not be found',
		);
		const session = env.credentialData('cred-1').sessionCookie as string;
		expect(lastCookieSent()).toBe(session);
		expect(JSON.stringify(result.run)).not.toContain(session);
	});
});

it("the Seller Platform node's own error, on the same request, holds no session", async () => {
	const result = await continuedRun(
		{
			type: 'sellerPlatform',
			parameters: { resource: 'purchaseOrder', operation: 'get', poNr: 'PO-NO-SUCH-ORDER' },
		},
		'JSON.stringify([$json, $json.error?.cause ?? null])',
	);
	const session = env.credentialData('cred-1').sessionCookie as string;
	expect(lastCookieSent()).toBe(session);
	const [{ value }] = result.json(READ);
	expect(JSON.parse(value as string)).toEqual([
		{
			error: expect.stringContaining('PO-NO-SUCH-ORDER'),
			details: expect.objectContaining({ httpCode: '404' }),
		},
		null,
	]);
	expect(JSON.stringify(result.run)).not.toContain(session);
});
