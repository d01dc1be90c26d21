/**
 * Shared set-up of the integration tests: a real emulator on loopback and an in-process n8n
 * (n8n-core) with our node and credential, wired together with a ready credential.
 */
import { credentialFields, startEmulator, type Emulator, type EmulatorOptions } from '../emulator';
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import {
	chain,
	checkEveryRun,
	createTestEnvironment,
	TEST_TOOL_CALLER_NODE_TYPE,
	type TestEnvironment,
	type TestNode,
	type TestWorkflow,
} from '../helpers';
import { checkOutputSchemas } from '../helpers/outputSchemas';

// Every output item of a Seller Platform node in an execution of a test importing this file must
// match the output schema of its operation (nodes/SellerPlatform/__schema__), or the run fails.
checkEveryRun(checkOutputSchemas);

export const CREDENTIAL_ID = 'cred-1';

export interface Fixture {
	emulator: Emulator;
	env: TestEnvironment;
	close(): Promise<void>;
}

export async function startFixture(
	options: EmulatorOptions = {},
	credentialOverrides: ICredentialDataDecryptedObject = {},
): Promise<Fixture> {
	const emulator = await startEmulator(options);
	const env = createTestEnvironment();
	env.addCredential(
		CREDENTIAL_ID,
		'sellerPlatformApi',
		credentialFields(emulator, credentialOverrides),
	);
	return { emulator, env, close: async () => await emulator.close() };
}

/** Items → Seller Platform node, the usual two-node workflow of these tests. */
export function workflowWithItems(
	items: object[],
	parameters: INodeParameters,
	nodeSettings: Partial<TestNode> = {},
): TestWorkflow {
	return {
		nodes: [
			{ name: 'Items', type: 'testItems', parameters: { items: JSON.stringify(items) } },
			{
				name: 'Seller Platform',
				type: 'sellerPlatform',
				parameters,
				credentials: { sellerPlatformApi: CREDENTIAL_ID },
				...nodeSettings,
			},
		],
		connections: chain('Items', 'Seller Platform'),
	};
}

/** Items asking for purchase orders PO-BULK-<start>... (the emulator serves any such number). */
export function bulkPoItems(count: number, start = 1) {
	return Array.from({ length: count }, (_, i) => ({ po: `PO-BULK-${start + i}` }));
}

export const GET_PO: INodeParameters = {
	resource: 'purchaseOrder',
	operation: 'get',
	poNr: '={{ $json.po }}',
};

/** The login tokens and the session cookie values sent to `emulator` so far (secrets to look for). */
export function sentSecrets(emulator: Emulator): { tokens: string[]; cookies: string[] } {
	const requests = emulator.requests();
	const tokens = requests.flatMap((r) =>
		r.operation === 'Login' ? [String((r.body as { token?: string }).token)] : [],
	);
	const cookies = requests.flatMap((r) =>
		String(r.headers.cookie ?? '')
			.split(/; */)
			.map((pair) => pair.split('=')[1] ?? ''),
	);
	return { tokens, cookies };
}

/** What a tool call through the Tool Caller gave: a result, or the error's message. */
export interface ToolAnswer {
	tool: string;
	result?: string;
	error?: string;
}

/**
 * Tool Caller ← the Seller Platform tool named `name` with `parameters` (test/helpers/tools.ts):
 * `offered` is what the model is offered (name, description, schema), `answers` one per call of
 * `calls` (the model's arguments).
 */
export async function callTool(
	f: Fixture,
	name: string,
	parameters: INodeParameters,
	calls: IDataObject[] = [],
) {
	const tool: TestNode = {
		name,
		type: 'sellerPlatformTool',
		typeVersion: 1.1,
		parameters,
		credentials: { sellerPlatformApi: CREDENTIAL_ID },
	};
	const caller = {
		name: 'Tool Caller',
		type: TEST_TOOL_CALLER_NODE_TYPE,
		parameters: { calls: JSON.stringify(calls) },
	};
	const result = await f.env.runWorkflow(
		{
			nodes: [caller, tool],
			connections: { [name]: { ai_tool: [[{ node: caller.name, type: 'ai_tool', index: 0 }]] } },
		},
		{ startNode: caller.name },
	);
	expect(result.error?.message).toBeUndefined();
	const [offered, ...answers] = result.json(caller.name);
	return { offered, answers: answers as unknown as ToolAnswer[] };
}
